/* util.c - messages, option errors, progress lines and number parsing for the subcommands. */
#include "cli.h"
#include "llct/policy.h"
#include "opts.h"

#include "llct/trace.h"
#include <ctype.h>
#include <signal.h>

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

void cli_error(const char *fmt, ...)
{
	va_list ap;
	fputs("llctrace: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "llctrace %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see 'llctrace %s --help')\n", cmd);
	return EXIT_USAGE;
}

/* The message cli_on_interrupt's handler writes (async-signal-safe: write, then _exit). */
static char interrupt_msg[1200];
static size_t interrupt_len;

static void on_interrupt(int sig)
{
	ssize_t w = write(2, interrupt_msg, interrupt_len);
	(void)w;
	_exit(128 + sig);
}

void cli_on_interrupt(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(interrupt_msg, sizeof(interrupt_msg) - 1, fmt, ap);
	va_end(ap);
	interrupt_len = n < 0                                   ? 0
			: (size_t)n < sizeof(interrupt_msg) - 1 ? (size_t)n
								: sizeof(interrupt_msg) - 2;
	interrupt_msg[interrupt_len++] = '\n';
	cli_catch_signals(on_interrupt);
}

void cli_catch_signals(void (*fn)(int))
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

/* The option whose value was left out (cli_getopt): "-p" in "replay t.llct -p -o r.db". */
static char missing_opt[64], missing_next[64];

int cli_getopt(int argc, char **argv, const char *shortopts, const struct option *longopts)
{
	int idx = -1;
	missing_opt[0] = '\0';
	int c = getopt_long(argc, argv, shortopts, longopts, &idx);
	if (c == -1 || c == '?' || c == ':' || !optarg)
		return c;
	/* A value given as its own word that is itself an option ("-p -o r.db", "--llc
	 * --ucd"): the value was left out, and getopt took the next option for it. Negative
	 * numbers pass, and so do options whose values are other programs' options. */
	int own_word = optind >= 2 && argv[optind - 1] == optarg;
	int looks = optarg[0] == '-' && (isalpha((unsigned char)optarg[1]) ||
					 (optarg[1] == '-' && isalpha((unsigned char)optarg[2])));
	int passes = idx >= 0 && longopts[idx].name && strstr(longopts[idx].name, "-arg");
	if (own_word && looks && !passes) {
		snprintf(missing_opt, sizeof(missing_opt), "%s", argv[optind - 2]);
		snprintf(missing_next, sizeof(missing_next), "%s", optarg);
		return ':';
	}
	return c;
}

int cli_getopt_common(const char *cmd, int c, char **argv)
{
	if (c == 'h')
		return cli_help(cmd);
	if (c == ':' && missing_opt[0])
		return cli_usage_error(cmd, "option '%s' needs a value ('%s' is an option)",
				       missing_opt, missing_next);
	if (c == '?' || c == ':') {
		const char *bad = argv[optind - 1];
		char near[64];
		if (c == ':' && strncmp(bad, "--", 2) == 0)
			return cli_usage_error(cmd, "option '%s' needs a value", bad);
		if (c == ':')
			return cli_usage_error(cmd, "option '-%c' needs a value", optopt);
		if (optopt && strncmp(bad, "--", 2) != 0)
			return cli_usage_error(cmd, "unknown option '-%c'", optopt);
		if (cli_nearest_option(cmd, bad, near, sizeof(near)))
			return cli_usage_error(cmd, "unknown option '%s'; did you mean '%s'?", bad,
					       near);
		return cli_usage_error(cmd, "unknown option '%s'", bad);
	}
	return -1;
}

/* The registry's policy names, wrapped under the help's option column (so a policy added by
 * docs/POLICIES.md's steps is listed at once). */
static void print_policies(FILE *f)
{
	const int indent = 25, width = 84;
	int col = 0;
	for (const struct llct_policy_ops *const *p = llct_policies; *p; p++) {
		int len = (int)strlen((*p)->name) + (p[1] ? 1 : 0);
		if (!col || col + 1 + len > width) {
			if (col)
				fputc('\n', f);
			col = fprintf(f, "%*s%s%s", indent, "", (*p)->name, p[1] ? "," : "");
		} else {
			col += fprintf(f, " %s%s", (*p)->name, p[1] ? "," : "");
		}
	}
	if (col)
		fputc('\n', f);
}

