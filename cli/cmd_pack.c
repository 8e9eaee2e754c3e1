/* cmd_pack.c - `llctrace pack [-l LEVEL] TRACE...`: a finished trace's chunks encoded again at a
 * higher LZ4 level, in place, smaller on disk with the same records. */
#include "cli.h"
#include "llct/trace.h"

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

int cmd_pack(int argc, char **argv)
{
	static const struct option opts[] = {{"level", required_argument, NULL, 'l'},
					     {"quiet", no_argument, NULL, 'q'},
					     {"help", no_argument, NULL, 'h'},
					     {NULL, 0, NULL, 0}};
	uint64_t level = 9;
	int c, quiet = 0, failed = 0;

	opterr = 0;
	optind = 1;
	while ((c = cli_getopt(argc, argv, ":l:qh", opts)) != -1) {
		switch (c) {
		case 'l':
			if (!cli_parse_uint(optarg, LLCT_CHUNK_LEVEL_MAX, &level))
				return cli_usage_error("pack", "--level '%s' is not 0..%d", optarg,
						       LLCT_CHUNK_LEVEL_MAX);
			break;
		case 'q':
			quiet = 1;
			break;
		default: {
			int r = cli_getopt_common("pack", c, argv);
			if (r >= 0)
				return r;
		}
		}
	}
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
