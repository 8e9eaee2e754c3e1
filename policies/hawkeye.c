/* hawkeye.c - Hawkeye (Jain and Lin, "Back to the Future: Leveraging Belady's Algorithm for
 * Improved Cache Replacement", ISCA 2016) on GPU signatures: OPTgen works out, in sample sets,
 * whether Belady's MIN would have hit each reuse; a predictor of 3-bit counters per signature
 * learns it; lines are inserted cache-friendly or cache-averse by the prediction.
 *
 * The signature is llct_access.sig (the stream and the kernel's pipeline, policy.h), where a
 * CPU cache uses the load's PC. Rules (docs/REPLAY.md gives them with the choices made):
 * - Predictor: 16384 counters 0..7, each starting at 4; a signature is friendly when its
 *   counter is >= 4. Sample sets: s % 32 == 0, each with its own clock t (accesses to it).
 * - OPTgen, at every access to a sample set: it looks back over the set's last 8 x ways - 1
 *   accesses for the line's previous access (time t', signature g). Found, MIN would have hit
 *   if every slot u in [t', t) of the occupancy vector is below the associativity: then each
 *   of those slots gains 1 and counter g 1 (at most 7); else counter g loses 1 (at least 0).
 *   Not found (first access, or longer ago): no training. Then slot t starts at 0 occupancy
 *   holding this line and this access's signature, and the clock moves on.
 * - A hit sets the line's RRPV (3 bits) to 0 if the access's signature is friendly, else 7.
 * - A fill of a friendly access inserts at 0 and ages every other line of the set below 6 by
 *   one (each a demotion); an averse one inserts at 7.
 * - Victim: the lowest allowed way at RRPV 7; if none, the allowed way with the largest RRPV
 *   (the lowest of equals), and its line's last signature loses 1 (a friendly line evicted:
 *   the prediction was wrong).
 * A line keeps the signature of its last access. */
#include "../replay/policy_kit.h"
#include "all.h"
#include "sampled.h"

#define PRED_SIZE (1u << LLCT_SIG_BITS)
#define PRED_MAX 7
#define FRIENDLY 4
#define RRPV_AVERSE 7
#define HISTORY 8 /* OPTgen looks back 8 x ways accesses of a set */

/* One sample set's OPTgen: a ring of its last HISTORY x ways accesses. */
struct optgen {
	uint64_t clock;
	uint64_t *line; /* per slot: the line accessed at that time */
	uint16_t *sig;  /* ... the signature of that access */
	uint8_t *occ;   /* ... how many lines MIN keeps across that slot */
};

struct hawkeye {
	uint32_t ways, hist, n_samples;
	uint8_t pred[PRED_SIZE];
	uint8_t *rrpv;  /* per line */
	uint16_t *lsig; /* per line: the signature of its last access */
	struct optgen *og;
	_Alignas(64) uint8_t mem[];
};

static size_t hawkeye_state_size(const struct llct_cache_geom *g)
{
	size_t lines = (size_t)g->sets * g->ways,
	       samples = (g->sets + SAMPLE_EVERY - 1) / SAMPLE_EVERY;
	size_t hist = (size_t)HISTORY * g->ways;
	return sizeof(struct hawkeye) + 3 * lines + samples * sizeof(struct optgen) +
	       samples * hist * (8 + 2 + 1) + 64;
}

static void hawkeye_init(void *state, const struct llct_cache_geom *g)
{
	struct hawkeye *s = state;
	size_t lines = (size_t)g->sets * g->ways;
	s->ways = g->ways;
	s->hist = HISTORY * g->ways;
	s->n_samples = (g->sets + SAMPLE_EVERY - 1) / SAMPLE_EVERY;
	uint8_t *p = s->mem;
	s->og = (struct optgen *)p; /* the 8-byte fields first, then the narrower ones */
	p += s->n_samples * sizeof(struct optgen);
	for (uint32_t k = 0; k < s->n_samples; k++) {
		s->og[k].line = (uint64_t *)p;
		p += (size_t)s->hist * 8;
	}
	s->lsig = (uint16_t *)p;
	p += 2 * lines;
	for (uint32_t k = 0; k < s->n_samples; k++) {
		s->og[k].sig = (uint16_t *)p;
		p += (size_t)s->hist * 2;
	}
	s->rrpv = p;
	p += lines;
	for (uint32_t k = 0; k < s->n_samples; k++) {
		s->og[k].occ = p;
		p += s->hist;
	}
	for (uint32_t i = 0; i < PRED_SIZE; i++)
		s->pred[i] = FRIENDLY;
}

