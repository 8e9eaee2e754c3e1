/* cmd_replay.c - `llctrace replay`: runs a trace through LLC models and appends the results. */
#include "cli.h"
#include "llct/replay.h"
#include "llct/results.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_POLICIES 32

static int parse_policies(const char *list, const struct llct_policy_ops **out, size_t *n)
{
	char buf[1024], *save = NULL;
	*n = 0;
	if (strcmp(list, "all") == 0) {
		for (const struct llct_policy_ops *const *p = llct_policies; *p; p++)
			out[(*n)++] = *p;
		return 1;
	}
	if (strlen(list) >= sizeof(buf))
		return 0;
	strcpy(buf, list);
	for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		const struct llct_policy_ops *p = llct_policy_find(t);
		if (!p) {
			cli_usage_error("replay",
					"unknown policy '%s' (see 'llctrace replay --help')", t);
			return -1;
		}
		for (size_t i = 0; i < *n; i++)
			if (out[i] == p)
				p = NULL;
		if (p && *n < MAX_POLICIES)
			out[(*n)++] = p;
	}
	return *n > 0;
}

static void progress(void *ud, uint64_t done, uint64_t total)
{
	(void)total;
	cli_progress_update(ud, done);
}

static int find_created(const char *table, const char *key, const char *value, void *ud)
{
	if (strcmp(table, "capture") == 0 && strcmp(key, "created_at") == 0 && value) {
		snprintf(ud, 64, "%s", value);
		return 1;
	}
	return 0;
}

/* Everything the options say, shared by the single and the co-run paths. */
struct replay_args {
	struct llct_cache_config cache;
	const struct llct_policy_ops *pol[MAX_POLICIES];
	size_t n_pol;
	const char *out, *frames_arg, *partition_arg, *bypass_arg, *colors_arg;
	struct llct_frame_range range;
	int has_range, corun, quiet, contention;
	enum llct_owner_by contention_by;
	enum llct_class_by part_by;
	int part_by_set;
	uint32_t page_size;
	double hit_lat, miss_lat, mlp[LLCT_MAX_CLASSES], mlp_used[LLCT_MAX_CLASSES];
	unsigned threads;
	const char **traces;
	size_t n_traces;
	struct llct_partition part;
	struct llct_partition_plan plan;
	uint32_t counts[LLCT_MAX_CLASSES];
	int active[LLCT_MAX_CLASSES];
	int has_part;
	char color_text[LLCT_MAX_CLASSES][256]; /* each tenant's colors, with --colors */
	const char *color_ptr[LLCT_MAX_CLASSES];
};

static const char *owner_by_arg[] = {"tenant", "sm", "kernel", "stream"};

static int parse_mlp(const char *s, double *mlp)
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

