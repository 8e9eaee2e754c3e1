/* frame_range.c - parses and tests frame selections such as "5-7,20" and "3-". */
#include "llct/trace.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static int parse_u32(const char **pp, uint32_t *v)
{
	const char *p = *pp;
	uint64_t x = 0;
	if (!isdigit((unsigned char)*p))
		return 0;
	while (isdigit((unsigned char)*p)) {
		x = x * 10 + (uint64_t)(*p++ - '0');
		if (x > UINT32_MAX)
			return 0;
	}
	*pp = p;
	*v = (uint32_t)x;
	return 1;
}

int llct_frame_range_parse(const char *text, struct llct_frame_range *out)
{
	const char *p = text;
	size_t cap = 0;
	memset(out, 0, sizeof(*out));
	if (!*p)
		return LLCT_ERR_PARSE;
	for (;;) {
		uint32_t a, b;
		if (!parse_u32(&p, &a))
			goto bad;
		b = a;
		if (*p == '-') {
			p++;
			if (*p == ',' || *p == '\0')
				b = UINT32_MAX;
			else if (!parse_u32(&p, &b) || b < a)
				goto bad;
		}
		if (out->n == cap) {
			cap = cap ? cap * 2 : 4;
			void *q = realloc(out->spans, cap * sizeof(*out->spans));
			if (!q)
				goto bad;
			out->spans = q;
		}
		out->spans[out->n].first = a;
		out->spans[out->n].last = b;
		out->n++;
		if (*p == '\0')
			return LLCT_OK;
		if (*p++ != ',')
			goto bad;
	}
bad:
	llct_frame_range_release(out);
	return LLCT_ERR_PARSE;
}

int llct_frame_range_contains(const struct llct_frame_range *fr, uint32_t frame)
{
	for (size_t i = 0; i < fr->n; i++)
		if (frame >= fr->spans[i].first && frame <= fr->spans[i].last)
			return 1;
	return 0;
}

void llct_frame_range_release(struct llct_frame_range *fr)
{
	free(fr->spans);
	fr->spans = NULL;
	fr->n = 0;
}