int cli_help(const char *name)
{
	const struct cli_command *c = cli_find(name);
	if (!c)
		return EXIT_USAGE;
	/* the usage with its option lines from the table, then the policy list put in */
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	if (!m)
		return EXIT_FAIL;
	const char *at = c->opts ? strstr(c->usage, "@OPTIONS@") : NULL;
	if (at) {
		fwrite(c->usage, 1, (size_t)(at - c->usage), m);
		cli_opts_help(c->opts, m);
		fputs(at + strlen("@OPTIONS@"), m);
	} else {
		fputs(c->usage, m);
	}
	if (fclose(m))
		return EXIT_FAIL;
	const char *p = strstr(text, "@POLICIES@");
	if (!p) {
		fputs(text, stdout);
	} else {
		fwrite(text, 1, (size_t)(p - text), stdout);
		print_policies(stdout);
		p += strlen("@POLICIES@");
		fputs(*p == '\n' ? p + 1 : p, stdout);
	}
	free(text);
	return EXIT_OK;
}

const char *cli_list_arg(const char *arg, int argc, char **argv, char *buf, size_t size)
{
	size_t len = strlen(arg);
	if (len >= size)
		return arg;
	memcpy(buf, arg, len + 1);
	/* "-p drrip, gspc": the shell split the list after the comma; take the rest back, as
	 * long as it is no option and no file (a trace named after a policy stays a trace) */
	while (len && buf[len - 1] == ',' && optind < argc && argv[optind][0] != '-' &&
	       access(argv[optind], F_OK) != 0 && len + strlen(argv[optind]) < size) {
		memcpy(buf + len, argv[optind], strlen(argv[optind]) + 1);
		len += strlen(argv[optind]);
		optind++;
	}
	return buf;
}

double cli_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void cli_progress_init(struct cli_progress *p, const char *what, uint64_t total, int quiet)
{
	memset(p, 0, sizeof(*p));
	p->what = what;
	p->total = total;
	p->started = p->last = cli_now();
	p->enabled = !quiet && isatty(2);
}

static void human(char *buf, size_t size, double v)
{
	if (v >= 1e9)
		snprintf(buf, size, "%.2fG", v / 1e9);
	else if (v >= 1e6)
		snprintf(buf, size, "%.2fM", v / 1e6);
	else if (v >= 1e3)
		snprintf(buf, size, "%.1fk", v / 1e3);
	else
		snprintf(buf, size, "%.0f", v);
}

static void show(struct cli_progress *p, uint64_t done, double now, int final)
{
	char d[32], t[32], r[32];
	double el = now - p->started, rate = el > 0 ? (double)done / el : 0;
	human(d, sizeof(d), (double)done);
	human(r, sizeof(r), rate);
	if (p->total && !final) {
		human(t, sizeof(t), (double)p->total);
		double left =
		    rate > 0 ? (double)(p->total - (done < p->total ? done : p->total)) / rate : 0;
		fprintf(stderr, "\r%s/%s %s (%.0f%%), %s/s, %.0fs left   ", d, t, p->what,
			100.0 * (double)done / (double)p->total, r, left);
	} else {
		fprintf(stderr, "\r%s %s, %s/s, %.1fs%s", d, p->what, r, el, final ? "\n" : "   ");
	}
	p->shown = 1;
}

void cli_progress_update(struct cli_progress *p, uint64_t done)
{
	if (!p->enabled)
		return;
	double now = cli_now();
	if (now - p->last < 0.25)
		return;
	p->last = now;
	show(p, done, now, 0);
}

void cli_progress_done(struct cli_progress *p, uint64_t done)
{
	if (p->enabled && p->shown)
		show(p, done, cli_now(), 1);
}

int cli_parse_level(const char *s, double *out)
{
	char *end;
	if (!s || !*s || *s == ' ')
		return 0;
	errno = 0;
	double v = strtod(s, &end);
	if (end != s && *end == '%' && !end[1]) {
		v /= 100;
		end++;
	}
	if (errno || end == s || *end || !(v >= 0.5 && v <= 0.999999))
		return 0;
	*out = v;
	return 1;
}

