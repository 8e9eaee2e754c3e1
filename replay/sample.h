/* sample.h - private to replay/: set-sampled replay (sample.c). */
#ifndef LLCT_REPLAY_SAMPLE_H
#define LLCT_REPLAY_SAMPLE_H

#include "llct/replay.h"

#define LLCT_SAMPLE_MAX_GROUPS 16
#define LLCT_SAMPLE_MAX_PREDS 8
#define LLCT_SAMPLE_MAX_CFGS 256 /* a sweep's configurations of one decode */

/* The sampling plan of one cache configuration. */
struct llct_sample_cfg {
	struct llct_cache_config cfg;
	uint32_t sets, n, groups;
	uint8_t *keep;  /* per set: bit i when pred[i] keeps it */
	uint8_t *strat; /* per set: 1 + its group when sampled, else 0xff */
	uint8_t *want;  /* per set: a keep set or sampled */
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
/* The accesses of b the sampled models of each plan p[c] may replay (keep or sampled sets),
 * in order, into out[c]; one pass over b. */
int llct_sample_select(const struct llct_sample_cfg *p, size_t n_p, const struct llct_batch *b,
		       int ucd, struct llct_sample_list *out);
/* From a model's per-stratum counts (strata[st * nf + f], st 0 keep, 1..groups sampled)
 * writes the estimated frames out[] (frame numbers kept) and the run's estimates. */
int llct_sample_estimate(const struct llct_sample_cfg *p, unsigned pred_bit,
			 const struct llct_frame_stats *strata, size_t nf,
			 struct llct_frame_stats *out, struct llct_estimate **est, size_t *n_est);

#endif
