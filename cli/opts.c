/* opts.c - a command's option table (opts.h) turned into getopt's arrays for the parser, into
 * the option lines of --help, and into the names "did you mean" chooses from. */
#include "opts.h"
#include "cli.h"

#include <stdlib.h>
#include <string.h>

static const char *cur_cmd = ""; /* the command being parsed, for cli_opt_bad */

static size_t count(const struct cli_opts *t)
{
	size_t n = 0;
	for (const struct cli_opt *o = t->o; o->name || o->help; o++)
		n += o->name != NULL;
	return n;
}

int cli_opts_parse(const struct cli_opts *t, int argc, char **argv, void *ctx)
{
	size_t n = count(t), k = 0;
	struct option *lo = calloc(n + 2, sizeof(*lo));
	char *so = malloc(3 * n + 8);
	if (!lo || !so) {
		free(lo), free(so);
		cli_error("out of memory");
		return EXIT_FAIL;
	}
	size_t s = 0;
	if (t->in_order)
		so[s++] = '+';
	so[s++] = ':';
	const struct cli_opt **by_key = calloc(n + 1, sizeof(*by_key));
	if (!by_key) {
		free(lo), free(so);
		cli_error("out of memory");
		return EXIT_FAIL;
	}
	for (const struct cli_opt *o = t->o; o->name || o->help; o++) {
		if (!o->name)
			continue;
		lo[k] = (struct option){o->name, o->arg ? required_argument : no_argument, NULL,
					o->letter ? o->letter : 256 + (int)k};
		by_key[k] = o;
		if (o->letter) {
			so[s++] = (char)o->letter;
			if (o->arg)
				so[s++] = ':';
		}
		k++;
	}
	lo[k] = (struct option){"help", no_argument, NULL, 'h'};
	so[s++] = 'h';
	so[s] = '\0';
	cur_cmd = t->cmd;
	opterr = 0;
	optind = 1;
	int c, rc = -1;
	while (rc < 0 && (c = cli_getopt(argc, argv, so, lo)) != -1) {
		const struct cli_opt *o = NULL;
		for (size_t i = 0; i < n && !o; i++)
			if (lo[i].val == c)
				o = by_key[i];
		if (o) {
			int r = o->set(ctx, o, o->arg ? optarg : NULL);
			rc = r ? r : -1;
		} else {
			rc = cli_getopt_common(t->cmd, c, argv);
		}
	}
	free(lo), free(so), free(by_key);
	return rc;
}

void cli_opts_help(const struct cli_opts *t, FILE *f)
{
	for (const struct cli_opt *o = t->o; o->name || o->help; o++) {
		if (!o->help)
			continue;
		if (!o->name) { /* a heading, or an empty line */
			fprintf(f, "%s\n", o->help);
			continue;
		}
		int len = o->letter ? fprintf(f, "  -%c, --%s", o->letter, o->name)
				    : fprintf(f, "      --%s", o->name);
		if (o->arg)
			len += fprintf(f, " %s", o->arg);
		fprintf(f, "%*s", len < t->col ? t->col - len : 1, "");
		for (const char *p = o->help; *p;) {
			size_t l = strcspn(p, "\n");
			fprintf(f, "%.*s\n", (int)l, p);
			p += l;
			if (*p == '\n')
				p++;
			if (*p && *p != '@') /* markers cli_help expands start at the margin */
				fprintf(f, "%*s", t->col, "");
		}
	}
}

size_t cli_opts_names(const struct cli_opts *t, const char **names, size_t max)
{
	size_t n = 0;
	for (const struct cli_opt *o = t->o; (o->name || o->help) && n < max; o++)
		if (o->name)
			names[n++] = o->name;
	if (n < max)
		names[n++] = "help";
	return n;
}

int cli_opt_bad(const struct cli_opt *o, const char *arg, const char *hint)
{
	if (hint)
		return cli_usage_error(cur_cmd, "bad --%s '%s' (%s)", o->name, arg, hint);
	return cli_usage_error(cur_cmd, "bad --%s '%s'", o->name, arg);
}

int cli_opt_flag(void *ctx, const struct cli_opt *o, const char *arg)
{
	(void)arg;
	*(int *)((char *)ctx + o->field) = 1;
	return 0;
}

int cli_opt_str(void *ctx, const struct cli_opt *o, const char *arg)
{
	*(const char **)((char *)ctx + o->field) = arg;
	return 0;
}

static int parse_bounded(const struct cli_opt *o, const char *arg, uint64_t *v)
{
	if (!cli_parse_uint(arg, o->hi, v) || *v < o->lo)
		return cli_opt_bad(o, arg, o->hint);
	return 0;
}

int cli_opt_u32(void *ctx, const struct cli_opt *o, const char *arg)
{
	uint64_t v;
	int r = parse_bounded(o, arg, &v);
	if (!r)
		*(uint32_t *)((char *)ctx + o->field) = (uint32_t)v;
	return r;
}

int cli_opt_uint(void *ctx, const struct cli_opt *o, const char *arg)
{
	uint64_t v;
	int r = parse_bounded(o, arg, &v);
	if (!r)
		*(unsigned *)((char *)ctx + o->field) = (unsigned)v;
	return r;
}
