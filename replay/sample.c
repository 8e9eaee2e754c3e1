/* sample.c - set-sampled replay (--sample-sets 1/N): which accesses a model replays, and the
 * estimates with their confidence intervals.
 *
 * A set is sampled when a hash of its index is 0 mod N (a pseudo-random 1/N of the sets: a
 * regular stride would line up with the power-of-two strides of buffers and surfaces); each
 * sampled set belongs to one of G groups by the hash's next digits. A policy's keep sets (policy.h:
 * dueling leaders, sample sets that train state every set reads) are replayed in full and counted
 * at weight 1 (stratum 0); the other sampled sets (strata 1..G) stand for all the non-keep sets.
 * One model replays the keep sets and every sampled set in trace order, so the state the keep sets
 * train is the full replay's, and counts each stratum apart. A counter's estimate is K + w F (K:
 * keep-set count, F: sampled count, w: non-keep sets / sampled non-keep sets); each group alone
 * gives an estimate too, and the spread of the G group estimates gives a 99% interval (Student's t,
 * G - 1 degrees of freedom): the random-groups variance estimator of survey sampling. A stream
 * whose traffic reached fewer than half of the groups (a small buffer on a few sets) gets no
 * interval: its estimate may be far off, and the spread of mostly-empty groups would not show it.
 */
#include "engine.h"
#include "lines.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A set index scrambled (the finalizer of MurmurHash3). */
static uint32_t mix(uint32_t x)
{
	x ^= x >> 16;
	x *= 0x85ebca6bu;
	x ^= x >> 13;
	x *= 0xc2b2ae35u;
	x ^= x >> 16;
	return x;
}

int llct_sample_plan(struct llct_sample_cfg *p, const struct llct_cache_config *cfg, uint32_t n,
		     const struct llct_policy_ops *const *pols, size_t n_pols, char *err,
		     size_t err_size)
{
	memset(p, 0, sizeof(*p));
	p->cfg = *cfg;
	p->sets = llct_cache_sets(cfg);
	p->n = n;
	uint32_t sampled = 0;
	for (uint32_t s = 0; s < p->sets; s++)
		sampled += mix(s) % n == 0;
	p->groups = sampled < LLCT_SAMPLE_MAX_GROUPS ? sampled : LLCT_SAMPLE_MAX_GROUPS;
	if (p->groups < 2) {
		snprintf(err, err_size,
			 "--sample-sets 1/%u leaves %u of the %u sets: too few to estimate from "
			 "(sample fewer, or a bigger LLC)",
			 n, sampled, p->sets);
		return LLCT_ERR_INVALID;
	}
	for (size_t m = 0; m < n_pols; m++) {
		int (*f)(const struct llct_cache_geom *, uint32_t) = pols[m]->keep_set;
		unsigned i = 0;
		if (!f)
			continue;
		while (i < p->n_pred && p->pred[i] != f)
			i++;
		if (i == p->n_pred && p->n_pred < LLCT_SAMPLE_MAX_PREDS)
			p->pred[p->n_pred++] = f;
	}
	p->keep = calloc(p->sets, 1);
	p->strat = malloc(p->sets);
	if (!p->keep || !p->strat) {
		snprintf(err, err_size, "out of memory");
		return LLCT_ERR_NOMEM;
	}
	struct llct_cache_geom g = {p->sets, cfg->ways, cfg->banks, cfg->sample_period};
	for (uint32_t s = 0; s < p->sets; s++)
		for (unsigned i = 0; i < p->n_pred; i++)
			if (p->pred[i](&g, s))
				p->keep[s] |= (uint8_t)(1u << i);
	for (uint32_t s = 0; s < p->sets; s++) {
		uint32_t h = mix(s);
		p->strat[s] = h % n ? 0xff : (uint8_t)(1 + h / n % p->groups);
	}
	/* per predicate (n_pred: none): non-keep sets, sampled non-keep sets per group */
	for (unsigned i = 0; i <= p->n_pred; i++)
		for (uint32_t s = 0; s < p->sets; s++) {
			if (i < p->n_pred && (p->keep[s] >> i & 1))
				continue;
			p->pop[i]++;
			if (p->strat[s] != 0xff)
				p->samp[i][p->strat[s] - 1]++;
		}
	return LLCT_OK;
}

void llct_sample_plan_release(struct llct_sample_cfg *p)
{
	free(p->keep);
	free(p->strat);
	p->keep = p->strat = NULL;
}

