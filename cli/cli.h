/* cli.h - shared plumbing of the llctrace subcommands: the command table, messages, progress. */
#ifndef LLCT_CLI_H
#define LLCT_CLI_H

#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/* Exit statuses of every subcommand. */
enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2 };

struct cli_opts;

struct cli_command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary; /* one line for `llctrace --help` */
	const char *usage;   /* full help text for `llctrace help NAME` and `NAME --help`; its
				option lines (@OPTIONS@) come from opts */
	const struct cli_opts *opts; /* the command's option table (opts.h) */
};

/* The sorted table of subcommands, terminated by a zero entry. */
extern const struct cli_command cli_commands[];
const struct cli_command *cli_find(const char *name);

/* Prints "llctrace: MESSAGE" to stderr. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints "llctrace CMD: MESSAGE" and a pointer to help; returns EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Handles the getopt result '?' / ':' and --help uniformly. Returns -1 to continue. */
/* getopt_long, but a value given as its own word that is itself an option ("-p -o r.db") is
 * reported as left out (':'), not taken; cli_getopt_common says which option lacks it. */
int cli_getopt(int argc, char **argv, const char *shortopts, const struct option *longopts);
int cli_getopt_common(const char *cmd, int c, char **argv);
/* From now on SIGINT, SIGTERM and SIGHUP print this message (printf-style, formatted now) and
 * end the process with 128 + the signal: for commands whose output is whole or absent. */
void cli_on_interrupt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* SIGINT, SIGTERM and SIGHUP to fn (SIG_DFL to restore). */
void cli_catch_signals(void (*fn)(int));
/* A list option's value (optarg) with what the shell split off after a trailing comma
 * ("-p drrip, gspc"): the next arguments are taken while the value ends with a comma, unless
 * one is an option or names a file. Call right after getopt returned the option. */
const char *cli_list_arg(const char *arg, int argc, char **argv, char *buf, size_t size);
/* Prints a command's help to stdout; returns EXIT_OK. */
int cli_help(const char *cmd);

/* Progress line on stderr for long work: only on a terminal, at most 4 times a second. */
struct cli_progress {
	const char *what; /* "records" */
	uint64_t total;   /* 0 if unknown */
	double started, last;
	int enabled;
	int shown;
};
void cli_progress_init(struct cli_progress *p, const char *what, uint64_t total, int quiet);
void cli_progress_update(struct cli_progress *p, uint64_t done);
void cli_progress_done(struct cli_progress *p, uint64_t done);
double cli_now(void);

struct llct_writer;
/* Ends a trace written to `tmp`: closes the writer and renames tmp to out if all went well
 * (st == LLCT_OK, err holding the message otherwise); on any failure removes tmp, prints the
 * message and returns EXIT_FAIL, so a failed command leaves nothing half-written. */
int cli_finish_trace(struct llct_writer *w, const char *tmp, const char *out, int st, char *err,
		     size_t err_size);

/* Writes a byte count as cli_parse_size reads it back: "512KiB", "8MiB", "100". */
void cli_format_size(uint64_t bytes, char *buf, size_t size);
/* Parses sizes like "8MiB", "64", "2KiB", "1GB"; returns 0 on bad input. */
int cli_parse_size(const char *s, uint64_t *out);
/* Parses "SIZE", "SIZE:WAYS" or "SIZE:WAYS:LINE" (e.g. 8MiB:16:64); what is left out keeps
 * the value *ways / *line hold. Returns 0 on bad input. Sizes as numfmt reads them: K, M, G
 * and KiB, MiB, GiB are binary; KB, MB, GB decimal. */
int cli_parse_llc(const char *s, uint64_t *size, uint32_t *ways, uint32_t *line);
/* For an --llc that fails the cache's checks: a hint when its size was decimal ("8MB"). */
void cli_llc_hint(const char *s, char *buf, size_t size);
/* Parses a non-negative integer no larger than max; returns 0 on bad input. */
int cli_parse_uint(const char *s, uint64_t max, uint64_t *out);
/* An interval's level: "99%", "99.9%" or "0.99", from 50% to 99.9999%; 1 on success. */
int cli_parse_level(const char *s, double *out);

