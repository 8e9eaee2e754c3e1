/* replay_job.c - one replay as `replay` and `batch` describe it: settings checked and resolved
 * into the engine's options, the replay or co-run, and its runs written through db/. */
#include "replay_job.h"
#include "cli.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

const char *replay_corun_policies(void)
{
	/* every policy of the registry that needs no future (Belady's do): a co-run interleaves
	   tenants as they come, and a policy added by docs/POLICIES.md's steps is in at once */
	static char list[1024];
	if (!list[0]) {
		size_t at = 0;
		for (const struct llct_policy_ops *const *p = llct_policies; *p; p++)
			if (!(*p)->needs_next_use && at < sizeof(list))
				at += (size_t)snprintf(list + at, sizeof(list) - at, "%s%s",
						       at ? "," : "", (*p)->name);
	}
	return list;
}

int replay_parse_write_policy(const char *s, enum llct_write_policy *out)
{
	static const char *const names[] = {"allocate", "no-allocate", "evict"};
	for (int k = 0; k < 3; k++)
		if (strcmp(s, names[k]) == 0) {
			*out = (enum llct_write_policy)k;
			return 1;
		}
	return 0;
}

int replay_parse_owner_by(const char *s, enum llct_owner_by *out)
{
	for (int k = LLCT_OWNER_TENANT; k <= LLCT_OWNER_STREAM; k++)
		if (strcmp(s, llct_owner_by_name(k)) == 0) {
			*out = (enum llct_owner_by)k;
			return 1;
		}
	return 0;
}

void replay_job_init(struct replay_job *j)
{
	memset(j, 0, sizeof(*j));
	j->cache = (struct llct_cache_config)LLCT_CACHE_CONFIG_INIT;
	j->k.hit_lat = LLCT_DEFAULT_HIT_LATENCY;
	j->k.miss_lat = LLCT_DEFAULT_MISS_LATENCY;
	j->k.page_size = 4096;
	j->first_id = -1;
}

/* "unknown policy 'X'; did you mean 'Y'? (the policies: ...)" */
static void unknown_policy(const char *t, char *err, size_t err_size)
{
	const char *names[REPLAY_MAX_POLICIES + 1];
	size_t n = 0, at;
	for (const struct llct_policy_ops *const *p = llct_policies; *p && n < REPLAY_MAX_POLICIES;
	     p++)
		names[n++] = (*p)->name;
	names[n++] = "all";
	const char *near = cli_nearest(t, names, n);
	at = (size_t)snprintf(err, err_size, "unknown policy '%s'", t);
	if (near && at < err_size)
		at += (size_t)snprintf(err + at, err_size - at, "; did you mean '%s'?", near);
	for (size_t i = 0; i < n && at < err_size; i++)
		at += (size_t)snprintf(err + at, err_size - at, "%s%s%s",
				       i ? ", " : " (policies: ", names[i], i + 1 == n ? ")" : "");
}

int replay_parse_policies(const char *list, const struct llct_policy_ops **out, size_t *n,
			  char *err, size_t err_size)
{
	char buf[1024], *save = NULL;
	*n = 0;
	if (strlen(list) >= sizeof(buf)) {
		snprintf(err, err_size, "policy list too long");
		return -1;
	}
	strcpy(buf, list);
	/* names case-insensitive, separated by commas and/or spaces; "all" adds every policy */
	for (char *t = strtok_r(buf, ", \t", &save); t; t = strtok_r(NULL, ", \t", &save)) {
		const struct llct_policy_ops *one[2] = {llct_policy_find(t), NULL};
		const struct llct_policy_ops *const *add = one;
		if (strcasecmp(t, "all") == 0)
			add = llct_policies;
		else if (!one[0]) {
			unknown_policy(t, err, err_size);
			return -1;
		}
		for (; *add; add++) {
			int dup = 0;
			for (size_t i = 0; i < *n; i++)
				dup |= out[i] == *add;
			if (!dup && *n < REPLAY_MAX_POLICIES)
				out[(*n)++] = *add;
		}
	}
	if (!*n) {
		snprintf(err, err_size, "no policy in '%s'", list);
		return -1;
	}
	return 0;
}

