/* options.c - what a replay is asked and what it hands back: the options checked before
 * anything is allocated (llct_replay_run's first step), and the results freed. */
#include "engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int llct_replay_check_options(const struct llct_replay_options *o, char *err, size_t err_size)
{
	if (llct_cache_config_check(&o->cache, err, err_size) || o->n_policies == 0)
		return LLCT_ERR_INVALID;
	for (size_t m = 0; o->caches && m < o->n_policies; m++) {
		if (llct_cache_config_check(&o->caches[m], err, err_size))
			return LLCT_ERR_INVALID;
		if (o->caches[m].line != o->cache.line || o->caches[m].ucd != o->cache.ucd) {
			snprintf(err, err_size,
				 "models replayed together must share the line size and UCD");
			return LLCT_ERR_INVALID;
		}
	}
	if ((o->per_kernel || o->flow) && o->sample_sets > 1) {
		snprintf(err, err_size, "%s need every set replayed: not with --sample-sets",
			 o->per_kernel ? "per-kernel counts" : "pass-to-pass counts");
		return LLCT_ERR_INVALID;
	}
	if (o->one_pass) {
		const char *why = NULL;
		for (size_t m = 0; m < o->n_policies && !why; m++) {
			const struct llct_cache_config *c = o->caches ? &o->caches[m] : &o->cache;
			if (strcmp(o->policies[m]->name, "lru") != 0)
				why = "every policy is LRU";
			else if (c->write_policy || c->sector)
				why = "write-allocate and unsectored lines";
		}
		if (!why && o->n_policies > 64)
			why = "at most 64 sizes";
		if (!why && (o->part || o->dyn_plan || o->contention || o->per_kernel || o->flow ||
			     o->sample_sets > 1))
			why =
			    "no partitions, bypass, colors, contention, per-kernel or pass-to-pass "
			    "counts or set sampling";
		if (why) {
			snprintf(err, err_size, "one-pass miss curves need %s", why);
			return LLCT_ERR_INVALID;
		}
	}
	if (!(o->sample_level >= 0 && o->sample_level < 1)) {
		snprintf(err, err_size, "an interval's level is between 0 and 1, not %g",
			 o->sample_level);
		return LLCT_ERR_INVALID;
	}
	return LLCT_OK;
}

void llct_replay_results_free(struct llct_replay_result *res, size_t n)
{
	if (!res)
		return;
	for (size_t i = 0; i < n; i++) {
		for (size_t f = 0; res[i].frames && f < res[i].n_frames; f++)
			llct_contention_free(res[i].frames[f].cont);
		free(res[i].frames);
		free(res[i].plog);
		free(res[i].est);
		free(res[i].kstats);
		free(res[i].flow);
	}
	free(res);
}
