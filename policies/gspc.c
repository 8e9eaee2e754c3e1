/* gspc.c - the graphics-stream-aware policies of the GSPC talk: GSPZTC, GSPZTC+TSE and GSPC.
 *
 * The three differ only in how TEX and RT insertion is learned, so they share this file and
 * one state layout, each exported as its own policy (docs/REPLAY.md, "The GSPC family", gives the
 * rules this code follows line by line). Sample sets (s % P == 0) run SRRIP and train per-bank
 * 8-bit counters that are halved every 128 sample-set accesses of the bank; follower sets insert by
 * what the counters say. Victim selection is SRRIP's. A set's RRPVs and line states lie side
 * by side in one row (one prefetch), and each variant's hooks and batch loop are compiled
 * with the variant as a constant.
 */
#include "../replay/policy_kit.h"
#include "all.h"
#include "llct/llct.h"
#include "rrip.h"

#define T 8 /* the talk's threshold t */

enum variant { GSPZTC, GSPZTC_TSE, GSPC };
enum line_state { NONTEX, E0, E1, E2, RT };

struct counters {
	uint8_t fz, hz, ft, ht, fe0, he0, fe1, he1, prod, cons;
	uint8_t interval; /* sample-set accesses since the last halving */
};

struct gspc {
	uint32_t ways, sets_per_bank, period;
	uint32_t bank_shift, period_mask; /* when sets_per_bank / period are powers of two (the
					     usual case): a shift and a mask instead of divisions */
	int pow2;
	struct counters *bank; /* points into data[] */
	uint8_t *rows;         /* per set: RRPVs of its ways, then their line states; into data[] */
	_Alignas(64) uint8_t data[];
};

/* Where the per-line rows start in data[]: after the bank counters, 64-byte aligned (data[]
 * is), so a 16-way row lies in one line. */
static size_t rows_at(const struct llct_cache_geom *g)
{
	return ((size_t)g->banks * sizeof(struct counters) + 63) & ~(size_t)63;
}

static size_t gspc_state_size(const struct llct_cache_geom *g)
{
	return sizeof(struct gspc) + rows_at(g) + 2 * (size_t)g->sets * g->ways;
}

static void gspc_init(void *state, const struct llct_cache_geom *g)
{
	struct gspc *s = state;
	s->ways = g->ways;
	s->sets_per_bank = g->sets / g->banks ? g->sets / g->banks : 1;
	s->period = g->sample_period ? g->sample_period : 64;
	s->pow2 = !(s->sets_per_bank & (s->sets_per_bank - 1)) && !(s->period & (s->period - 1));
	s->period_mask = s->period - 1;
	while (s->pow2 && (1u << s->bank_shift) < s->sets_per_bank)
		s->bank_shift++;
	s->bank = (struct counters *)s->data;
	s->rows = s->data + rows_at(g);
}

static void inc(uint8_t *c)
{
	if (*c < 255)
		(*c)++;
}

