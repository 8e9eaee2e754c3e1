/* lru.c - least recently used: evict the line whose last access is oldest. */
#include "all.h"

struct lru {
	uint32_t ways;
	uint64_t clock;   /* accesses seen; below 2^58, as lru_victim packs it with the way */
	uint64_t stamp[]; /* per line: clock at its last access */
};

static size_t lru_state_size(const struct llct_cache_geom *g)
{
	return sizeof(struct lru) + (size_t)g->sets * g->ways * sizeof(uint64_t);
}

static void lru_init(void *state, const struct llct_cache_geom *g)
{
	struct lru *s = state;
	s->ways = g->ways;
}

static void lru_touch(void *state, uint32_t way, const struct llct_access *a)
{
	struct lru *s = state;
	s->stamp[(size_t)a->set * s->ways + way] = ++s->clock;
}

/* Stamps are unique, so the oldest is the minimum of (stamp, way) packed in one word: a
 * branch-free reduction instead of a compare-and-jump per way. */
static uint32_t lru_victim(void *state, const struct llct_access *a)
{
	struct lru *s = state;
	const uint64_t *st = &s->stamp[(size_t)a->set * s->ways];
	uint64_t m = UINT64_MAX;
	for (uint32_t w = 0; w < s->ways; w++) {
		uint64_t x = st[w] << 6 | w;
		m = x < m ? x : m;
	}
	return (uint32_t)(m & 63);
}

const struct llct_policy_ops llct_policy_lru = {
    .name = "lru",
    .summary = "least recently used",
    .state_size = lru_state_size,
    .init = lru_init,
    .on_hit = lru_touch,
    .victim = lru_victim,
    .on_fill = lru_touch,
};
