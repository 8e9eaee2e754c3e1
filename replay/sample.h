/* sample.h - private to replay/: set-sampled replay (sample.c). */
#ifndef LLCT_REPLAY_SAMPLE_H
#define LLCT_REPLAY_SAMPLE_H

#include "llct/replay.h"

#define LLCT_SAMPLE_MAX_GROUPS (LLCT_SAMPLE_STRATA - 1)
#define LLCT_SAMPLE_MAX_PREDS 8
#define LLCT_SAMPLE_MAX_CFGS 256 /* a sweep's configurations of one decode */

/* The sampling plan of one cache configuration. */
struct llct_sample_cfg {
	struct llct_cache_config cfg;
	uint32_t sets, n, groups;
	uint8_t *keep;  /* per set: bit i when pred[i] keeps it */
	uint8_t *strat; /* per set: 1 + its group when sampled, else 0xff */
	int (*pred[LLCT_SAMPLE_MAX_PREDS])(const struct llct_cache_geom *, uint32_t);
	unsigned n_pred;
	/* by predicate i (n_pred: none): non-keep sets, sampled non-keep sets per group */
	uint64_t pop[LLCT_SAMPLE_MAX_PREDS + 1];
	uint64_t samp[LLCT_SAMPLE_MAX_PREDS + 1][LLCT_SAMPLE_MAX_GROUPS];
};

/* Plans sampling 1/n of cfg's sets for these policies' keep sets. */
int llct_sample_plan(struct llct_sample_cfg *p, const struct llct_cache_config *cfg, uint32_t n,
		     const struct llct_policy_ops *const *pols, size_t n_pols, char *err,
		     size_t err_size);
void llct_sample_plan_release(struct llct_sample_cfg *p);
/* The policy's keep-set bit in p->keep (0: it has none). */
unsigned llct_sample_pred_bit(const struct llct_sample_cfg *p, const struct llct_policy_ops *pol);
/* The list variant a model of this keep-set bit replays: 0 the sampled sets alone (a policy
 * with no keep sets), 1 + i the sampled sets and pred[i]'s keep sets. */
unsigned llct_sample_variant(unsigned pred_bit);

/* How a batch's accesses are dealt to the lists: list c * n_var + v holds, in order, what
 * variant v of plan c replays, each entry with its stratum. */
struct llct_sample_sel {
	const struct llct_sample_cfg *p;
	size_t n_p;
	unsigned n_var, shift;
	uint16_t *vbits[LLCT_SAMPLE_MAX_CFGS]; /* per set of plan c: the variants it is in */
	uint8_t set_bits[LLCT_SAMPLE_MAX_CFGS], xor_hash[LLCT_SAMPLE_MAX_CFGS];
	uint32_t set_mask[LLCT_SAMPLE_MAX_CFGS]; /* 0: the sets are not a power of two */
	/* every plan a power-of-two mask of the same line: one table for all of them, per
	 * line & comb_mask, bit c * n_var + v when variant v of plan c wants the line's set */
	uint64_t *comb;
	uint64_t *comb_any; /* bit x: comb[x] != 0, a table small enough to stay in the L1 */
	uint32_t comb_mask;
	uint8_t cfg_of[64], var_of[64];
};

/* Sets up the selection for plans p[0..n_p) (one policy list: the same predicates) and the
 * variants in use (bit v). */
int llct_sample_sel_init(struct llct_sample_sel *s, const struct llct_sample_cfg *p, size_t n_p,
			 unsigned use);
void llct_sample_sel_release(struct llct_sample_sel *s);
/* The accesses of b into out[c * n_var + v], in order; one pass over b, which also counts
 * every access of b by stream | write << 4 into so_count. */
int llct_sample_select(const struct llct_sample_sel *s, const struct llct_batch *b,
		       struct llct_sample_list *out, uint32_t so_count[32]);

/* A list of a set-sampled replay kept whole, for the models that need next uses (Belady): they
 * replay after the pass, from it. */
struct llct_sample_store {
	struct llct_sample_entry *e;
	size_t n, cap;
	struct llct_sample_seg {
		size_t at, frame_idx; /* entries from `at` on count in this frame */
	} * seg;
	size_t n_seg, cap_seg;
	uint64_t *next;   /* after llct_sample_store_next_uses (engine.h) */
	uint64_t addr_or; /* the OR of the lists' addr_or */
};

/* Makes room for n entries (a guess of the list's size, so that it rarely grows). */
int llct_sample_store_reserve(struct llct_sample_store *s, size_t n);
/* Appends a batch's list, of frame frame_idx. LLCT_ERR_INVALID past 2^32 - 1 entries. */
int llct_sample_store_add(struct llct_sample_store *s, const struct llct_sample_list *l,
			  size_t frame_idx);
void llct_sample_store_release(struct llct_sample_store *s);
/* From a model's per-stratum counts (strata[st * nf + f], st 0 keep, 1..groups sampled)
 * writes the estimated frames out[] (frame numbers kept) and the run's estimates. exact[f]
 * (NULL: not known): frame f's accesses over every set by stream | write << 4, which checks
 * whether the sampled sets carry each stream's traffic. Intervals are two-sided at this level
 * (0.99: 99%). */
int llct_sample_estimate(const struct llct_sample_cfg *p, unsigned pred_bit,
			 const struct llct_frame_stats *strata, size_t nf,
			 const uint64_t (*exact)[32], double level, struct llct_frame_stats *out,
			 struct llct_estimate **est, size_t *n_est);

/* The t with P(|T| <= t) = level for Student's t with dof >= 1 degrees of freedom (0 < level
 * < 1): 2.947 for 0.99 and 15. */
double llct_t_quantile(double level, unsigned dof);

#endif