int cli_parse_uint(const char *s, uint64_t max, uint64_t *out)
{
	char *end;
	if (!s || !*s || *s == '-' || *s == '+' || *s == ' ')
		return 0;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || *end || v > max)
		return 0;
	*out = v;
	return 1;
}

int cli_parse_size(const char *s, uint64_t *out)
{
	static const struct {
		const char *suffix;
		uint64_t mult;
	} units[] = {{"", 1},
		     {"B", 1},
		     {"K", 1024},
		     {"KiB", 1024},
		     {"KB", 1000},
		     {"M", 1 << 20},
		     {"MiB", 1 << 20},
		     {"MB", 1000000},
		     {"G", 1 << 30},
		     {"GiB", 1 << 30},
		     {"GB", 1000000000},
		     {"T", 1ull << 40},
		     {"TiB", 1ull << 40},
		     {"TB", 1000000000000ull}};
	char *end;
	if (!s || *s < '0' || *s > '9')
		return 0;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno)
		return 0;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(end, units[i].suffix) == 0) {
			if (v > UINT64_MAX / units[i].mult)
				return 0;
			*out = v * units[i].mult;
			return 1;
		}
	}
	return 0;
}

void cli_format_size(uint64_t bytes, char *buf, size_t size)
{
	if (bytes && bytes % (1u << 30) == 0)
		snprintf(buf, size, "%lluGiB", (unsigned long long)(bytes >> 30));
	else if (bytes && bytes % (1u << 20) == 0)
		snprintf(buf, size, "%lluMiB", (unsigned long long)(bytes >> 20));
	else if (bytes && bytes % 1024 == 0)
		snprintf(buf, size, "%lluKiB", (unsigned long long)(bytes >> 10));
	else
		snprintf(buf, size, "%llu", (unsigned long long)bytes);
}

int cli_parse_llc(const char *s, uint64_t *size, uint32_t *ways, uint32_t *line)
{
	char buf[64], *w, *l = NULL;
	uint64_t v, sz;
	uint32_t nw = *ways, nl = *line;
	if (strlen(s) >= sizeof(buf))
		return 0;
	strcpy(buf, s);
	/* SIZE, SIZE:WAYS or SIZE:WAYS:LINE; what is left out keeps the value given */
	if ((w = strchr(buf, ':'))) {
		*w++ = '\0';
		if ((l = strchr(w, ':')))
			*l++ = '\0';
		if (!cli_parse_uint(w, 64, &v) || !v)
			return 0;
		nw = (uint32_t)v;
	}
	if (!cli_parse_size(buf, &sz))
		return 0;
	if (l) {
		if (!cli_parse_size(l, &v) || !v ||
		    v > UINT32_MAX) /* a zero line is no line (fuzz_options) */
			return 0;
		nl = (uint32_t)v;
	}
	*size = sz;
	*ways = nw;
	*line = nl;
	return 1;
}

void cli_llc_hint(const char *s, char *buf, size_t size)
{
	size_t n = strcspn(s, ":");
	buf[0] = '\0';
	/* "8MB" is 8,000,000 bytes, as numfmt reads it; the binary size is what was meant */
	if (n >= 3 && (s[n - 1] == 'B') && strchr("KMG", s[n - 2]) && s[n - 3] >= '0' &&
	    s[n - 3] <= '9')
		snprintf(buf, size, "; '%.*s' is decimal (%s bytes): did you mean '%.*siB'?",
			 (int)n, s,
			 s[n - 2] == 'K'   ? "thousands of"
			 : s[n - 2] == 'M' ? "millions of"
					   : "billions of",
			 (int)(n - 1), s);
}

int cli_finish_trace(struct llct_writer *w, const char *tmp, const char *out, int st, char *err,
		     size_t err_size)
{
	int cst = llct_writer_close(w);
	if (!st && cst) {
		snprintf(err, err_size, "'%s': cannot finish writing: %s", out, llct_strerror(cst));
		st = cst;
	}
	if (!st && rename(tmp, out) != 0) {
		snprintf(err, err_size, "'%s': cannot rename into place: %s", out, strerror(errno));
		st = LLCT_ERR_IO;
	}
	if (st) {
		unlink(tmp);
		cli_error("%s", err);
		return EXIT_FAIL;
	}
	return EXIT_OK;
}
