/* replay_summary.c - what `replay` prints when it is done: each configuration's table (or the
 * co-run's), read back from the results database's views, the set-sampling note, and one line
 * saying how much was replayed and where the results went. */
#include "cli.h"
#include "replay_job.h"

#include <stdio.h>

int replay_print_summary(struct llct_results *db, const struct replay_job *a, const char *llc_text,
			 size_t llc_stride, const char *out_path)
{
	int rc = 0;
	if (a->k.corun) {
		if (cli_print_corun_table(llct_results_handle(db), a->first_id, (int64_t)a->n_pol))
			rc = 1;
		fprintf(stderr, "co-ran %zu traces x %zu polic%s in %.2fs; results in '%s'\n",
			a->n_traces, a->n_pol, a->n_pol == 1 ? "y" : "ies", a->wall_s, out_path);
		return rc;
	}
	for (size_t k = 0; k < (a->n_sweep ? a->n_sweep : 1); k++) {
		if (a->n_sweep)
			printf("%sLLC %s\n", k ? "\n" : "", llc_text + k * llc_stride);
		if (cli_print_replay_table(llct_results_handle(db), a->cfg_first[k],
					   (int64_t)a->n_pol))
			rc = 1;
	}
	cli_print_replay_footnote(a->cache.ucd);
	if (a->k.sample_sets > 1) {
		uint32_t sets = llct_cache_sets(&a->cache);
		double conf = a->k.confidence > 0 ? a->k.confidence : 0.99;
		char how[96];
		if (a->family)
			snprintf(how, sizeof(how), "%.4g%% for all %u estimates together",
				 100 * conf, a->family);
		else
			snprintf(how, sizeof(how), "%.4g%% each", 100 * conf);
		printf("(estimates from 1 in %u sets, ~%u of %u; their intervals, %s: "
		       "SELECT * FROM estimates)\n",
		       a->k.sample_sets, sets / a->k.sample_sets, sets, how);
		if (sets / a->k.sample_sets < 256)
			fprintf(stderr,
				"note: fewer than 256 sets sampled: traffic that sits on a few "
				"sets (HiZ, small buffers) may be missed; sample more sets (a "
				"smaller N) for tighter estimates\n");
	}
	fprintf(stderr,
		"replayed %llu records x %zu polic%s%s%.0zu%s%s in %.2fs; results in '%s'\n",
		(unsigned long long)a->records, a->n_pol, a->n_pol == 1 ? "y" : "ies",
		a->n_sweep ? " x " : "", a->n_sweep, a->n_sweep ? " LLC sizes" : "",
		a->one_pass ? " in one pass (LRU stack distances)" : "", a->wall_s, out_path);
	return rc;
}
