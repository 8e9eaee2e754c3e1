/* lru.c - least recently used: evict the line whose last access is oldest.
 *
 * Each set keeps its ways in recency order as a doubly linked list of way numbers, in one
 * record of 2 + 2 x ways bytes (head, tail, prev[ways], next[ways]), so a touch and a victim
 * choice are a few byte moves whatever the associativity. */
#include "all.h"
#include "llct/lines.h"

#include <string.h>

#define NIL 0xff

struct lru {
	uint32_t ways, stride;
	uint8_t rec[]; /* per set: head (most recent), tail (least recent), prev[], next[] */
};

static size_t lru_state_size(const struct llct_cache_geom *g)
{
	return sizeof(struct lru) + (size_t)g->sets * (2 + 2 * (size_t)g->ways);
}

static void lru_init(void *state, const struct llct_cache_geom *g)
{
	struct lru *s = state;
	s->ways = g->ways;
	s->stride = 2 + 2 * g->ways;
	memset(s->rec, NIL, (size_t)g->sets * s->stride);
}

/* Moves `way` to the head; a way not yet in the list (a fill of an empty way) is linked in.
 * A way is in the list iff it is the head or has a predecessor. */
LLCT_HOOK void lru_touch(void *state, uint32_t way, const struct llct_access *a)
{
	struct lru *s = state;
	uint8_t *r = &s->rec[(size_t)a->set * (2 + 2 * a->ways)], *prev = r + 2,
		*next = prev + a->ways;
	uint8_t w = (uint8_t)way;
	if (a->demote) /* every line more recent than w moves down one place */
		for (uint8_t x = r[0]; x != NIL && x != w; x = next[x])
			llct_demoted(a, x, 1);
	if (r[0] == w)
		return;
	if (prev[w] != NIL) { /* linked, not the head: unlink */
		uint8_t p = prev[w], n = next[w];
		next[p] = n;
		if (n != NIL)
			prev[n] = p;
		else
			r[1] = p;
	}
	prev[w] = NIL;
	next[w] = r[0];
	if (r[0] != NIL)
		prev[r[0]] = w;
	else
		r[1] = w;
	r[0] = w;
}

/* The least recent allowed way: walk up from the tail. */
LLCT_HOOK uint32_t lru_victim(void *state, const struct llct_access *a)
{
	struct lru *s = state;
	uint8_t *r = &s->rec[(size_t)a->set * (2 + 2 * a->ways)], *prev = r + 2;
	uint8_t x = r[1];
	while (x != NIL && !(a->allowed >> x & 1))
		x = prev[x];
	return x;
}

/* A fill puts the new line on top: every other line moves down one place. The replaced line
 * (if any) sits in the same way, and its eviction is the engine's to report. */
LLCT_HOOK void lru_fill(void *state, uint32_t way, const struct llct_access *a)
{
	struct lru *s = state;
	if (a->demote) {
		uint8_t *r = &s->rec[(size_t)a->set * (2 + 2 * a->ways)], *next = r + 2 + a->ways;
		for (uint8_t x = r[0]; x != NIL; x = next[x])
			if (x != way)
				llct_demoted(a, x, 1);
	}
	struct llct_access quiet = *a;
	quiet.demote = NULL;
	lru_touch(state, way, &quiet);
}

/* Starts loading a set's state, for the batch loop. */
static void lru_prefetch(const void *state, uint32_t set)
{
	const struct lru *s = state;
	llct_prefetch_span(&s->rec[(size_t)set * s->stride], s->stride);
}

LLCT_DEFINE_BATCH(lru_batch, lru_touch, lru_victim, lru_fill, lru_prefetch, 0)

const struct llct_policy_ops llct_policy_lru = {
    .name = "lru",
    .summary = "least recently used",
    .state_size = lru_state_size,
    .init = lru_init,
    .on_hit = lru_touch,
    .victim = lru_victim,
    .on_fill = lru_fill,
    .batch = lru_batch,
};