char *replay_cell_key(const struct replay_cell *c)
{
	char key[8192];
	size_t at = 0;
	for (size_t t = 0; t < c->n_ids && at < sizeof(key); t++)
		at += (size_t)snprintf(key + at, sizeof(key) - at, "%s%s",
				       t ? "," : "trace=", c->ids[t]);
	if (at >= sizeof(key))
		return NULL;
	at += (size_t)snprintf(
	    key + at, sizeof(key) - at,
	    "|llc=%llu:%u:%u|hash=%s|banks=%u|sample_period=%u|ucd=%d|frames=%s|partition=%s"
	    "|partition_by=%s|bypass=%s|contention_by=%s|colors=%s|page_size=%u|latency=%g/%g"
	    "|mlp=%s",
	    (unsigned long long)c->cache->size, c->cache->ways, c->cache->line,
	    c->cache->hash == LLCT_HASH_XOR ? "xor" : "mod", c->cache->banks,
	    c->cache->sample_period, c->cache->ucd, c->k.frames ? c->k.frames : "all",
	    c->k.partition ? c->k.partition : "none",
	    c->k.part_by == LLCT_CLASS_STREAM ? "stream" : "tenant",
	    c->k.bypass ? c->k.bypass : "none",
	    c->k.contention ? llct_owner_by_name(c->k.contention_by) : "none",
	    c->k.colors ? c->k.colors : "none", c->k.colors ? c->k.page_size : 0,
	    c->k.corun ? c->k.hit_lat : 0, c->k.corun ? c->k.miss_lat : 0,
	    c->k.mlp ? c->k.mlp : "default");
	if (c->k.sample_sets && at < sizeof(key))
		at += (size_t)snprintf(key + at, sizeof(key) - at, "|sample_sets=1/%u",
				       c->k.sample_sets);
	if (c->k.sample_sets && (c->k.confidence != 0.99 || c->k.simultaneous) && at < sizeof(key))
		at += (size_t)snprintf(key + at, sizeof(key) - at, "|confidence=%.10g%s",
				       c->k.confidence, c->k.simultaneous ? "|simultaneous" : "");
	if (c->cache->write_policy && at < sizeof(key)) /* only when not the default, as below */
		at += (size_t)snprintf(key + at, sizeof(key) - at, "|write=%s",
				       llct_write_policy_name(c->cache->write_policy));
	if (c->cache->sector && at < sizeof(key))
		at += (size_t)snprintf(key + at, sizeof(key) - at, "|sector=%u", c->cache->sector);
	if (c->k.per_kernel && at < sizeof(key)) /* only when set: older keys stay as they were */
		at += (size_t)snprintf(key + at, sizeof(key) - at, "|per_kernel");
	else if (c->k.flow && at < sizeof(key)) /* --per-kernel counts the flow too */
		at += (size_t)snprintf(key + at, sizeof(key) - at, "|flow");
	return at < sizeof(key) ? strdup(key) : NULL;
}

int replay_parse_mlp(const char *s, double *mlp)
{
	char buf[512], *save = NULL;
	size_t k = 0;
	if (strlen(s) >= sizeof(buf))
		return 0;
	strcpy(buf, s);
	for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		char *end;
		double v = strtod(t, &end);
		if (*end || !(v > 0) || v > 1e6 || k >= LLCT_MAX_CLASSES)
			return 0;
		mlp[k++] = v;
	}
	if (k == 1) /* one value for every tenant */
		for (size_t i = 1; i < LLCT_MAX_CLASSES; i++)
			mlp[i] = mlp[0];
	return k > 0;
}

/* Tenant t's page colors as ranges, "0-15,32". */
static void colors_text(const struct llct_partition *p, size_t t, char *buf, size_t size)
{
	size_t at = 0;
	buf[0] = '\0';
	for (uint32_t i = 0; i < p->n_colors[t] && at + 16 < size;) {
		uint32_t j = i;
		while (j + 1 < p->n_colors[t] && p->colors[t][j + 1] == p->colors[t][j] + 1)
			j++;
		if (j > i)
			at += (size_t)snprintf(buf + at, size - at, "%s%u-%u", at ? "," : "",
					       p->colors[t][i], p->colors[t][j]);
		else
			at += (size_t)snprintf(buf + at, size - at, "%s%u", at ? "," : "",
					       p->colors[t][i]);
		i = j + 1;
	}
}

