/* fuzz_csv.c - libFuzzer target for CSV import: lines parse or are refused cleanly, a parsed
 * line prints back to a line that parses to the same record, and whole-file import into an
 * in-memory trace never crashes. */
#include "llct/csv.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_line(const char *line, size_t len)
{
	static struct llct_batch b;
	static int ready;
	char why[200], out[256];
	uint32_t frame, frame2;
	struct llct_record r, r2;
	if (!ready) {
		if (llct_batch_alloc(&b))
			abort();
		ready = 1;
	}
	uint32_t site = 0;
	if (llct_csv_parse_line(line, len, 8, &frame, &r, why, sizeof(why)) != LLCT_OK &&
	    llct_csv_parse_line(line, len, 7, &frame, &r, why, sizeof(why)) != LLCT_OK)
		return;
	b.site = &site;
	site = r.site;
	b.n = 1;
	b.frame = frame;
	b.addr[0] = r.addr;
	b.stream[0] = r.stream;
	b.op[0] = r.op;
	b.sm[0] = r.sm;
	b.kernel[0] = r.kernel;
	b.tenant[0] = r.tenant;
	FILE *f = fmemopen(out, sizeof(out), "w");
	if (!f || llct_csv_write_batch(f, &b, 1))
		abort();
	long n = ftell(f);
	fclose(f);
	if (n <= 1 || out[n - 1] != '\n')
		abort();
	if (llct_csv_parse_line(out, (size_t)n - 1, 8, &frame2, &r2, why, sizeof(why)) != LLCT_OK ||
	    frame2 != frame || r2.addr != r.addr || r2.stream != r.stream || r2.op != r.op ||
	    r2.sm != r.sm || r2.kernel != r.kernel || r2.tenant != r.tenant || r2.site != r.site)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data, *end = p + size;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
		check_line(p, len);
		p += len + 1;
	}
	if (size == 0)
		return 0;
	char err[600];
	struct llct_writer *w;
	if (llct_writer_open(":memory:", NULL, &w, err, sizeof(err)))
		abort();
	FILE *in = fmemopen((void *)data, size, "r");
	if (!in)
		abort();
	llct_csv_import(in, "fuzz.csv", w, err, sizeof(err));
	fclose(in);
	llct_writer_close(w);
	return 0;
}
