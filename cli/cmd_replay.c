/* cmd_replay.c - `llctrace replay`: runs a trace through LLC models and appends the results. */
#include "cli.h"
#include "llct/replay.h"
#include "llct/results.h"

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

/* The table a user sees: read hit rate per stream and policy over all replayed frames. */
static void print_summary(const struct llct_replay_result *res, size_t n, int ucd)
{
	uint64_t drrip_misses = 0;
	printf("%-14s", "read hit rate");
	for (unsigned s = 0; s < LLCT_N_STREAMS; s++)
		printf(" %6s", llct_stream_name(s));
	printf(" %7s %9s %8s\n", "all", "RT->TEX", "vs DRRIP");
	for (size_t m = 0; m < n; m++) {
		uint64_t misses = 0;
		for (size_t f = 0; f < res[m].n_frames; f++)
			for (unsigned s = 0; s < LLCT_N_STREAMS; s++) {
				const struct llct_stream_stats *x = &res[m].frames[f].s[s];
				misses += x->reads + x->writes - x->read_hits - x->write_hits;
			}
		if (strcmp(res[m].policy->name, "drrip") == 0)
			drrip_misses = misses;
	}
	for (size_t m = 0; m < n; m++) {
		uint64_t r[LLCT_N_STREAMS] = {0}, h[LLCT_N_STREAMS] = {0}, rt = 0, ct = 0,
			 misses = 0, all_r = 0, all_h = 0;
		for (size_t f = 0; f < res[m].n_frames; f++) {
			const struct llct_frame_stats *fs = &res[m].frames[f];
			for (unsigned s = 0; s < LLCT_N_STREAMS; s++) {
				r[s] += fs->s[s].reads;
				h[s] += fs->s[s].read_hits;
				misses += fs->s[s].reads + fs->s[s].writes - fs->s[s].read_hits -
					  fs->s[s].write_hits;
			}
			rt += fs->rt_produced;
			ct += fs->rt_consumed;
		}
		printf("%-14s", res[m].policy->name);
		for (unsigned s = 0; s < LLCT_N_STREAMS; s++) {
			all_r += r[s];
			all_h += h[s];
			if (r[s])
				printf(" %5.1f%%", 100.0 * (double)h[s] / (double)r[s]);
			else
				printf(" %6s", "-");
		}
		printf(" %6.1f%%", all_r ? 100.0 * (double)all_h / (double)all_r : 0.0);
		if (rt)
			printf(" %8.1f%%", 100.0 * (double)ct / (double)rt);
		else
			printf(" %9s", "-");
		if (drrip_misses)
			printf(" %+7.1f%%", 100.0 * (1.0 - (double)misses / (double)drrip_misses));
		printf("\n");
	}
	printf("(RT->TEX: RT-written lines consumed by a TEX hit; vs DRRIP: misses saved%s)\n",
	       ucd ? "; UCD on: DISP bypasses and never hits" : "");
}

