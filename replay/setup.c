/* setup.c - the replay engine's setting up and handing over (replay.c drives the windows
 * between): the models, one per policy with its trackers; set sampling's plans, strata, list
 * variants and stores; and, after the last window, what each model hands to its result. */
#include "engine.h"
#include "lines.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The models, one per policy, each on its configuration with its trackers and results. LLCT_OK,
 * else the status (LLCT_ERR_NOMEM, or the cache's). */
int llct_engine_make_models(struct engine *e, const struct llct_replay_options *o,
			    struct llct_replay_result *res, const uint32_t *sel_frame, size_t n_sel,
			    int *need_next)
{
	int st;
	e->n_models = o->n_policies;
	for (size_t m = 0; m < o->n_policies; m++) {
		res[m].policy = o->policies[m];
		res[m].n_frames = n_sel;
		res[m].frames = calloc(n_sel ? n_sel : 1, sizeof(*res[m].frames));
		if (!res[m].frames)
			return LLCT_ERR_NOMEM;
		for (size_t f = 0; f < n_sel; f++)
			res[m].frames[f].frame = sel_frame[f];
		const struct llct_cache_config *cc = o->caches ? &o->caches[m] : &o->cache;
		e->models[m].res = &res[m];
		e->models[m].frame_idx = SIZE_MAX;
		*need_next |= o->policies[m]->needs_next_use;
		if (o->one_pass) /* the stacks replay them (mrc.c) */
			continue;
		if ((st = llct_cache_create(cc, o->policies[m], &e->models[m].cache)))
			return st;
		llct_cache_set_partition(e->models[m].cache, o->part);
		if (o->contention &&
		    (st = llct_cache_track_contention(e->models[m].cache,
						      (enum llct_owner_by)o->contention_by)))
			return st;
		if (o->per_kernel && (st = llct_cache_track_kernels(e->models[m].cache)))
			return st;
		if (o->flow && (st = llct_cache_track_flow(e->models[m].cache)))
			return st;
		if (o->dyn_plan) {
			struct llct_dynpart *d = calloc(1, sizeof(*d));
			e->models[m].dyn = d;
			if (!d || llct_dynpart_init(d, o->dyn_plan, cc, o->part))
				return LLCT_ERR_NOMEM;
			llct_dynpart_start(d, o->start_counts);
			llct_cache_set_dynpart(e->models[m].cache, d);
		}
		res[m].peak_state = llct_cache_state_bytes(e->models[m].cache);
	}
	return o->one_pass ? llct_mrc_setup(e, o) : LLCT_OK;
}

/* Set-sampled replays: a plan per distinct configuration, strata per model, the list
 * variants the models replay, and stores for those that need next uses. LLCT_OK; else the
 * status, with the message in err unless it is LLCT_ERR_NOMEM. */
int llct_engine_setup_sampling(struct engine *e, const struct llct_replay_options *o, size_t n_sel,
			       uint64_t total, struct window *win, uint64_t (**exact)[32],
			       char *err, size_t err_size)
{
	int st;
	if (o->part || o->dyn_plan || o->contention) {
		snprintf(err, err_size,
			 "set sampling does not combine with partitions, bypass, colors or "
			 "contention tracking");
		return LLCT_ERR_INVALID;
	}
	if (!(e->sp = calloc(o->n_policies, sizeof(*e->sp))))
		return LLCT_ERR_NOMEM;
	for (size_t m = 0; m < e->n_models; m++) {
		const struct llct_cache_config *cc = o->caches ? &o->caches[m] : &o->cache;
		size_t c = 0;
		while (c < e->n_sp && memcmp(&e->sp[c].cfg, cc, sizeof(*cc)))
			c++;
		if (c == e->n_sp) {
			if (e->n_sp == LLCT_SAMPLE_MAX_CFGS) {
				snprintf(err, err_size,
					 "a sampled replay takes at most %d configurations",
					 LLCT_SAMPLE_MAX_CFGS);
				return LLCT_ERR_INVALID;
			}
			if ((st = llct_sample_plan(&e->sp[c], cc, o->sample_sets, o->policies,
						   o->n_policies, err, err_size)))
				return st;
			e->n_sp++;
		}
		struct model *md = &e->models[m];
		md->sp = &e->sp[c];
		md->cfg_idx = c;
		md->pred_bit = llct_sample_pred_bit(md->sp, o->policies[m]);
		md->n_frames = n_sel;
		md->strata =
		    calloc((1 + md->sp->groups) * (n_sel ? n_sel : 1), sizeof(*md->strata));
		md->scratch = calloc(LLCT_SAMPLE_SCRATCH, sizeof(*md->scratch));
		if (!md->strata || !md->scratch)
			return LLCT_ERR_NOMEM;
	}
	unsigned use = 0; /* the list variants some model replays */
	for (size_t m = 0; m < e->n_models; m++)
		use |= 1u << llct_sample_variant(e->models[m].pred_bit);
	if (llct_sample_sel_init(&e->sel, e->sp, e->n_sp, use))
		return LLCT_ERR_NOMEM;
	for (size_t m = 0; m < e->n_models; m++) {
		e->models[m].list_idx = e->models[m].cfg_idx * e->sel.n_var +
					llct_sample_variant(e->models[m].pred_bit);
		if (o->policies[m]->needs_next_use) { /* see engine.stores */
			size_t l = e->models[m].list_idx;
			e->models[m].deferred = 1;
			e->models[m].keeper = !e->stores || !e->stores[l];
			if (!e->stores &&
			    !(e->stores = calloc(e->n_sp * e->sel.n_var, sizeof(*e->stores))))
				return LLCT_ERR_NOMEM;
			if (!e->stores[l] && !(e->stores[l] = calloc(1, sizeof(*e->stores[l]))))
				return LLCT_ERR_NOMEM;
			/* room for the list's share of the sets' accesses, and some: a
			 * guess, so where the memory is not there it grows as it fills */
			const struct llct_sample_cfg *p = md_plan(e, l);
			uint64_t in = 0;
			for (uint32_t set = 0; set < p->sets; set++)
				in += e->sel.vbits[l / e->sel.n_var][set] >> l % e->sel.n_var & 1;
			uint64_t guess = total / p->sets * in * 5 / 4 + (1 << 16);
			(void)llct_sample_store_reserve(
			    e->stores[l], guess < UINT32_MAX ? (size_t)guess : UINT32_MAX);
		}
	}
	if (!(*exact = calloc(n_sel ? n_sel : 1, sizeof(**exact))))
		return LLCT_ERR_NOMEM;
	for (int k = 0; k < 2; k++)
		for (int i = 0; i < WINDOW; i++)
			if (!(win[k].lists[i] =
				  calloc(e->n_sp * e->sel.n_var, sizeof(*win[k].lists[i]))))
				return LLCT_ERR_NOMEM;
	return LLCT_OK;
}

/* After the last window: each model's estimates (set-sampled), per-kernel counts and dynamic
 * partitioning decisions go to its result. LLCT_OK or LLCT_ERR_NOMEM. */
int llct_engine_hand_over(struct engine *e, const struct llct_replay_options *o,
			  struct llct_replay_result *res, size_t n_sel, const uint64_t (*exact)[32])
{
	for (size_t m = 0; m < e->n_models; m++)
		if (e->models[m].sp) { /* estimates from the strata */
			struct model *md = &e->models[m];
			if (llct_sample_estimate(md->sp, md->pred_bit, md->strata, n_sel, exact,
						 o->sample_level > 0 ? o->sample_level : 0.99,
						 res[m].frames, &res[m].est, &res[m].n_est))
				return LLCT_ERR_NOMEM;
			res[m].sample_sets = o->sample_sets;
			res[m].sample_groups = md->sp->groups;
		}
	for (size_t m = 0; m < e->n_models; m++)
		if (o->per_kernel &&
		    llct_cache_kernel_stats(e->models[m].cache, &res[m].kstats, &res[m].n_kstats))
			return LLCT_ERR_NOMEM;
	for (size_t m = 0; m < e->n_models; m++)
		if (o->flow && llct_cache_flow(e->models[m].cache, &res[m].flow, &res[m].n_flow))
			return LLCT_ERR_NOMEM;
	for (size_t m = 0; m < e->n_models; m++)
		if (e->models[m].dyn) { /* hand the decisions over */
			res[m].plog = e->models[m].dyn->log;
			res[m].n_plog = e->models[m].dyn->n_log;
			e->models[m].dyn->log = NULL;
		}
	return LLCT_OK;
}
