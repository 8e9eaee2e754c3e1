/* nru.c - not recently used, one bit a line (DESIGN.md section 5). */
#include "all.h"

struct nru {
	uint32_t ways;
	uint8_t bit[]; /* per line: 1 = not recently used */
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
static void nru_touch(void *state, uint32_t way, const struct llct_access *a)
{
	struct nru *s = state;
	s->bit[(size_t)a->set * s->ways + way] = 0;
}

/* Lowest allowed way with bit 1; if none, set the bit of every allowed line first (each a
 * demotion). */
static uint32_t nru_victim(void *state, const struct llct_access *a)
{
	struct nru *s = state;
	uint8_t *b = &s->bit[(size_t)a->set * s->ways];
	for (uint32_t w = 0; w < s->ways; w++)
		if (b[w] && (a->allowed >> w & 1))
			return w;
	uint32_t v = s->ways;
	for (uint32_t w = 0; w < s->ways; w++) {
		if (!(a->allowed >> w & 1))
			continue;
		llct_demoted(a, w, 1);
		b[w] = 1;
		if (v == s->ways)
			v = w;
	}
	return v;
}

const struct llct_policy_ops llct_policy_nru = {
    .name = "nru",
    .summary = "not recently used, 1 bit",
    .state_size = nru_state_size,
    .init = nru_init,
    .on_hit = nru_touch,
    .victim = nru_victim,
    .on_fill = nru_touch,
};