/* One name per trace in the results: its absolute path and its id, from every command, each
 * trace checked to hold the frames asked for (EXIT_FAIL, the message in err: a trace that lacks
 * them is a problem with an input, as dump and info say); and, unless the
 * caller brought its own (batch), the cell key of each configuration. */
static int identify(struct replay_job *j, char *err, size_t err_size)
{
	for (size_t t = 0; t < j->n_traces; t++) {
		struct llct_reader *r;
		char abs[PATH_MAX];
		if (llct_reader_open(j->traces[t], &r, err, err_size))
			return EXIT_FAIL;
		snprintf(j->trace_id[t], sizeof(j->trace_id[t]), "%s", llct_reader_id(r));
		/* every trace must hold the frames asked for: "5-9" on frames 1..3 is a slip */
		const struct llct_frame_info *fi;
		size_t nf;
		llct_reader_frames(r, &fi, &nf);
		int bad =
		    j->has_range && llct_frame_range_check(&j->range, j->k.frames, j->traces[t], fi,
							   nf, err, err_size);
		llct_reader_close(r);
		if (bad)
			return EXIT_FAIL;
		free(j->canon[t]);
		if (!(j->canon[t] = strdup(realpath(j->traces[t], abs) ? abs : j->traces[t]))) {
			snprintf(err, err_size, "out of memory");
			return EXIT_FAIL;
		}
		j->id_ptr[t] = j->trace_id[t];
	}
	for (size_t t = 0; t < j->n_traces; t++)
		j->canon_ptr[t] = j->canon[t];
	j->traces = j->canon_ptr;
	if (j->batch_cells)
		return EXIT_OK;
	size_t n_cfg = j->n_sweep ? j->n_sweep : 1;
	if (!(j->own_cells = calloc(n_cfg, sizeof(*j->own_cells)))) {
		snprintf(err, err_size, "out of memory");
		return EXIT_FAIL;
	}
	j->n_own_cells = n_cfg;
	for (size_t c = 0; c < n_cfg; c++) {
		struct replay_cell k = {.ids = j->id_ptr,
					.n_ids = j->n_traces,
					.cache = j->n_sweep ? &j->sweep[c] : &j->cache,
					.k = j->k};
		k.k.sample_sets = j->k.sample_sets > 1 ? j->k.sample_sets : 0;
		k.k.simultaneous = j->family != 0;
		k.k.confidence = j->k.confidence > 0 ? j->k.confidence : 0.99;
		if (!(j->own_cells[c] = replay_cell_key(&k))) {
			snprintf(err, err_size, "out of memory");
			return EXIT_FAIL;
		}
	}
	j->batch_cells = (const char *const *)j->own_cells;
	return EXIT_OK;
}

