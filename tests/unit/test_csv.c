/* test_csv.c - the CSV interchange parser: every field's limits and every way a line is bad. */
#include "check.h"
#include "llct/csv.h"

#include <string.h>
#include <unistd.h>

static int parse(const char *line, uint32_t *frame, struct llct_record *r)
{
	char why[200];
	return llct_csv_parse_line(line, strlen(line), 7, frame, r, why, sizeof(why));
}

static void test_good_lines(void)
{
	uint32_t f;
	struct llct_record r;
	CHECK_EQ(parse("3,0x1f40,TEX,R,7,12,0", &f, &r), LLCT_OK);
	CHECK_EQ(f, 3);
	CHECK_EQ(r.addr, 0x1f40);
	CHECK_EQ(r.stream, LLCT_STREAM_TEX);
	CHECK_EQ(r.op, LLCT_OP_READ);
	CHECK_EQ(r.sm, 7);
	CHECK_EQ(r.kernel, 12);
	CHECK_EQ(r.tenant, 0);
	CHECK_EQ(parse("4294967295,18446744073709551615,OTHER,W,65535,4294967295,65535", &f, &r),
		 LLCT_OK);
	CHECK_EQ(f, 4294967295u);
	CHECK(r.addr == UINT64_MAX);
	CHECK_EQ(r.stream, LLCT_STREAM_OTHER);
	CHECK_EQ(r.op, LLCT_OP_WRITE);
	CHECK_EQ(r.sm, 65535);
	CHECK(r.kernel == UINT32_MAX);
	CHECK_EQ(r.tenant, 65535);
	CHECK_EQ(parse("0,0xFFFFFFFFFFFFFFFF,DISP,W,0,0,0", &f, &r), LLCT_OK);
	CHECK(r.addr == UINT64_MAX);
	const char *names[] = {"VTX", "HIZ", "Z", "STC", "RT", "TEX", "DISP", "CS", "OTHER"};
	for (unsigned s = 0; s < 9; s++) {
		char line[64];
		snprintf(line, sizeof(line), "0,1,%s,R,0,0,0", names[s]);
		CHECK_EQ(parse(line, &f, &r), LLCT_OK);
		CHECK_EQ(r.stream, s);
	}
}

static void test_bad_lines(void)
{
	const char *bad[] = {
	    "",
	    "1,2,3",
	    "1,0x10,TEX,R,0,0,0,9",
	    "4294967296,0,TEX,R,0,0,0",
	    "-1,0,TEX,R,0,0,0",
	    "1,18446744073709551616,TEX,R,0,0,0",
	    "1,0x10000000000000000,TEX,R,0,0,0",
	    "1,0x,TEX,R,0,0,0",
	    "1,0xg,TEX,R,0,0,0",
	    "1, 5,TEX,R,0,0,0",
	    "1,5,tex,R,0,0,0",
	    "1,5,TEXT,R,0,0,0",
	    "1,5,TEX,r,0,0,0",
	    "1,5,TEX,RW,0,0,0",
	    "1,5,TEX,R,65536,0,0",
	    "1,5,TEX,R,0,4294967296,0",
	    "1,5,TEX,R,0,0,65536",
	    "1,5,TEX,R,0,0,",
	    "1,,TEX,R,0,0,0",
	    "1,5,TEX,R,0,0,0 ",
	};
	uint32_t f;
	struct llct_record r;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int st = parse(bad[i], &f, &r);
		if (st != LLCT_ERR_PARSE)
			fprintf(stderr, "accepted bad line '%s'\n", bad[i]);
		CHECK_EQ(st, LLCT_ERR_PARSE);
	}
}

/* Imports `text`; returns the status and leaves the message in err. */
static int import_text(const char *text, const char *path, char *err, size_t size)
{
	FILE *in = fmemopen((void *)text, strlen(text), "r");
	struct llct_writer *w;
	CHECK_EQ(llct_writer_open(path, NULL, &w, err, size), LLCT_OK);
	int st = llct_csv_import(in, "in.csv", w, err, size);
	llct_writer_close(w);
	fclose(in);
	return st;
}

