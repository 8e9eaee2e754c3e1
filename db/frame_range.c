/* frame_range.c - parses and tests frame selections such as "5-7,20" and "3-". */
#include "llct/trace.h"

#include <ctype.h>
#include <stdio.h>
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

/* The trace's frames as "1-3" or "1-3,7,9-12" (shortened past a few spans). */
static void held(const struct llct_frame_info *f, size_t n, char *buf, size_t size)
{
	size_t at = 0, spans = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < n && at + 32 < size;) {
		size_t j = i;
		while (j + 1 < n && f[j + 1].frame == f[j].frame + 1)
			j++;
		if (++spans > 6) {
			snprintf(buf + at, size - at, ",...,%u", f[n - 1].frame);
			return;
		}
		at += (size_t)(j > i ? snprintf(buf + at, size - at, "%s%u-%u", at ? "," : "",
						f[i].frame, f[j].frame)
				     : snprintf(buf + at, size - at, "%s%u", at ? "," : "",
						f[i].frame));
		i = j + 1;
	}
}

int llct_frame_range_check(const struct llct_frame_range *fr, const char *text, const char *path,
			   const struct llct_frame_info *frames, size_t n, char *err,
			   size_t err_size)
{
	char have[160];
	if (n == 0) {
		snprintf(err, err_size, "'%s': --frames %s: the trace holds no frame", path, text);
		return LLCT_ERR_INVALID;
	}
	uint32_t lo = frames[0].frame, hi = frames[n - 1].frame;
	for (size_t i = 0; i < fr->n; i++) {
		uint32_t a = fr->spans[i].first, b = fr->spans[i].last;
		int open = b == UINT32_MAX;
		if (a >= lo && a <= hi && (open || b <= hi))
			continue;
		held(frames, n, have, sizeof(have));
		if (open)
			snprintf(err, err_size,
				 "'%s': frames %u- are not in the trace, which holds frames %s",
				 path, a, have);
		else if (a == b)
			snprintf(err, err_size,
				 "'%s': frame %u is not in the trace, which holds frames %s", path,
				 a, have);
		else
			snprintf(err, err_size,
				 "'%s': frames %u-%u are not %sin the trace, which holds frames %s",
				 path, a, b, a > hi || b < lo ? "" : "all ", have);
		return LLCT_ERR_INVALID;
	}
	return LLCT_OK;
}
