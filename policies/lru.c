/* lru.c - least recently used: evict the line whose last access is oldest. */
#include "all.h"

struct lru {
	uint32_t ways;
	uint64_t clock;   /* accesses seen */
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

static uint32_t lru_victim(void *state, const struct llct_access *a)
{
	struct lru *s = state;
	const uint64_t *st = &s->stamp[(size_t)a->set * s->ways];
	uint32_t v = 0;
	for (uint32_t w = 1; w < s->ways; w++)
		if (st[w] < st[v])
			v = w;
	return v;
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
