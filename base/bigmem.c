/* bigmem.c - big arrays in 2 MiB pages where the kernel gives them (bigmem.h). */
#define _GNU_SOURCE
#include "llct/bigmem.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* Below 1 MiB the heap's own (a 2 MiB page would be mostly waste); from there up, a whole number
 * of 2 MiB pieces on a 2 MiB boundary, advised for huge pages (a refusal -- no such pages, or the
 * kernel set to `never` -- leaves 4 KiB pages, which work the same). */
void *llct_big_alloc(size_t bytes)
{
	size_t huge = (size_t)2 << 20;
	if (bytes < huge / 2)
		return aligned_alloc(64, (bytes + 64) & ~(size_t)63); /* 0 bytes: 64 */
	if (bytes > (size_t)-1 - huge)
		return NULL;
	bytes = (bytes + huge - 1) / huge * huge;
	void *p = aligned_alloc(huge, bytes);
#ifdef MADV_HUGEPAGE
	if (p)
		madvise(p, bytes, MADV_HUGEPAGE);
#endif
	return p;
}

void *llct_big_grow(void *p, size_t used, size_t bytes)
{
	void *q = llct_big_alloc(bytes);
	if (!q)
		return NULL;
	if (used)
		memcpy(q, p, used < bytes ? used : bytes);
	free(p);
	return q;
}
