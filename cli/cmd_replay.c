/* cmd_replay.c - `llctrace replay`: parses the options into a replay job (replay_job.c), runs
 * it, and prints the summary read back from the results database's views. */
#include "cli.h"
#include "opts.h"
#include "replay_job.h"

#include <stddef.h>

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
				 (a->k.corun ? 1 + a->n_traces : 1);
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
	if (a->k.per_kernel || a->k.flow || a->k.partition || a->k.bypass || a->k.colors ||
	    a->k.contention ||
	    a->k.sample_sets > 1) { /* what the stacks do not count: a usage error, as --policy's */
		cli_usage_error("replay",
				"--mrc counts LRU's misses at every size in one pass: not with %s",
				a->k.per_kernel   ? "--per-kernel"
				: a->k.flow       ? "--flow"
				: a->k.partition  ? "--partition"
				: a->k.bypass     ? "--bypass"
				: a->k.colors     ? "--colors"
				: a->k.contention ? "--contention-by"
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
	if (a->k.corun) {
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

/* What replay's options set: the job, and what is worked out from them after. */
struct replay_args {
	struct replay_job job;
	int argc;
	char **argv;
	const char *policy_arg, *out_path;
	char policy_buf[1024], llc_buf[1024];
	struct llc_list sizes, mrc;
	int quiet, part_by_set, simultaneous;
};

#define JOB(f) offsetof(struct replay_args, job.f)
#define ARG(f) offsetof(struct replay_args, f)

static int set_policy(void *ctx, const struct cli_opt *o, const char *arg)
{
	(void)o;
	struct replay_args *x = ctx; /* a list the shell may have split after a comma */
	x->policy_arg = cli_list_arg(arg, x->argc, x->argv, x->policy_buf, sizeof(x->policy_buf));
	return 0;
}

static int set_llc(void *ctx, const struct cli_opt *o, const char *arg)
{
	struct replay_args *x = ctx; /* repeated, or a list: one run per size */
	struct llc_list *l = o->letter == 'l' ? &x->sizes : &x->mrc;
	const char *v = cli_list_arg(arg, x->argc, x->argv, x->llc_buf, sizeof(x->llc_buf));
	return add_llc(l, v, o->letter == 'l' ? "--llc" : "--mrc") ? EXIT_USAGE : 0;
}

static int set_hash(void *ctx, const struct cli_opt *o, const char *arg)
{
	struct replay_args *x = ctx;
	if (strcmp(arg, "mod") == 0)
		x->job.cache.hash = LLCT_HASH_MOD;
	else if (strcmp(arg, "xor") == 0)
		x->job.cache.hash = LLCT_HASH_XOR;
	else
		return cli_opt_bad(o, arg, "mod or xor");
	return 0;
}

static int set_write(void *ctx, const struct cli_opt *o, const char *arg)
{
	struct replay_args *x = ctx;
	return replay_parse_write_policy(arg, &x->job.cache.write_policy)
		   ? 0
		   : cli_opt_bad(o, arg, "allocate, no-allocate or evict");
}

static int set_sector(void *ctx, const struct cli_opt *o, const char *arg)
{
	struct replay_args *x = ctx;
	uint64_t v;
	if (!cli_parse_size(arg, &v) || !v || v > 4096)
		return cli_opt_bad(o, arg, "bytes, e.g. 32");
	x->job.cache.sector = (uint32_t)v;
	return 0;
}

static int set_latency(void *ctx, const struct cli_opt *o, const char *arg)
{
	struct replay_args *x = ctx;
	if (!parse_latency(arg,
			   strcmp(o->name, "hit-latency") ? &x->job.k.miss_lat : &x->job.k.hit_lat))
		return cli_usage_error("replay", "bad latency '%s' (cycles)", arg);
	return 0;
}

static int set_mlp(void *ctx, const struct cli_opt *o, const char *arg)
{
	struct replay_args *x = ctx;
	x->job.k.mlp = arg;
	return replay_parse_mlp(arg, x->job.mlp)
		   ? 0
		   : cli_opt_bad(o, arg, "N, or N0,N1,... per tenant");
}

static int set_contention(void *ctx, const struct cli_opt *o, const char *arg)
{
	struct replay_args *x = ctx;
	if (!replay_parse_owner_by(arg, &x->job.k.contention_by))
		return cli_opt_bad(o, arg, "tenant, sm, kernel or stream");
	x->job.k.contention = 1;
	return 0;
}

static int set_part_by(void *ctx, const struct cli_opt *o, const char *arg)
{
	struct replay_args *x = ctx;
	if (strcmp(arg, "tenant") && strcmp(arg, "stream"))
		return cli_opt_bad(o, arg, "tenant or stream");
	x->job.k.part_by = strcmp(arg, "stream") ? LLCT_CLASS_TENANT : LLCT_CLASS_STREAM;
	x->part_by_set = 1;
	return 0;
}

static int set_page(void *ctx, const struct cli_opt *o, const char *arg)
{
	struct replay_args *x = ctx;
	uint64_t v;
	if (!cli_parse_size(arg, &v) || v > UINT32_MAX)
		return cli_opt_bad(o, arg, NULL);
	x->job.k.page_size = (uint32_t)v;
	return 0;
}

static int set_sample_sets(void *ctx, const struct cli_opt *o, const char *arg)
{
	struct replay_args *x = ctx;
	const char *n = strncmp(arg, "1/", 2) ? arg : arg + 2;
	uint64_t v;
	if (!cli_parse_uint(n, 1u << 20, &v) || v < 2)
		return cli_opt_bad(o, arg, "1/N, N >= 2");
	x->job.k.sample_sets = (uint32_t)v;
	return 0;
}

static int set_confidence(void *ctx, const struct cli_opt *o, const char *arg)
{
	struct replay_args *x = ctx;
	return cli_parse_level(arg, &x->job.k.confidence)
		   ? 0
		   : cli_opt_bad(o, arg, "a level from 50% to 99.9999%, as 99% or 0.99");
}

static const struct cli_opt replay_opt_list[] = {
    {"policy", 'p', "LIST",
     "names, any case, comma-separated; 'all' adds every one\n"
     "[all; in a co-run all but those that need the future]:\n"
     "@POLICIES@\n"
     "(docs/REPLAY.md gives their rules)",
     set_policy},
    {"output", 'o', "FILE",
     "results database to append to (never replaced: a file of\n"
     "another kind is refused)",
     cli_opt_str, ARG(out_path)},
    {"llc", 'l', "SIZE[:W[:L]]",
     "size, ways [16], line size [64]; [8MiB:16:64]. Repeat it,\n"
     "or give a list (2MiB,4MiB,8MiB), for one run per size from\n"
     "one pass (same line size; not with co-runs, partitions,\n"
     "bypass or colors). K, M, G and KiB, MiB, GiB are binary;\n"
     "KB, MB, GB decimal (8MB = 8,000,000 bytes)",
     set_llc},
    {"mrc", 0, "SIZES",
     "LRU at every size in one pass (stack distances), each\n"
     "run equal to LRU's own at that size: a size alone keeps\n"
     "the sets and line of --llc and takes the ways it needs\n"
     "(1 to 64), SIZE:W:L is taken as it is (docs/REPLAY.md)",
     set_llc},
    {"banks", 0, "N", "LLC banks (GSPC counters are per bank) [4]", cli_opt_u32, JOB(cache.banks),
     1, 1u << 20},
    {"sample-period", 0, "N", "GSPC family: sets s with s % N == 0 sample [64]", cli_opt_u32,
     JOB(cache.sample_period), 1, 1u << 30},
    {"hash", 0, "mod|xor", "set index: line mod sets, or XOR-folded line bits [mod]", set_hash},
    {"ucd", 0, NULL, "uncached displayable color: DISP bypasses the LLC", cli_opt_flag,
     JOB(cache.ucd)},
    {"write-policy", 0, "W",
     "allocate (write-back, write-allocate), no-allocate (a\n"
     "write miss goes to memory) or evict (every write goes to\n"
     "memory and evicts the line it touches) [allocate]",
     set_write},
    {"sector", 0, "BYTES",
     "sectored lines: per-sector valid and dirty bits; a miss\n"
     "fetches its sector only (e.g. 32 with 128-byte lines)",
     set_sector},
    {"frames", 'f', "RANGE",
     "frames to replay, e.g. 2-5,9 [all]; the cache stays warm;\n"
     "frames the trace does not hold are an error (1)",
     cli_opt_str, JOB(k.frames)},
    {"per-kernel", 0, NULL,
     "also count by frame, kernel (draw, dispatch, copy...) and\n"
     "stream into kernel_stats, with the trace's kernels (and\n"
     "their RenderDoc event IDs) in trace_kernels; the models\n"
     "take the general path (docs/RESULTS.md); implies --flow",
     cli_opt_flag, JOB(k.per_kernel)},
    {"flow", 0, NULL,
     "also count pass-to-pass reuse into kernel_flow: the reads\n"
     "by each kernel, as TEX or CS, of lines another kernel wrote\n"
     "last (as RT, DISP, Z, CS...) and how many hit (views\n"
     "flow_kernels, flow_passes, flow_totals, flow_trace)",
     cli_opt_flag, JOB(k.flow)},
    {NULL, 0, NULL, "\nCo-running, contention, partitioning (docs/REPLAY.md):"},
    {"corun", 0, NULL,
     "replay several traces together as tenants 0, 1, ...; also\n"
     "each alone; results in the tenants table",
     cli_opt_flag, JOB(k.corun)},
    {"hit-latency", 0, "N", "cycles [120]; --miss-latency N: cycles [480]", set_latency},
    {"miss-latency", 0, "N", NULL, set_latency},
    {"mlp", 0, "N|N0,N1,...", "memory-level parallelism per tenant [8]", set_mlp},
    {"contention-by", 0, "K",
     "GDC/PLOB owners: tenant, sm, kernel or stream [tenant in a\n"
     "co-run, off otherwise]",
     set_contention},
    {"partition", 0, "ways:S", "S: even, static, dynamic[:N], 0=4,1=12 or TEX=8,RT=4", cli_opt_str,
     JOB(k.partition)},
    {"partition-by", 0, "C", "classes: tenant or stream [tenant in a co-run, else stream]",
     set_part_by},
    {"colors", 0, "S", "page coloring by tenant: even or 0=0-63,1=64-127", cli_opt_str,
     JOB(k.colors)},
    {"page-size", 0, "SIZE", "page size for coloring [4KiB]", set_page},
    {"bypass", 0, "R,...", "R: stream=NAME or tenant=N", cli_opt_str, JOB(k.bypass)},
    {"threads", 0, "N",
     "worker threads [one per core]; more threads than\n"
     "policies split the sets of LRU, NRU, SRRIP, PLRU,\n"
     "Belady and --mrc's stacks over them (the same numbers;\n"
     "without --threads one core is left to decoding)",
     cli_opt_uint, JOB(threads), 0, 1024},
    {"sample-sets", 0, "1/N",
     "replay 1 in N sets (and each policy's leader/sample sets)\n"
     "and estimate the rest, with intervals in the\n"
     "estimates table (docs/REPLAY.md); not with co-runs,\n"
     "partitions, bypass, colors or contention",
     set_sample_sets},
    {"confidence", 0, "L", "the intervals' level: 95%, 99.9% or 0.999 [99%]", set_confidence},
    {"simultaneous", 0, NULL,
     "the level holds for all the command's estimates together\n"
     "(each interval wider: Bonferroni over 40 a run)",
     cli_opt_flag, ARG(simultaneous)},
    {"quiet", 'q', NULL, "no progress line or table", cli_opt_flag, ARG(quiet)},
    {NULL}};

const struct cli_opts replay_opts = {"replay", 25, 0, replay_opt_list};

/* What the options leave to work out: the traces and results file given, the defaults that
 * depend on the mode, the policies, sizes and memory. -1 to go on, else the exit status. */
static int replay_settle(struct replay_args *x, int argc, char **argv)
{
	struct replay_job *a = &x->job;
	char err[700];
	a->traces = (const char *const *)argv + optind;
	a->n_traces = (size_t)(argc - optind);
	if (a->n_traces == 0)
		return cli_usage_error("replay", "needs a trace file");
	if (a->n_traces > 1 && !a->k.corun)
		return cli_usage_error("replay", "several traces need --corun");
	if (!x->out_path)
		return cli_usage_error("replay", "needs -o RESULTS.db");
	/* Defaults that depend on the mode: co-runs track contention between tenants and
	 * partition by tenant; a single trace partitions by stream. */
	if (a->k.corun && !a->k.contention) {
		a->k.contention = 1;
		a->k.contention_by = LLCT_OWNER_TENANT;
	}
	if (!x->part_by_set)
		a->k.part_by = a->k.corun ? LLCT_CLASS_TENANT : LLCT_CLASS_STREAM;
	if (replay_parse_policies(x->policy_arg ? x->policy_arg
				  : a->k.corun  ? replay_corun_policies()
						: "all",
				  a->pol, &a->n_pol, err, sizeof(err)))
		return cli_usage_error("replay", "%s", err);
	if (x->mrc.n && mrc_sizes(&x->mrc, &x->sizes, a, x->policy_arg))
		return EXIT_USAGE;
	if (resolve_llc(x->mrc.n ? &x->mrc : &x->sizes, a, err, sizeof(err)))
		return EXIT_USAGE;
	if (!x->mrc.n && model_memory(a)) /* said: more than this machine has */
		return EXIT_FAIL;
	if (x->simultaneous) /* every estimate of the command's runs, together */
		a->family = REPLAY_ESTIMATES_PER_RUN * (uint32_t)a->n_pol *
			    (uint32_t)(x->sizes.n ? x->sizes.n : 1);
	for (size_t i = 0; i < a->n_traces; i++)
		if (cli_check_input("replay", a->traces[i], CLI_FILE_TRACE))
			return EXIT_FAIL;
	int rc = replay_job_prepare(a, err, sizeof(err));
	if (rc != EXIT_OK) {
		if (rc == EXIT_USAGE)
			cli_usage_error("replay", "%s", err);
		else
			cli_error("%s", err);
		return rc;
	}
	/* Check the traces and the results file before a long replay. */
	if (cli_check_output("replay", x->out_path, CLI_FILE_RESULTS, 0))
		return EXIT_FAIL;
	for (size_t i = 0; i < a->n_traces; i++) {
		struct llct_reader *r;
		if (llct_reader_open(a->traces[i], &r, err, sizeof(err))) {
			cli_error("%s", err);
			return EXIT_FAIL;
		}
		llct_reader_close(r);
	}
	return -1;
}

/* Runs the settled job into the results database and prints the summary. */
static int replay_run(struct replay_args *x)
{
	struct replay_job *a = &x->job;
	char err[700];
	struct llct_results *db;
	int rc = EXIT_FAIL;
	/* a replay writes its runs in one transaction at the end: interrupted, it left none */
	cli_on_interrupt("llctrace replay: interrupted; nothing of this replay was written "
			 "('%s' keeps the runs it had)",
			 x->out_path);
	if (llct_results_open(x->out_path, &db, err, sizeof(err))) {
		cli_error("%s", err);
		return EXIT_FAIL;
	}
	struct cli_progress prog;
	cli_progress_init(&prog, "records", 0, x->quiet);
	a->progress = progress;
	a->progress_ud = &prog;
	if (replay_job_run(a, db, err, sizeof(err)) != EXIT_OK) {
		cli_error("%s", err);
	} else {
		cli_progress_done(&prog, a->records);
		rc = EXIT_OK;
		const struct llc_list *l = x->mrc.n ? &x->mrc : &x->sizes;
		if (!x->quiet && replay_print_summary(db, a, (const char *)l->text,
						      sizeof(l->text[0]), x->out_path))
			rc = EXIT_FAIL;
	}
	if (llct_results_close(db) && rc == EXIT_OK) {
		cli_error("'%s': cannot close the results database", x->out_path);
		rc = EXIT_FAIL;
	}
	return rc;
}

int cmd_replay(int argc, char **argv)
{
	struct replay_args *x = calloc(1, sizeof(*x));
	if (!x) {
		cli_error("out of memory");
		return EXIT_FAIL;
	}
	replay_job_init(&x->job);
	x->argc = argc, x->argv = argv;
	int rc = cli_opts_parse(&replay_opts, argc, argv, x);
	if (rc < 0)
		rc = replay_settle(x, argc, argv);
	if (rc < 0)
		rc = replay_run(x);
	replay_job_release(&x->job);
	free(x);
	return rc;
}
