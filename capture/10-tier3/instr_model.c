/* instr_model.c - tier 3's lanes' touches handed to the footprint model in their order: directly
 * on the expansion's thread, or, for a round of many touches with the crew beside it, the render
 * caches' step split by SM over the crew's threads (llct_fp_split_*, every SM's caches its own;
 * the lanes group their touches by SM as they finish) and only the records written here, in the
 * same order: the trace is the same either way. */
#include "instr.h"
#include "instr_crew.h"

#include <stdlib.h>
#include <string.h>

struct split_ctx {
	struct llct_fp *fp;
	struct llct_fp_split s;
	double secs[64];
};

static void split_job(void *ctx, unsigned k)
{
	struct split_ctx *x = ctx;
	double t0 = capture_mono_s();
	llct_fp_split_job(x->fp, &x->s, k);
	x->secs[k] = capture_mono_s() - t0;
}

/* Threads the step is split over at the least: from two, the grouping (one pass on the lanes'
 * threads), the jobs and the copy of their records (on the expansion's) cost about what the
 * step on one thread does (bench_fp_split: 3.3 + 3.0 + 0.3 ns an access against 6.2), and a
 * thread a share takes 3.4 ns an access with two shares, 1.9 with four, 0.8 with 16. */
#define LEAST_SHARES 2

unsigned instr_model_groups(struct capture_device *c, uint64_t records)
{
	/* a draw or dispatch of fewer records than half split_min is taken to make too few
	   touches for a split round (a record's texel lines are one or two, mostly): its lanes
	   do not group them (if one does make enough, its round is stepped here, as ever) */
	uint64_t least = c->t3->split_min ? c->t3->split_min : 1;
	unsigned g =
	    c->t3->crew && records >= (least + 1) / 2 ? instr_crew_workers(c->t3->crew) + 1 : 1;
	return g < LEAST_SHARES ? 1 : g > 64 ? 64 : g;
}

void instr_model_touches(struct capture_device *c, const struct llct_fp_access *const *a,
			 const struct llct_fp_group *const *g, const size_t *n, unsigned n_batches,
			 struct llct_fp_batch *b)
{
	struct tier3_state *t = c->t3;
	struct llct_fp *fp = c->out->fp;
	unsigned groups = instr_model_groups(c, UINT64_MAX);
	size_t total = 0;
	for (unsigned q = 0; q < n_batches; q++)
		total += n[q];
	/* below split_min touches (16384 unless set), the crew's round costs more than the step it
	   shares */
	int split = groups > 1 && total >= (t->split_min ? t->split_min : 1);
	if (split && !t->split) {
		t->split =
		    aligned_alloc(64, sizeof(struct split_ctx)); /* its parts on lines apart */
		if (t->split)
			memset(t->split, 0, sizeof(struct split_ctx));
	}
	struct split_ctx *x = t->split;
	if (!split || !x || llct_fp_split_init(&x->s, a, g, n, n_batches, groups, b)) {
		for (unsigned q = 0; q < n_batches; q++) /* the step here, batch by batch */
			llct_fp_touch_batch(fp, a[q], n[q], b);
		return;
	}
	x->fp = fp;
	instr_crew_post(t->crew, split_job, x, groups);
	instr_crew_finish(t->crew);
	llct_fp_split_write(fp, &x->s, b);
	for (unsigned k = 0; k < groups; k++)
		t->split_s += x->secs[k];
}

void instr_model_free(struct capture_device *c)
{
	if (c->t3->split)
		llct_fp_split_free(&((struct split_ctx *)c->t3->split)->s);
	free(c->t3->split);
	c->t3->split = NULL;
}
