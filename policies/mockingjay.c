/* mockingjay.c - Mockingjay (Shah, Jain and Lin, "Effective Mimicry of Belady's MIN Policy",
 * HPCA 2022) on GPU signatures: a reuse-distance predictor per signature, trained in sample
 * sets, gives every line an estimated time remaining (ETR) until its next use; the victim is the
 * line whose ETR is furthest from now, overdue or not, and a read predicted to come back later
 * than every resident line bypasses the cache.
 *
 * The signature is llct_access.sig (the stream and the kernel's pipeline, policy.h). Rules
 * (docs/REPLAY.md gives them with the choices made), times counted in accesses to the set:
 * - RDP: 16384 entries, each unknown at first, else a reuse distance 0..INF, INF = 8 x ways.
 *   Sample sets: s % 32 == 0, each with a history of its last 8 x ways accesses.
 * - At each access, before anything else: in a sample set, the slot about to be reused (the
 *   access 8 x ways ago) trains its signature towards INF unless its line was accessed again
 *   since; then the history is searched back for the line's previous access (time t',
 *   signature g): found, RDP[g] moves towards t - t' and that access is marked reused. The
 *   slot then holds this line and signature. A move towards d: unknown becomes d; else the
 *   entry changes by (d - entry) / 8, rounded towards 0 but at least 1 either way, within
 *   0..INF.
 * - A hit or fill sets the line's ETR to what the access's signature predicts: 0 if unknown,
 *   127 if INF, else ceil(RDP / 8).
 * - Victim: among the allowed ways, the largest |ETR| (the lowest way of equals). A read
 *   whose predicted ETR exceeds it is not filled (bypass); writes always fill.
 * - After the access, the set's clock moves on; every 8th access of a set takes 1 from every
 *   valid line's ETR there (at least -127; each a demotion). */
#include "../replay/policy_kit.h"
#include "all.h"
#include "sampled.h"

#define RDP_SIZE (1u << LLCT_SIG_BITS)
#define RDP_UNKNOWN 0xffffu
#define GRAN 8 /* ETR units and aging period, in accesses to the set */
#define HISTORY 8
#define ETR_MAX 127

struct mj_hist {
	uint64_t line;
	uint16_t sig;
	uint8_t reused;
};

struct mockingjay {
	uint32_t ways, hist, inf, sets;
	uint16_t rdp[RDP_SIZE];
	int8_t *etr;       /* per line */
	uint64_t *clock;   /* per set: accesses so far */
	uint64_t *trained; /* per sample set: clock + 1 of its last training (one per access) */
	struct mj_hist *h; /* per sample set: HISTORY x ways slots */
	_Alignas(64) uint8_t mem[];
};

static size_t mj_state_size(const struct llct_cache_geom *g)
{
	size_t lines = (size_t)g->sets * g->ways,
	       samples = (g->sets + SAMPLE_EVERY - 1) / SAMPLE_EVERY;
	return sizeof(struct mockingjay) + (size_t)g->sets * 8 + samples * 8 +
	       samples * (size_t)HISTORY * g->ways * sizeof(struct mj_hist) + lines + 64;
}

static void mj_init(void *state, const struct llct_cache_geom *g)
{
	struct mockingjay *s = state;
	size_t samples = (g->sets + SAMPLE_EVERY - 1) / SAMPLE_EVERY;
	s->ways = g->ways;
	s->sets = g->sets;
	s->hist = HISTORY * g->ways;
	s->inf = s->hist;
	uint8_t *p = s->mem;
	s->clock = (uint64_t *)p;
	p += (size_t)g->sets * 8;
	s->trained = (uint64_t *)p;
	p += samples * 8;
	s->h = (struct mj_hist *)p;
	p += samples * s->hist * sizeof(struct mj_hist);
	s->etr = (int8_t *)p;
	for (uint32_t i = 0; i < RDP_SIZE; i++)
		s->rdp[i] = RDP_UNKNOWN;
}

