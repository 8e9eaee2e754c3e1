/* cmd_dump.c - `llctrace dump`: prints a trace's records as aligned text or as CSV. */
#include "cli.h"
#include "llct/csv.h"
#include "opts.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* What dump's and info's options set. */
struct read_args {
	const char *frames;
	int csv, kernels;
};

#define RA(f) offsetof(struct read_args, f)

static const struct cli_opt dump_opt_list[] = {
    {"csv", 0, NULL,
     "CSV with the header frame,addr,stream,op,sm,kernel,tenant\n"
     "(and ,site where the trace names instruction sites: tier 3)\n"
     "(the form 'llctrace import --csv' reads back)",
     cli_opt_flag, RA(csv)},
    {"frames", 'f', "RANGE", "frames to print, e.g. 5-7,20 or 3- (default: all)", cli_opt_str,
     RA(frames)},
    {NULL}};

const struct cli_opts dump_opts = {"dump", 22, 0, dump_opt_list};

static const struct cli_opt info_opt_list[] = {
    {"frames", 'f', "RANGE", "frames to count (and list)", cli_opt_str, RA(frames)},
    {"kernels", 0, NULL,
     "also list every kernel (draw, dispatch, copy, clear, ...) with its\n"
     "frame, RenderDoc event ID (capture --renderdoc) and parameters",
     cli_opt_flag, RA(kernels)},
    {NULL}};

const struct cli_opts info_opts = {"info", 22, 0, info_opt_list};

/* Parses dump's or info's options (t) and opens TRACE with its optional frame range. */
static int open_args(const struct cli_opts *t, int argc, char **argv, struct read_args *x,
		     struct llct_reader **r, struct llct_frame_range *range, int *has_range)
{
	const char *cmd = t->cmd;
	char err[600] = "";
	int rc = cli_opts_parse(t, argc, argv, x);
	if (rc >= 0)
		return rc;
	const char *frames = x->frames;
	if (optind >= argc)
		return cli_usage_error(cmd, "needs a trace file");
	if (optind + 1 < argc)
		return cli_usage_error(cmd, "unexpected argument '%s'", argv[optind + 1]);
	*has_range = 0;
	if (frames) {
		if (llct_frame_range_parse(frames, range))
			return cli_usage_error(cmd, "bad frame range '%s' (e.g. 5-7,20 or 3-)",
					       frames);
		*has_range = 1;
	}
	if (cli_check_input(cmd, argv[optind], CLI_FILE_TRACE) ||
	    llct_reader_open(argv[optind], r, err, sizeof(err))) {
		if (err[0])
			cli_error("%s", err);
		if (*has_range)
			llct_frame_range_release(range);
		return EXIT_FAIL;
	}
	const struct llct_frame_info *fi;
	size_t nf;
	llct_reader_frames(*r, &fi, &nf);
	if (*has_range &&
	    llct_frame_range_check(range, frames, argv[optind], fi, nf, err, sizeof(err))) {
		cli_error("%s", err);
		llct_frame_range_release(range);
		llct_reader_close(*r);
		return EXIT_FAIL;
	}
	return -1;
}

int cmd_dump(int argc, char **argv)
{
	struct llct_reader *r;
	struct llct_cursor *cur;
	struct llct_frame_range range;
	struct llct_batch b;
	struct read_args a = {0};
	int has_range, got, rc = EXIT_OK;
	int x = open_args(&dump_opts, argc, argv, &a, &r, &range, &has_range);
	if (x >= 0)
		return x;
	int csv = a.csv;
	if (llct_cursor_open(r, has_range ? &range : NULL, &cur)) {
		cli_error("%s", llct_reader_error(r));
		rc = EXIT_FAIL;
		goto out;
	}
	/* the site column where the trace numbers instruction sites (tier 3, format 2) */
	uint64_t n_sites = 0;
	llct_reader_count(r, "sites", &n_sites);
	if (csv)
		puts(n_sites ? LLCT_CSV_HEADER_SITES : LLCT_CSV_HEADER);
	else
		printf(n_sites ? "%10s  %18s  %-6s %-2s %6s %10s %6s %8s\n"
			       : "%10s  %18s  %-6s %-2s %6s %10s %6s\n",
		       "frame", "addr", "stream", "op", "sm", "kernel", "tenant", "site");
	while ((got = llct_cursor_next(cur, &b)) > 0) {
		if (csv) {
			if (llct_csv_write_batch(stdout, &b, n_sites > 0))
				break;
			continue;
		}
		for (uint32_t i = 0; i < b.n; i++) {
			printf("%10u  0x%016llx  %-6s %-2s %6u %10u %6u", b.frame,
			       (unsigned long long)b.addr[i], llct_stream_name(b.stream[i]),
			       b.op[i] ? "W" : "R", b.sm[i], b.kernel[i], b.tenant[i]);
			if (n_sites)
				printf(" %8u", b.site ? b.site[i] : 0);
			putchar('\n');
		}
	}
	if (got < 0) {
		fflush(stdout);
		cli_error("%s", llct_reader_error(r));
		rc = EXIT_FAIL;
	}
	if (fflush(stdout) != 0 || ferror(stdout)) {
		cli_error("cannot write to standard output");
		rc = EXIT_FAIL;
	}
	llct_cursor_close(cur);
out:
	if (has_range)
		llct_frame_range_release(&range);
	llct_reader_close(r);
	return rc;
}

struct stream_count {
	uint64_t reads[LLCT_N_STREAMS], writes[LLCT_N_STREAMS];
};