/* capture_rdc.c: --renderdoc's .rdc template beside the trace, and the .rdc moved beside it
 * with its event IDs given to the kernels afterwards. */
void cli_rdc_template(const char *trace, char *tmpl, size_t size);
int cli_rdc_finish(const char *trace, const char *tmpl, int quiet);
/* Starts the guard of a captured program's process group (capture_guard.c): once llctrace ends,
 * however it ends, what is left of the group gets SIGTERM, then SIGKILL after kill_after
 * seconds. Returns the descriptor llctrace holds open until it ends, or -1. */
int cli_capture_guard(pid_t group, double kill_after);

/* files.c: what a path holds, judged from its first bytes (no SQLite call). */
enum cli_file_kind {
	CLI_FILE_NONE,    /* no such file */
	CLI_FILE_EMPTY,   /* zero bytes */
	CLI_FILE_TRACE,   /* an llctrace trace */
	CLI_FILE_RESULTS, /* an llctrace results database */
	CLI_FILE_REPORT,  /* a page `llctrace report` wrote */
	CLI_FILE_SQLITE,  /* another program's SQLite database */
	CLI_FILE_DIR,
	CLI_FILE_SPECIAL, /* a device, pipe or socket */
	CLI_FILE_OTHER    /* anything else */
};
enum cli_file_kind cli_file_kind(const char *path);
const char *cli_file_kind_name(enum cli_file_kind k); /* "an llctrace trace" */
/* Before writing `path` as a `want` (a trace, a report page or a results database): a missing
 * or empty file, or one of the same kind, may be written; a results database is only added
 * to, never replaced; anything else needs force, and a trace or results database is never
 * replaced by another kind, force or not. Prints why not and returns EXIT_FAIL. */
int cli_check_output(const char *cmd, const char *path, enum cli_file_kind want, int force);
/* Before reading `path` as a `want`: a trace where results are wanted (and back) gets a
 * message saying what it is and what to do; EXIT_FAIL then, else EXIT_OK. */
int cli_check_input(const char *cmd, const char *path, enum cli_file_kind want);
/* The name in names[] nearest to word in spelling (case-insensitive), or NULL if none is near. */
const char *cli_nearest(const char *word, const char *const *names, size_t n);
/* The long option of cmd's help nearest to bad ("--policies" -> "--policy"): 1 and it in out. */
int cli_nearest_option(const char *cmd, const char *bad, char *out, size_t size);

int cmd_batch(int argc, char **argv);
extern const struct cli_opts batch_opts;
int cmd_capture(int argc, char **argv);
extern const struct cli_opts capture_opts;
int cmd_dump(int argc, char **argv);
extern const struct cli_opts dump_opts;
int cmd_import(int argc, char **argv);
extern const struct cli_opts import_opts;
int cmd_info(int argc, char **argv);
extern const struct cli_opts info_opts;
int cmd_merge(int argc, char **argv);
extern const struct cli_opts merge_opts;
int cmd_pack(int argc, char **argv);
extern const struct cli_opts pack_opts;
int cmd_replay(int argc, char **argv);
extern const struct cli_opts replay_opts;
int cmd_report(int argc, char **argv);
extern const struct cli_opts report_opts;
int cmd_sql(int argc, char **argv);
extern const struct cli_opts sql_opts;
int cmd_synth(int argc, char **argv);
extern const struct cli_opts synth_opts;
/* llctrace __complete WHAT (cmd_complete.c): words for bash completion; not in --help. */
int cmd_complete(int argc, char **argv);
int cmd_compare(int argc, char **argv);
extern const struct cli_opts compare_opts;

/* replay_table.c: the summary tables of `replay`, read from the views for runs first ..
 * first + n - 1. Non-zero (with a message) when the database cannot be read. */
struct sqlite3;
int cli_print_replay_table(struct sqlite3 *db, int64_t first, int64_t n);
/* The note under replay's tables (printed once, after the last). */
void cli_print_replay_footnote(int ucd);
int cli_print_corun_table(struct sqlite3 *db, int64_t first, int64_t n);

#endif
