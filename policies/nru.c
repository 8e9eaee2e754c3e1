/* nru.c - not recently used, one bit a line (docs/REPLAY.md gives the rule). */
#include "../replay/policy_kit.h"
#include "all.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

struct nru {
	uint32_t ways;
	_Alignas(64) uint8_t bit[]; /* per line: 1 = not recently used; rows aligned */
};

static size_t nru_state_size(const struct llct_cache_geom *g)
{
	return sizeof(struct nru) + (size_t)g->sets * g->ways;
}

static void nru_init(void *state, const struct llct_cache_geom *g)
{
	struct nru *s = state;
	s->ways = g->ways;
}

/* Fill and hit clear the line's bit. */
LLCT_HOOK void nru_touch(void *state, uint32_t way, const struct llct_access *a)
{
	struct nru *s = state;
	s->bit[(size_t)a->set * a->ways + way] = 0;
}

/* Lowest allowed way with bit 1; if none, set the bit of every allowed line first (each a
 * demotion). */
LLCT_HOOK uint32_t nru_victim(void *state, const struct llct_access *a)
{
	struct nru *s = state;
	uint8_t *b = &s->bit[(size_t)a->set * a->ways];
#ifdef __SSE2__
	if (a->ways % 16 == 0) { /* the lowest allowed 1, 16 ways at a time */
		for (uint32_t g = 0; g < a->ways; g += 16) {
			__m128i v = _mm_loadu_si128((const __m128i *)(b + g));
			uint32_t m =
			    (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(1))) &
			    (uint32_t)(a->allowed >> g);
			if (m)
				return g + (uint32_t)__builtin_ctz(m);
		}
		goto none;
	}
#endif
	for (uint32_t w = 0; w < a->ways; w++)
		if (b[w] && (a->allowed >> w & 1))
			return w;
none:; /* every allowed line was recently used: set their bits, take the lowest */
	uint32_t v = a->ways;
	for (uint32_t w = 0; w < a->ways; w++) {
		if (!(a->allowed >> w & 1))
			continue;
		llct_demoted(a, w, 1);
		b[w] = 1;
		if (v == a->ways)
			v = w;
	}
	return v;
}

/* Starts loading a set's state, for the batch loop. */
static void nru_prefetch(const void *state, uint32_t set, uint32_t ways)
{
	const struct nru *s = state;
	llct_prefetch_row(&s->bit[(size_t)set * ways], ways);
}

LLCT_DEFINE_BATCH(nru_batch, nru_touch, nru_victim, nru_touch, nru_prefetch, 0)

const struct llct_policy_ops llct_policy_nru = {
    .name = "nru",
    .sets_independent = 1,
    .summary = "not recently used, 1 bit",
    .state_size = nru_state_size,
    .init = nru_init,
    .on_hit = nru_touch,
    .victim = nru_victim,
    .on_fill = nru_touch,
    .batch = nru_batch,
    .sampled = nru_batch_sampled,
};
