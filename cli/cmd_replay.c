/* cmd_replay.c - `llctrace replay`: parses the options into a replay job (replay_job.c), runs
 * it, and prints the summary read back from the results database's views. */
#include "cli.h"
#include "replay_job.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void progress(void *ud, uint64_t done, uint64_t total)
{
	(void)total;
	cli_progress_update(ud, done);
}

static int parse_latency(const char *s, double *v)
{
	char *end;
	*v = strtod(s, &end);
	return !*end && *v >= 0 && *v <= 1e9;
}

/* The --llc sizes as typed and their configurations. */
enum { MAX_LLC = 64 };
struct llc_list {
	struct llct_cache_config c[MAX_LLC];
	char text[MAX_LLC][64];
	size_t n;
};

/* Adds each size of one --llc value ("8MiB", "2MiB,4MiB", "8MiB:16:64"); a usage message and
 * non-zero on a bad one. */
static int add_llc(struct llc_list *l, const char *arg, const char *opt)
{
	char *copy = strdup(arg), *save = NULL;
	int bad = !copy;
	for (char *t = copy ? strtok_r(copy, ", ", &save) : NULL; t && !bad;
	     t = strtok_r(NULL, ", ", &save)) {
		if (l->n == MAX_LLC) {
			cli_usage_error("replay", "at most %d %s sizes", MAX_LLC, opt);
			bad = 1;
			break;
		}
		snprintf(l->text[l->n], sizeof(l->text[l->n]), "%s", t);
		l->c[l->n] = (struct llct_cache_config)LLCT_CACHE_CONFIG_INIT;
		if (!cli_parse_llc(t, &l->c[l->n].size, &l->c[l->n].ways, &l->c[l->n].line)) {
			cli_usage_error("replay",
					"bad %s '%s' (SIZE, or SIZE:WAYS:LINE, e.g. 8MiB or "
					"8MiB:16:64)",
					opt, t);
			bad = 1;
		}
		l->n++;
	}
	free(copy);
	return bad;
}

/* Gives each size the switches given beside it (banks, hash, UCD...), checks it, and makes
 * them the job's configuration or sweep; a usage message and non-zero on a bad one. */
static int resolve_llc(struct llc_list *l, struct replay_job *a, char *err, size_t err_size)
{
	for (size_t i = 0; i < (l->n ? l->n : 1); i++) {
		struct llct_cache_config *k = l->n ? &l->c[i] : &a->cache;
		k->banks = a->cache.banks;
		k->sample_period = a->cache.sample_period;
		k->hash = a->cache.hash;
		k->ucd = a->cache.ucd;
		k->write_policy = a->cache.write_policy;
		k->sector = a->cache.sector;
		if (llct_cache_config_check(k, err, err_size)) {
			char hint[160] = "";
			if (l->n)
				cli_llc_hint(l->text[i], hint, sizeof(hint));
			cli_usage_error("replay", "bad cache configuration%s%s%s: %s%s",
					l->n ? " '" : "", l->n ? l->text[i] : "", l->n ? "'" : "",
					err, hint);
			return 1;
		}
		for (size_t j = 0; j < i; j++)
			if (l->n && !memcmp(&l->c[j], k, sizeof(*k))) {
				cli_usage_error("replay", "--llc '%s' is given twice", l->text[i]);
				return 1;
			}
	}
	if (l->n)
		a->cache = l->c[0];
	if (l->n > 1) {
		a->sweep = l->c;
		a->n_sweep = l->n;
	}
	return 0;
}

/* The models' state, worked out before any is made: said when it is big (over 1 GiB), and
 * refused, naming the figure, when it is more than the machine's memory can hold (a co-run also
 * replays each tenant alone: one more model a tenant). Non-zero when refused. */
static int model_memory(const struct replay_job *a)
{
	uint64_t total = 0;
	size_t n_cfg = a->n_sweep ? a->n_sweep : 1;
	for (size_t k = 0; k < n_cfg; k++)
		for (size_t m = 0; m < a->n_pol; m++)
			total += llct_cache_state_estimate(a->n_sweep ? &a->sweep[k] : &a->cache,
							   a->pol[m]) *
				 (a->corun ? 1 + a->n_traces : 1);
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
	uint64_t have = pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : 0;
	char need[32], mem[32];
	snprintf(need, sizeof(need), "%.1f GiB", (double)total / (1 << 30));
	snprintf(mem, sizeof(mem), "%.1f GiB", (double)have / (1 << 30));
	if (have && total > have) {
		cli_error(
		    "the models would hold %s of state (%zu polic%s x %zu size%s), more than "
		    "this machine's %s of memory: replay fewer policies or sizes at once, or a "
		    "smaller --llc",
		    need, a->n_pol, a->n_pol == 1 ? "y" : "ies", n_cfg, n_cfg == 1 ? "" : "s", mem);
		return 1;
	}
	if (total > (1ull << 30))
		fprintf(stderr,
			"llctrace replay: the models hold %s of state (the machine has %s)\n", need,
			mem);
	return 0;
}