static int parse_latency(const char *s, double *v)
{
	char *end;
	*v = strtod(s, &end);
	return !*end && *v >= 0 && *v <= 1e9;
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

/* How the runs were made, for the results database. */
static void fill_desc(const struct replay_args *a, const char *created, const char *started,
		      double wall, struct llct_replay_desc *d)
{
	memset(d, 0, sizeof(*d));
	d->traces = a->traces;
	d->n_traces = a->n_traces;
	d->trace_created = created;
	d->started_at = started;
	d->frames = a->frames_arg;
	d->llc_bytes = a->cache.size;
	d->ways = a->cache.ways;
	d->line = a->cache.line;
	d->sets = llct_cache_sets(&a->cache);
	d->banks = a->cache.banks;
	d->sample_period = a->cache.sample_period;
	d->hash = a->cache.hash == LLCT_HASH_XOR ? "xor" : "mod";
	d->ucd = a->cache.ucd;
	d->n_policies = a->n_pol;
	d->threads = a->threads;
	d->command_wall_s = wall;
	d->corun = a->corun;
	d->hit_latency = a->hit_lat;
	d->miss_latency = a->miss_lat;
	d->mlp = a->mlp_used;
	d->contention_by = a->contention ? owner_by_arg[a->contention_by] : NULL;
	d->partition = a->partition_arg;
	d->partition_by = a->part_by == LLCT_CLASS_STREAM ? "stream" : "tenant";
	d->partition_dynamic = a->plan.alloc == LLCT_WAYS_DYNAMIC;
	d->part_ways = a->counts;
	d->part_masks = a->part.ways_mask;
	d->part_active = a->active;
	d->part_classes = LLCT_MAX_CLASSES;
	d->bypass = a->bypass_arg;
	d->colors = a->colors_arg;
	d->page_size = a->page_size;
	d->tenant_colors = a->colors_arg ? a->color_ptr : NULL;
	d->tenant_n_colors = a->part.n_colors;
}

static int run_single(struct replay_args *a, struct llct_results *db, const char *started)
{
	struct llct_replay_options o;
	struct llct_replay_desc d;
	struct llct_reader *r = NULL;
	struct llct_replay_result *res = NULL;
	struct cli_progress prog;
	char err[700], created[64] = "";
	double wall = 0;
	int64_t first;
	int rc = EXIT_FAIL;
	const char *trace = a->traces[0];

	memset(&o, 0, sizeof(o));
	o.cache = a->cache;
	o.policies = a->pol;
	o.n_policies = a->n_pol;
	o.threads = a->threads;
	o.frames = a->has_range ? &a->range : NULL;
	o.part = a->has_part ? &a->part : NULL;
	o.dyn_plan = a->plan.alloc == LLCT_WAYS_DYNAMIC ? &a->plan : NULL;
	o.start_counts = a->counts;
	o.contention = a->contention;
	o.contention_by = a->contention_by;
	if (llct_reader_open(trace, &r, err, sizeof(err))) {
		cli_error("%s", err);
		return EXIT_FAIL;
	}
	llct_reader_foreach_meta(r, find_created, created);
	const struct llct_frame_info *fi;
	size_t nf;
	uint64_t total = 0;
	llct_reader_frames(r, &fi, &nf);
	for (size_t i = 0; i < nf; i++)
		if (!o.frames || llct_frame_range_contains(o.frames, fi[i].frame))
			total += fi[i].n_records;
	cli_progress_init(&prog, "records", total, a->quiet);
	o.progress = progress;
	o.progress_ud = &prog;
	if (llct_replay_run(r, &o, &res, &wall, err, sizeof(err))) {
		cli_error("%s", err);
		goto out;
	}
	cli_progress_done(&prog, total);
	fill_desc(a, created, started, wall, &d);
	if (llct_results_add_replay(db, &d, res, a->n_pol, &first)) {
		cli_error("%s", llct_results_error(db));
		goto out;
	}
	if (!a->quiet) {
		if (cli_print_replay_table(llct_results_handle(db), first, (int64_t)a->n_pol,
					   a->cache.ucd))
			goto out;
		fprintf(stderr, "replayed %llu records x %zu policies in %.2fs; results in '%s'\n",
			(unsigned long long)total, a->n_pol, wall, a->out);
	}
	rc = EXIT_OK;
out:
	llct_replay_results_free(res, a->n_pol);
	llct_reader_close(r);
	return rc;
}

static int run_corun(struct replay_args *a, struct llct_results *db, const char *started)
{
	struct llct_corun_options o;
	struct llct_replay_desc d;
	struct llct_corun_result *res = NULL;
	struct cli_progress prog;
	char err[700];
	double wall = 0;
	int64_t first;
	size_t n = a->n_traces;
	int rc = EXIT_FAIL;

	memset(&o, 0, sizeof(o));
	o.cache = a->cache;
	o.frames = a->has_range ? &a->range : NULL;
	o.policies = a->pol;
	o.n_policies = a->n_pol;
	o.hit_latency = a->hit_lat;
	o.miss_latency = a->miss_lat;
	memcpy(o.mlp, a->mlp, sizeof(o.mlp));
	o.part = a->has_part ? &a->part : NULL;
	o.dyn_plan = a->plan.alloc == LLCT_WAYS_DYNAMIC ? &a->plan : NULL;
	o.start_counts = a->counts;
	o.contention = a->contention;
	o.contention_by = a->contention_by;
	o.threads = a->threads;
	cli_progress_init(&prog, "records", 0, a->quiet);
	o.progress = progress;
	o.progress_ud = &prog;
	if (llct_corun_run(a->traces, n, &o, &res, &wall, err, sizeof(err))) {
		cli_error("%s", err);
		return EXIT_FAIL;
	}
	cli_progress_done(&prog, 0);
	for (size_t t = 0; t < n; t++)
		a->mlp_used[t] = a->mlp[t] > 0 ? a->mlp[t] : LLCT_DEFAULT_MLP;
	fill_desc(a, NULL, started, wall, &d);
	if (llct_results_add_corun(db, &d, res, a->n_pol, &first)) {
		cli_error("%s", llct_results_error(db));
		goto out;
	}
	if (!a->quiet) {
		if (cli_print_corun_table(llct_results_handle(db), first, (int64_t)a->n_pol))
			goto out;
		fprintf(stderr, "co-ran %zu traces x %zu policies in %.2fs; results in '%s'\n", n,
			a->n_pol, wall, a->out);
	}
	rc = EXIT_OK;
out:
	llct_corun_results_free(res, a->n_pol);
	return rc;
}

int cmd_replay(int argc, char **argv)
{
	enum {
		O_BANKS = 256,
		O_SAMPLE,
		O_HASH,
		O_UCD,
		O_THREADS,
		O_CORUN,
		O_HIT,
		O_MISS,
		O_MLP,
		O_CONT,
		O_PART,
		O_PART_BY,
		O_BYPASS,
		O_COLORS,
		O_PAGE
	};
	static const struct option opts[] = {{"policy", required_argument, NULL, 'p'},
					     {"output", required_argument, NULL, 'o'},
					     {"llc", required_argument, NULL, 'l'},
					     {"banks", required_argument, NULL, O_BANKS},
					     {"sample-period", required_argument, NULL, O_SAMPLE},
					     {"hash", required_argument, NULL, O_HASH},
					     {"ucd", no_argument, NULL, O_UCD},
					     {"frames", required_argument, NULL, 'f'},
					     {"threads", required_argument, NULL, O_THREADS},
					     {"corun", no_argument, NULL, O_CORUN},
					     {"hit-latency", required_argument, NULL, O_HIT},
					     {"miss-latency", required_argument, NULL, O_MISS},
					     {"mlp", required_argument, NULL, O_MLP},
					     {"contention-by", required_argument, NULL, O_CONT},
					     {"partition", required_argument, NULL, O_PART},
					     {"partition-by", required_argument, NULL, O_PART_BY},
					     {"bypass", required_argument, NULL, O_BYPASS},
					     {"colors", required_argument, NULL, O_COLORS},
					     {"page-size", required_argument, NULL, O_PAGE},
					     {"quiet", no_argument, NULL, 'q'},
					     {"help", no_argument, NULL, 'h'},
					     {NULL, 0, NULL, 0}};
	struct replay_args *a = calloc(1, sizeof(*a));
	const char *policy_arg = NULL;
	char err[700], started[32];
	uint64_t v;
	int c, rc = EXIT_USAGE;

	if (!a) {
		cli_error("out of memory");
		return EXIT_FAIL;
	}
	a->cache = (struct llct_cache_config)LLCT_CACHE_CONFIG_INIT;
	a->hit_lat = LLCT_DEFAULT_HIT_LATENCY;
	a->miss_lat = LLCT_DEFAULT_MISS_LATENCY;
	a->page_size = 4096;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":p:o:l:f:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			policy_arg = optarg;
			break;
		case 'o':
			a->out = optarg;
			break;
		case 'l':
			if (!cli_parse_llc(optarg, &a->cache.size, &a->cache.ways,
					   &a->cache.line)) {
				cli_usage_error("replay",
						"bad --llc '%s' (SIZE:WAYS:LINE, e.g. 8MiB:16:64)",
						optarg);
				goto out;
			}
			break;
		case O_BANKS:
			if (!cli_parse_uint(optarg, 1u << 20, &v) || !v) {
				cli_usage_error("replay", "bad --banks '%s'", optarg);
				goto out;
			}
			a->cache.banks = (uint32_t)v;
			break;
		case O_SAMPLE:
			if (!cli_parse_uint(optarg, 1u << 30, &v) || !v) {
				cli_usage_error("replay", "bad --sample-period '%s'", optarg);
				goto out;
			}
			a->cache.sample_period = (uint32_t)v;
			break;
		case O_HASH:
			if (strcmp(optarg, "mod") == 0)
				a->cache.hash = LLCT_HASH_MOD;
			else if (strcmp(optarg, "xor") == 0)
				a->cache.hash = LLCT_HASH_XOR;
			else {
				cli_usage_error("replay", "bad --hash '%s' (mod or xor)", optarg);
				goto out;
			}
			break;
		case O_UCD:
			a->cache.ucd = 1;
			break;
		case 'f':
			a->frames_arg = optarg;
			break;
		case O_THREADS:
			if (!cli_parse_uint(optarg, 1024, &v)) {
				cli_usage_error("replay", "bad --threads '%s'", optarg);
				goto out;
			}
			a->threads = (unsigned)v;
			break;
		case O_CORUN:
			a->corun = 1;
			break;
		case O_HIT:
		case O_MISS:
			if (!parse_latency(optarg, c == O_HIT ? &a->hit_lat : &a->miss_lat)) {
				cli_usage_error("replay", "bad latency '%s' (cycles)", optarg);
				goto out;
			}
			break;
		case O_MLP:
			if (!parse_mlp(optarg, a->mlp)) {
				cli_usage_error("replay",
						"bad --mlp '%s' (N, or N0,N1,... per tenant)",
						optarg);
				goto out;
			}
			break;
		case O_CONT: {
			int k = -1;
			for (int i = 0; i < 4; i++)
				if (strcmp(optarg, owner_by_arg[i]) == 0)
					k = i;
			if (k < 0) {
				cli_usage_error("replay",
						"bad --contention-by '%s' (tenant, sm, kernel "
						"or stream)",
						optarg);
				goto out;
			}
			a->contention = 1;
			a->contention_by = (enum llct_owner_by)k;
			break;
		}
		case O_PART:
			a->partition_arg = optarg;
			break;
		case O_PART_BY:
			if (strcmp(optarg, "tenant") && strcmp(optarg, "stream")) {
				cli_usage_error(
				    "replay", "bad --partition-by '%s' (tenant or stream)", optarg);
				goto out;
			}
			a->part_by =
			    strcmp(optarg, "stream") ? LLCT_CLASS_TENANT : LLCT_CLASS_STREAM;
			a->part_by_set = 1;
			break;
		case O_BYPASS:
			a->bypass_arg = optarg;
			break;
		case O_COLORS:
			a->colors_arg = optarg;
			break;
		case O_PAGE:
			if (!cli_parse_size(optarg, &v) || v > UINT32_MAX) {
				cli_usage_error("replay", "bad --page-size '%s'", optarg);
				goto out;
			}
			a->page_size = (uint32_t)v;
			break;
		case 'q':
			a->quiet = 1;
			break;
		default: {
			int r = cli_getopt_common("replay", c, argv);
			if (r >= 0) {
				rc = r;
				goto out;
			}
		}
		}
	}
	a->traces = (const char **)argv + optind;
	a->n_traces = (size_t)(argc - optind);
	if (a->n_traces == 0) {
		cli_usage_error("replay", "needs a trace file");
		goto out;
	}
	if (a->n_traces > 1 && !a->corun) {
		cli_usage_error("replay", "several traces need --corun");
		goto out;
	}
	if (a->n_traces > LLCT_MAX_CLASSES) {
		cli_usage_error("replay", "at most %d traces co-run", LLCT_MAX_CLASSES);
		goto out;
	}
	if (!a->out) {
		cli_usage_error("replay", "needs -o RESULTS.db");
		goto out;
	}
	/* Defaults that depend on the mode: co-runs track contention between tenants and
	 * partition by tenant; a single trace partitions by stream. */
	if (a->corun && !a->contention) {
		a->contention = 1;
		a->contention_by = LLCT_OWNER_TENANT;
	}
	if (!a->part_by_set)
		a->part_by = a->corun ? LLCT_CLASS_TENANT : LLCT_CLASS_STREAM;
	int pr = parse_policies(policy_arg ? policy_arg
					   : (a->corun ? "lru,nru,srrip,brrip,drrip,"
							 "gspztc,gspztc-tse,gspc"
						       : "all"),
				a->pol, &a->n_pol);
	if (pr < 0)
		goto out;
	if (!pr) {
		cli_usage_error("replay", "bad --policy '%s'", policy_arg);
		goto out;
	}
	if (llct_cache_config_check(&a->cache, err, sizeof(err))) {
		cli_usage_error("replay", "bad cache configuration: %s", err);
		goto out;
	}
	if (a->frames_arg) {
		if (llct_frame_range_parse(a->frames_arg, &a->range)) {
			cli_usage_error("replay", "bad frame range '%s'", a->frames_arg);
			goto out;
		}
		a->has_range = 1;
	}
	if (a->bypass_arg) {
		if (llct_partition_parse_bypass(a->bypass_arg, &a->part, err, sizeof(err))) {
			cli_usage_error("replay", "%s", err);
			goto out;
		}
		a->has_part = 1;
	}
	if (a->colors_arg) {
		if (llct_partition_parse_colors(
			a->colors_arg, llct_cache_colors(&a->cache, a->page_size),
			(uint32_t)a->n_traces, &a->part, err, sizeof(err))) {
			cli_usage_error("replay", "%s", err);
			goto out;
		}
		a->part.page_size = a->page_size;
		a->has_part = 1;
		for (size_t t = 0; t < a->n_traces; t++) {
			colors_text(&a->part, t, a->color_text[t], sizeof(a->color_text[t]));
			a->color_ptr[t] = a->color_text[t];
		}
	}
	if (a->partition_arg) {
		if (llct_partition_parse_ways(a->partition_arg, a->part_by, &a->plan, err,
					      sizeof(err))) {
			cli_usage_error("replay", "bad --partition: %s", err);
			goto out;
		}
		if (a->plan.alloc == LLCT_WAYS_MANUAL) {
			uint32_t sum = 0;
			for (size_t k = 0; k < LLCT_MAX_CLASSES; k++)
				sum += a->plan.manual[k];
			if (sum > a->cache.ways) {
				cli_usage_error("replay",
						"the partition gives %u ways, the LLC has %u", sum,
						a->cache.ways);
				goto out;
			}
		}
		rc = EXIT_FAIL;
		if (llct_partition_resolve(&a->plan, &a->cache, a->traces, a->n_traces,
					   a->has_range ? &a->range : NULL, a->hit_lat, a->miss_lat,
					   a->mlp, &a->part, a->counts, a->active, err,
					   sizeof(err))) {
			cli_error("%s", err);
			goto out;
		}
		a->has_part = 1;
	}
	rc = EXIT_FAIL;
	time_t t = time(NULL);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(started, sizeof(started), "%Y-%m-%dT%H:%M:%SZ", &tm);
	/* Check the traces and the results file before a long replay. */
	for (size_t i = 0; i < a->n_traces; i++) {
		struct llct_reader *r;
		if (llct_reader_open(a->traces[i], &r, err, sizeof(err))) {
			cli_error("%s", err);
			goto out;
		}
		llct_reader_close(r);
	}
	struct llct_results *db;
	if (llct_results_open(a->out, &db, err, sizeof(err))) {
		cli_error("%s", err);
		goto out;
	}
	rc = a->corun ? run_corun(a, db, started) : run_single(a, db, started);
	if (llct_results_close(db) && rc == EXIT_OK) {
		cli_error("'%s': cannot close the results database", a->out);
		rc = EXIT_FAIL;
	}
out:
	if (a->has_range)
		llct_frame_range_release(&a->range);
	free(a);
	return rc;
}
