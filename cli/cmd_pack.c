/* cmd_pack.c - `llctrace pack [-l LEVEL] TRACE...`: a finished trace's chunks encoded again at a
 * higher LZ4 level, in place, smaller on disk with the same records. */
#include "cli.h"
#include "opts.h"

#include "llct/trace.h"
#include <stddef.h>

#include <stdlib.h>

static int show_progress(const struct llct_pack_stats *st, void *ud)
{
	struct cli_progress *p = ud;
	p->total = st->chunks_total;
	cli_progress_update(p, st->chunks);
	return 0;
}

static double per_record(uint64_t bytes, uint64_t records)
{
	return records ? (double)bytes / (double)records : 0.0;
}

/* What pack's options set. */
struct pack_args {
	uint64_t level;
	int quiet;
};

static int set_level(void *ctx, const struct cli_opt *o, const char *arg)
{
	(void)o;
	struct pack_args *x = ctx;
	if (!cli_parse_uint(arg, LLCT_CHUNK_LEVEL_MAX, &x->level))
		return cli_usage_error("pack", "--level '%s' is not 0..%d", arg,
				       LLCT_CHUNK_LEVEL_MAX);
	return 0;
}

static const struct cli_opt pack_opt_list[] = {
    {"level", 'l', "N", "0 (LZ4's fast level, as captured) to 12 (smallest, slowest) [9]",
     set_level},
    {"quiet", 'q', NULL, "no progress or summary line", cli_opt_flag,
     offsetof(struct pack_args, quiet)},
    {NULL}};

const struct cli_opts pack_opts = {"pack", 18, 0, pack_opt_list};

int cmd_pack(int argc, char **argv)
{
	struct pack_args x = {.level = 9};
	int failed = 0;
	int rc = cli_opts_parse(&pack_opts, argc, argv, &x);
	if (rc >= 0)
		return rc;
	uint64_t level = x.level;
	int quiet = x.quiet;
	if (optind == argc)
		return cli_usage_error("pack", "needs a trace");
	for (int i = optind; i < argc; i++) {
		const char *path = argv[i];
		if (cli_check_input("pack", path, CLI_FILE_TRACE)) {
			failed = 1;
			continue;
		}
		char err[600];
		struct cli_progress pr;
		struct llct_pack_stats st;
		cli_progress_init(&pr, "chunks", 0, quiet);
		double t0 = cli_now();
		if (llct_trace_pack(path, (int)level, show_progress, &pr, &st, err, sizeof(err))) {
			cli_progress_done(&pr, st.chunks);
			cli_error("%s", err);
			failed = 1;
			continue;
		}
		cli_progress_done(&pr, st.chunks);
		if (!quiet)
			fprintf(stderr,
				"packed '%s' at level %d: %llu chunks, %llu records, %llu -> %llu "
				"bytes (%.3f -> %.3f bytes/record), %.1f s\n",
				path, (int)level, (unsigned long long)st.chunks,
				(unsigned long long)st.records, (unsigned long long)st.bytes_before,
				(unsigned long long)st.bytes_after,
				per_record(st.bytes_before, st.records),
				per_record(st.bytes_after, st.records), cli_now() - t0);
	}
	return failed ? EXIT_FAIL : EXIT_OK;
}