int cmd_replay(int argc, char **argv)
{
	enum { O_BANKS = 256, O_SAMPLE, O_HASH, O_UCD, O_THREADS };
	static const struct option opts[] = {{"policy", required_argument, NULL, 'p'},
					     {"output", required_argument, NULL, 'o'},
					     {"llc", required_argument, NULL, 'l'},
					     {"banks", required_argument, NULL, O_BANKS},
					     {"sample-period", required_argument, NULL, O_SAMPLE},
					     {"hash", required_argument, NULL, O_HASH},
					     {"ucd", no_argument, NULL, O_UCD},
					     {"frames", required_argument, NULL, 'f'},
					     {"threads", required_argument, NULL, O_THREADS},
					     {"quiet", no_argument, NULL, 'q'},
					     {"help", no_argument, NULL, 'h'},
					     {NULL, 0, NULL, 0}};
	struct llct_replay_options o;
	struct llct_frame_range range;
	const struct llct_policy_ops *pol[MAX_POLICIES];
	const char *policy_arg = "all", *out = NULL, *frames = NULL;
	char err[700];
	uint64_t v;
	int c, quiet = 0, rc = EXIT_FAIL;

	memset(&o, 0, sizeof(o));
	o.cache = (struct llct_cache_config)LLCT_CACHE_CONFIG_INIT;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":p:o:l:f:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			policy_arg = optarg;
			break;
		case 'o':
			out = optarg;
			break;
		case 'l':
			if (!cli_parse_llc(optarg, &o.cache.size, &o.cache.ways, &o.cache.line))
				return cli_usage_error("replay",
						       "bad --llc '%s' (SIZE:WAYS:LINE, "
						       "e.g. 8MiB:16:64)",
						       optarg);
			break;
		case O_BANKS:
			if (!cli_parse_uint(optarg, 1u << 20, &v) || !v)
				return cli_usage_error("replay", "bad --banks '%s'", optarg);
			o.cache.banks = (uint32_t)v;
			break;
		case O_SAMPLE:
			if (!cli_parse_uint(optarg, 1u << 30, &v) || !v)
				return cli_usage_error("replay", "bad --sample-period '%s'",
						       optarg);
			o.cache.sample_period = (uint32_t)v;
			break;
		case O_HASH:
			if (strcmp(optarg, "mod") == 0)
				o.cache.hash = LLCT_HASH_MOD;
			else if (strcmp(optarg, "xor") == 0)
				o.cache.hash = LLCT_HASH_XOR;
			else
				return cli_usage_error("replay", "bad --hash '%s' (mod or xor)",
						       optarg);
			break;
		case O_UCD:
			o.cache.ucd = 1;
			break;
		case 'f':
			frames = optarg;
			break;
		case O_THREADS:
			if (!cli_parse_uint(optarg, 1024, &v))
				return cli_usage_error("replay", "bad --threads '%s'", optarg);
			o.threads = (unsigned)v;
			break;
		case 'q':
			quiet = 1;
			break;
		default: {
			int r = cli_getopt_common("replay", c, argv);
			if (r >= 0)
				return r;
		}
		}
	}
	if (optind >= argc)
		return cli_usage_error("replay", "needs a trace file");
	if (optind + 1 < argc)
		return cli_usage_error("replay",
				       "unexpected argument '%s' (co-running several "
				       "traces is not built yet)",
				       argv[optind + 1]);
	if (!out)
		return cli_usage_error("replay", "needs -o RESULTS.db");
	int pr = parse_policies(policy_arg, pol, &o.n_policies);
	if (pr < 0)
		return EXIT_USAGE;
	if (!pr)
		return cli_usage_error("replay", "bad --policy '%s'", policy_arg);
	o.policies = pol;
	if (llct_cache_config_check(&o.cache, err, sizeof(err)))
		return cli_usage_error("replay", "bad cache configuration: %s", err);
	if (frames) {
		if (llct_frame_range_parse(frames, &range))
			return cli_usage_error("replay", "bad frame range '%s'", frames);
		o.frames = &range;
	}

	const char *trace = argv[optind];
	struct llct_reader *r = NULL;
	struct llct_results *db = NULL;
	struct llct_replay_result *res = NULL;
	struct cli_progress prog;
	double wall = 0;
	char created[64] = "", started[32];
	time_t t = time(NULL);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(started, sizeof(started), "%Y-%m-%dT%H:%M:%SZ", &tm);

	if (llct_reader_open(trace, &r, err, sizeof(err))) {
		cli_error("%s", err);
		goto out;
	}
	llct_reader_foreach_meta(r, find_created, created);
	/* Open the results first, so a bad results file fails before a long replay. */
	if (llct_results_open(out, &db, err, sizeof(err))) {
		cli_error("%s", err);
		goto out;
	}
	const struct llct_frame_info *fi;
	size_t nf;
	uint64_t total = 0;
	llct_reader_frames(r, &fi, &nf);
	for (size_t i = 0; i < nf; i++)
		if (!o.frames || llct_frame_range_contains(o.frames, fi[i].frame))
			total += fi[i].n_records;
	cli_progress_init(&prog, "records", total, quiet);
	o.progress = progress;
	o.progress_ud = &prog;
	if (llct_replay_run(r, &o, &res, &wall, err, sizeof(err))) {
		cli_error("%s", err);
		goto out;
	}
	cli_progress_done(&prog, total);

	char params[512];
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	snprintf(params, sizeof(params),
		 "{\"policies_in_command\":%zu,\"threads\":%u,\"cores\":%ld,"
		 "\"command_wall_s\":%.3f,\"write_policy\":\"write-back write-allocate\"}",
		 o.n_policies, o.threads, cores, wall);
	if (llct_results_begin(db))
		goto db_fail;
	for (size_t m = 0; m < o.n_policies; m++) {
		struct llct_run_info ri = {
		    .trace = trace,
		    .trace_created = created[0] ? created : NULL,
		    .policy = res[m].policy->name,
		    .llc_bytes = o.cache.size,
		    .ways = o.cache.ways,
		    .line = o.cache.line,
		    .sets = llct_cache_sets(&o.cache),
		    .banks = o.cache.banks,
		    .sample_period = o.cache.sample_period,
		    .hash = o.cache.hash == LLCT_HASH_XOR ? "xor" : "mod",
		    .ucd = o.cache.ucd,
		    .frames = frames ? frames : "all",
		    .params = params,
		    .started_at = started,
		    .wall_s = res[m].busy_s,
		    .accesses = res[m].accesses,
		    .peak_state = res[m].peak_state,
		};
		int64_t id;
		if (llct_results_add_run(db, &ri, &id))
			goto db_fail;
		for (size_t f = 0; f < res[m].n_frames; f++)
			if (llct_results_add_frame(db, id, &res[m].frames[f]))
				goto db_fail;
	}
	if (llct_results_commit(db))
		goto db_fail;
	if (!quiet) {
		print_summary(res, o.n_policies, o.cache.ucd);
		fprintf(stderr, "replayed %llu records x %zu policies in %.2fs; results in '%s'\n",
			(unsigned long long)total, o.n_policies, wall, out);
	}
	rc = EXIT_OK;
	goto out;
db_fail:
	llct_results_commit(db); /* rolls back after a failure */
	cli_error("%s", llct_results_error(db));
out:
	llct_replay_results_free(res, o.n_policies);
	if (db && llct_results_close(db) && rc == EXIT_OK) {
		cli_error("'%s': cannot close the results database", out);
		rc = EXIT_FAIL;
	}
	llct_reader_close(r);
	if (o.frames)
		llct_frame_range_release(&range);
	return rc;
}
