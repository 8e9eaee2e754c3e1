/* cmd_import.c - `llctrace import --csv IN -o OUT`: CSV records into a new trace, all or nothing.
 */
#include "cli.h"
#include "llct/csv.h"
#include "opts.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* What import's options set. */
struct import_args {
	const char *in_path, *out_path;
	int quiet, force;
};

#define IA(f) offsetof(struct import_args, f)

static const struct cli_opt import_opt_list[] = {
    {"csv", 'c', "IN.csv", "the CSV records to read ('-': standard input)", cli_opt_str,
     IA(in_path)},
    {"output", 'o', "FILE",
     "trace to write; an existing trace is replaced, any other file\n"
     "only with --force",
     cli_opt_str, IA(out_path)},
    {"force", 0, NULL,
     "replace OUT even if it is not a trace (never a results\n"
     "database)",
     cli_opt_flag, IA(force)},
    {"quiet", 'q', NULL, "no progress line", cli_opt_flag, IA(quiet)},
    {NULL}};

const struct cli_opts import_opts = {"import", 21, 0, import_opt_list};

int cmd_import(int argc, char **argv)
{
	struct import_args x = {0};
	char err[600], tmp[4096];
	int rc = cli_opts_parse(&import_opts, argc, argv, &x);
	if (rc >= 0)
		return rc;
	const char *in_path = x.in_path, *out_path = x.out_path;
	int quiet = x.quiet, force = x.force;
	if (optind < argc)
		return cli_usage_error("import", "unexpected argument '%s'%s", argv[optind],
				       in_path ? ""
					       : " (the CSV file goes after --csv: llctrace import "
						 "--csv IN.csv -o OUT.llct)");
	if (!in_path)
		return cli_usage_error("import", "needs --csv IN.csv");
	if (!out_path)
		return cli_usage_error("import", "needs -o OUT.llct");
	if (cli_check_output("import", out_path, CLI_FILE_TRACE, force))
		return EXIT_FAIL;
	(void)quiet;

	enum cli_file_kind kind =
	    strcmp(in_path, "-") == 0 ? CLI_FILE_OTHER : cli_file_kind(in_path);
	if (kind == CLI_FILE_TRACE || kind == CLI_FILE_RESULTS || kind == CLI_FILE_SQLITE ||
	    kind == CLI_FILE_REPORT || kind == CLI_FILE_DIR) {
		cli_error("'%s' is %s, not CSV records (llctrace dump --csv TRACE > IN.csv writes "
			  "them)",
			  in_path, cli_file_kind_name(kind));
		return EXIT_FAIL;
	}
	FILE *in = strcmp(in_path, "-") == 0 ? stdin : fopen(in_path, "r");
	if (!in) {
		cli_error("'%s': cannot open: %s", in_path, strerror(errno));
		return EXIT_FAIL;
	}
	/* Write beside the target and rename at the end, so a failure leaves nothing behind. */
	snprintf(tmp, sizeof(tmp), "%s.tmp-%ld", out_path, (long)getpid());
	struct llct_capture_info info = {.source = "import", .application = in_path};
	struct llct_writer *w;
	if (llct_writer_open(tmp, &info, &w, err, sizeof(err))) {
		cli_error("%s", err);
		if (in != stdin)
			fclose(in);
		return EXIT_FAIL;
	}
	llct_writer_set(w, "import.csv", in_path);
	int st = llct_csv_import(in, strcmp(in_path, "-") == 0 ? "<stdin>" : in_path, w, err,
				 sizeof(err));
	uint64_t n = llct_writer_records(w), bytes = llct_writer_bytes(w);
	if (in != stdin)
		fclose(in);
	if (!st && !n) { /* a header alone: a trace of no frame would replay as "all 0.0%" */
		snprintf(err, sizeof(err),
			 "'%s' holds no record (a header line alone?): nothing "
			 "was imported",
			 in_path);
		st = LLCT_ERR_FORMAT;
	}
	if (cli_finish_trace(w, tmp, out_path, st, err, sizeof(err)))
		return EXIT_FAIL;
	if (!quiet)
		fprintf(stderr, "imported %llu records into '%s' (%.2f bytes/record)\n",
			(unsigned long long)n, out_path, n ? (double)bytes / (double)n : 0.0);
	return EXIT_OK;
}
