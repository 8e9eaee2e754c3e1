/* belady.c - Belady's OPT/MIN: evict the line reused furthest in the future; the bypass
 * variant does not fill a line reused later than every resident line. */
#include "../replay/policy_kit.h"
#include "all.h"

struct belady {
	uint32_t ways;
	uint64_t next[]; /* per line: index of its next access, LLCT_NEVER if none */
};

static size_t belady_state_size(const struct llct_cache_geom *g)
{
	return sizeof(struct belady) + (size_t)g->sets * g->ways * sizeof(uint64_t);
}

static void belady_init(void *state, const struct llct_cache_geom *g)
{
	struct belady *s = state;
	s->ways = g->ways;
}

LLCT_HOOK void belady_touch(void *state, uint32_t way, const struct llct_access *a)
{
	struct belady *s = state;
	s->next[(size_t)a->set * a->ways + way] = a->next_use;
}

/* The later of two (next use, way) pairs; the left one on a tie. */
LLCT_INLINE void later(uint64_t *n, uint32_t *w, uint64_t n2, uint32_t w2)
{
	*w = n2 > *n ? w2 : *w;
	*n = n2 > *n ? n2 : *n;
}

/* Furthest next use among the allowed ways; ties (including several never-again lines) go to
 * the lowest way. Belady keeps no recency state, so only the eviction is a demotion. A 16-way
 * set is compared in four chains of four (5 steps deep, not one chain of 15). */
LLCT_INLINE uint32_t furthest(const struct belady *s, const struct llct_access *a)
{
	const uint64_t *n = &s->next[(size_t)a->set * a->ways];
	uint32_t v = a->ways;
	if (a->allowed == (a->ways == 64 ? UINT64_MAX : ((uint64_t)1 << a->ways) - 1)) {
		if (a->ways == 16) { /* four chains of four ways, then two merges */
			uint64_t m0 = n[0], m1 = n[4], m2 = n[8], m3 = n[12];
			uint32_t k0 = 0, k1 = 4, k2 = 8, k3 = 12;
			for (uint32_t w = 1; w < 4; w++) {
				later(&m0, &k0, n[w], w);
				later(&m1, &k1, n[4 + w], 4 + w);
				later(&m2, &k2, n[8 + w], 8 + w);
				later(&m3, &k3, n[12 + w], 12 + w);
			}
			later(&m0, &k0, m1, k1);
			later(&m2, &k2, m3, k3);
			later(&m0, &k0, m2, k2);
			return k0;
		}
		uint64_t best = n[0];
		v = 0;
		for (uint32_t w = 1; w < a->ways; w++)
			later(&best, &v, n[w], w);
		return v;
	}
	for (uint32_t w = 0; w < a->ways; w++)
		if ((a->allowed >> w & 1) && (v == a->ways || n[w] > n[v]))
			v = w;
	return v;
}

LLCT_HOOK uint32_t belady_victim(void *state, const struct llct_access *a)
{
	return furthest(state, a);
}

LLCT_HOOK uint32_t belady_bypass_victim(void *state, const struct llct_access *a)
{
	struct belady *s = state;
	uint32_t v = furthest(s, a);
	return a->next_use > s->next[(size_t)a->set * a->ways + v] ? LLCT_WAY_BYPASS : v;
}

/* Starts loading a set's state, for the batch loop. */
static void belady_prefetch(const void *state, uint32_t set, uint32_t ways)
{
	const struct belady *s = state;
	llct_prefetch_span(&s->next[(size_t)set * ways], (size_t)ways * sizeof(*s->next));
}

LLCT_DEFINE_BATCH(belady_batch, belady_touch, belady_victim, belady_touch, belady_prefetch, 1)

const struct llct_policy_ops llct_policy_belady = {
    .name = "belady",
    .sets_independent = 1,
    .summary = "Belady OPT/MIN (needs the future: a next-use pass first)",
    .needs_next_use = 1,
    .state_size = belady_state_size,
    .init = belady_init,
    .on_hit = belady_touch,
    .victim = belady_victim,
    .on_fill = belady_touch,
    .batch = belady_batch,
    .sampled = belady_batch_sampled,
};

LLCT_DEFINE_BATCH(belady_bypass_batch, belady_touch, belady_bypass_victim, belady_touch,
		  belady_prefetch, 1)

const struct llct_policy_ops llct_policy_belady_bypass = {
    .name = "belady-bypass",
    .sets_independent = 1,
    .summary = "Belady that skips the fill of a line reused later than every resident one",
    .needs_next_use = 1,
    .state_size = belady_state_size,
    .init = belady_init,
    .on_hit = belady_touch,
    .victim = belady_bypass_victim,
    .on_fill = belady_touch,
    .batch = belady_bypass_batch,
    .sampled = belady_bypass_batch_sampled,
};
