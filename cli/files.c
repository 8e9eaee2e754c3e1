/* files.c - what kind of file a path holds, the check every command makes before writing an
 * output (no command replaces a file it did not make), and "did you mean" for names. */
#include "cli.h"
#include "llct/llct.h"
#include "llct/results.h"
#include "opts.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

static int tolower_ascii(int c)
{
	return c >= 'A' && c <= 'Z' ? c + 32 : c;
}

/* SQLite's header: 16 bytes of magic; the application_id is the big-endian word at 68. */
static const char sqlite_magic[16] = "SQLite format 3";

enum cli_file_kind cli_file_kind(const char *path)
{
	struct stat sb;
	unsigned char head[4096];
	if (stat(path, &sb) != 0)
		return errno == ENOENT ? CLI_FILE_NONE : CLI_FILE_OTHER;
	if (S_ISDIR(sb.st_mode))
		return CLI_FILE_DIR;
	if (!S_ISREG(sb.st_mode))
		return CLI_FILE_SPECIAL;
	FILE *f = fopen(path, "rb");
	if (!f)
		return CLI_FILE_OTHER;
	size_t n = fread(head, 1, sizeof(head) - 1, f);
	fclose(f);
	head[n] = '\0';
	if (n == 0)
		return CLI_FILE_EMPTY;
	if (n >= 100 && memcmp(head, sqlite_magic, 16) == 0) {
		uint32_t app = (uint32_t)head[68] << 24 | (uint32_t)head[69] << 16 |
			       (uint32_t)head[70] << 8 | head[71];
		if (app == LLCT_TRACE_APPLICATION_ID)
			return CLI_FILE_TRACE;
		if (app == LLCT_RESULTS_APPLICATION_ID)
			return CLI_FILE_RESULTS;
		return CLI_FILE_SQLITE;
	}
	if (strstr((const char *)head, "<meta name=\"generator\" content=\"llctrace "))
		return CLI_FILE_REPORT;
	return CLI_FILE_OTHER;
}

const char *cli_file_kind_name(enum cli_file_kind k)
{
	switch (k) {
	case CLI_FILE_NONE:
		return "nothing";
	case CLI_FILE_EMPTY:
		return "an empty file";
	case CLI_FILE_TRACE:
		return "an llctrace trace";
	case CLI_FILE_RESULTS:
		return "an llctrace results database";
	case CLI_FILE_REPORT:
		return "an llctrace report page";
	case CLI_FILE_SQLITE:
		return "an SQLite database of another program";
	case CLI_FILE_DIR:
		return "a folder";
	case CLI_FILE_SPECIAL:
		return "not a plain file";
	case CLI_FILE_OTHER:
		break;
	}
	return "a file llctrace did not write";
}

/* What a user who typed this kind of file where it does not belong most likely meant. */
static const char *hint(enum cli_file_kind have)
{
	switch (have) {
	case CLI_FILE_TRACE:
		return "; a trace is replayed into a results database: llctrace replay TRACE -o "
		       "RESULTS.db";
	case CLI_FILE_RESULTS:
		return "; results are read with 'llctrace sql' and 'llctrace report', and added "
		       "to by replay, batch and merge";
	case CLI_FILE_REPORT:
		return "; 'llctrace report RESULTS.db' writes it again";
	default:
		return "";
	}
}

int cli_check_output(const char *cmd, const char *path, enum cli_file_kind want, int force)
{
	enum cli_file_kind have = cli_file_kind(path);
	if (have == CLI_FILE_NONE || have == want || have == CLI_FILE_EMPTY)
		return EXIT_OK;
	if (have == CLI_FILE_DIR || have == CLI_FILE_SPECIAL) {
		fprintf(stderr, "llctrace %s: '%s' is %s; give a file name for the output\n", cmd,
			path, cli_file_kind_name(have));
		return EXIT_FAIL;
	}
	if (want == CLI_FILE_RESULTS) { /* results are only ever added to, never replaced */
		fprintf(stderr,
			"llctrace %s: '%s' is %s, not a results database; nothing was written "
			"(name a new file or an existing results database)%s\n",
			cmd, path, cli_file_kind_name(have), hint(have));
		return EXIT_FAIL;
	}
	if (have == CLI_FILE_TRACE || have == CLI_FILE_RESULTS) {
		/* llctrace's own data is never replaced by another kind, --force or not */
		fprintf(stderr,
			"llctrace %s: '%s' is %s, not %s; nothing was written (name another "
			"file; --force does not replace a trace or a results database with "
			"another kind of file)%s\n",
			cmd, path, cli_file_kind_name(have), cli_file_kind_name(want), hint(have));
		return EXIT_FAIL;
	}
	if (force)
		return EXIT_OK;
	fprintf(stderr,
		"llctrace %s: '%s' is %s, not %s; nothing was written (name another file, or "
		"give --force to replace it)%s\n",
		cmd, path, cli_file_kind_name(have), cli_file_kind_name(want), hint(have));
	return EXIT_FAIL;
}