int replay_job_prepare(struct replay_job *j, char *err, size_t err_size)
{
	if (j->n_traces == 0 || j->n_pol == 0) {
		snprintf(err, err_size, "nothing to replay");
		return EXIT_USAGE;
	}
	if (j->n_traces > LLCT_MAX_CLASSES) {
		snprintf(err, err_size, "at most %d traces co-run", LLCT_MAX_CLASSES);
		return EXIT_USAGE;
	}
	if (j->k.corun)
		for (size_t m = 0; m < j->n_pol; m++)
			if (j->pol[m]->needs_next_use) {
				snprintf(err, err_size,
					 "%s needs the future, which a co-run's interleaving does "
					 "not have",
					 j->pol[m]->name);
				return EXIT_USAGE;
			}
	if (llct_cache_config_check(&j->cache, err, err_size))
		return EXIT_USAGE;
	for (size_t c = 0; c < j->n_sweep; c++)
		if (llct_cache_config_check(&j->sweep[c], err, err_size))
			return EXIT_USAGE;
	if (j->n_sweep && (j->k.corun || j->k.partition || j->k.bypass || j->k.colors)) {
		snprintf(err, err_size,
			 "several LLC sizes in one pass replay plain configurations only: not "
			 "with --corun, --partition, --bypass or --colors (replay each size on "
			 "its own)");
		return EXIT_USAGE;
	}
	for (size_t c = 1; c < j->n_sweep; c++)
		if (j->sweep[c].line != j->sweep[0].line) {
			snprintf(err, err_size,
				 "several LLC sizes in one pass share one line size (%u and %u "
				 "bytes here); replay each line size on its own",
				 j->sweep[0].line, j->sweep[c].line);
			return EXIT_USAGE;
		}
	if (j->k.sample_sets > 1 &&
	    (j->k.corun || j->k.partition || j->k.bypass || j->k.colors || j->k.contention)) {
		snprintf(err, err_size,
			 "--sample-sets does not combine with co-runs, partitions, bypass, colors "
			 "or contention tracking");
		return EXIT_USAGE;
	}
	if ((j->k.per_kernel || j->k.flow) && (j->k.corun || j->k.sample_sets > 1)) {
		snprintf(err, err_size,
			 "%s counts a single trace's replay of every set: not with "
			 "--corun or --sample-sets",
			 j->k.per_kernel ? "--per-kernel" : "--flow");
		return EXIT_USAGE;
	}
	if (j->k.sample_sets <= 1 && (j->k.confidence > 0 || j->family)) {
		snprintf(err, err_size,
			 "--confidence and --simultaneous set the intervals of --sample-sets' "
			 "estimates: give --sample-sets too");
		return EXIT_USAGE;
	}
	if (j->k.frames) {
		if (llct_frame_range_parse(j->k.frames, &j->range)) {
			snprintf(err, err_size, "bad frame range '%s'", j->k.frames);
			return EXIT_USAGE;
		}
		j->has_range = 1;
	}
	/* each trace opened once: its id, its absolute path, the frames it holds */
	int st = identify(j, err, err_size);
	if (st != EXIT_OK)
		return st;
	if (j->k.bypass) {
		if (llct_partition_parse_bypass(j->k.bypass, &j->part, err, err_size))
			return EXIT_USAGE;
		j->has_part = 1;
	}
	if (j->k.colors) {
		if (llct_partition_parse_colors(j->k.colors,
						llct_cache_colors(&j->cache, j->k.page_size),
						(uint32_t)j->n_traces, &j->part, err, err_size))
			return EXIT_USAGE;
		j->part.page_size = j->k.page_size;
		j->has_part = 1;
		for (size_t t = 0; t < j->n_traces; t++) {
			colors_text(&j->part, t, j->color_text[t], sizeof(j->color_text[t]));
			j->color_ptr[t] = j->color_text[t];
		}
	}
	if (j->k.partition) {
		char why[400];
		if (llct_partition_parse_ways(j->k.partition, j->k.part_by, &j->plan, why,
					      sizeof(why))) {
			snprintf(err, err_size, "bad --partition: %s", why);
			return EXIT_USAGE;
		}
		if (j->plan.alloc == LLCT_WAYS_MANUAL) {
			uint32_t sum = 0;
			for (size_t k = 0; k < LLCT_MAX_CLASSES; k++)
				sum += j->plan.manual[k];
			if (sum > j->cache.ways) {
				snprintf(err, err_size,
					 "the partition gives %u ways, the LLC has %u", sum,
					 j->cache.ways);
				return EXIT_USAGE;
			}
		}
		if (llct_partition_resolve(&j->plan, &j->cache, j->traces, j->n_traces,
					   j->has_range ? &j->range : NULL, j->k.hit_lat,
					   j->k.miss_lat, j->mlp, &j->part, j->counts, j->active,
					   err, err_size))
			return EXIT_FAIL;
		j->has_part = 1;
	}
	for (size_t t = 0; t < j->n_traces; t++)
		j->mlp_used[t] = j->mlp[t] > 0 ? j->mlp[t] : LLCT_DEFAULT_MLP;
	return EXIT_OK;
}