static void test_import(void)
{
	char path[] = "/tmp/llct-test-csv-XXXXXX";
	char err[600];
	int fd = mkstemp(path);
	close(fd);
	CHECK_EQ(import_text(LLCT_CSV_HEADER "\n0,0x40,TEX,R,1,2,0\n0,0x80,RT,W,1,2,0\n"
					     "\n2,128,Z,R,0,3,0\r\n",
			     path, err, sizeof(err)),
		 LLCT_OK);
	struct llct_reader *r;
	CHECK_EQ(llct_reader_open(path, &r, err, sizeof(err)), LLCT_OK);
	const struct llct_frame_info *frames;
	size_t n;
	llct_reader_frames(r, &frames, &n);
	CHECK_EQ(n, 2);
	CHECK_EQ(frames[0].n_records, 2);
	CHECK_EQ(frames[1].frame, 2);
	llct_reader_close(r);

	CHECK_EQ(import_text(LLCT_CSV_HEADER "\n0,0x40,TEX,R,1,2,0\n0,0x80,XX,W,1,2,0\n", path, err,
			     sizeof(err)),
		 LLCT_ERR_PARSE);
	CHECK(strstr(err, "in.csv") != NULL);
	CHECK(strstr(err, "line 3") != NULL);
	CHECK(strstr(err, "stream") != NULL);
	CHECK_EQ(import_text(LLCT_CSV_HEADER "\n3,0x40,TEX,R,1,2,0\n2,0x80,RT,W,1,2,0\n", path, err,
			     sizeof(err)),
		 LLCT_ERR_PARSE);
	CHECK(strstr(err, "line 3") != NULL);
	/* the header with sites (format 2): eight fields a line, the site back from the chunk */
	CHECK_EQ(import_text(LLCT_CSV_HEADER_SITES "\n0,0x40,TEX,R,1,2,0,7\n0,0x80,RT,W,1,2,0,0\n"
						   "0,0xc0,CS,R,1,2,0,4294967295\n",
			     path, err, sizeof(err)),
		 LLCT_OK);
	CHECK_EQ(llct_reader_open(path, &r, err, sizeof(err)), LLCT_OK);
	struct llct_cursor *cur;
	struct llct_batch b;
	CHECK_EQ(llct_cursor_open(r, NULL, &cur), LLCT_OK);
	CHECK_EQ(llct_cursor_next(cur, &b), 1);
	CHECK(b.n == 3 && b.site && b.site[0] == 7 && b.site[1] == 0 && b.site[2] == UINT32_MAX);
	llct_cursor_close(cur);
	uint64_t n_sites = 0; /* a row for each site named, so dump writes the column back */
	CHECK_EQ(llct_reader_count(r, "sites", &n_sites), LLCT_OK);
	CHECK_EQ(n_sites, 2);
	llct_reader_close(r);
	/* a line of the other form under either header */
	CHECK_EQ(
	    import_text(LLCT_CSV_HEADER_SITES "\n0,0x40,TEX,R,1,2,0\n", path, err, sizeof(err)),
	    LLCT_ERR_PARSE);
	CHECK(strstr(err, "7 fields, expected 8") != NULL);
	CHECK_EQ(import_text(LLCT_CSV_HEADER "\n0,0x40,TEX,R,1,2,0,5\n", path, err, sizeof(err)),
		 LLCT_ERR_PARSE);
	CHECK(strstr(err, "more than 7 fields") != NULL);
	CHECK_EQ(import_text("frame,addr\n", path, err, sizeof(err)), LLCT_ERR_PARSE);
	CHECK(strstr(err, "line 1") != NULL);
	CHECK_EQ(import_text("", path, err, sizeof(err)), LLCT_ERR_PARSE);
	unlink(path);
}

int main(void)
{
	test_good_lines();
	test_bad_lines();
	test_import();
	return check_done("test_csv");
}
