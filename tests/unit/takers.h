/* takers.h - for the unit tests of thread pools: how many distinct threads took a run's jobs. */
#ifndef LLCT_TESTS_TAKERS_H
#define LLCT_TESTS_TAKERS_H

#include <pthread.h>

/* The distinct threads among the first n of who. */
static inline unsigned distinct_threads(const pthread_t *who, unsigned n)
{
	unsigned d = 0;
	for (unsigned k = 0; k < n; k++) {
		unsigned j = 0;
		while (j < k && !pthread_equal(who[j], who[k]))
			j++;
		d += j == k;
	}
	return d;
}

#endif
