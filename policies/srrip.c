/* srrip.c - static RRIP, 2 bits: fill at 2, hit to 0, evict a 3 after aging. */
#include "../replay/policy_kit.h"
#include "all.h"
#include "rrip.h"

struct srrip {
	uint32_t ways;
	_Alignas(64) uint8_t rrpv[]; /* rows 16-byte aligned at 16 ways */
};

static size_t srrip_state_size(const struct llct_cache_geom *g)
{
	return sizeof(struct srrip) + (size_t)g->sets * g->ways;
}

static void srrip_init(void *state, const struct llct_cache_geom *g)
{
	struct srrip *s = state;
	s->ways = g->ways;
}

LLCT_HOOK void srrip_hit(void *state, uint32_t way, const struct llct_access *a)
{
	struct srrip *s = state;
	s->rrpv[(size_t)a->set * a->ways + way] = 0;
}

LLCT_HOOK uint32_t srrip_victim(void *state, const struct llct_access *a)
{
	struct srrip *s = state;
	return rrip_victim(&s->rrpv[(size_t)a->set * a->ways], a->ways, a);
}

LLCT_HOOK void srrip_fill(void *state, uint32_t way, const struct llct_access *a)
{
	struct srrip *s = state;
	s->rrpv[(size_t)a->set * a->ways + way] = 2;
}

/* Starts loading a set's state, for the batch loop. */
static void srrip_prefetch(const void *state, uint32_t set, uint32_t ways)
{
	const struct srrip *s = state;
	llct_prefetch_row(&s->rrpv[(size_t)set * ways], ways);
}

LLCT_DEFINE_BATCH(srrip_batch, srrip_hit, srrip_victim, srrip_fill, srrip_prefetch, 0)

const struct llct_policy_ops llct_policy_srrip = {
    .name = "srrip",
    .sets_independent = 1,
    .summary = "static re-reference interval prediction, 2 bits",
    .state_size = srrip_state_size,
    .init = srrip_init,
    .on_hit = srrip_hit,
    .victim = srrip_victim,
    .on_fill = srrip_fill,
    .batch = srrip_batch,
    .sampled = srrip_batch_sampled,
};
