/* signatures.c - the kernel signatures of a trace for the policies that read llct_access.sig
 * (policy.h): each kernel's id and the hash of what its draws share across frames, read once
 * from the trace's kernels table and shared by every model of a replay. */
#include "engine.h"

#include <stdlib.h>

static int add_sig(uint64_t id, uint32_t frame, const char *kind, const char *name,
		   const char *params, void *ud)
{
	struct llct_sigtab *t = ud;
	(void)frame;
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 1024;
		uint32_t *ids = realloc(t->ids, cap * sizeof(*ids));
		if (ids)
			t->ids = ids;
		uint32_t *sigs = ids ? realloc(t->sigs, cap * sizeof(*sigs)) : NULL;
		if (!sigs) {
			t->failed = 1;
			return 1;
		}
		t->sigs = sigs;
		t->cap = cap;
	}
	t->ids[t->n] = (uint32_t)id; /* read in id order: increasing */
	t->sigs[t->n++] = llct_kernel_signature(kind, name, params);
	return 0;
}

int llct_signatures_read(struct llct_reader *r, struct llct_sigtab *t)
{
	return llct_reader_foreach_kernel(r, add_sig, t) || t->failed ? LLCT_ERR_NOMEM : LLCT_OK;
}

void llct_signatures_free(struct llct_sigtab *t)
{
	free(t->ids);
	free(t->sigs);
	t->ids = t->sigs = NULL;
	t->n = t->cap = 0;
}
