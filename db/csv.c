/* csv.c - strict reader and fast writer of the CSV interchange form (docs/FORMAT.md).
 *
 * The reader accepts exactly the seven columns (eight with sites), in order, with no quoting
 * or spaces, and
 * rejects anything that does not fit: it is a parser of outside input, fuzzed in tests/fuzz.
 */
#include "llct/csv.h"

#include <stdlib.h>
#include <string.h>

int llct_stream_from_name(const char *name, size_t len)
{
	for (unsigned s = 0; s < LLCT_N_STREAMS; s++) {
		const char *n = llct_stream_name(s);
		if (strlen(n) == len && memcmp(n, name, len) == 0)
			return (int)s;
	}
	return -1;
}

/* Parses an unsigned integer (decimal, or 0x-hex when allow_hex) no larger than max. */
static int parse_uint(const char *p, size_t len, uint64_t max, int allow_hex, uint64_t *out)
{
	uint64_t v = 0;
	if (len == 0)
		return 0;
	if (allow_hex && len > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		p += 2;
		len -= 2;
		if (len > 16)
			return 0;
		for (size_t i = 0; i < len; i++) {
			char c = p[i];
			unsigned d;
			if (c >= '0' && c <= '9')
				d = (unsigned)(c - '0');
			else if (c >= 'a' && c <= 'f')
				d = (unsigned)(c - 'a' + 10);
			else if (c >= 'A' && c <= 'F')
				d = (unsigned)(c - 'A' + 10);
			else
				return 0;
			v = v << 4 | d;
		}
	} else {
		for (size_t i = 0; i < len; i++) {
			char c = p[i];
			if (c < '0' || c > '9')
				return 0;
			unsigned d = (unsigned)(c - '0');
			if (v > (UINT64_MAX - d) / 10)
				return 0;
			v = v * 10 + d;
		}
	}
	if (v > max)
		return 0;
	*out = v;
	return 1;
}

int llct_csv_parse_line(const char *line, size_t len, unsigned fields, uint32_t *frame,
			struct llct_record *rec, char *why, size_t why_size)
{
	static const char *const names[8] = {"frame", "addr",   "stream", "op",
					     "sm",    "kernel", "tenant", "site"};
	const char *f[8];
	size_t fl[8], k = 0;
	if (fields != 7 && fields != 8) {
		snprintf(why, why_size, "%u fields asked for (7 or 8)", fields);
		return LLCT_ERR_PARSE;
	}
	const char *p = line, *end = line + len, *start = line;
	uint64_t v;

