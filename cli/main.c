/* main.c - the llctrace program: global options and dispatch through one sorted command table. */
#include "cli.h"
#include "llct/llct.h"
#include "opts.h"

#include <string.h>

static int cmd_help(int argc, char **argv);
static int cmd_version(int argc, char **argv);

const struct cli_command cli_commands[] = {
    {"batch", cmd_batch, "replay a grid of traces x policies x configurations, here or on Slurm",
     "usage: llctrace batch GRID.ini -o RESULTS.db [options]\n"
     "       llctrace batch GRID.ini -o RESULTS.db --slurm [Slurm options]\n"
     "\n"
     "GRID.ini lists traces (globs), policies and configurations in [grid NAME] and\n"
     "[corun NAME] sections; every combination is a cell (docs/BATCH.md). Runs already in\n"
     "RESULTS.db are skipped, so a batch run again redoes only what is missing or failed.\n"
     "Here: each trace is decoded once for all its configurations of one line size and\n"
     "UCD setting, on all cores, with one progress line; a failed job is reported and the\n"
     "others go on (exit 1 at the end).\n"
     "@OPTIONS@"
     "A task runs: llctrace batch GRID --task K --of N --skip-done RESULTS.db -o SHARD\n",
     &batch_opts},
    {"capture", cmd_capture, "run a Vulkan program under the capture layer",
     "usage: llctrace capture [options] -- PROGRAM [ARGS...]\n"
     "\n"
     "Runs PROGRAM with the VK_LAYER_LLCTRACE_capture layer, which writes the LLC\n"
     "traffic of the chosen frames to a trace (docs/CAPTURE.md). Works for\n"
     "anything that reaches Vulkan: native programs, Direct3D through vkd3d/DXVK, OpenGL\n"
     "through Zink. The same settings work as environment variables (LLCT_CAPTURE_*).\n"
     "@OPTIONS@"
     "Exit status: the program's failure is reported (1); the trace keeps every frame\n"
     "completed before a crash. A trace with no frame is an error (1) that says why.\n"
     "Ended by a signal: 128 + its number, the frames written before kept.\n",
     &capture_opts},
    {"compare", cmd_compare,
     "set any run or policy against another on the same trace and configuration",
     "usage: llctrace compare [--frames] [--csv] RESULTS.db A B\n"
     "\n"
     "A against B on every trace and configuration both were replayed on: misses, B's\n"
     "misses, miss_saving = 1 - misses / B's (positive: A misses less), and the same for\n"
     "read misses, over the trace or frame by frame. A and B are run ids or policy names\n"
     "(a name stands for that policy's latest run of each trace and configuration). The\n"
     "rows come from the views run_comparisons and frame_comparisons (docs/RESULTS.md):\n"
     "  llctrace sql RESULTS.db \"SELECT * FROM run_comparisons WHERE ...\" gives the same.\n"
     "@OPTIONS@",
     &compare_opts},
    {"dump", cmd_dump, "print the records of a trace (aligned text or CSV)",
     "usage: llctrace dump [--csv] [--frames RANGE] TRACE.llct\n"
     "\n"
     "Prints every record of the chosen frames in order.\n"
     "@OPTIONS@",
     &dump_opts},
    {"help", cmd_help, "show help for llctrace or one command", "usage: llctrace help [COMMAND]\n",
     NULL},
    {"import", cmd_import, "make a trace from CSV records",
     "usage: llctrace import --csv IN.csv -o OUT.llct [--quiet]\n"
     "\n"
     "Reads CSV with the header frame,addr,stream,op,sm,kernel,tenant, or the same\n"
     "with ,site (the instruction that made the access; 0 none) (addr 0x-hex or\n"
     "decimal; stream VTX HIZ Z STC RT TEX DISP CS OTHER; op R or W), frames in\n"
     "non-decreasing order, and writes a trace. IN.csv may be '-' for standard input.\n"
     "On a bad line it names the line, exits 1, and leaves no OUT.llct behind.\n"
     "@OPTIONS@",
     &import_opts},
    {"info", cmd_info, "summarize a trace: frames, records, streams, size, metadata",
     "usage: llctrace info [--frames RANGE] [--kernels] TRACE.llct\n"
     "\n"
     "Prints the capture metadata and settings, frames, records, per-stream reads and\n"
     "writes, kernels, resources and compressed bytes per record. Decodes every chunk,\n"
     "so it also checks the whole file.\n"
     "@OPTIONS@",
     &info_opts},
    {"merge", cmd_merge, "add the runs of results shards to a results database",
     "usage: llctrace merge SHARD.db... -o RESULTS.db\n"
     "\n"
     "Adds each shard's runs that RESULTS.db does not have yet (runs.uid), with all their\n"
     "rows, one transaction per shard; merging a shard twice adds nothing. A shard of a\n"
     "newer schema, or a file that is not a results database, is refused (exit 1) and the\n"
     "other shards are still merged.\n"
     "@OPTIONS@",
     &merge_opts},
    {"pack", cmd_pack, "encode a finished trace's chunks again, smaller (LZ4 high compression)",
     "usage: llctrace pack [--level N] [--quiet] TRACE.llct...\n"
     "\n"
     "Rewrites every chunk of each trace in place at LZ4's high-compression level N:\n"
     "the same records, in fewer bytes (a capture writes at LZ4's fast level, to keep\n"
     "up with the program). Reading a packed trace is as fast or faster. The trace is\n"
     "rewritten in transactions of about 64 MiB: stopped at any point, it still reads\n"
     "(run pack again to finish). Then settings.pack.level is stored and the freed\n"
     "space given back, which needs free disk space as large as the trace. Pack only a\n"
     "finished trace, not one a capture is still writing.\n"
     "@OPTIONS@"
     "Exit status 1 if any trace could not be packed (the others still are).\n",
     &pack_opts},
    {"replay", cmd_replay, "replay a trace through LLC policies into a results database",
     "usage: llctrace replay TRACE.llct [MORE.llct... --corun] -o RESULTS.db [options]\n"
     "\n"
     "Replays the trace through one LLC model per policy (decoding it once, models spread\n"
     "over all cores) and appends one run per policy to RESULTS.db (created if needed).\n"
     "Prints the read hit rate per stream and policy; query the rest with 'llctrace sql'.\n"
     "@OPTIONS@",
     &replay_opts},
    {"report", cmd_report, "write the report page (HTML, plots) of a results database",
     "usage: llctrace report RESULTS.db [-o REPORT.html] [--open]\n"
     "\n"
     "Writes one self-contained HTML file (no server, no network: the results, the SQL\n"
     "engine and the plotting library are inside) with hit rates per stream and policy,\n"
     "misses saved against DRRIP, RT-to-TEX reuse, epochs, miss curves over LLC size,\n"
     "co-run tenants, contention and partitions, each beside the query that gives its\n"
     "numbers (docs/REPORT.md). The results file is only read.\n"
     "@OPTIONS@",
     &report_opts},
    {"sql", cmd_sql, "run SQL on a results database (or a trace) and print a table",
     "usage: llctrace sql [--csv] [--write] DB \"SQL\"\n"
     "\n"
     "Runs the SQL (several statements allowed) and prints each result as an aligned\n"
     "table. The database is opened read-only unless --write is given. Useful views:\n"
     "read_hit_rates, stream_totals, miss_savings_vs_drrip, frame_miss_savings_vs_drrip,\n"
     "rt_tex_reuse, rt_tex_totals, configs, miss_curves, tenant_totals, corun_stp,\n"
     "contention_breakdown, contention_wbd, epoch_reuse, z_tex_reuse, z_tex_totals,\n"
     "dram_traffic, dram_totals, kernel_totals, top_kernels_by_misses,\n"
     "kernel_savings_vs_drrip, flow_kernels, flow_passes, flow_totals, flow_trace,\n"
     "run_comparisons, frame_comparisons (llctrace compare)\n"
     "(docs/RESULTS.md).\n"
     "@OPTIONS@",
     &sql_opts},
    {"synth", cmd_synth, "write a synthetic trace: deferred-renderer frames or a compute kernel",
     "usage: llctrace synth -o OUT.llct [--count N] [--width W --height H] [--seed S] ...\n"
     "\n"
     "Writes a deterministic trace of what a deferred renderer's frames send to the LLC:\n"
     "depth pre-pass, shadow map, G-buffer, full-screen lighting sampling the G-buffer\n"
     "(RT-to-TEX reuse), the depth buffer and the shadow map (Z-to-TEX reuse), blended\n"
     "particles, post passes, present blit and\n"
     "blended UI on the displayable image. docs/SYNTH.md describes the model. Defaults in "
     "brackets.\n"
     "@OPTIONS@",
     &synth_opts},
    {"version", cmd_version, "print the tool and trace format versions",
     "usage: llctrace version\n", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

const struct cli_command *cli_find(const char *name)
{
	for (const struct cli_command *c = cli_commands; c->name; c++)
		if (strcmp(c->name, name) == 0)
			return c;
	return NULL;
}

static void print_main_help(FILE *out)
{
	fprintf(out, "usage: llctrace [--version] [--help] COMMAND [ARGS]\n\n"
		     "llctrace captures GPU frames' last-level-cache traffic and replays it\n"
		     "through cache models. Commands:\n");
	for (const struct cli_command *c = cli_commands; c->name; c++)
		fprintf(out, "  %-9s %s\n", c->name, c->summary);
	fprintf(out, "\n'llctrace help COMMAND' or 'llctrace COMMAND --help' for one command.\n");
}

static int cmd_version(int argc, char **argv)
{
	(void)argv;
	if (argc > 1)
		return cli_usage_error("version", "takes no arguments");
	printf("llctrace %s (trace format %d)\n", LLCT_VERSION, LLCT_TRACE_FORMAT_VERSION);
	return EXIT_OK;
}

static int cmd_help(int argc, char **argv)
{
	if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		print_main_help(stdout);
		return EXIT_OK;
	}
	if (argc > 2)
		return cli_usage_error("help", "takes at most one command name");
	if (!cli_find(argv[1])) {
		cli_error("no such command '%s' (see 'llctrace --help')", argv[1]);
		return EXIT_USAGE;
	}
	return cli_help(argv[1]);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		print_main_help(stderr);
		return EXIT_USAGE;
	}
	const char *name = argv[1];
	if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0) {
		print_main_help(stdout);
		return EXIT_OK;
	}
	if (strcmp(name, "--version") == 0 || strcmp(name, "-V") == 0)
		return cmd_version(1, argv);
	if (strcmp(name, "__complete") == 0) /* bash completion's words */
		return cmd_complete(argc - 1, argv + 1);
	if (name[0] == '-') {
		cli_error("unknown option '%s' (see 'llctrace --help')", name);
		return EXIT_USAGE;
	}
	const struct cli_command *c = cli_find(name);
	if (!c) {
		const char *names[64], *near;
		size_t n = 0;
		for (const struct cli_command *k = cli_commands; k->name && n < 64; k++)
			names[n++] = k->name;
		if ((near = cli_nearest(name, names, n)))
			cli_error(
			    "'%s' is not an llctrace command; did you mean '%s'? (see 'llctrace "
			    "--help')",
			    name, near);
		else
			cli_error("'%s' is not an llctrace command (see 'llctrace --help')", name);
		return EXIT_USAGE;
	}
	return c->fn(argc - 1, argv + 1);
}