unsigned llct_sample_pred_bit(const struct llct_sample_cfg *p, const struct llct_policy_ops *pol)
{
	for (unsigned i = 0; i < p->n_pred; i++)
		if (pol->keep_set && p->pred[i] == pol->keep_set)
			return 1u << i;
	return 0;
}

unsigned llct_sample_variant(unsigned pred_bit)
{
	return pred_bit ? 1u + (unsigned)__builtin_ctz(pred_bit) : 0u;
}

static unsigned log2_ceil(uint32_t x)
{
	unsigned b = 0;
	while (((uint64_t)1 << b) < x)
		b++;
	return b;
}

/* The largest number of sets for which plans whose sets are all powers of two share one
 * table (8 bytes a set: 16 MiB). */
#define COMB_MAX_SETS (1u << 21)

int llct_sample_sel_init(struct llct_sample_sel *s, const struct llct_sample_cfg *p, size_t n_p,
			 unsigned use)
{
	memset(s, 0, sizeof(*s));
	s->p = p;
	s->n_p = n_p;
	s->n_var = 1 + (n_p ? p[0].n_pred : 0);
	s->shift = n_p ? log2_ceil(p[0].cfg.line) : 0;
	int plain = n_p * s->n_var <= 64;
	uint32_t max_sets = 0;
	for (size_t c = 0; c < n_p; c++) {
		uint32_t sets = p[c].sets;
		if (!(s->vbits[c] = malloc(sets * sizeof(*s->vbits[c]))))
			return LLCT_ERR_NOMEM;
		for (uint32_t set = 0; set < sets; set++) {
			unsigned v =
			    p[c].strat[set] != 0xff ? 0x1ffu : 0; /* sampled: in every one */
			v |= (unsigned)p[c].keep[set] << 1;
			s->vbits[c][set] = (uint16_t)(v & use);
		}
		s->set_bits[c] = (uint8_t)log2_ceil(sets);
		s->set_mask[c] = (sets & (sets - 1)) == 0 ? sets - 1 : 0;
		s->xor_hash[c] = p[c].cfg.hash == LLCT_HASH_XOR && s->set_mask[c];
		plain &= (sets & (sets - 1)) == 0 && p[c].cfg.hash != LLCT_HASH_XOR &&
			 log2_ceil(p[c].cfg.line) == s->shift;
		max_sets = sets > max_sets ? sets : max_sets;
	}
	if (!plain || max_sets > COMB_MAX_SETS)
		return LLCT_OK;
	s->comb_mask = max_sets - 1;
	if (!(s->comb = calloc(max_sets, sizeof(*s->comb))) ||
	    !(s->comb_any = calloc((max_sets + 63) / 64, sizeof(*s->comb_any))))
		return LLCT_ERR_NOMEM;
	for (size_t c = 0; c < n_p; c++)
		for (unsigned v = 0; v < s->n_var; v++) {
			unsigned i = (unsigned)c * s->n_var + v;
			s->cfg_of[i] = (uint8_t)c;
			s->var_of[i] = (uint8_t)v;
			for (uint32_t x = 0; x < max_sets; x++)
				s->comb[x] |= (uint64_t)(s->vbits[c][x & (p[c].sets - 1)] >> v & 1)
					      << i;
		}
	for (uint32_t x = 0; x < max_sets; x++)
		s->comb_any[x / 64] |= (uint64_t)(s->comb[x] != 0) << x % 64;
	return LLCT_OK;
}

void llct_sample_sel_release(struct llct_sample_sel *s)
{
	for (size_t c = 0; c < s->n_p; c++)
		free(s->vbits[c]);
	free(s->comb);
	free(s->comb_any);
	memset(s, 0, sizeof(*s));
}

/* The set of line in plan c. */
static uint32_t set_in(const struct llct_sample_sel *s, size_t c, uint64_t line)
{
	return llct_set_index(s->xor_hash[c], s->set_bits[c], s->set_mask[c], s->p[c].sets, line);
}

static int grow(struct llct_sample_list *out)
{
	uint32_t cap = out->cap ? 2 * out->cap : 1024;
	struct llct_sample_entry *e = realloc(out->e, cap * sizeof(*e));
	if (!e)
		return LLCT_ERR_NOMEM;
	out->e = e;
	out->cap = cap;
	return LLCT_OK;
}

