/* cmd_replay.c - `llctrace replay`: parses the options into a replay job (replay_job.c), runs
 * it, and prints the summary read back from the results database's views. */
#include "cli.h"
#include "replay_job.h"

#include <stdlib.h>
#include <string.h>

static const char *owner_by_arg[] = {"tenant", "sm", "kernel", "stream"};

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
		O_PER_KERNEL
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
	    {"quiet", no_argument, NULL, 'q'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0}};
	struct replay_job *a = calloc(1, sizeof(*a));
	const char *policy_arg = NULL, *out_path = NULL;
	char err[700], policy_buf[1024];
	enum { MAX_LLC = 64 };
	struct llct_cache_config llc[MAX_LLC], base = LLCT_CACHE_CONFIG_INIT;
	char llc_text[MAX_LLC][64];
	size_t n_llc = 0;
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
	while ((c = getopt_long(argc, argv, ":p:o:l:f:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			policy_arg =
			    cli_list_arg(optarg, argc, argv, policy_buf, sizeof(policy_buf));
			break;
		case 'o':
			out_path = optarg;
			break;
		case 'l': { /* repeated, or a list: one run per size */
			char buf[1024], *save = NULL;
			const char *arg = cli_list_arg(optarg, argc, argv, buf, sizeof(buf));
			char *copy = strdup(arg);
			for (char *t = copy ? strtok_r(copy, ", ", &save) : NULL; t;
			     t = strtok_r(NULL, ", ", &save)) {
				if (n_llc == MAX_LLC) {
					cli_usage_error("replay", "at most %d --llc sizes",
							MAX_LLC);
					free(copy);
					goto out;
				}
				snprintf(llc_text[n_llc], sizeof(llc_text[n_llc]), "%s", t);
				llc[n_llc] = base;
				if (!cli_parse_llc(t, &llc[n_llc].size, &llc[n_llc].ways,
						   &llc[n_llc].line)) {
					cli_usage_error(
					    "replay",
					    "bad --llc '%s' (SIZE, or SIZE:WAYS:LINE, e.g. "
					    "8MiB or 8MiB:16:64)",
					    t);
					free(copy);
					goto out;
				}
				n_llc++;
			}
			free(copy);
			break;
		}
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
					     : (a->corun ? "lru,nru,srrip,brrip,drrip,"
							   "gspztc,gspztc-tse,gspc"
							 : "all"),
				  a->pol, &a->n_pol, err, sizeof(err))) {
		cli_usage_error("replay", "%s", err);
		goto out;
	}
	/* the LLC sizes, each with the switches given beside them (banks, hash, UCD...) */
	for (size_t i = 0; i < (n_llc ? n_llc : 1); i++) {
		struct llct_cache_config *k = n_llc ? &llc[i] : &a->cache;
		k->banks = a->cache.banks;
		k->sample_period = a->cache.sample_period;
		k->hash = a->cache.hash;
		k->ucd = a->cache.ucd;
		if (llct_cache_config_check(k, err, sizeof(err))) {
			char hint[160] = "";
			if (n_llc)
				cli_llc_hint(llc_text[i], hint, sizeof(hint));
			cli_usage_error("replay", "bad cache configuration%s%s%s: %s%s",
					n_llc ? " '" : "", n_llc ? llc_text[i] : "",
					n_llc ? "'" : "", err, hint);
			goto out;
		}
		for (size_t j = 0; j < i; j++)
			if (n_llc && !memcmp(&llc[j], k, sizeof(*k))) {
				cli_usage_error("replay", "--llc '%s' is given twice", llc_text[i]);
				goto out;
			}
	}
	if (n_llc == 1)
		a->cache = llc[0];
	else if (n_llc > 1) {
		a->cache = llc[0];
		a->sweep = llc;
		a->n_sweep = n_llc;
	}
	if (simultaneous) /* every estimate of the command's runs, together */
		a->family =
		    REPLAY_ESTIMATES_PER_RUN * (uint32_t)a->n_pol * (uint32_t)(n_llc ? n_llc : 1);
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
		if (!quiet && a->corun) {
			if (cli_print_corun_table(llct_results_handle(db), a->first_id,
						  (int64_t)a->n_pol))
				rc = EXIT_FAIL;
			fprintf(stderr,
				"co-ran %zu traces x %zu policies in %.2fs; results in '%s'\n",
				a->n_traces, a->n_pol, a->wall_s, out_path);
		} else if (!quiet) {
			for (size_t k = 0; k < (a->n_sweep ? a->n_sweep : 1); k++) {
				if (a->n_sweep)
					printf("%sLLC %s\n", k ? "\n" : "", llc_text[k]);
				if (cli_print_replay_table(llct_results_handle(db), a->cfg_first[k],
							   (int64_t)a->n_pol, a->cache.ucd))
					rc = EXIT_FAIL;
			}
			if (a->sample_sets > 1) {
				uint32_t sets = llct_cache_sets(&a->cache);
				double conf = a->confidence > 0 ? a->confidence : 0.99;
				char how[96];
				if (a->family)
					snprintf(how, sizeof(how),
						 "%.4g%% for all %u estimates together", 100 * conf,
						 a->family);
				else
					snprintf(how, sizeof(how), "%.4g%% each", 100 * conf);
				printf(
				    "(estimates from 1 in %u sets, ~%u of %u; their intervals, %s: "
				    "SELECT * FROM estimates)\n",
				    a->sample_sets, sets / a->sample_sets, sets, how);
				if (sets / a->sample_sets < 256)
					fprintf(
					    stderr,
					    "note: fewer than 256 sets sampled: traffic that sits "
					    "on "
					    "a few sets (HiZ, small buffers) may be missed; sample "
					    "more sets (a smaller N) for tighter estimates\n");
			}
			fprintf(
			    stderr,
			    "replayed %llu records x %zu policies%s%.0zu%s in %.2fs; results in "
			    "'%s'\n",
			    (unsigned long long)a->records, a->n_pol, a->n_sweep ? " x " : "",
			    a->n_sweep, a->n_sweep ? " LLC sizes" : "", a->wall_s, out_path);
		}
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