static void train(struct hawkeye *s, uint16_t sig, int up)
{
	if (up && s->pred[sig] < PRED_MAX)
		s->pred[sig]++;
	else if (!up && s->pred[sig] > 0)
		s->pred[sig]--;
}

/* OPTgen's step for an access to a sample set (before the hit or fill is handled). */
static void optgen(struct hawkeye *s, const struct llct_access *a)
{
	struct optgen *o = &s->og[a->set / SAMPLE_EVERY];
	uint64_t t = o->clock, h = s->hist;
	for (uint64_t back = 1; back < h && back <= t; back++) {
		uint64_t u = t - back;
		if (o->line[u % h] != a->line)
			continue;
		int fits = 1; /* MIN keeps the line from u to t if no slot between is full */
		for (uint64_t v = u; v < t && fits; v++)
			fits = o->occ[v % h] < s->ways;
		if (fits)
			for (uint64_t v = u; v < t; v++)
				o->occ[v % h]++;
		train(s, o->sig[u % h], fits);
		break;
	}
	o->line[t % h] = a->line;
	o->sig[t % h] = a->sig;
	o->occ[t % h] = 0;
	o->clock = t + 1;
}

static void hawkeye_hit(void *state, uint32_t way, const struct llct_access *a)
{
	struct hawkeye *s = state;
	size_t i = (size_t)a->set * a->ways + way;
	if (sample_set(a->set))
		optgen(s, a);
	s->rrpv[i] = s->pred[a->sig] >= FRIENDLY ? 0 : RRPV_AVERSE;
	s->lsig[i] = a->sig;
}

static uint32_t hawkeye_victim(void *state, const struct llct_access *a)
{
	struct hawkeye *s = state;
	size_t row = (size_t)a->set * a->ways;
	uint32_t best = a->ways;
	for (uint32_t w = 0; w < a->ways; w++) {
		if (!(a->allowed >> w & 1))
			continue;
		if (s->rrpv[row + w] == RRPV_AVERSE)
			return w;
		if (best == a->ways || s->rrpv[row + w] > s->rrpv[row + best])
			best = w;
	}
	if (best < a->ways) /* a friendly line goes: its signature was wrong */
		train(s, s->lsig[row + best], 0);
	return best < a->ways ? best : LLCT_WAY_BYPASS;
}

static void hawkeye_fill(void *state, uint32_t way, const struct llct_access *a)
{
	struct hawkeye *s = state;
	size_t row = (size_t)a->set * a->ways;
	if (sample_set(a->set))
		optgen(s, a);
	s->lsig[row + way] = a->sig;
	if (s->pred[a->sig] < FRIENDLY) {
		s->rrpv[row + way] = RRPV_AVERSE;
		return;
	}
	for (uint32_t w = 0; w < a->ways; w++)
		if (w != way && (llct_set_valid(a) >> w & 1) &&
		    s->rrpv[row + w] < RRPV_AVERSE - 1) {
			s->rrpv[row + w]++;
			llct_demoted(a, w, 1);
		}
	s->rrpv[row + way] = 0;
}

const struct llct_policy_ops llct_policy_hawkeye = {
    .name = "hawkeye",
    .summary = "Hawkeye: OPTgen in sample sets trains a friendly/averse predictor per signature",
    .uses_sig = 1,
    .state_size = hawkeye_state_size,
    .init = hawkeye_init,
    .on_hit = hawkeye_hit,
    .victim = hawkeye_victim,
    .on_fill = hawkeye_fill,
    .keep_set = sample_keep_set,
};