/* Appends access j (set s) of b to the list of variant v of plan p. */
static inline __attribute__((always_inline)) int push(struct llct_sample_list *out,
						      const struct llct_sample_cfg *p, unsigned v,
						      const struct llct_batch *b, uint32_t j,
						      uint32_t s)
{
	if (__builtin_expect(out->n == out->cap, 0) && grow(out))
		return LLCT_ERR_NOMEM;
	unsigned st = v && (p->keep[s] >> (v - 1) & 1) ? 0u : p->strat[s];
	out->addr_or |= b->addr[j];
	out->e[out->n++] = (struct llct_sample_entry){
	    b->addr[j], s, (uint8_t)(b->stream[j] | (b->op[j] != 0) << 4), (uint8_t)st};
	return LLCT_OK;
}

int llct_sample_select(const struct llct_sample_sel *s, const struct llct_batch *b,
		       struct llct_sample_list *out, uint32_t so_count[32])
{
	/* four histograms taking turns: one alone makes each increment wait on the one before
	 * whenever the stream repeats (most of the time), a quarter of the pass */
	uint32_t h4[4][32] = {{0}};
	uint32_t r = 0;
#define SO(k) ((b->stream[k] | (b->op[k] != 0) << 4) & 31)
	for (; r + 4 <= b->n; r += 4) {
		h4[0][SO(r)]++;
		h4[1][SO(r + 1)]++;
		h4[2][SO(r + 2)]++;
		h4[3][SO(r + 3)]++;
	}
	for (; r < b->n; r++)
		h4[0][SO(r)]++;
#undef SO
	for (unsigned k = 0; k < 32; k++)
		so_count[k] = h4[0][k] + h4[1][k] + h4[2][k] + h4[3][k];
	unsigned nv = s->n_var;
	for (size_t i = 0; i < s->n_p * nv; i++) {
		out[i].n = 0;
		out[i].addr_or = 0;
	}
	if (s->comb) { /* one table lookup an access for every plan */
		for (uint32_t j = 0; j < b->n; j++) {
			uint64_t line = b->addr[j] >> s->shift, x = line & s->comb_mask;
			if (!(s->comb_any[x / 64] >> x % 64 & 1)) /* most accesses */
				continue;
			for (uint64_t bits = s->comb[x]; bits; bits &= bits - 1) {
				unsigned i = (unsigned)__builtin_ctzll(bits), c = s->cfg_of[i];
				uint32_t set = (uint32_t)line & (s->p[c].sets - 1);
				if (push(&out[i], &s->p[c], s->var_of[i], b, j, set))
					return LLCT_ERR_NOMEM;
			}
		}
		return LLCT_OK;
	}
	for (uint32_t j = 0; j < b->n; j++) {
		uint64_t line = b->addr[j] >> s->shift;
		for (size_t c = 0; c < s->n_p; c++) {
			uint32_t set = set_in(s, c, line);
			for (unsigned bits = s->vbits[c][set]; bits; bits &= bits - 1) {
				unsigned v = (unsigned)__builtin_ctz(bits);
				if (push(&out[c * nv + v], &s->p[c], v, b, j, set))
					return LLCT_ERR_NOMEM;
			}
		}
	}
	return LLCT_OK;
}

int llct_sample_store_reserve(struct llct_sample_store *s, size_t n)
{
	if (n <= s->cap)
		return LLCT_OK;
	struct llct_sample_entry *e = llct_big_alloc(n * sizeof(*e));
	if (!e)
		return LLCT_ERR_NOMEM;
	if (s->n)
		memcpy(e, s->e, s->n * sizeof(*e));
	free(s->e);
	s->e = e;
	s->cap = n;
	return LLCT_OK;
}

int llct_sample_store_add(struct llct_sample_store *s, const struct llct_sample_list *l,
			  size_t frame_idx)
{
	if (!l->n)
		return LLCT_OK;
	if (s->n + l->n > UINT32_MAX - 1)
		return LLCT_ERR_INVALID;
	if (s->n + l->n > s->cap && llct_sample_store_reserve(s, 2 * (s->n + l->n) + (1 << 16)))
		return LLCT_ERR_NOMEM;
	if (!s->n_seg || s->seg[s->n_seg - 1].frame_idx != frame_idx) {
		if (s->n_seg == s->cap_seg) {
			size_t cap = s->cap_seg ? 2 * s->cap_seg : 64;
			struct llct_sample_seg *g = realloc(s->seg, cap * sizeof(*g));
			if (!g)
				return LLCT_ERR_NOMEM;
			s->seg = g;
			s->cap_seg = cap;
		}
		s->seg[s->n_seg++] = (struct llct_sample_seg){s->n, frame_idx};
	}
	memcpy(s->e + s->n, l->e, l->n * sizeof(*l->e));
	s->n += l->n;
	s->addr_or |= l->addr_or;
	return LLCT_OK;
}