/* After each access to a sample set: tick the bank's interval, halving at 128. */
static void tick(struct counters *c)
{
	if (++c->interval < 128)
		return;
	c->interval = 0;
	uint8_t *all[] = {&c->fz,  &c->hz,  &c->ft,  &c->ht,   &c->fe0,
			  &c->he0, &c->fe1, &c->he1, &c->prod, &c->cons};
	for (unsigned i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		*all[i] = (uint8_t)(*all[i] / 2);
}

static uint8_t above(uint8_t f, uint8_t h)
{
	return (unsigned)f > (unsigned)T * h;
}

/* The bank counters of a set, and whether the set samples. */
static inline struct counters *bank_of(struct gspc *s, uint32_t set, int *sample)
{
	if (s->pow2) {
		*sample = (set & s->period_mask) == 0;
		return &s->bank[set >> s->bank_shift];
	}
	*sample = set % s->period == 0;
	return &s->bank[set / s->sets_per_bank];
}

/* A TEX access that is a block's first use: a miss, or a hit on a NONTEX or RT line. */
LLCT_INLINE uint8_t tex_first_use(enum variant v, struct counters *c, int sample, int hit,
				  uint8_t old_state)
{
	if (sample) {
		if (hit && old_state == RT)
			inc(&c->cons);
		if (v == GSPZTC)
			inc(hit ? &c->ht : &c->ft);
		else
			inc(&c->fe0);
		return hit ? 0 : 2;
	}
	if (v == GSPZTC)
		return hit ? 0 : (above(c->ft, c->ht) ? 3 : 0);
	return above(c->fe0, c->he0) ? 3 : 0;
}

LLCT_INLINE void hit_v(void *state, uint32_t way, const struct llct_access *a, enum variant v)
{
	struct gspc *s = state;
	uint8_t *rrpv = &s->rows[(size_t)a->set * 2 * a->ways], *line = rrpv + a->ways;
	int sample;
	struct counters *c = bank_of(s, a->set, &sample);
	uint8_t st = line[way], r = 0;

	switch (a->stream) {
	case LLCT_STREAM_TEX:
		if (st == NONTEX || st == RT) {
			r = tex_first_use(v, c, sample, 1, st);
			st = E0;
		} else if (st == E0) {
			if (sample) {
				if (v == GSPZTC) {
					inc(&c->ht);
				} else {
					inc(&c->he0);
					inc(&c->fe1);
				}
			} else if (v != GSPZTC) {
				r = above(c->fe1, c->he1) ? 3 : 0;
			}
			st = E1;
		} else if (st == E1) {
			if (sample)
				inc(v == GSPZTC ? &c->ht : &c->he1);
			st = E2;
		} else if (sample && v == GSPZTC) {
			inc(&c->ht);
		}
		break;
	case LLCT_STREAM_RT:
		if (st != RT && sample)
			inc(&c->prod);
		st = RT;
		break;
	case LLCT_STREAM_Z:
		if (sample)
			inc(&c->hz);
		break;
	default:
		break;
	}
	line[way] = st;
	rrpv[way] = r;
	if (sample)
		tick(c);
}

LLCT_INLINE void fill_v(void *state, uint32_t way, const struct llct_access *a, enum variant v)
{
	struct gspc *s = state;
	uint8_t *rrpv = &s->rows[(size_t)a->set * 2 * a->ways], *line = rrpv + a->ways;
	int sample;
	struct counters *c = bank_of(s, a->set, &sample);
	uint8_t st = NONTEX, r = 2;

	switch (a->stream) {
	case LLCT_STREAM_TEX:
		r = tex_first_use(v, c, sample, 0, NONTEX);
		st = E0;
		break;
	case LLCT_STREAM_RT:
		if (sample)
			inc(&c->prod);
		else if (v == GSPC)
			r = (unsigned)c->prod > 16u * c->cons  ? 3
			    : (unsigned)c->prod > 8u * c->cons ? 2
							       : 0;
		else
			r = 0;
		st = RT;
		break;
	case LLCT_STREAM_Z:
		if (sample)
			inc(&c->fz);
		else
			r = above(c->fz, c->hz) ? 3 : 2;
		break;
	default:
		break;
	}
	line[way] = st;
	rrpv[way] = r;
	if (sample)
		tick(c);
}

LLCT_HOOK uint32_t gspc_victim(void *state, const struct llct_access *a)
{
	struct gspc *s = state;
	return rrip_victim(&s->rows[(size_t)a->set * 2 * a->ways], a->ways, a);
}

/* Starts loading a set's row, for the batch loop. */
static void gspc_prefetch(const void *state, uint32_t set, uint32_t ways)
{
	const struct gspc *s = state;
	llct_prefetch_row(&s->rows[(size_t)set * 2 * ways], 2 * (size_t)ways);
}

/* One variant's hooks and batch loop. */
#define GSPC_VARIANT(v, sfx)                                                                       \
	LLCT_HOOK void hit_##sfx(void *state, uint32_t way, const struct llct_access *a)           \
	{                                                                                          \
		hit_v(state, way, a, v);                                                           \
	}                                                                                          \
	LLCT_HOOK void fill_##sfx(void *state, uint32_t way, const struct llct_access *a)          \
	{                                                                                          \
		fill_v(state, way, a, v);                                                          \
	}                                                                                          \
	LLCT_DEFINE_BATCH(batch_##sfx, hit_##sfx, gspc_victim, fill_##sfx, gspc_prefetch, 0)

GSPC_VARIANT(GSPZTC, gspztc)
GSPC_VARIANT(GSPZTC_TSE, gspztc_tse)
GSPC_VARIANT(GSPC, gspc)

/* The sample sets (bank_of's) train the bank counters every follower reads. */
static int gspc_keep_set(const struct llct_cache_geom *g, uint32_t set)
{
	return set % (g->sample_period ? g->sample_period : 64) == 0;
}

#define GSPC_OPS(ident, nm, sum, sfx)                                                              \
	const struct llct_policy_ops ident = {                                                     \
	    .name = nm,                                                                            \
	    .summary = sum,                                                                        \
	    .state_size = gspc_state_size,                                                         \
	    .init = gspc_init,                                                                     \
	    .on_hit = hit_##sfx,                                                                   \
	    .victim = gspc_victim,                                                                 \
	    .on_fill = fill_##sfx,                                                                 \
	    .batch = batch_##sfx,                                                                  \
	    .sampled = batch_##sfx##_sampled,                                                      \
	    .keep_set = gspc_keep_set,                                                             \
	}

GSPC_OPS(llct_policy_gspztc, "gspztc", "GSPC talk policy 1: Z and TEX insertion learned", gspztc);
GSPC_OPS(llct_policy_gspztc_tse, "gspztc-tse",
	 "GSPC talk policy 2: GSPZTC with texture-sampler epochs", gspztc_tse);
GSPC_OPS(llct_policy_gspc, "gspc", "GSPC talk policy 3: TSE plus RT production/consumption", gspc);