/* How the runs of configuration c were made, for the results database. */
static void fill_desc(const struct replay_job *j, const struct llct_cache_config *c,
		      const char *cell, const char *created, const char *started,
		      struct llct_replay_desc *d)
{
	memset(d, 0, sizeof(*d));
	d->traces = j->traces;
	d->trace_ids = j->id_ptr;
	d->n_traces = j->n_traces;
	d->trace_created = created;
	d->started_at = started;
	d->frames = j->k.frames;
	d->llc_bytes = c->size;
	d->ways = c->ways;
	d->line = c->line;
	d->sets = llct_cache_sets(c);
	d->banks = c->banks;
	d->sample_period = c->sample_period;
	d->hash = c->hash == LLCT_HASH_XOR ? "xor" : "mod";
	d->ucd = c->ucd;
	d->write_policy = llct_write_policy_name(c->write_policy);
	d->sector = c->sector;
	d->one_pass = j->one_pass;
	d->n_policies = j->n_pol;
	d->threads = j->threads;
	d->command_wall_s = j->wall_s;
	d->corun = j->k.corun;
	d->hit_latency = j->k.hit_lat;
	d->miss_latency = j->k.miss_lat;
	d->mlp = j->mlp_used;
	d->contention_by = j->k.contention ? llct_owner_by_name(j->k.contention_by) : NULL;
	d->partition = j->k.partition;
	d->partition_by = j->k.part_by == LLCT_CLASS_STREAM ? "stream" : "tenant";
	d->partition_dynamic = j->plan.alloc == LLCT_WAYS_DYNAMIC;
	d->part_ways = j->counts;
	d->part_masks = j->part.ways_mask;
	d->part_active = j->active;
	d->part_classes = LLCT_MAX_CLASSES;
	d->bypass = j->k.bypass;
	d->colors = j->k.colors;
	d->page_size = j->k.page_size;
	d->tenant_colors = j->k.colors ? j->color_ptr : NULL;
	d->tenant_n_colors = j->part.n_colors;
	d->batch_cell = cell;
	d->sample_sets = j->k.sample_sets;
	d->confidence = j->k.confidence;
	d->family = j->family;
}

static int find_created(const char *table, const char *key, const char *value, void *ud)
{
	if (strcmp(table, "capture") == 0 && strcmp(key, "created_at") == 0 && value) {
		snprintf(ud, 64, "%s", value);
		return 1;
	}
	return 0;
}

static int run_single(struct replay_job *j, struct llct_results *db, const char *started, char *err,
		      size_t err_size)
{
	struct llct_replay_options o;
	struct llct_reader *r = NULL;
	struct llct_replay_result *res = NULL;
	size_t n_cfg = j->n_sweep ? j->n_sweep : 1, n_models = n_cfg * j->n_pol;
	const struct llct_policy_ops **pols = calloc(n_models, sizeof(*pols));
	struct llct_cache_config *cfgs = calloc(n_models, sizeof(*cfgs));
	char created[64] = "";
	int rc = EXIT_FAIL;

	free(j->cfg_first);
	j->cfg_first = malloc(n_cfg * sizeof(*j->cfg_first));
	if (!pols || !cfgs || !j->cfg_first) {
		snprintf(err, err_size, "out of memory");
		goto out;
	}
	for (size_t c = 0; c < n_cfg; c++)
		for (size_t m = 0; m < j->n_pol; m++) {
			pols[c * j->n_pol + m] = j->pol[m];
			cfgs[c * j->n_pol + m] = j->n_sweep ? j->sweep[c] : j->cache;
		}
	memset(&o, 0, sizeof(o));
	o.cache = cfgs[0];
	o.caches = j->n_sweep ? cfgs : NULL;
	o.policies = pols;
	o.n_policies = n_models;
	o.threads = j->threads;
	o.frames = j->has_range ? &j->range : NULL;
	o.part = j->has_part ? &j->part : NULL;
	o.dyn_plan = j->plan.alloc == LLCT_WAYS_DYNAMIC ? &j->plan : NULL;
	o.start_counts = j->counts;
	o.contention = j->k.contention;
	o.contention_by = j->k.contention_by;
	o.sample_sets = j->k.sample_sets;
	o.per_kernel = j->k.per_kernel;
	o.flow = j->k.per_kernel || j->k.flow;
	o.one_pass = j->one_pass;
	/* Bonferroni: each of the family's estimates at 1 - (1 - level) / family, so that all of
	 * them hold together at least at the level */
	double conf = j->k.confidence > 0 ? j->k.confidence : 0.99;
	o.sample_level = j->family ? 1 - (1 - conf) / j->family : conf;
	o.progress = j->progress;
	o.progress_ud = j->progress_ud;
	if (llct_reader_open(j->traces[0], &r, err, err_size))
		goto out;
	llct_reader_foreach_meta(r, find_created, created);
	const struct llct_frame_info *fi;
	size_t nf;
	llct_reader_frames(r, &fi, &nf);
	j->records = 0;
	for (size_t i = 0; i < nf; i++)
		if (!o.frames || llct_frame_range_contains(o.frames, fi[i].frame))
			j->records += fi[i].n_records;
	if (llct_replay_run(r, &o, &res, &j->wall_s, err, err_size))
		goto out;
	for (size_t c = 0; c < n_cfg; c++) {
		struct llct_replay_desc d;
		fill_desc(j, &cfgs[c * j->n_pol], j->batch_cells ? j->batch_cells[c] : NULL,
			  created, started, &d);
		if (llct_results_add_replay(db, &d, res + c * j->n_pol, j->n_pol, &j->first_id)) {
			snprintf(err, err_size, "%s", llct_results_error(db));
			goto out;
		}
		if (j->cfg_first)
			j->cfg_first[c] = j->first_id;
	}
	if ((j->k.per_kernel || j->k.flow) &&
	    llct_results_add_trace_kernels(db, r, j->trace_id[0])) {
		snprintf(err, err_size, "%s", llct_results_error(db));
		goto out;
	}
	rc = EXIT_OK;
out:
	llct_replay_results_free(res, n_models);
	llct_reader_close(r);
	free(pols);
	free(cfgs);
	return rc;
}