static int print_meta(const char *table, const char *key, const char *value, void *ud)
{
	(void)ud;
	printf("  %-9s %-24s %s\n", table, key, value ? value : "-");
	return 0;
}

struct kernel_list {
	const struct llct_frame_range *range;
	uint64_t shown;
};

/* One kernel: its id, frame, kind, RenderDoc event (--renderdoc) and parameters. */
static int print_kernel(uint64_t id, uint32_t frame, const char *kind, const char *name,
			const char *params, void *ud)
{
	struct kernel_list *kl = ud;
	char eid[24] = "-";
	const char *p = params ? strstr(params, "\"rdc_eid\":") : NULL;
	if (kl->range && !llct_frame_range_contains(kl->range, frame))
		return 0;
	if (p)
		snprintf(eid, sizeof(eid), "%llu", strtoull(p + 10, NULL, 10));
	printf("%-8llu %6u %-9s %8s  %s%s%s\n", (unsigned long long)id, frame, kind ? kind : "?",
	       eid, name ? name : "", name ? " " : "", params ? params : "");
	kl->shown++;
	return 0;
}

int cmd_info(int argc, char **argv)
{
	struct llct_reader *r;
	struct llct_cursor *cur;
	struct llct_frame_range range;
	struct llct_batch b;
	struct stream_count sc;
	const struct llct_frame_info *frames;
	size_t n_frames;
	uint64_t bytes = 0, n_kernels = 0, n_res = 0, n_sites = 0, total = 0, sel_frames = 0;
	uint64_t sited = 0; /* records that name their instruction site */
	struct read_args a = {0};
	int has_range, got, rc = EXIT_OK;
	int x = open_args(&info_opts, argc, argv, &a, &r, &range, &has_range);
	if (x >= 0)
		return x;
	int kernels = a.kernels;
	memset(&sc, 0, sizeof(sc));
	llct_reader_frames(r, &frames, &n_frames);
	if (llct_reader_compressed_bytes(r, &bytes) ||
	    llct_reader_count(r, "kernels", &n_kernels) ||
	    llct_reader_count(r, "resources", &n_res) || llct_reader_count(r, "sites", &n_sites) ||
	    llct_cursor_open(r, has_range ? &range : NULL, &cur)) {
		cli_error("%s", llct_reader_error(r));
		rc = EXIT_FAIL;
		goto out;
	}
	while ((got = llct_cursor_next(cur, &b)) > 0) {
		uint64_t w[LLCT_N_STREAMS] = {0}, all[LLCT_N_STREAMS] = {0};
		for (uint32_t i = 0; i < b.n; i++) {
			all[b.stream[i]]++;
			w[b.stream[i]] += b.op[i];
		}
		if (b.site)
			for (uint32_t i = 0; i < b.n; i++)
				sited += b.site[i] != 0;
		for (int s = 0; s < LLCT_N_STREAMS; s++) {
			sc.writes[s] += w[s];
			sc.reads[s] += all[s] - w[s];
		}
		total += b.n;
	}
	llct_cursor_close(cur);
	if (got < 0) {
		cli_error("%s", llct_reader_error(r));
		rc = EXIT_FAIL;
		goto out;
	}
	uint64_t all_records = 0;
	for (size_t i = 0; i < n_frames; i++) {
		all_records += frames[i].n_records;
		if (!has_range || llct_frame_range_contains(&range, frames[i].frame))
			sel_frames++;
	}
	printf("trace      %s\n", llct_reader_path(r));
	printf("id         %s\n", llct_reader_id(r));
	printf("frames     %zu", n_frames);
	if (n_frames)
		printf(" (%u..%u)", frames[0].frame, frames[n_frames - 1].frame);
	printf("\nrecords    %llu\n", (unsigned long long)all_records);
	printf("kernels    %llu\nresources  %llu\n", (unsigned long long)n_kernels,
	       (unsigned long long)n_res);
	if (n_sites)
		printf("sites      %llu instruction sites; %llu of the %srecords name theirs\n",
		       (unsigned long long)n_sites, (unsigned long long)sited,
		       has_range ? "selected " : "");
	printf("compressed %llu bytes, %.3f bytes/record\n", (unsigned long long)bytes,
	       all_records ? (double)bytes / (double)all_records : 0.0);
	printf("metadata\n");
	llct_reader_foreach_meta(r, print_meta, NULL);
	if (has_range)
		printf("selected   %llu frames, %llu records\n", (unsigned long long)sel_frames,
		       (unsigned long long)total);
	printf("%-6s %14s %14s %14s %7s\n", "stream", "reads", "writes", "total", "share");
	for (int s = 0; s < LLCT_N_STREAMS; s++) {
		uint64_t t = sc.reads[s] + sc.writes[s];
		printf("%-6s %14llu %14llu %14llu %6.2f%%\n", llct_stream_name((unsigned)s),
		       (unsigned long long)sc.reads[s], (unsigned long long)sc.writes[s],
		       (unsigned long long)t, total ? 100.0 * (double)t / (double)total : 0.0);
	}
	if (kernels) {
		struct kernel_list kl = {has_range ? &range : NULL, 0};
		printf("%-8s %6s %-9s %8s  %s\n", "kernel", "frame", "kind", "rdc_eid", "params");
		if (llct_reader_foreach_kernel(r, print_kernel, &kl)) {
			cli_error("%s", llct_reader_error(r));
			rc = EXIT_FAIL;
		}
	}
out:
	if (has_range)
		llct_frame_range_release(&range);
	llct_reader_close(r);
	return rc;
}
