/* opts.h - a command's options as one table (name, letter, value, help, what it sets), which the
 * parser, the option lines of its --help and the "did you mean" list all read, so the three
 * cannot drift apart. */
#ifndef LLCT_CLI_OPTS_H
#define LLCT_CLI_OPTS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct cli_opt;
/* Takes an option's value (NULL for a switch) into ctx: 0, or the exit status after saying
 * what was wrong (cli_usage_error's EXIT_USAGE for a bad value). */
typedef int (*cli_opt_set)(void *ctx, const struct cli_opt *o, const char *arg);

struct cli_opt {
	const char *name; /* long name, without "--"; NULL with help: a heading line in --help;
			     NULL without: the table's end */
	int letter;       /* its one-letter form, or 0 */
	const char *arg;  /* the value's name in --help ("SIZE"); NULL: a switch */
	const char *help; /* what --help says after the name ('\n' between lines, each indented
			     to the table's column); NULL: not listed (another option's line says
			     it) */
	cli_opt_set set;
	size_t field;     /* the cli_opt_* setters: where in ctx they write (offsetof) */
	uint64_t lo, hi;  /* cli_opt_uint: the bounds of the value */
	const char *hint; /* cli_opt_uint: after "bad --NAME 'V'", in parentheses (NULL: none) */
};

struct cli_opts {
	const char *cmd; /* the command, for messages */
	int col;         /* the column --help's option text starts at */
	int in_order;    /* options only before the first operand (capture: the program's own
			    follow it) */
	const struct cli_opt *o;
};

/* Parses argv's options against t into ctx (each option's set, in the order given), leaving
 * optind at the first operand; -h/--help prints the help. Returns -1 when the command should
 * go on, else the exit status (EXIT_OK after --help, EXIT_USAGE after a message naming the
 * option that was unknown, lacked its value or had a bad one). */
int cli_opts_parse(const struct cli_opts *t, int argc, char **argv, void *ctx);
/* The option lines of --help, from the table (policy lists and other markers left for
 * cli_help to expand). */
void cli_opts_help(const struct cli_opts *t, FILE *f);
/* The options' long names, for "did you mean": up to max of them in names; how many. */
size_t cli_opts_names(const struct cli_opts *t, const char **names, size_t max);

/* Setters for the common kinds, writing at o->field in ctx: an int set to 1; a const char *
 * set to the value; a uint32_t (cli_opt_u32) or unsigned (cli_opt_uint) decimal within
 * [o->lo, o->hi] ("bad --NAME 'V'" otherwise, with o->hint). */
int cli_opt_flag(void *ctx, const struct cli_opt *o, const char *arg);
int cli_opt_str(void *ctx, const struct cli_opt *o, const char *arg);
int cli_opt_u32(void *ctx, const struct cli_opt *o, const char *arg);
int cli_opt_uint(void *ctx, const struct cli_opt *o, const char *arg);
/* "bad --NAME 'V'" (and " (hint)") as a usage error of the table's command: EXIT_USAGE. */
int cli_opt_bad(const struct cli_opt *o, const char *arg, const char *hint);

#endif
