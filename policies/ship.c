/* ship.c - SHiP++ (Young, Chou, Jaleel, Jiang: "SHiP++: Enhancing Signature-Based Hit
 * Predictor for Improved Cache Performance", 2nd Cache Replacement Championship, 2017; after
 * SHiP, Wu et al., MICRO 2011) on GPU signatures: 2-bit RRIP whose insertion is predicted per
 * signature by a table of 3-bit counters (the SHCT) trained in sample sets.
 *
 * The signature is llct_access.sig (the stream and the kernel's pipeline, policy.h), where a
 * CPU cache uses the load's PC. Rules (docs/REPLAY.md gives them with the choices made):
 * - SHCT: 16384 counters 0..7, each starting at 1. Sample sets: s % 32 == 0.
 * - A fill records the access's signature and a clear "reused" bit in the line, and inserts
 *   at RRPV 3 if SHCT[sig] is 0, at 0 if it is 7 (SHiP++'s confident insertion), else at 2.
 * - A hit sets RRPV 0; in a sample set, the first hit of a line's stay (its reused bit clear)
 *   adds 1 to SHCT[its fill signature] and sets the bit (SHiP++ trains once a stay).
 * - The victim is SRRIP's (the lowest allowed way with RRPV 3 after aging); in a sample set, a
 *   victim never reused takes 1 from SHCT[its fill signature].
 * Writes are accesses like reads (a GPU's writes are stores, not CPU write-backs, so SHiP++'s
 * write-back rule has no counterpart). */
#include "../replay/policy_kit.h"
#include "all.h"
#include "rrip.h"
#include "sampled.h"

#define SHCT_SIZE (1u << LLCT_SIG_BITS)
#define SHCT_MAX 7

struct ship {
	uint32_t ways;
	uint8_t shct[SHCT_SIZE];
	uint8_t *rrpv, *reused; /* per line */
	uint16_t *sig;          /* per line: the signature of its fill */
	_Alignas(64) uint8_t mem[];
};

static size_t ship_state_size(const struct llct_cache_geom *g)
{
	size_t lines = (size_t)g->sets * g->ways;
	return sizeof(struct ship) + 4 * lines;
}

static void ship_init(void *state, const struct llct_cache_geom *g)
{
	struct ship *s = state;
	size_t lines = (size_t)g->sets * g->ways;
	s->ways = g->ways;
	s->sig = (uint16_t *)s->mem;
	s->rrpv = s->mem + 2 * lines;
	s->reused = s->mem + 3 * lines;
	for (uint32_t i = 0; i < SHCT_SIZE; i++)
		s->shct[i] = 1;
}

static void ship_hit(void *state, uint32_t way, const struct llct_access *a)
{
	struct ship *s = state;
	size_t i = (size_t)a->set * a->ways + way;
	s->rrpv[i] = 0;
	if (sample_set(a->set) && !s->reused[i]) {
		if (s->shct[s->sig[i]] < SHCT_MAX)
			s->shct[s->sig[i]]++;
		s->reused[i] = 1;
	}
}

static uint32_t ship_victim(void *state, const struct llct_access *a)
{
	struct ship *s = state;
	size_t row = (size_t)a->set * a->ways;
	uint32_t w = rrip_victim(&s->rrpv[row], a->ways, a);
	if (w < a->ways && sample_set(a->set) && !s->reused[row + w] &&
	    s->shct[s->sig[row + w]] > 0)
		s->shct[s->sig[row + w]]--; /* dead on arrival: its signature's lines are not reused
					     */
	return w;
}

static void ship_fill(void *state, uint32_t way, const struct llct_access *a)
{
	struct ship *s = state;
	size_t i = (size_t)a->set * a->ways + way;
	uint8_t c = s->shct[a->sig];
	s->sig[i] = a->sig;
	s->reused[i] = 0;
	s->rrpv[i] = c == 0 ? RRPV_MAX : c == SHCT_MAX ? 0 : 2;
}

const struct llct_policy_ops llct_policy_ship = {
    .name = "ship",
    .summary = "SHiP++: RRIP insertion predicted per signature (stream and pipeline)",
    .uses_sig = 1,
    .state_size = ship_state_size,
    .init = ship_init,
    .on_hit = ship_hit,
    .victim = ship_victim,
    .on_fill = ship_fill,
    .keep_set = sample_keep_set,
};