int cli_check_input(const char *cmd, const char *path, enum cli_file_kind want)
{
	enum cli_file_kind have = cli_file_kind(path);
	if (have == want || have == CLI_FILE_NONE || have == CLI_FILE_OTHER ||
	    have == CLI_FILE_SQLITE || have == CLI_FILE_EMPTY)
		return EXIT_OK; /* the reader's own message says what is wrong */
	if (want == CLI_FILE_RESULTS && have == CLI_FILE_TRACE)
		fprintf(stderr,
			"llctrace %s: '%s' is an llctrace trace, not a results database: replay it "
			"first (llctrace replay '%s' -o RESULTS.db), then give RESULTS.db here\n",
			cmd, path, path);
	else if (want == CLI_FILE_TRACE && have == CLI_FILE_RESULTS)
		fprintf(
		    stderr,
		    "llctrace %s: '%s' is an llctrace results database, not a trace: traces come "
		    "from capture, synth or import (read results with 'llctrace sql' or "
		    "'llctrace report')\n",
		    cmd, path);
	else
		fprintf(stderr, "llctrace %s: '%s' is %s, not %s\n", cmd, path,
			cli_file_kind_name(have), cli_file_kind_name(want));
	return EXIT_FAIL;
}

/* Edit distance of a and b (Levenshtein), case-insensitive, both shorter than 64. */
static size_t distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), row[64];
	if (la >= 64 || lb >= 64)
		return 64;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j],
			       best = diag + (tolower_ascii(a[i - 1]) != tolower_ascii(b[j - 1]));
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	return row[lb];
}

const char *cli_nearest(const char *word, const char *const *names, size_t n)
{
	const char *best = NULL;
	size_t bd = 64, len = strlen(word);
	for (size_t i = 0; i < n; i++) {
		size_t d = distance(word, names[i]), common = 0;
		while (word[common] && names[i][common] &&
		       tolower_ascii(word[common]) == tolower_ascii(names[i][common]))
			common++;
		/* near in spelling, or the same first letters ("--policies" for "--policy") */
		if ((d <= 2 || d * 3 <= len || common >= 5) && d < bd) {
			bd = d;
			best = names[i];
		}
	}
	return best;
}

int cli_nearest_option(const char *cmd, const char *bad, char *out, size_t size)
{
	const struct cli_command *c = cli_find(cmd);
	const char *names[128], *w = bad;
	char store[128][32];
	size_t n = 0;
	while (*w == '-')
		w++;
	if (!c || !*w)
		return 0;
	char word[64];
	snprintf(word, sizeof(word), "%.*s", (int)strcspn(w, "="), w);
	/* every option of the command's table, or every --name its help mentions */
	if (c->opts)
		n = cli_opts_names(c->opts, names, 128);
	for (const char *p = c->opts ? NULL : strstr(c->usage, "--"); p && n < 128;
	     p = strstr(p + 2, "--")) {
		size_t k = 0;
		const char *q = p + 2;
		while (k + 1 < sizeof(store[n]) &&
		       ((*q >= 'a' && *q <= 'z') || (*q >= '0' && *q <= '9') || *q == '-'))
			store[n][k++] = *q++;
		store[n][k] = '\0';
		if (k > 1) {
			int dup = 0;
			for (size_t i = 0; i < n; i++)
				dup |= !strcmp(names[i], store[n]);
			if (!dup) {
				names[n] = store[n];
				n++;
			}
		}
	}
	const char *near = cli_nearest(word, names, n);
	if (!near)
		return 0;
	snprintf(out, size, "--%s", near);
	return 1;
}