/* --mrc SIZES: LRU at each size in one pass. A size alone keeps the sets and line of the
 * geometry --llc gives (8MiB:16:64 by default: 8,192 sets of 64 bytes) and takes the ways it
 * needs, so the sizes share one stack; SIZE:WAYS:LINE is taken as it is. A usage message and
 * non-zero when they cannot be. */
static int mrc_sizes(struct llc_list *mrc, const struct llc_list *sizes, struct replay_job *a,
		     const char *policy_arg)
{
	if (policy_arg && strcasecmp(policy_arg, "lru") != 0) {
		cli_usage_error("replay",
				"--mrc replays LRU (stack distances in one pass): not with "
				"--policy %s",
				policy_arg);
		return 1;
	}
	if (a->per_kernel || a->flow || a->partition || a->bypass || a->colors || a->contention ||
	    a->sample_sets > 1) { /* what the stacks do not count: a usage error, as --policy's */
		cli_usage_error("replay",
				"--mrc counts LRU's misses at every size in one pass: not with %s",
				a->per_kernel   ? "--per-kernel"
				: a->flow       ? "--flow"
				: a->partition  ? "--partition"
				: a->bypass     ? "--bypass"
				: a->colors     ? "--colors"
				: a->contention ? "--contention-by"
						: "--sample-sets");
		return 1;
	}
	if (sizes->n > 1) {
		cli_usage_error("replay",
				"--mrc gives the sizes; --llc gives at most one geometry "
				"(its sets and line), not %zu",
				sizes->n);
		return 1;
	}
	if (a->corun) {
		cli_usage_error("replay", "--mrc replays one trace, not a co-run");
		return 1;
	}
	const struct llct_cache_config base =
	    sizes->n ? sizes->c[0] : (struct llct_cache_config)LLCT_CACHE_CONFIG_INIT;
	uint64_t set_bytes = llct_cache_sets(&base) * (uint64_t)base.line;
	for (size_t i = 0; i < mrc->n; i++) {
		if (strchr(mrc->text[i], ':'))
			continue;
		uint64_t size = mrc->c[i].size, ways = set_bytes ? size / set_bytes : 0;
		if (!set_bytes || size % set_bytes || ways < 1 || ways > LLCT_MAX_WAYS) {
			char step[32], top[32];
			cli_format_size(set_bytes, step, sizeof(step));
			cli_format_size(set_bytes * LLCT_MAX_WAYS, top, sizeof(top));
			cli_usage_error(
			    "replay",
			    "--mrc '%s' is not 1 to %d ways of %u sets of %u bytes (the "
			    "sets of --llc %s): give multiples of %s up to %s, or "
			    "SIZE:WAYS:LINE",
			    mrc->text[i], LLCT_MAX_WAYS, llct_cache_sets(&base), base.line,
			    sizes->n ? sizes->text[0] : "8MiB:16:64", step, top);
			return 1;
		}
		mrc->c[i].ways = (uint32_t)ways;
		mrc->c[i].line = base.line;
		char sz[32];
		cli_format_size(size, sz, sizeof(sz));
		snprintf(mrc->text[i], sizeof(mrc->text[i]), "%s:%u:%u", sz, mrc->c[i].ways,
			 base.line);
	}
	a->pol[0] = llct_policy_find("lru");
	a->n_pol = 1;
	a->one_pass = 1;
	return 0;
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
		O_PAGE,
		O_SAMPLE_SETS,
		O_CONFIDENCE,
		O_SIMULTANEOUS,
		O_PER_KERNEL,
		O_FLOW,
		O_WRITE,
		O_SECTOR,
		O_MRC
	};
	static const struct option opts[] = {
	    {"policy", required_argument, NULL, 'p'},
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
	    {"sample-sets", required_argument, NULL, O_SAMPLE_SETS},
	    {"confidence", required_argument, NULL, O_CONFIDENCE},
	    {"simultaneous", no_argument, NULL, O_SIMULTANEOUS},
	    {"per-kernel", no_argument, NULL, O_PER_KERNEL},
	    {"flow", no_argument, NULL, O_FLOW},
	    {"write-policy", required_argument, NULL, O_WRITE},
	    {"sector", required_argument, NULL, O_SECTOR},
	    {"mrc", required_argument, NULL, O_MRC},
	    {"quiet", no_argument, NULL, 'q'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0}};
	struct replay_job *a = calloc(1, sizeof(*a));
	const char *policy_arg = NULL, *out_path = NULL;
	char err[700], policy_buf[1024], llc_buf[1024];
	struct llc_list sizes = {.n = 0}, mrc = {.n = 0};
	int quiet = 0, part_by_set = 0, simultaneous = 0;
	uint64_t v;
	int c, rc = EXIT_USAGE;

	if (!a) {
		cli_error("out of memory");
		return EXIT_FAIL;
	}
	replay_job_init(a);
	opterr = 0;
	optind = 1;
	while ((c = cli_getopt(argc, argv, ":p:o:l:f:qh", opts)) != -1) {
		switch (c) {
		case 'p':
			policy_arg =
			    cli_list_arg(optarg, argc, argv, policy_buf, sizeof(policy_buf));
			break;
		case 'o':
			out_path = optarg;
			break;
		case 'l': /* repeated, or a list: one run per size */
			if (add_llc(&sizes,
				    cli_list_arg(optarg, argc, argv, llc_buf, sizeof(llc_buf)),
				    "--llc"))
				goto out;
			break;
		case O_MRC:
			if (add_llc(&mrc,
				    cli_list_arg(optarg, argc, argv, llc_buf, sizeof(llc_buf)),
				    "--mrc"))
				goto out;
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
			a->frames = optarg;
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
			a->mlp_text = optarg;
			if (!replay_parse_mlp(optarg, a->mlp)) {
				cli_usage_error("replay",
						"bad --mlp '%s' (N, or N0,N1,... per tenant)",
						optarg);
				goto out;
			}
			break;
		case O_CONT: {
			if (!replay_parse_owner_by(optarg, &a->contention_by)) {
				cli_usage_error("replay",
						"bad --contention-by '%s' (tenant, sm, kernel "
						"or stream)",
						optarg);
				goto out;
			}
			a->contention = 1;
			break;
		}
		case O_PART:
			a->partition = optarg;
			break;
		case O_PART_BY:
			if (strcmp(optarg, "tenant") && strcmp(optarg, "stream")) {
				cli_usage_error(
				    "replay", "bad --partition-by '%s' (tenant or stream)", optarg);
				goto out;
			}
			a->part_by =
			    strcmp(optarg, "stream") ? LLCT_CLASS_TENANT : LLCT_CLASS_STREAM;
			part_by_set = 1;
			break;
		case O_BYPASS:
			a->bypass = optarg;
			break;
		case O_COLORS:
			a->colors = optarg;
			break;
		case O_PAGE:
			if (!cli_parse_size(optarg, &v) || v > UINT32_MAX) {
				cli_usage_error("replay", "bad --page-size '%s'", optarg);
				goto out;
			}
			a->page_size = (uint32_t)v;
			break;
		case O_SAMPLE_SETS: {
			const char *x = strncmp(optarg, "1/", 2) ? optarg : optarg + 2;
			if (!cli_parse_uint(x, 1u << 20, &v) || v < 2) {
				cli_usage_error("replay", "bad --sample-sets '%s' (1/N, N >= 2)",
						optarg);
				goto out;
			}
			a->sample_sets = (uint32_t)v;
			break;
		}
		case O_CONFIDENCE:
			if (!cli_parse_level(optarg, &a->confidence)) {
				cli_usage_error("replay",
						"bad --confidence '%s' (a level from 50%% to "
						"99.9999%%, as 99%% or 0.99)",
						optarg);
				goto out;
			}
			break;
		case O_SIMULTANEOUS:
			simultaneous = 1;
			break;
		case O_PER_KERNEL:
			a->per_kernel = 1;
			break;
		case O_FLOW:
			a->flow = 1;
			break;
		case O_SECTOR:
			if (!cli_parse_size(optarg, &v) || !v || v > 4096) {
				cli_usage_error("replay", "bad --sector '%s' (bytes, e.g. 32)",
						optarg);
				goto out;
			}
			a->cache.sector = (uint32_t)v;
			break;
		case O_WRITE:
			if (!replay_parse_write_policy(optarg, &a->cache.write_policy)) {
				cli_usage_error("replay",
						"bad --write-policy '%s' (allocate, no-allocate or "
						"evict)",
						optarg);
				goto out;
			}
			break;
		case 'q':
			quiet = 1;
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
	a->traces = (const char *const *)argv + optind;
	a->n_traces = (size_t)(argc - optind);
	if (a->n_traces == 0) {
		cli_usage_error("replay", "needs a trace file");
		goto out;
	}
	if (a->n_traces > 1 && !a->corun) {
		cli_usage_error("replay", "several traces need --corun");
		goto out;
	}
	if (!out_path) {
		cli_usage_error("replay", "needs -o RESULTS.db");
		goto out;
	}
	/* Defaults that depend on the mode: co-runs track contention between tenants and
	 * partition by tenant; a single trace partitions by stream. */
	if (a->corun && !a->contention) {
		a->contention = 1;
		a->contention_by = LLCT_OWNER_TENANT;
	}
	if (!part_by_set)
		a->part_by = a->corun ? LLCT_CLASS_TENANT : LLCT_CLASS_STREAM;
	if (replay_parse_policies(policy_arg ? policy_arg
				  : a->corun ? replay_corun_policies()
					     : "all",
				  a->pol, &a->n_pol, err, sizeof(err))) {
		cli_usage_error("replay", "%s", err);
		goto out;
	}
	if (mrc.n && mrc_sizes(&mrc, &sizes, a, policy_arg))
		goto out;
	if (resolve_llc(mrc.n ? &mrc : &sizes, a, err, sizeof(err)))
		goto out;
	if (!mrc.n && model_memory(a)) { /* said: more than this machine has */
		rc = EXIT_FAIL;
		goto out;
	}
	if (simultaneous) /* every estimate of the command's runs, together */
		a->family = REPLAY_ESTIMATES_PER_RUN * (uint32_t)a->n_pol *
			    (uint32_t)(sizes.n ? sizes.n : 1);
	for (size_t i = 0; i < a->n_traces; i++)
		if (cli_check_input("replay", a->traces[i], CLI_FILE_TRACE)) {
			rc = EXIT_FAIL;
			goto out;
		}
	if ((rc = replay_job_prepare(a, err, sizeof(err))) != EXIT_OK) {
		if (rc == EXIT_USAGE)
			cli_usage_error("replay", "%s", err);
		else
			cli_error("%s", err);
		goto out;
	}
	rc = EXIT_FAIL;
	/* Check the traces and the results file before a long replay. */
	if (cli_check_output("replay", out_path, CLI_FILE_RESULTS, 0))
		goto out;
	for (size_t i = 0; i < a->n_traces; i++) {
		struct llct_reader *r;
		if (llct_reader_open(a->traces[i], &r, err, sizeof(err))) {
			cli_error("%s", err);
			goto out;
		}
		llct_reader_close(r);
	}
	struct llct_results *db;
	/* a replay writes its runs in one transaction at the end: interrupted, it left none */
	cli_on_interrupt("llctrace replay: interrupted; nothing of this replay was written "
			 "('%s' keeps the runs it had)",
			 out_path);
	if (llct_results_open(out_path, &db, err, sizeof(err))) {
		cli_error("%s", err);
		goto out;
	}
	struct cli_progress prog;
	cli_progress_init(&prog, "records", 0, quiet);
	a->progress = progress;
	a->progress_ud = &prog;
	if (replay_job_run(a, db, err, sizeof(err)) != EXIT_OK) {
		cli_error("%s", err);
	} else {
		cli_progress_done(&prog, a->records);
		rc = EXIT_OK;
		if (!quiet &&
		    replay_print_summary(db, a, (const char *)(mrc.n ? mrc.text : sizes.text),
					 sizeof(sizes.text[0]), out_path))
			rc = EXIT_FAIL;
	}
	if (llct_results_close(db) && rc == EXIT_OK) {
		cli_error("'%s': cannot close the results database", out_path);
		rc = EXIT_FAIL;
	}
out:
	replay_job_release(a);
	free(a);
	return rc;
}
