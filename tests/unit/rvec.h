/* rvec.h - a growing array of trace records for unit tests: a footprint model's emit callback
 * (rvec_collect, its user data a struct rvec) that keeps every record it is handed. */
#ifndef LLCT_TESTS_RVEC_H
#define LLCT_TESTS_RVEC_H

#include "llct/trace.h"

#include <stdlib.h>
#include <string.h>

struct rvec {
	struct llct_record *v;
	size_t n, cap;
};

static inline int rvec_collect(void *ud, const struct llct_record *r, size_t n)
{
	struct rvec *o = ud;
	if (o->n + n > o->cap) {
		o->cap = (o->n + n) * 2;
		o->v = realloc(o->v, o->cap * sizeof(*o->v));
		if (!o->v)
			abort();
	}
	memcpy(o->v + o->n, r, n * sizeof(*r));
	o->n += n;
	return 0;
}

#endif