static void toward(struct mockingjay *s, uint16_t sig, uint32_t d)
{
	if (d > s->inf)
		d = s->inf;
	if (s->rdp[sig] == RDP_UNKNOWN) {
		s->rdp[sig] = (uint16_t)d;
		return;
	}
	int32_t old = s->rdp[sig], diff = (int32_t)d - old, step = diff / 8;
	if (!step && diff)
		step = diff > 0 ? 1 : -1;
	int32_t v = old + step;
	s->rdp[sig] = (uint16_t)(v < 0 ? 0 : v > (int32_t)s->inf ? (int32_t)s->inf : v);
}

/* The sample set's training for the access now (once an access). */
static void train(struct mockingjay *s, const struct llct_access *a)
{
	uint32_t k = a->set / SAMPLE_EVERY;
	uint64_t t = s->clock[a->set], H = s->hist;
	struct mj_hist *h = &s->h[(size_t)k * H];
	if (!sample_set(a->set) || s->trained[k] == t + 1)
		return;
	s->trained[k] = t + 1;
	if (t >= H && !h[t % H].reused) /* left the window unused: no reuse within INF */
		toward(s, h[t % H].sig, s->inf);
	for (uint64_t back = 1; back < H && back <= t; back++) {
		struct mj_hist *e = &h[(t - back) % H];
		if (e->line != a->line)
			continue;
		if (!e->reused) {
			toward(s, e->sig, (uint32_t)back);
			e->reused = 1;
		}
		break;
	}
	h[t % H] = (struct mj_hist){a->line, a->sig, 0};
}

static int8_t predicted(const struct mockingjay *s, uint16_t sig)
{
	uint16_t r = s->rdp[sig];
	if (r == RDP_UNKNOWN)
		return 0;
	if (r >= s->inf)
		return ETR_MAX;
	return (int8_t)((r + GRAN - 1) / GRAN);
}

/* The access is done: the set's clock moves on, and every GRAN-th access ages the set. */
static void tick(struct mockingjay *s, const struct llct_access *a)
{
	uint64_t t = ++s->clock[a->set];
	if (t % GRAN)
		return;
	int8_t *e = &s->etr[(size_t)a->set * a->ways];
	uint64_t valid = llct_set_valid(a);
	for (uint32_t w = 0; w < a->ways; w++)
		if ((valid >> w & 1) && e[w] > -ETR_MAX) {
			e[w]--;
			llct_demoted(a, w, 1);
		}
}

static void mj_hit(void *state, uint32_t way, const struct llct_access *a)
{
	struct mockingjay *s = state;
	train(s, a);
	s->etr[(size_t)a->set * a->ways + way] = predicted(s, a->sig);
	tick(s, a);
}

static uint32_t mj_victim(void *state, const struct llct_access *a)
{
	struct mockingjay *s = state;
	const int8_t *e = &s->etr[(size_t)a->set * a->ways];
	uint32_t best = a->ways;
	int far = -1;
	train(s, a);
	for (uint32_t w = 0; w < a->ways; w++) {
		int d = e[w] < 0 ? -e[w] : e[w];
		if ((a->allowed >> w & 1) && d > far) {
			far = d;
			best = w;
		}
	}
	if (best == a->ways || (!a->op && predicted(s, a->sig) > far)) {
		tick(s, a); /* not filled: the access ends here */
		return LLCT_WAY_BYPASS;
	}
	return best;
}

static void mj_fill(void *state, uint32_t way, const struct llct_access *a)
{
	struct mockingjay *s = state;
	train(s, a);
	s->etr[(size_t)a->set * a->ways + way] = predicted(s, a->sig);
	tick(s, a);
}

const struct llct_policy_ops llct_policy_mockingjay = {
    .name = "mockingjay",
    .summary = "Mockingjay: reuse distances predicted per signature; evict the furthest ETR",
    .uses_sig = 1,
    .state_size = mj_state_size,
    .init = mj_init,
    .on_hit = mj_hit,
    .victim = mj_victim,
    .on_fill = mj_fill,
    .keep_set = sample_keep_set,
};
