/* policy_kit.h - what a built-in policy takes from the engine beyond llct/policy.h, and all of
 * it: LLCT_HOOK (and LLCT_INLINE) to mark its hooks for inlining, and LLCT_DEFINE_BATCH, the
 * engine's batch loop (lines.h, private to the engine) compiled with the policy's own hooks.
 *
 * A policy file ends with LLCT_DEFINE_BATCH(name_batch, on_hit, victim, on_fill, prefetch,
 * needs_next) and points its ops' `batch` and `sampled` at name_batch and name_batch_sampled:
 * the loop is then compiled with the policy's hooks, which the compiler inlines (no indirect
 * call, no struct handed over in memory). A policy without it runs through its ops table, as one
 * written against llct/policy.h alone does (docs/POLICIES.md). */
#ifndef LLCT_POLICY_KIT_H
#define LLCT_POLICY_KIT_H

#include "lines.h"

/* Defines `static uint64_t fn(void *state, struct llct_lines *L, const struct llct_batch *b,
 * const uint64_t *next_use)`: the batch loop with this policy's hooks, compiled four times:
 * with and without UCD, each for 16 ways with the geometry as constants (5-10% faster) and
 * for any geometry (each holding the block loop twice, for a narrow and a wide cache); and
 * `fn_sampled`, the set-sampled share of a batch (llct_lines_sampled). */
#define LLCT_DEFINE_BATCH(fn, on_hit, victim, on_fill, prefetch, needs_next)                       \
	static uint64_t fn(void *state, struct llct_lines *L, const struct llct_batch *b,          \
			   const uint64_t *next_use)                                               \
	{                                                                                          \
		int w16 = L->ways == 16 && L->fp_stride == 16 && L->blk_size == 128;               \
		if (L->ucd)                                                                        \
			return w16 ? llct_lines_batch(L, state, on_hit, victim, on_fill, prefetch, \
						      needs_next, 1, 1, b, next_use)               \
				   : llct_lines_batch(L, state, on_hit, victim, on_fill, prefetch, \
						      needs_next, 0, 1, b, next_use);              \
		return w16 ? llct_lines_batch(L, state, on_hit, victim, on_fill, prefetch,         \
					      needs_next, 1, 0, b, next_use)                       \
			   : llct_lines_batch(L, state, on_hit, victim, on_fill, prefetch,         \
					      needs_next, 0, 0, b, next_use);                      \
	}                                                                                          \
	static void fn##_sampled(void *state, struct llct_lines *L,                                \
				 const struct llct_sample_entry *e, uint32_t n, uint64_t addr_or,  \
				 const uint64_t *next_use, struct llct_frame_stats *const *fs,     \
				 uint32_t *scratch)                                                \
	{                                                                                          \
		if (L->ways == 16 && L->fp_stride == 16 && L->blk_size == 128)                     \
			llct_lines_sampled(L, state, on_hit, victim, on_fill, prefetch,            \
					   needs_next, 1, e, n, addr_or, next_use, fs, scratch);   \
		else                                                                               \
			llct_lines_sampled(L, state, on_hit, victim, on_fill, prefetch,            \
					   needs_next, 0, e, n, addr_or, next_use, fs, scratch);   \
	}

#endif
