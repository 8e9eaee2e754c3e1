/* prefault.c - populating a big fresh array on a thread of its own, ahead of the code that
 * fills it: the kernel clears each page on its first touch, and on a virtual machine that clear
 * can cost more than the work that writes the array (docs/PERFORMANCE.md). */
#include "engine.h"

#include <sys/mman.h>

#define PREFAULT_STEP ((size_t)2 << 20) /* one huge page a call */

static void *prefault_run(void *arg)
{
	LLCT_THREAD_NAME("llct-prefault");
	struct llct_prefault *pf = arg;
#ifdef MADV_POPULATE_WRITE
	for (size_t at = 0;
	     at < pf->bytes && !atomic_load_explicit(&pf->stop, memory_order_relaxed);
	     at += PREFAULT_STEP) {
		size_t n = pf->bytes - at < PREFAULT_STEP ? pf->bytes - at : PREFAULT_STEP;
		/* populates without writing: safe beside the thread filling the array */
		if (madvise(pf->p + at, n, MADV_POPULATE_WRITE))
			break; /* an older kernel: the filling thread takes the faults */
	}
#endif
	return NULL;
}

void llct_prefault_start(struct llct_prefault *pf, void *p, size_t bytes)
{
	pf->p = p;
	pf->bytes = bytes;
	atomic_init(&pf->stop, 0);
	pf->started = bytes >= PREFAULT_STEP && !pthread_create(&pf->t, NULL, prefault_run, pf);
}

void llct_prefault_stop(struct llct_prefault *pf)
{
	if (!pf->started)
		return;
	atomic_store(&pf->stop, 1);
	pthread_join(pf->t, NULL);
	pf->started = 0;
}