void llct_sample_store_release(struct llct_sample_store *s)
{
	free(s->e);
	free(s->seg);
	free(s->next);
	memset(s, 0, sizeof(*s));
}

/* P(|T| <= t) for Student's t with dof degrees of freedom, as a function of th = atan(t /
 * sqrt(dof)): the finite series of Abramowitz & Stegun 26.7.3 (odd dof) and 26.7.4 (even). */
static double t_level(double th, unsigned dof)
{
	double c2 = cos(th) * cos(th), term = 1, sum = 1;
	if (dof % 2 == 0) {
		for (unsigned k = 2; k + 2 <= dof; k += 2) {
			term *= c2 * (k - 1) / k;
			sum += term;
		}
		return sin(th) * sum;
	}
	if (dof == 1)
		return 2 * th / M_PI;
	for (unsigned k = 3; k + 2 <= dof; k += 2) {
		term *= c2 * (k - 1) / k;
		sum += term;
	}
	return 2 / M_PI * (th + sin(th) * cos(th) * sum);
}

double llct_t_quantile(double level, unsigned dof)
{
	/* the level rises with th over (0, pi/2): bisect th, 200 halvings reach a double's
	 * precision; a series is exact at every dof, no table and no normal limit */
	double lo = 0, hi = M_PI / 2;
	for (int i = 0; i < 200 && hi - lo > 1e-17; i++) {
		double mid = (lo + hi) / 2;
		if (t_level(mid, dof) < level)
			lo = mid;
		else
			hi = mid;
	}
	return sqrt((double)dof) * tan((lo + hi) / 2);
}

/* A counter of one stream (or all, stream == LLCT_N_STREAMS) summed over frames: the three
 * of the estimates table, then traffic (reads + writes). */
enum { C_READS, C_READ_HITS, C_MISSES, N_C, C_TRAFFIC = N_C };
static double counter(const struct llct_frame_stats *fs, size_t nf, unsigned stream, int c)
{
	double v = 0;
	for (size_t f = 0; f < nf; f++)
		for (unsigned s = 0; s < LLCT_N_STREAMS; s++) {
			if (stream < LLCT_N_STREAMS && s != stream)
				continue;
			const struct llct_stream_stats *x = &fs[f].s[s];
			v += c == C_READS       ? (double)x->reads
			     : c == C_READ_HITS ? (double)x->read_hits
			     : c == C_TRAFFIC
				 ? (double)(x->reads + x->writes)
				 : (double)(x->reads + x->writes - x->read_hits - x->write_hits);
		}
	return v;
}

static uint64_t scale(uint64_t k, uint64_t f, double w)
{
	return k + (uint64_t)llround((double)f * w);
}

/* The standard error of the mean of k group estimates (NAN ones left out; 0 for k < 2), and
 * *dof = k - 1. */
static double std_error(const double *rg, size_t stride, unsigned used, unsigned *dof)
{
	double mean = 0, ss = 0;
	unsigned k = 0;
	for (unsigned g = 0; g < used; g++)
		if (!isnan(rg[g * stride])) {
			mean += rg[g * stride];
			k++;
		}
	mean = k ? mean / k : 0;
	for (unsigned g = 0; g < used; g++)
		if (!isnan(rg[g * stride]))
			ss += (rg[g * stride] - mean) * (rg[g * stride] - mean);
	*dof = k >= 2 ? k - 1 : 0;
	return k >= 2 ? sqrt(ss / (k - 1) / k) : 0;
}

/* Which streams get intervals is decided at 99% whatever the intervals' level, so that
 * intervals at any level (--confidence, --simultaneous) cover the same estimates. */
#define DIAG_LEVEL 0.99

/* The half-width of an interval at this two-sided level from k group estimates. */
static double spread(const double *rg, size_t stride, unsigned used, double level)
{
	unsigned dof;
	double se = std_error(rg, stride, used, &dof);
	return dof ? llct_t_quantile(level, dof) * se : 0;
}

/* Each frame's counters estimated from the strata (frame f of stratum 0, the sets replayed for
 * certain, then of each of the G groups): K + w F, K the certain sets', F the groups' sum. */
