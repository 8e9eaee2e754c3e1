/* plru.c - tree pseudo-LRU, as hardware implements LRU approximately: a binary tree of bits
 * over a set's ways points at the half to evict from.
 *
 * P is the smallest power of two >= ways; the tree has P - 1 bits, node 1 the root and node n's
 * children 2n and 2n + 1, leaf P + w standing for way w (leaves of ways >= the associativity
 * are never chosen). The bits live in the set's policy word (llct_access.word: 63 bits hold
 * 64 ways), so PLRU reads no memory of its own. A hit or a fill of way w sets every bit on the
 * path from the root to w to point away from w (0 = left, 1 = right). The victim is found by
 * following the bits from the root, except that a bit pointing at a half with no way the
 * access may fill (way partitioning, or past the associativity) is taken the other way.
 * PLRU reports no demotions but the engine's eviction (GDC: the tree orders no line
 * strictly below another). */
#include "../replay/policy_kit.h"
#include "all.h"

static size_t plru_state_size(const struct llct_cache_geom *g)
{
	(void)g;
	return 0;
}

static void plru_init(void *state, const struct llct_cache_geom *g)
{
	(void)state;
	(void)g;
}

/* log2 of P, the smallest power of two >= ways. */
LLCT_INLINE unsigned plru_depth(uint32_t ways)
{
	unsigned d = 0;
	while ((1u << d) < ways)
		d++;
	return d;
}

LLCT_HOOK void plru_touch(void *state, uint32_t way, const struct llct_access *a)
{
	(void)state;
	unsigned d = plru_depth(a->ways);
	uint64_t x = *a->word, node = 1;
	for (unsigned k = d; k-- > 0;) {
		uint64_t dir = way >> k & 1;
		x = (x & ~((uint64_t)1 << node)) | (dir ^ 1) << node; /* point away from way */
		node = 2 * node + dir;
	}
	*a->word = x;
}

/* The ways under node n at depth t (the root at depth 0) of a tree of depth d, as a mask. */
LLCT_INLINE uint64_t plru_span(uint64_t n, unsigned t, unsigned d)
{
	unsigned width = d - t;                             /* the subtree has 2^width leaves */
	uint64_t first = (n - ((uint64_t)1 << t)) << width; /* its first way */
	uint64_t ones = width >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << (1u << width)) - 1;
	return first >= 64 ? 0 : ones << first;
}

LLCT_HOOK uint32_t plru_victim(void *state, const struct llct_access *a)
{
	(void)state;
	unsigned d = plru_depth(a->ways);
	uint64_t may = a->allowed & (a->ways == 64 ? ~(uint64_t)0 : ((uint64_t)1 << a->ways) - 1);
	uint64_t x = *a->word, node = 1;
	if (!may)
		return LLCT_WAY_BYPASS;
	for (unsigned t = 0; t < d; t++) {
		uint64_t dir = x >> node & 1;
		if (!(plru_span(2 * node + dir, t + 1, d) & may))
			dir ^= 1; /* nothing to evict that way */
		node = 2 * node + dir;
	}
	return (uint32_t)(node - ((uint64_t)1 << d));
}

/* The tree comes with the set's block: nothing of PLRU's own to load. */
static void plru_prefetch(const void *state, uint32_t set, uint32_t ways)
{
	(void)state;
	(void)set;
	(void)ways;
}

LLCT_DEFINE_BATCH(plru_batch, plru_touch, plru_victim, plru_touch, plru_prefetch, 0)

const struct llct_policy_ops llct_policy_plru = {
    .name = "plru",
    .sets_independent = 1,
    .summary = "tree pseudo-LRU: a tree of bits per set points at the half to evict from",
    .state_size = plru_state_size,
    .init = plru_init,
    .on_hit = plru_touch,
    .victim = plru_victim,
    .on_fill = plru_touch,
    .batch = plru_batch,
    .sampled = plru_batch_sampled,
};
