/* brrip.c - bimodal RRIP: fill at 3 except every 32nd fill at 2; hit to 0. */
#include "../replay/policy_kit.h"
#include "all.h"
#include "rrip.h"

struct brrip {
	uint32_t ways;
	uint64_t n;                  /* BRRIP-rule fills so far, in the whole cache */
	_Alignas(64) uint8_t rrpv[]; /* rows 16-byte aligned at 16 ways */
};

static size_t brrip_state_size(const struct llct_cache_geom *g)
{
	return sizeof(struct brrip) + (size_t)g->sets * g->ways;
}

static void brrip_init(void *state, const struct llct_cache_geom *g)
{
	struct brrip *s = state;
	s->ways = g->ways;
}

LLCT_HOOK void brrip_hit(void *state, uint32_t way, const struct llct_access *a)
{
	struct brrip *s = state;
	s->rrpv[(size_t)a->set * a->ways + way] = 0;
}

LLCT_HOOK uint32_t brrip_victim(void *state, const struct llct_access *a)
{
	struct brrip *s = state;
	return rrip_victim(&s->rrpv[(size_t)a->set * a->ways], a->ways, a);
}

LLCT_HOOK void brrip_fill(void *state, uint32_t way, const struct llct_access *a)
{
	struct brrip *s = state;
	s->rrpv[(size_t)a->set * a->ways + way] = brrip_insert(&s->n);
}

/* Starts loading a set's state, for the batch loop. */
static void brrip_prefetch(const void *state, uint32_t set, uint32_t ways)
{
	const struct brrip *s = state;
	llct_prefetch_row(&s->rrpv[(size_t)set * ways], ways);
}

LLCT_DEFINE_BATCH(brrip_batch, brrip_hit, brrip_victim, brrip_fill, brrip_prefetch, 0)

const struct llct_policy_ops llct_policy_brrip = {
    .name = "brrip",
    .summary = "bimodal RRIP: distant insertion, 1 in 32 long",
    .state_size = brrip_state_size,
    .init = brrip_init,
    .on_hit = brrip_hit,
    .victim = brrip_victim,
    .on_fill = brrip_fill,
    .batch = brrip_batch,
    .sampled = brrip_batch_sampled,
};
