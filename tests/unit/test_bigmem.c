/* test_bigmem.c - big arrays (bigmem.h): alignment below and above the huge-page threshold, and
 * llct_big_grow keeping what was used, from the heap's block to a mapped one and between mapped
 * ones, and failing without losing the old block. */
#include "check.h"
#include "llct/bigmem.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
	size_t huge = (size_t)2 << 20;
	/* small: the heap's, 64-byte aligned */
	unsigned char *p = llct_big_alloc(1000);
	CHECK(p != NULL);
	CHECK_EQ((uintptr_t)p % 64, 0);
	for (size_t i = 0; i < 1000; i++)
		p[i] = (unsigned char)(i * 7);
	/* grown past 1 MiB: a 2 MiB-aligned block holding the 1,000 bytes used */
	p = llct_big_grow(p, 1000, (size_t)3 << 20);
	CHECK(p != NULL);
	CHECK_EQ((uintptr_t)p % huge, 0);
	int same = 1;
	for (size_t i = 0; i < 1000; i++)
		same &= p[i] == (unsigned char)(i * 7);
	CHECK(same);
	memset(p + 1000, 0xab, ((size_t)3 << 20) - 1000); /* all of it writable (ASan: in bounds) */
	/* grown again, only part of it said used: that part kept */
	p = llct_big_grow(p, 5000, (size_t)9 << 20);
	CHECK(p != NULL);
	CHECK_EQ((uintptr_t)p % huge, 0);
	CHECK_EQ(p[999], (unsigned char)(999 * 7));
	CHECK_EQ(p[4999], 0xab);
	p[((size_t)9 << 20) - 1] = 1;
	/* a size no machine has: NULL, and the old block still there */
	unsigned char *q = llct_big_grow(p, 5000, SIZE_MAX - 10);
	CHECK(q == NULL);
	CHECK_EQ(p[4999], 0xab);
	free(p);
	/* from NULL, nothing used */
	q = llct_big_grow(NULL, 0, 100);
	CHECK(q != NULL);
	CHECK_EQ((uintptr_t)q % 64, 0);
	free(q);
	return check_done("test_bigmem");
}