static void scale_frames(const struct llct_frame_stats *strata, size_t nf, unsigned G, double w,
			 struct llct_frame_stats *out)
{
	for (size_t f = 0; f < nf; f++) {
		const struct llct_frame_stats *K = &strata[f];
		struct llct_frame_stats *o = &out[f];
		uint32_t frame = o->frame;
		memset(o, 0, sizeof(*o));
		o->frame = frame;
		struct llct_frame_stats F;
		memset(&F, 0, sizeof(F));
		for (unsigned g = 0; g < G; g++) {
			const struct llct_frame_stats *x = &strata[(size_t)(1 + g) * nf + f];
			for (unsigned s = 0; s < LLCT_N_STREAMS; s++) {
				uint64_t *a = (uint64_t *)&F.s[s];
				const uint64_t *b = (const uint64_t *)&x->s[s];
				for (size_t i = 0; i < sizeof(F.s[s]) / sizeof(uint64_t); i++)
					a[i] += b[i];
			}
			F.rt_produced += x->rt_produced;
			F.rt_consumed += x->rt_consumed;
			F.z_produced += x->z_produced;
			F.z_consumed += x->z_consumed;
			for (int e = 0; e < 3; e++) {
				F.tex_entered[e] += x->tex_entered[e];
				F.tex_hits[e] += x->tex_hits[e];
				F.z_entered[e] += x->z_entered[e];
				F.z_hits[e] += x->z_hits[e];
			}
		}
		for (unsigned s = 0; s < LLCT_N_STREAMS; s++) {
			uint64_t *a = (uint64_t *)&o->s[s];
			const uint64_t *k = (const uint64_t *)&K->s[s],
				       *b = (const uint64_t *)&F.s[s];
			for (size_t i = 0; i < sizeof(o->s[s]) / sizeof(uint64_t); i++)
				a[i] = scale(k[i], b[i], w);
		}
		o->rt_produced = scale(K->rt_produced, F.rt_produced, w);
		o->rt_consumed = scale(K->rt_consumed, F.rt_consumed, w);
		o->z_produced = scale(K->z_produced, F.z_produced, w);
		o->z_consumed = scale(K->z_consumed, F.z_consumed, w);
		for (int e = 0; e < 3; e++) {
			o->tex_entered[e] = scale(K->tex_entered[e], F.tex_entered[e], w);
			o->tex_hits[e] = scale(K->tex_hits[e], F.tex_hits[e], w);
			o->z_entered[e] = scale(K->z_entered[e], F.z_entered[e], w);
			o->z_hits[e] = scale(K->z_hits[e], F.z_hits[e], w);
		}
	}
}