	for (; p <= end; p++) {
		if (p == end || *p == ',') {
			if (k == fields) {
				snprintf(why, why_size, "more than %u fields", fields);
				return LLCT_ERR_PARSE;
			}
			f[k] = start;
			fl[k++] = (size_t)(p - start);
			start = p + 1;
		}
	}
	if (k != fields) {
		snprintf(why, why_size, "%zu fields, expected %u (%s)", k, fields,
			 fields == 8 ? LLCT_CSV_HEADER_SITES : LLCT_CSV_HEADER);
		return LLCT_ERR_PARSE;
	}
#define FIELD_FAIL(i, what)                                                                        \
	do {                                                                                       \
		snprintf(why, why_size, "field %s '%.*s' is not %s", names[i],                     \
			 (int)(fl[i] > 40 ? 40 : fl[i]), f[i], what);                              \
		return LLCT_ERR_PARSE;                                                             \
	} while (0)
	if (!parse_uint(f[0], fl[0], UINT32_MAX, 0, &v))
		FIELD_FAIL(0, "a frame number (0..4294967295)");
	*frame = (uint32_t)v;
	if (!parse_uint(f[1], fl[1], UINT64_MAX, 1, &v))
		FIELD_FAIL(1, "an address (0x-hex or decimal, 64-bit)");
	rec->addr = v;
	int s = llct_stream_from_name(f[2], fl[2]);
	if (s < 0)
		FIELD_FAIL(2, "a stream (VTX HIZ Z STC RT TEX DISP CS OTHER)");
	rec->stream = (uint8_t)s;
	if (fl[3] != 1 || (f[3][0] != 'R' && f[3][0] != 'W'))
		FIELD_FAIL(3, "R or W");
	rec->op = f[3][0] == 'W' ? LLCT_OP_WRITE : LLCT_OP_READ;
	if (!parse_uint(f[4], fl[4], UINT16_MAX, 0, &v))
		FIELD_FAIL(4, "an SM number (0..65535)");
	rec->sm = (uint16_t)v;
	if (!parse_uint(f[5], fl[5], UINT32_MAX, 0, &v))
		FIELD_FAIL(5, "a kernel number (0..4294967295)");
	rec->kernel = (uint32_t)v;
	if (!parse_uint(f[6], fl[6], UINT16_MAX, 0, &v))
		FIELD_FAIL(6, "a tenant number (0..65535)");
	rec->tenant = (uint16_t)v;
	rec->site = 0;
	if (fields == 8) {
		if (!parse_uint(f[7], fl[7], UINT32_MAX, 0, &v))
			FIELD_FAIL(7, "a site number (0..4294967295)");
		rec->site = (uint32_t)v;
	}
#undef FIELD_FAIL
	return LLCT_OK;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

/* A `sites` row for each distinct site in sites[0..n) (sorted here): all a CSV says of one is
 * its number, so its stage and op are "unknown". */
static int write_sites(struct llct_writer *w, uint32_t *sites, size_t n)
{
	if (!n)
		return LLCT_OK;
	qsort(sites, n, sizeof(*sites), cmp_u32);
	for (size_t i = 0; i < n; i++) {
		if (i && sites[i] == sites[i - 1])
			continue;
		struct llct_site s = {
		    .id = sites[i], .stage = "unknown", .op = "unknown", .set = -1, .binding = -1};
		int st = llct_writer_add_site(w, &s);
		if (st)
			return st;
	}
	return LLCT_OK;
}

int llct_csv_import(FILE *in, const char *name, struct llct_writer *w, char *err, size_t err_size)
{
	char *line = NULL, why[200];
	size_t cap = 0;
	ssize_t got;
	uint64_t lineno = 0;
	int st = LLCT_OK, in_frame = 0, saw_header = 0;
	unsigned fields = 7;
	uint32_t cur = 0;
	enum { BUF = 4096 };
	struct llct_record *buf = malloc(BUF * sizeof(*buf));
	size_t nbuf = 0;
	uint32_t *sites = NULL, last_site = 0; /* the site numbers seen (runs counted once) */
	size_t n_sites = 0, cap_sites = 0;

	if (!buf) {
		snprintf(err, err_size, "'%s': out of memory", name);
		return LLCT_ERR_NOMEM;
	}
	while ((got = getline(&line, &cap, in)) >= 0) {
		size_t len = (size_t)got;
		lineno++;
		if (len && line[len - 1] == '\n')
			len--;
		if (len && line[len - 1] == '\r')
			len--;
		if (memchr(line, '\0', len)) {
			snprintf(err, err_size, "'%s': line %llu: contains a NUL byte", name,
				 (unsigned long long)lineno);
			st = LLCT_ERR_PARSE;
			goto out;
		}
		if (!saw_header) {
			if (len == strlen(LLCT_CSV_HEADER_SITES) &&
			    !memcmp(line, LLCT_CSV_HEADER_SITES, len)) {
				fields = 8;
			} else if (len != strlen(LLCT_CSV_HEADER) ||
				   memcmp(line, LLCT_CSV_HEADER, len)) {
				snprintf(err, err_size,
					 "'%s': line 1: expected the header '%s' (or '%s')", name,
					 LLCT_CSV_HEADER, LLCT_CSV_HEADER_SITES);
				st = LLCT_ERR_PARSE;
				goto out;
			}
			saw_header = 1;
			continue;
		}
		if (len == 0)
			continue;
		uint32_t frame;
		struct llct_record rec;
		if (llct_csv_parse_line(line, len, fields, &frame, &rec, why, sizeof(why))) {
			snprintf(err, err_size, "'%s': line %llu: %s", name,
				 (unsigned long long)lineno, why);
			st = LLCT_ERR_PARSE;
			goto out;
		}
		if (!in_frame || frame != cur) {
			if (in_frame && frame < cur) {
				snprintf(err, err_size,
					 "'%s': line %llu: frame %u after frame %u (frames must "
					 "not go backwards)",
					 name, (unsigned long long)lineno, frame, cur);
				st = LLCT_ERR_PARSE;
				goto out;
			}
			if (in_frame && ((st = llct_writer_append(w, buf, nbuf)) ||
					 (st = llct_writer_end_frame(w))))
				goto writer_failed;
			nbuf = 0;
			if ((st = llct_writer_begin_frame(w, frame)))
				goto writer_failed;
			in_frame = 1;
			cur = frame;
		}
		if (rec.site && rec.site != last_site) {
			if (n_sites == cap_sites) {
				size_t ncap = cap_sites ? 2 * cap_sites : 256;
				uint32_t *ns = realloc(sites, ncap * sizeof(*ns));
				if (!ns) {
					snprintf(err, err_size, "'%s': out of memory", name);
					st = LLCT_ERR_NOMEM;
					goto out;
				}
				sites = ns, cap_sites = ncap;
			}
			sites[n_sites++] = last_site = rec.site;
			if (n_sites == cap_sites && n_sites >= 65536) { /* keep it small */
				qsort(sites, n_sites, sizeof(*sites), cmp_u32);
				size_t k = 0;
				for (size_t i = 0; i < n_sites; i++)
					if (!k || sites[i] != sites[k - 1])
						sites[k++] = sites[i];
				n_sites = k;
			}
		}
		buf[nbuf++] = rec;
		if (nbuf == BUF) {
			if ((st = llct_writer_append(w, buf, nbuf)))
				goto writer_failed;
			nbuf = 0;
		}
	}
	if (ferror(in)) {
		snprintf(err, err_size, "'%s': read error after line %llu", name,
			 (unsigned long long)lineno);
		st = LLCT_ERR_IO;
		goto out;
	}
	if (!saw_header) {
		snprintf(err, err_size, "'%s': empty file, expected the header '%s'", name,
			 LLCT_CSV_HEADER);
		st = LLCT_ERR_PARSE;
		goto out;
	}
	if (in_frame &&
	    ((st = llct_writer_append(w, buf, nbuf)) || (st = llct_writer_end_frame(w))))
		goto writer_failed;
	in_frame = 0;
	if ((st = write_sites(w, sites, n_sites)))
		goto writer_failed;
	goto out;
writer_failed:
	snprintf(err, err_size, "%s", llct_writer_error(w));
out:
	if (st && in_frame)
		llct_writer_abort_frame(w);
	free(sites);
	free(buf);
	free(line);
	return st;
}

static char *put_dec(char *p, uint64_t v)
{
	char tmp[24];
	int k = 0;
	do {
		tmp[k++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (k)
		*p++ = tmp[--k];
	return p;
}

int llct_csv_write_batch(FILE *out, const struct llct_batch *b, int with_site)
{
	static const char hex[] = "0123456789abcdef";
	char line[128];
	for (uint32_t i = 0; i < b->n; i++) {
		char *p = put_dec(line, b->frame);
		*p++ = ',';
		*p++ = '0';
		*p++ = 'x';
		uint64_t a = b->addr[i];
		int digits = 1;
		while (digits < 16 && (a >> (4 * digits)))
			digits++;
		for (int d = digits - 1; d >= 0; d--)
			*p++ = hex[(a >> (4 * d)) & 15];
		*p++ = ',';
		const char *s = llct_stream_name(b->stream[i]);
		while (*s)
			*p++ = *s++;
		*p++ = ',';
		*p++ = b->op[i] ? 'W' : 'R';
		*p++ = ',';
		p = put_dec(p, b->sm[i]);
		*p++ = ',';
		p = put_dec(p, b->kernel[i]);
		*p++ = ',';
		p = put_dec(p, b->tenant[i]);
		if (with_site) {
			*p++ = ',';
			p = put_dec(p, b->site ? b->site[i] : 0);
		}
		*p++ = '\n';
		if (fwrite(line, 1, (size_t)(p - line), out) != (size_t)(p - line))
			return LLCT_ERR_IO;
	}
	return LLCT_OK;
}