static int run_corun(struct replay_job *j, struct llct_results *db, const char *started, char *err,
		     size_t err_size)
{
	struct llct_corun_options o;
	struct llct_replay_desc d;
	struct llct_corun_result *res = NULL;
	int rc = EXIT_FAIL;

	memset(&o, 0, sizeof(o));
	o.cache = j->cache;
	o.frames = j->has_range ? &j->range : NULL;
	o.policies = j->pol;
	o.n_policies = j->n_pol;
	o.hit_latency = j->k.hit_lat;
	o.miss_latency = j->k.miss_lat;
	memcpy(o.mlp, j->mlp, sizeof(o.mlp));
	o.part = j->has_part ? &j->part : NULL;
	o.dyn_plan = j->plan.alloc == LLCT_WAYS_DYNAMIC ? &j->plan : NULL;
	o.start_counts = j->counts;
	o.contention = j->k.contention;
	o.contention_by = j->k.contention_by;
	o.threads = j->threads;
	o.progress = j->progress;
	o.progress_ud = j->progress_ud;
	if (llct_corun_run(j->traces, j->n_traces, &o, &res, &j->wall_s, err, err_size))
		return EXIT_FAIL;
	fill_desc(j, &j->cache, j->batch_cells ? j->batch_cells[0] : NULL, NULL, started, &d);
	if (llct_results_add_corun(db, &d, res, j->n_pol, &j->first_id)) {
		snprintf(err, err_size, "%s", llct_results_error(db));
		goto out;
	}
	rc = EXIT_OK;
out:
	llct_corun_results_free(res, j->n_pol);
	return rc;
}

int replay_job_run(struct replay_job *j, struct llct_results *db, char *err, size_t err_size)
{
	char started[32];
	time_t t = time(NULL);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(started, sizeof(started), "%Y-%m-%dT%H:%M:%SZ", &tm);
	return j->k.corun ? run_corun(j, db, started, err, err_size)
			  : run_single(j, db, started, err, err_size);
}

void replay_job_release(struct replay_job *j)
{
	for (size_t t = 0; t < LLCT_MAX_CLASSES; t++) {
		free(j->canon[t]);
		j->canon[t] = NULL;
	}
	for (size_t c = 0; c < j->n_own_cells; c++)
		free(j->own_cells[c]);
	free(j->own_cells);
	j->own_cells = NULL;
	j->n_own_cells = 0;
	free(j->cfg_first);
	j->cfg_first = NULL;
	if (j->has_range)
		llct_frame_range_release(&j->range);
	j->has_range = 0;
}