int llct_sample_estimate(const struct llct_sample_cfg *p, unsigned pred_bit,
			 const struct llct_frame_stats *strata, size_t nf,
			 const uint64_t (*exact)[32], double level, struct llct_frame_stats *out,
			 struct llct_estimate **est, size_t *n_est)
{
	unsigned pi = p->n_pred, G = p->groups;
	for (unsigned i = 0; i < p->n_pred; i++)
		if (pred_bit == 1u << i)
			pi = i;
	uint64_t samp = 0;
	for (unsigned g = 0; g < G; g++)
		samp += p->samp[pi][g];
	double w = samp ? (double)p->pop[pi] / (double)samp : 0;
	scale_frames(strata, nf, G, w, out); /* per frame: K + w F, every counter */
	/* estimates over the run with the groups' spread. A stream whose exact traffic (every
	 * set's) lies outside its estimated traffic's interval is not carried by the sampled
	 * sets (its traffic sits on a few hot lines they missed): its estimates get no interval,
	 * and the totals' intervals widen by all it could be -- read hits anywhere from 0 to its
	 * reads, misses from 0 to its accesses, reads off by what they are off by. */
	size_t n = 0;
	struct llct_estimate *e = calloc((LLCT_N_STREAMS + 1) * 4, sizeof(*e));
	if (!e)
		return LLCT_ERR_NOMEM;
	double widen[N_C] = {0}; /* the totals' extra half-widths */
	for (unsigned s = 0; s <= LLCT_N_STREAMS; s++) {
		double tot[N_C + 1], rg[LLCT_SAMPLE_MAX_GROUPS][N_C + 1],
		    rt[LLCT_SAMPLE_MAX_GROUPS];
		unsigned used = 0;
		for (int c = 0; c <= C_TRAFFIC; c++)
			tot[c] = counter(out, nf, s, c);
		if (tot[C_READS] == 0 && tot[C_MISSES] == 0)
			continue; /* a stream with no traffic */
		/* groups where the quantity is not 0 (seen[N_C]: read hits, as a rate needs) */
		unsigned seen[N_C + 1] = {0}, seen_t = 0;
		for (unsigned g = 0; g < G; g++) {
			if (!p->samp[pi][g])
				continue;
			const struct llct_frame_stats *sg = &strata[(size_t)(1 + g) * nf];
			for (int c = 0; c < N_C; c++)
				seen[c] += counter(sg, nf, s, c) > 0;
			seen[N_C] += counter(sg, nf, s, C_READ_HITS) > 0;
			seen_t += counter(sg, nf, s, C_TRAFFIC) > 0;
			double wg = (double)p->pop[pi] / (double)p->samp[pi][g];
			for (int c = 0; c < N_C; c++)
				rg[used][c] =
				    counter(strata, nf, s, c) + wg * counter(sg, nf, s, c);
			rt[used] =
			    counter(strata, nf, s, C_TRAFFIC) + wg * counter(sg, nf, s, C_TRAFFIC);
			rg[used][N_C] =
			    rg[used][C_READS] > 0 ? rg[used][C_READ_HITS] / rg[used][C_READS] : NAN;
			used++;
		}
		int off = 0; /* the sampled sets do not carry this stream */
		if (exact && s < LLCT_N_STREAMS) {
			double R = 0, W = 0;
			for (size_t f = 0; f < nf; f++) {
				R += (double)exact[f][s];
				W += (double)exact[f][s | 16];
			}
			/* traffic on too few sets for an interval is not known to be carried */
			double half_t = 2 * seen_t >= used ? spread(rt, 1, used, DIAG_LEVEL) : -1;
			if (fabs(R + W - tot[C_TRAFFIC]) > half_t) {
				off = 1;
				widen[C_READS] += fabs(R - tot[C_READS]);
				widen[C_READ_HITS] += fmax(tot[C_READ_HITS], R - tot[C_READ_HITS]);
				widen[C_MISSES] += fmax(tot[C_MISSES], R + W - tot[C_MISSES]);
			}
		}
		double half_reads = NAN;
		for (int c = 0; c <= N_C; c++) {
			double v = c < N_C            ? tot[c]
				   : tot[C_READS] > 0 ? tot[C_READ_HITS] / tot[C_READS]
						      : NAN;
			if (isnan(v))
				continue;
			unsigned dof;
			double se = std_error(&rg[0][c], N_C + 1, used, &dof);
			double half = dof ? llct_t_quantile(level, dof) * se : 0;
			/* traffic on the keep sets alone is exact; traffic that reached fewer than
			 * half of the groups is too concentrated on a few sets for an interval */
			if (2 * seen[c] < used || off)
				half = se = NAN;
			/* reads known to no better than half their value: the stream's traffic sits
			 * on a few lines, and groups that caught the same few lines agree however
			 * unlike the rest those lines are (their spread can be 0): its read hits
			 * and hit rate get no interval */
			if (c == C_READS)
				half_reads = isnan(se) ? NAN
					     : dof     ? llct_t_quantile(DIAG_LEVEL, dof) * se
						       : 0;
			else if ((c == C_READ_HITS || c == N_C) && s < LLCT_N_STREAMS &&
				 !(half_reads <= 0.5 * tot[C_READS]))
				half = se = NAN;
			if (s == LLCT_N_STREAMS && c < N_C)
				half += widen[c];
			else if (s == LLCT_N_STREAMS &&
				 (widen[C_READS] > 0 || widen[C_READ_HITS] > 0)) {
				/* the rate between its lowest and highest hits over reads */
				double lo = (tot[C_READ_HITS] - widen[C_READ_HITS]) /
					    (tot[C_READS] + widen[C_READS]),
				       hi = tot[C_READS] > widen[C_READS]
						? (tot[C_READ_HITS] + widen[C_READ_HITS]) /
						      (tot[C_READS] - widen[C_READS])
						: 1;
				lo = lo < 0 ? 0 : lo;
				hi = hi > 1 ? 1 : hi;
				half += fmax(v - lo, hi - v);
			}
			e[n++] = (struct llct_estimate){
			    (uint8_t)s, (uint8_t)c,          v,    half, seen[c],
			    se,         isnan(se) ? 0 : dof, level};
		}
	}
	*est = e;
	*n_est = n;
	return LLCT_OK;
}
