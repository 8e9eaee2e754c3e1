/* drrip.c - dynamic RRIP: set dueling between SRRIP and BRRIP leaders with a 10-bit PSEL. */
#include "../replay/policy_kit.h"
#include "all.h"
#include "rrip.h"

struct drrip {
	uint32_t ways;
	uint32_t k;    /* leader spacing: sets / 32, at least 1 */
	uint32_t mask; /* k - 1 when k is a power of two (a mask, not a division), else 0 */
	uint32_t psel; /* 0..1023, starts at 512; >= 512 means followers use BRRIP */
	uint64_t n;    /* BRRIP-rule fills so far (leaders and followers) */
	_Alignas(64) uint8_t rrpv[]; /* rows 16-byte aligned at 16 ways */
};

static size_t drrip_state_size(const struct llct_cache_geom *g)
{
	return sizeof(struct drrip) + (size_t)g->sets * g->ways;
}

static void drrip_init(void *state, const struct llct_cache_geom *g)
{
	struct drrip *s = state;
	s->ways = g->ways;
	s->k = g->sets / 32 ? g->sets / 32 : 1;
	s->mask = (s->k & (s->k - 1)) ? 0 : s->k - 1;
	s->psel = 512;
}

LLCT_HOOK void drrip_hit(void *state, uint32_t way, const struct llct_access *a)
{
	struct drrip *s = state;
	s->rrpv[(size_t)a->set * a->ways + way] = 0;
}

LLCT_HOOK uint32_t drrip_victim(void *state, const struct llct_access *a)
{
	struct drrip *s = state;
	return rrip_victim(&s->rrpv[(size_t)a->set * a->ways], a->ways, a);
}

/* Every fill is a miss: leaders train PSEL, then the set's rule picks the insertion RRPV. */
LLCT_HOOK void drrip_fill(void *state, uint32_t way, const struct llct_access *a)
{
	struct drrip *s = state;
	uint32_t r = s->mask || s->k == 1 ? a->set & s->mask : a->set % s->k;
	int use_brrip;
	if (r == 0) { /* SRRIP leader (with k == 1 every set is one) */
		if (s->psel < 1023)
			s->psel++;
		use_brrip = 0;
	} else if (r == 1) { /* BRRIP leader */
		if (s->psel > 0)
			s->psel--;
		use_brrip = 1;
	} else {
		use_brrip = s->psel >= 512;
	}
	s->rrpv[(size_t)a->set * a->ways + way] = use_brrip ? brrip_insert(&s->n) : 2;
}

/* Starts loading a set's state, for the batch loop. */
static void drrip_prefetch(const void *state, uint32_t set, uint32_t ways)
{
	const struct drrip *s = state;
	llct_prefetch_row(&s->rrpv[(size_t)set * ways], ways);
}

LLCT_DEFINE_BATCH(drrip_batch, drrip_hit, drrip_victim, drrip_fill, drrip_prefetch, 0)

/* The leaders (what drrip_fill counts as r 0 and 1) train PSEL for every follower. */
static int drrip_keep_set(const struct llct_cache_geom *g, uint32_t set)
{
	uint32_t k = g->sets / 32 ? g->sets / 32 : 1;
	return set % k <= 1;
}

const struct llct_policy_ops llct_policy_drrip = {
    .name = "drrip",
    .summary = "dynamic RRIP: SRRIP/BRRIP set dueling, 10-bit PSEL",
    .state_size = drrip_state_size,
    .init = drrip_init,
    .on_hit = drrip_hit,
    .victim = drrip_victim,
    .on_fill = drrip_fill,
    .batch = drrip_batch,
    .sampled = drrip_batch_sampled,
    .keep_set = drrip_keep_set,
};
