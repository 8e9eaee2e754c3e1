/* belady.c - Belady's OPT/MIN: evict the line reused furthest in the future; the bypass
 * variant does not fill a line reused later than every resident line. */
#include "all.h"
#include "llct/lines.h"

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

/* Furthest next use among the allowed ways; ties (including several never-again lines) go to
 * the lowest way. Belady keeps no recency state, so only the eviction is a demotion. */
static uint32_t furthest(const struct belady *s, const struct llct_access *a)
{
	const uint64_t *n = &s->next[(size_t)a->set * a->ways];
	uint32_t v = a->ways;
	if (a->allowed == (a->ways == 64 ? UINT64_MAX : ((uint64_t)1 << a->ways) - 1)) {
		v = 0;
		for (uint32_t w = 1; w < a->ways; w++)
			v = n[w] > n[v] ? w : v;
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
    .summary = "Belady OPT/MIN (needs the future: a next-use pass first)",
    .needs_next_use = 1,
    .state_size = belady_state_size,
    .init = belady_init,
    .on_hit = belady_touch,
    .victim = belady_victim,
    .on_fill = belady_touch,
    .batch = belady_batch,
};

LLCT_DEFINE_BATCH(belady_bypass_batch, belady_touch, belady_bypass_victim, belady_touch,
		  belady_prefetch, 1)

const struct llct_policy_ops llct_policy_belady_bypass = {
    .name = "belady-bypass",
    .summary = "Belady that skips the fill of a line reused later than every resident one",
    .needs_next_use = 1,
    .state_size = belady_state_size,
    .init = belady_init,
    .on_hit = belady_touch,
    .victim = belady_bypass_victim,
    .on_fill = belady_touch,
    .batch = belady_bypass_batch,
};
