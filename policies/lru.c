/* lru.c - least recently used: evict the line whose last access is oldest.
 *
 * Up to 16 ways, a set's recency order is one 64-bit word of 4-bit way numbers, the most
 * recent in the lowest nibble (unused nibbles hold 15, never a way of a smaller set): a touch
 * finds its way's nibble with one SWAR zero-nibble search and shifts the nibbles below it up
 * by one, and the victim is the top used nibble. The word is the set's policy word in the
 * line arrays (llct_access.word), which shares its cache line with the set's metadata and
 * valid mask, so LRU reads no memory of its own; the ways in the order that hold lines, which the
 * contention reports need, are the set's valid ways.
 *
 * Above 16 ways the order is a doubly linked list of way numbers, in one record of
 * 2 + 2 x ways bytes (head, tail, prev[ways], next[ways]), so a touch and a victim choice are
 * a few byte moves whatever the associativity. */
#include "../replay/policy_kit.h"
#include "all.h"

#include <string.h>

#define NIL 0xff
#define NIB_ONES 0x1111111111111111u
#define NIB_HIGH 0x8888888888888888u

struct lru {
	uint32_t ways, stride;
	_Alignas(64) uint8_t rec[]; /* above 16 ways, per set: see above */
};

static size_t lru_state_size(const struct llct_cache_geom *g)
{
	return sizeof(struct lru) +
	       (g->ways > 16 ? (size_t)g->sets * (2 + 2 * (size_t)g->ways) : 0);
}

static void lru_init(void *state, const struct llct_cache_geom *g)
{
	struct lru *s = state;
	s->ways = g->ways;
	s->stride = 2 + 2 * g->ways;
	if (g->ways > 16)
		memset(s->rec, NIL, (size_t)g->sets * s->stride);
}

/* Up to 16 ways: every way in the order, way k at position k (the word of the unused
 * positions 15). */
static uint64_t lru_word_init(const struct llct_cache_geom *g)
{
	uint64_t order = 0;
	for (uint32_t k = 0; k < 16; k++)
		order |= (uint64_t)(k < g->ways ? k : 15) << 4 * k;
	return order;
}

/* Moves `way` to the top of a set's order word; with a->demote, reports every way above it.
 * At 16 ways the usual fill, of the least recent way, is just a shift. */
LLCT_INLINE void nib_touch(uint32_t way, const struct llct_access *a)
{
	uint64_t x = *a->word;
	if (a->ways == 16 && x >> 60 == way && !a->demote) {
		*a->word = x << 4 | way;
		return;
	}
	uint64_t t = x ^ (uint64_t)way * NIB_ONES;
	uint64_t z = (t - NIB_ONES) & ~t & NIB_HIGH; /* its lowest bit: the top of way's nibble */
	uint64_t bit = z & (0 - z), below = (bit >> 3) - 1, through = (bit << 1) - 1;
	if (a->demote)
		for (int k = 0; k < __builtin_ctzll(bit) >> 2; k++)
			llct_demoted(a, (uint32_t)(x >> 4 * k & 15), 1);
	*a->word = (x & ~through) | (x & below) << 4 | way;
}

/* Moves `way` to the head of a set's list; a way not yet in the list (a fill of an empty
 * way) is linked in. A way is in the list iff it is the head or has a predecessor. */
LLCT_INLINE void list_touch(struct lru *s, uint32_t way, const struct llct_access *a)
{
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

LLCT_HOOK void lru_touch(void *state, uint32_t way, const struct llct_access *a)
{
	if (a->ways <= 16)
		nib_touch(way, a);
	else
		list_touch(state, way, a);
}

/* The least recent allowed way: up from the bottom of the order. */
LLCT_HOOK uint32_t lru_victim(void *state, const struct llct_access *a)
{
	struct lru *s = state;
	if (a->ways <= 16) {
		uint64_t x = *a->word;
		for (uint32_t k = a->ways; k-- > 0;) {
			uint32_t w = (uint32_t)(x >> 4 * k & 15);
			if (a->allowed >> w & 1)
				return w;
		}
		return LLCT_WAY_BYPASS;
	}
	uint8_t *r = &s->rec[(size_t)a->set * (2 + 2 * a->ways)], *prev = r + 2;
	uint8_t x = r[1];
	while (x != NIL && !(a->allowed >> x & 1))
		x = prev[x];
	return x == NIL ? LLCT_WAY_BYPASS : x;
}

/* A fill puts the new line on top: every other line moves down one place. The replaced line
 * (if any) sits in the same way, and its eviction is the engine's to report. */
LLCT_HOOK void lru_fill(void *state, uint32_t way, const struct llct_access *a)
{
	struct lru *s = state;
	struct llct_access quiet = *a;
	quiet.demote = NULL;
	if (a->ways <= 16) {
		if (a->demote) /* most recent first, as the list does */
			for (uint32_t k = 0; k < a->ways; k++) {
				uint32_t x = (uint32_t)(*a->word >> 4 * k & 15);
				if ((llct_set_valid(a) >> x & 1) && x != way)
					llct_demoted(a, x, 1);
			}
		nib_touch(way, &quiet);
		return;
	}
	if (a->demote) {
		uint8_t *r = &s->rec[(size_t)a->set * (2 + 2 * a->ways)], *next = r + 2 + a->ways;
		for (uint8_t x = r[0]; x != NIL; x = next[x])
			if (x != way)
				llct_demoted(a, x, 1);
	}
	list_touch(s, way, &quiet);
}

/* Starts loading a set's list above 16 ways, for the batch loop (the order word comes with
 * the set's block). */
static void lru_prefetch(const void *state, uint32_t set, uint32_t ways)
{
	const struct lru *s = state;
	if (ways > 16)
		llct_prefetch_span(&s->rec[(size_t)set * s->stride], s->stride);
}

LLCT_DEFINE_BATCH(lru_batch, lru_touch, lru_victim, lru_fill, lru_prefetch, 0)

const struct llct_policy_ops llct_policy_lru = {
    .name = "lru",
    .sets_independent = 1,
    .summary = "least recently used",
    .state_size = lru_state_size,
    .init = lru_init,
    .on_hit = lru_touch,
    .victim = lru_victim,
    .on_fill = lru_fill,
    .word_init = lru_word_init,
    .batch = lru_batch,
    .sampled = lru_batch_sampled,
};
