/* batch_grid.c - reads a batch grid (INI, parsed by inih) and expands each section's lists
 * into cells: every trace (or the co-run mix) x frames x partition x bypass x colors x timing
 * x UCD x line x ways x size x hash x banks x sample period, each with the section's policies.
 * docs/BATCH.md is the format's reference. */
#include "batch.h"
#include "cli.h"

#include <errno.h>
#include <glob.h>
#include <ini.h>
#include <libgen.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum key {
	K_TRACES,
	K_POLICIES,
	K_LLC,
	K_SIZES,
	K_WAYS,
	K_LINES,
	K_UCD,
	K_HASH,
	K_WRITE,
	K_SECTOR,
	K_BANKS,
	K_SAMPLE,
	K_FRAMES,
	K_PARTITION,
	K_PARTITION_BY,
	K_BYPASS,
	K_CONTENTION,
	K_COLORS,
	K_PAGE,
	K_HIT,
	K_MISS,
	K_MLP,
	K_SAMPLE_SETS,
	K_CONFIDENCE,
	K_SIMULTANEOUS,
	K_PER_KERNEL,
	K_FLOW,
	N_KEYS
};

static const struct {
	const char *name;
	int per_line; /* one entry per line (the value may hold commas); else a comma list */
	int corun_only;
} KEYS[N_KEYS] = {
    [K_TRACES] = {"traces", 0, 0},
    [K_POLICIES] = {"policies", 0, 0},
    [K_LLC] = {"llc", 0, 0},
    [K_SIZES] = {"sizes", 0, 0},
    [K_WAYS] = {"ways", 0, 0},
    [K_LINES] = {"lines", 0, 0},
    [K_UCD] = {"ucd", 0, 0},
    [K_HASH] = {"hash", 0, 0},
    [K_WRITE] = {"write_policy", 0, 0},
    [K_SECTOR] = {"sector", 0, 0},
    [K_BANKS] = {"banks", 0, 0},
    [K_SAMPLE] = {"sample_period", 0, 0},
    [K_FRAMES] = {"frames", 1, 0},
    [K_PARTITION] = {"partition", 1, 0},
    [K_PARTITION_BY] = {"partition_by", 0, 0},
    [K_BYPASS] = {"bypass", 1, 0},
    [K_CONTENTION] = {"contention_by", 0, 0},
    [K_COLORS] = {"colors", 1, 1},
    [K_PAGE] = {"page_size", 0, 1},
    [K_HIT] = {"hit_latency", 0, 1},
    [K_MISS] = {"miss_latency", 0, 1},
    [K_MLP] = {"mlp", 1, 1},
    [K_SAMPLE_SETS] = {"sample_sets", 0, 0},
    [K_CONFIDENCE] = {"confidence", 0, 0},
    [K_SIMULTANEOUS] = {"simultaneous", 0, 0},
    [K_PER_KERNEL] = {"per_kernel", 0, 0},
    [K_FLOW] = {"flow", 0, 0},
};

const char *batch_grid_key(size_t i)
{
	return i < N_KEYS ? KEYS[i].name : NULL;
}

struct list {
	char **v;
	size_t n;
};

struct section {
	char *name;
	int corun;
	struct list k[N_KEYS];
};

struct parse {
	struct batch_grid *g;
	char dir[PATH_MAX];
	struct section *s;
	size_t n, cap;
	char why[512];
};

static char *keep(struct batch_grid *g, const char *s)
{
	if (g->n_strings == g->cap_strings) {
		size_t cap = g->cap_strings ? 2 * g->cap_strings : 64;
		char **v = realloc(g->strings, cap * sizeof(*v));
		if (!v)
			return NULL;
		g->strings = v;
		g->cap_strings = cap;
	}
	char *d = strdup(s);
	if (d)
		g->strings[g->n_strings++] = d;
	return d;
}

/* An array the grid frees with itself. */
static int keep_list(struct batch_grid *g, char **v)
{
	char ***n = realloc(g->lists, (g->n_lists + 1) * sizeof(*n));
	if (!n) {
		free(v);
		return 0;
	}
	g->lists = n;
	g->lists[g->n_lists++] = v;
	return 1;
}

static int push(struct parse *p, struct list *l, const char *v)
{
	char **n = realloc(l->v, (l->n + 1) * sizeof(*n));
	if (!n)
		return 0;
	l->v = n;
	if (!(l->v[l->n] = keep(p->g, v)))
		return 0;
	l->n++;
	return 1;
}

static int why(struct parse *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int why(struct parse *p, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(p->why, sizeof(p->why), fmt, ap);
	va_end(ap);
	return 0;
}

static char *trim(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	size_t n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		s[--n] = '\0';
	return s;
}

/* Checks one entry of a key (so a bad value is reported with its line). */
static int check_value(struct parse *p, int corun, enum key k, const char *v)
{
	uint64_t x, size;
	uint32_t ways = 16, line = 64; /* what a size alone keeps */
	char err[400];
	switch (k) {
	case K_POLICIES: {
		const struct llct_policy_ops *pol[REPLAY_MAX_POLICIES];
		size_t n;
		if (replay_parse_policies(v, pol, &n, err, sizeof(err)))
			return why(p, "%s", err);
		return 1;
	}
	case K_LLC:
		return cli_parse_llc(v, &size, &ways, &line) ||
		       why(p, "bad llc '%s' (SIZE:WAYS:LINE, e.g. 8MiB:16:64)", v);
	case K_SIZES:
	case K_PAGE:
		return (cli_parse_size(v, &x) && x > 0 && x <= UINT64_C(1) << 40) ||
		       why(p, "bad size '%s'", v);
	case K_WAYS:
	case K_LINES:
	case K_BANKS:
	case K_SAMPLE:
		return (cli_parse_uint(v, 1u << 30, &x) && x > 0) || why(p, "bad number '%s'", v);
	case K_UCD:
		return !strcmp(v, "on") || !strcmp(v, "off") ||
		       why(p, "ucd is on or off, not '%s'", v);
	case K_HASH:
		return !strcmp(v, "mod") || !strcmp(v, "xor") ||
		       why(p, "hash is mod or xor, not '%s'", v);
	case K_SECTOR:
		return !strcmp(v, "none") || (cli_parse_size(v, &x) && x > 0 && x <= 4096) ||
		       why(p, "sector is none or a size in bytes, not '%s'", v);
	case K_WRITE: {
		enum llct_write_policy w;
		return replay_parse_write_policy(v, &w) ||
		       why(p, "write_policy is allocate, no-allocate or evict, not '%s'", v);
	}
	case K_FRAMES: {
		struct llct_frame_range r;
		if (!strcmp(v, "all"))
			return 1;
		if (llct_frame_range_parse(v, &r))
			return why(p, "bad frame range '%s'", v);
		llct_frame_range_release(&r);
		return 1;
	}
	case K_PARTITION: {
		struct llct_partition_plan plan;
		if (!strcmp(v, "none"))
			return 1;
		if (llct_partition_parse_ways(v, corun ? LLCT_CLASS_TENANT : LLCT_CLASS_STREAM,
					      &plan, err, sizeof(err)) &&
		    llct_partition_parse_ways(v, LLCT_CLASS_STREAM, &plan, err, sizeof(err)))
			return why(p, "bad partition '%s': %s", v, err);
		return 1;
	}
	case K_PARTITION_BY:
		return !strcmp(v, "tenant") || !strcmp(v, "stream") ||
		       why(p, "partition_by is tenant or stream, not '%s'", v);
	case K_BYPASS: {
		struct llct_partition part;
		memset(&part, 0, sizeof(part));
		if (!strcmp(v, "none"))
			return 1;
		return !llct_partition_parse_bypass(v, &part, err, sizeof(err)) ||
		       why(p, "bad bypass '%s': %s", v, err);
	}
	case K_CONTENTION: {
		enum llct_owner_by by;
		return !strcmp(v, "none") || replay_parse_owner_by(v, &by) ||
		       why(p, "contention_by is none, tenant, sm, kernel or stream, not '%s'", v);
	}
	case K_COLORS:
		return 1; /* checked against the cache when the job is prepared */
	case K_HIT:
	case K_MISS: {
		char *end;
		double d = strtod(v, &end);
		return (!*end && d >= 0 && d <= 1e9) || why(p, "bad latency '%s'", v);
	}
	case K_MLP: {
		double mlp[LLCT_MAX_CLASSES];
		return replay_parse_mlp(v, mlp) || why(p, "bad mlp '%s'", v);
	}
	case K_SAMPLE_SETS:
		if (!strcmp(v, "all"))
			return 1;
		return (cli_parse_uint(strncmp(v, "1/", 2) ? v : v + 2, 1u << 20, &x) && x >= 2) ||
		       why(p, "sample_sets is all or 1/N (N >= 2), not '%s'", v);
	case K_CONFIDENCE: {
		double l;
		return cli_parse_level(v, &l) ||
		       why(p,
			   "confidence is a level from 50%% to 99.9999%% (99%% or 0.99), not '%s'",
			   v);
	}
	case K_SIMULTANEOUS:
		return !strcmp(v, "yes") || !strcmp(v, "no") ||
		       why(p, "simultaneous is yes or no, not '%s'", v);
	case K_PER_KERNEL:
		return !strcmp(v, "yes") || !strcmp(v, "no") ||
		       why(p, "per_kernel is yes or no, not '%s'", v);
	case K_FLOW:
		return !strcmp(v, "yes") || !strcmp(v, "no") ||
		       why(p, "flow is yes or no, not '%s'", v);
	default:
		return 1;
	}
}

/* traces: globs relative to the grid's folder; every match, sorted, as an absolute path. */
static int add_traces(struct parse *p, struct section *s, const char *pattern)
{
	char full[PATH_MAX * 2], abs[PATH_MAX];
	glob_t gl;
	if (pattern[0] == '/')
		snprintf(full, sizeof(full), "%s", pattern);
	else
		snprintf(full, sizeof(full), "%s/%s", p->dir, pattern);
	int rc = glob(full, 0, NULL, &gl);
	if (rc == GLOB_NOMATCH)
		return why(p, "'%s' matches no file", pattern);
	if (rc)
		return why(p, "cannot expand '%s'", pattern);
	for (size_t i = 0; i < gl.gl_pathc; i++) {
		if (!realpath(gl.gl_pathv[i], abs) || !push(p, &s->k[K_TRACES], abs)) {
			globfree(&gl);
			return why(p, "cannot resolve '%s'", gl.gl_pathv[i]);
		}
	}
	globfree(&gl);
	return 1;
}

static int handler(void *user, const char *section, const char *name, const char *value)
{
	struct parse *p = user;
	char buf[4096];
	int corun = !strncmp(section, "corun", 5) && (!section[5] || section[5] == ' ');
	int grid = !strncmp(section, "grid", 4) && (!section[4] || section[4] == ' ');
	if (!corun && !grid)
		return why(p, "section [%s]: sections are [grid NAME] and [corun NAME]", section);
	if (!p->n || strcmp(p->s[p->n - 1].name, section)) {
		for (size_t i = 0; i < p->n; i++)
			if (!strcmp(p->s[i].name, section))
				return why(p, "section [%s] given twice", section);
		if (p->n == p->cap) {
			size_t cap = p->cap ? 2 * p->cap : 8;
			struct section *s = realloc(p->s, cap * sizeof(*s));
			if (!s)
				return why(p, "out of memory");
			p->s = s;
			p->cap = cap;
		}
		memset(&p->s[p->n], 0, sizeof(p->s[p->n]));
		if (!(p->s[p->n].name = keep(p->g, section)))
			return why(p, "out of memory");
		p->s[p->n++].corun = corun;
	}
	struct section *s = &p->s[p->n - 1];
	int k = -1;
	for (int i = 0; i < N_KEYS; i++)
		if (!strcmp(name, KEYS[i].name))
			k = i;
	if (k < 0) {
		const char *names[N_KEYS], *near;
		for (int i = 0; i < N_KEYS; i++)
			names[i] = KEYS[i].name;
		if ((near = cli_nearest(name, names, N_KEYS)))
			return why(
			    p, "unknown key '%s'; did you mean '%s'? (docs/BATCH.md lists them)",
			    name, near);
		return why(p, "unknown key '%s' (docs/BATCH.md lists them)", name);
	}
	if (KEYS[k].corun_only && !corun)
		return why(p, "'%s' is for [corun] sections", name);
	if (strlen(value) >= sizeof(buf))
		return why(p, "value too long");
	strcpy(buf, value);
	if (KEYS[k].per_line) {
		char *v = trim(buf);
		if (!*v)
			return why(p, "empty value for '%s'", name);
		return check_value(p, corun, (enum key)k, v) &&
		       (push(p, &s->k[k], v) || why(p, "out of memory"));
	}
	char *save = NULL;
	int any = 0;
	for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		char *v = trim(t);
		if (!*v)
			continue;
		any = 1;
		if (k == K_TRACES) {
			if (!add_traces(p, s, v))
				return 0;
		} else if (!check_value(p, corun, (enum key)k, v) || !push(p, &s->k[k], v)) {
			return p->why[0] ? 0 : why(p, "out of memory");
		}
	}
	return any || why(p, "empty value for '%s'", name);
}

/* Entries of key k, or the default when none was given. */
static struct list get(struct section *s, enum key k, const char **def)
{
	if (s->k[k].n)
		return s->k[k];
	return (struct list){(char **)def, 1};
}

/* The trace's id (llct_reader_id), or its path when it cannot be read (its jobs then fail
 * with the reader's message). Each of the section's frame ranges is checked against the
 * frames the trace holds, as replay checks --frames: non-zero with the reason in err. */
static int trace_id(const char *path, const struct list *frames, char *out, size_t size, char *err,
		    size_t err_size)
{
	struct llct_reader *r;
	char why[256];
	int st = LLCT_OK;
	snprintf(out, size, "%s", path);
	if (llct_reader_open(path, &r, why, sizeof(why)) != LLCT_OK)
		return LLCT_OK;
	snprintf(out, size, "%s", llct_reader_id(r));
	const struct llct_frame_info *fi;
	size_t nf;
	llct_reader_frames(r, &fi, &nf);
	for (size_t i = 0; !st && i < frames->n; i++) {
		struct llct_frame_range fr;
		if (!strcmp(frames->v[i], "all") || llct_frame_range_parse(frames->v[i], &fr))
			continue; /* a bad range was refused with its line when read */
		st = llct_frame_range_check(&fr, frames->v[i], path, fi, nf, err, err_size);
		llct_frame_range_release(&fr);
	}
	llct_reader_close(r);
	return st;
}

static int add_cell(struct batch_grid *g, const struct batch_cell *c)
{
	if (g->n_cells == g->cap_cells) {
		size_t cap = g->cap_cells ? 2 * g->cap_cells : 64;
		struct batch_cell *v = realloc(g->cells, cap * sizeof(*v));
		if (!v)
			return 0;
		g->cells = v;
		g->cap_cells = cap;
	}
	g->cells[g->n_cells++] = *c;
	return 1;
}

/* The cell's identity in results.db: everything that makes its runs what they are, the
 * traces named by their ids (replay_cell_key, as `replay` names its runs). */
static int cell_key(struct batch_grid *g, struct batch_cell *c, char **ids)
{
	struct replay_cell k = {
	    .ids = (const char *const *)ids, .n_ids = c->n_traces, .cache = &c->cache, .k = c->k};
	char *key = replay_cell_key(&k);
	c->key = key ? keep(g, key) : NULL;
	free(key);
	return c->key != NULL;
}

static int gerr(char *err, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int gerr(char *err, size_t size, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, size, fmt, ap);
	va_end(ap);
	return LLCT_ERR_INVALID;
}

/* Dimensions of a section's cross product, the last varying fastest. */
enum dim {
	D_UNIT,
	D_FRAMES,
	D_PART,
	D_PART_BY,
	D_BYPASS,
	D_COLORS,
	D_CONT,
	D_HIT,
	D_MISS,
	D_MLP,
	D_PAGE,
	D_SETS,
	D_CONF,
	D_SIMUL,
	D_PERK,
	D_FLOW,
	D_UCD,
	D_GEO,
	D_HASH,
	D_WRITE,
	D_SECTOR,
	D_BANKS,
	D_SAMPLE,
	N_DIMS
};

/* The line of a section's header ("[grid a]") in the grid file, for messages; 0 if not found. */
static int section_line(const char *path, const char *name)
{
	FILE *f = fopen(path, "r");
	char buf[1024], want[300];
	int n = 0, found = 0;
	if (!f)
		return 0;
	snprintf(want, sizeof(want), "[%s]", name);
	while (!found && fgets(buf, sizeof(buf), f)) {
		n++;
		char *p = buf;
		while (*p == ' ' || *p == '\t')
			p++;
		found = !strncmp(p, want, strlen(want));
	}
	fclose(f);
	return found ? n : 0;
}

/* "'PATH':LINE: [SECTION]" for a section's messages (":LINE" where the header is found). */
static const char *where(const struct batch_grid *g, const struct section *s, char *buf,
			 size_t size)
{
	int line = section_line(g->path, s->name);
	if (line)
		snprintf(buf, size, "'%s':%d: [%s]", g->path, line, s->name);
	else
		snprintf(buf, size, "'%s': [%s]", g->path, s->name);
	return buf;
}

/* The cell at idx of a section's dimensions (dims; geo: its sizes, ways and lines), from base
 * (its policies); *dup when it is the same run as an earlier cell (a replay of every set is one
 * cell whatever the confidence and simultaneous lists). Returns its LLC as written, for a hint
 * when it is wrong. */
static const char *cell_at(const struct section *s, const struct list *dims, const size_t *idx,
			   const struct list geo[3], const struct batch_cell *base,
			   struct batch_cell *cell, int *dup)
{
	const struct list *tr = &s->k[K_TRACES], *sz = &geo[0], *wy = &geo[1], *ln = &geo[2];
	struct batch_cell c = *base;
	uint64_t v;
	const char *x;
	size_t u = idx[D_UNIT];
	c.traces = s->corun ? tr->v : &tr->v[u];
	c.n_traces = s->corun ? tr->n : 1;
#define AT(d) (dims[d].v[idx[d]])
	c.k.frames = strcmp(AT(D_FRAMES), "all") ? AT(D_FRAMES) : NULL;
	c.k.partition = strcmp(AT(D_PART), "none") ? AT(D_PART) : NULL;
	c.k.part_by = strcmp(AT(D_PART_BY), "stream") ? LLCT_CLASS_TENANT : LLCT_CLASS_STREAM;
	c.part_by_set = 1;
	c.k.bypass = strcmp(AT(D_BYPASS), "none") ? AT(D_BYPASS) : NULL;
	c.k.colors = strcmp(AT(D_COLORS), "none") ? AT(D_COLORS) : NULL;
	x = AT(D_CONT);
	c.k.contention = replay_parse_owner_by(x, &c.k.contention_by);
	c.k.hit_lat = strtod(AT(D_HIT), NULL);
	c.k.miss_lat = strtod(AT(D_MISS), NULL);
	c.k.mlp = strcmp(AT(D_MLP), "default") ? AT(D_MLP) : NULL;
	cli_parse_size(AT(D_PAGE), &v);
	c.k.page_size = (uint32_t)v;
	x = AT(D_SETS);
	c.k.sample_sets = 0;
	if (strcmp(x, "all") && cli_parse_uint(strncmp(x, "1/", 2) ? x : x + 2, 1u << 20, &v))
		c.k.sample_sets = (uint32_t)v;
	cli_parse_level(AT(D_CONF), &c.k.confidence);
	c.k.simultaneous = !strcmp(AT(D_SIMUL), "yes");
	*dup = !c.k.sample_sets && (idx[D_CONF] || idx[D_SIMUL]);
	if (!c.k.sample_sets)
		c.k.confidence = 0.99, c.k.simultaneous = 0;
	c.cache = (struct llct_cache_config)LLCT_CACHE_CONFIG_INIT;
	c.cache.ucd = !strcmp(AT(D_UCD), "on");
	c.k.per_kernel = !strcmp(AT(D_PERK), "yes");
	c.k.flow = !strcmp(AT(D_FLOW), "yes");
	size_t gi = idx[D_GEO];
	const char *geo_text;
	if (gi < s->k[K_LLC].n) {
		geo_text = s->k[K_LLC].v[gi];
		cli_parse_llc(s->k[K_LLC].v[gi], &c.cache.size, &c.cache.ways, &c.cache.line);
	} else {
		gi -= s->k[K_LLC].n; /* lines, then ways, then sizes vary fastest */
		geo_text = sz->v[gi % sz->n];
		cli_parse_size(sz->v[gi % sz->n], &c.cache.size);
		cli_parse_uint(wy->v[gi / sz->n % wy->n], 1u << 30, &v);
		c.cache.ways = (uint32_t)v;
		cli_parse_uint(ln->v[gi / sz->n / wy->n], 1u << 30, &v);
		c.cache.line = (uint32_t)v;
	}
	c.cache.hash = strcmp(AT(D_HASH), "xor") ? LLCT_HASH_MOD : LLCT_HASH_XOR;
	replay_parse_write_policy(AT(D_WRITE), &c.cache.write_policy);
	c.cache.sector = 0;
	if (strcmp(AT(D_SECTOR), "none") && cli_parse_size(AT(D_SECTOR), &v))
		c.cache.sector = (uint32_t)v;
	cli_parse_uint(AT(D_BANKS), 1u << 30, &v);
	c.cache.banks = (uint32_t)v;
	cli_parse_uint(AT(D_SAMPLE), 1u << 30, &v);
	c.cache.sample_period = (uint32_t)v;
#undef AT
	*cell = c;
	return geo_text;
}

static int expand(struct batch_grid *g, struct section *s, size_t si, char *err, size_t err_size)
{
	char at[PATH_MAX + 320];
	static const char *all[] = {"all"}, *corun_pol[] = {NULL}, *none[] = {"none"},
			  *off[] = {"off"}, *mod[] = {"mod"}, *n4[] = {"4"},
			  *allocate[] = {"allocate"}, *n64[] = {"64"}, *n16[] = {"16"},
			  *hit[] = {"120"}, *miss[] = {"480"}, *page[] = {"4KiB"},
			  *dflt[] = {"default"}, *s8[] = {"8MiB"}, *tenant[] = {"tenant"},
			  *stream[] = {"stream"}, *c99[] = {"99%"}, *no[] = {"no"};
	corun_pol[0] = replay_corun_policies();
	struct list *tr = &s->k[K_TRACES];
	if (!tr->n)
		return gerr(err, err_size, "%s has no traces", where(g, s, at, sizeof(at)));
	if (s->corun && (tr->n < 2 || tr->n > LLCT_MAX_CLASSES))
		return gerr(err, err_size, "%s a co-run takes 2 to %d traces, not %zu",
			    where(g, s, at, sizeof(at)), LLCT_MAX_CLASSES, tr->n);
	/* ways and lines alone take the default size (8MiB); with llc, which gives its own ways
	   and line, they need sizes of their own */
	if ((s->k[K_WAYS].n || s->k[K_LINES].n) && !s->k[K_SIZES].n && s->k[K_LLC].n)
		return gerr(err, err_size,
			    "%s ways and lines go with sizes, not with llc (whose values give "
			    "their own ways and line)",
			    where(g, s, at, sizeof(at)));
	struct batch_cell base;
	memset(&base, 0, sizeof(base));
	base.section = si;
	base.k.corun = s->corun;
	struct list pl = get(s, K_POLICIES, s->corun ? corun_pol : all);
	for (size_t i = 0; i < pl.n; i++) { /* the union of the entries, in order */
		const struct llct_policy_ops *pol[REPLAY_MAX_POLICIES];
		size_t n;
		char why_[300];
		replay_parse_policies(pl.v[i], pol, &n, why_, sizeof(why_));
		for (size_t j = 0; j < n; j++) {
			int dup = 0;
			for (size_t q = 0; q < base.n_pol; q++)
				dup |= base.pol[q] == pol[j];
			if (s->corun && pol[j]->needs_next_use)
				return gerr(err, err_size,
					    "%s %s cannot co-run (it needs the future)",
					    where(g, s, at, sizeof(at)), pol[j]->name);
			if (!dup && base.n_pol < REPLAY_MAX_POLICIES)
				base.pol[base.n_pol++] = pol[j];
		}
	}
	/* geometries: the llc entries, then sizes x ways x lines */
	struct list geo[3] = {get(s, K_SIZES, s8), get(s, K_WAYS, n16), get(s, K_LINES, n64)};
	size_t n_cross = s->k[K_SIZES].n || !s->k[K_LLC].n ? geo[0].n * geo[1].n * geo[2].n : 0;
	size_t n_geo = s->k[K_LLC].n + n_cross;
	struct list dims[N_DIMS] = {
	    [D_FRAMES] = get(s, K_FRAMES, all),
	    [D_PART] = get(s, K_PARTITION, none),
	    [D_PART_BY] = get(s, K_PARTITION_BY, s->corun ? tenant : stream),
	    [D_BYPASS] = get(s, K_BYPASS, none),
	    [D_COLORS] = get(s, K_COLORS, none),
	    [D_CONT] = get(s, K_CONTENTION, s->corun ? tenant : none),
	    [D_HIT] = get(s, K_HIT, hit),
	    [D_MISS] = get(s, K_MISS, miss),
	    [D_MLP] = get(s, K_MLP, dflt),
	    [D_PAGE] = get(s, K_PAGE, page),
	    [D_SETS] = get(s, K_SAMPLE_SETS, all),
	    [D_CONF] = get(s, K_CONFIDENCE, c99),
	    [D_SIMUL] = get(s, K_SIMULTANEOUS, no),
	    [D_PERK] = get(s, K_PER_KERNEL, no),
	    [D_FLOW] = get(s, K_FLOW, no),
	    [D_UCD] = get(s, K_UCD, off),
	    [D_HASH] = get(s, K_HASH, mod),
	    [D_WRITE] = get(s, K_WRITE, allocate),
	    [D_SECTOR] = get(s, K_SECTOR, none),
	    [D_BANKS] = get(s, K_BANKS, n4),
	    [D_SAMPLE] = get(s, K_SAMPLE, n64),
	};
	size_t len[N_DIMS], idx[N_DIMS] = {0};
	for (int d = 0; d < N_DIMS; d++)
		len[d] = dims[d].n;
	len[D_UNIT] = s->corun ? 1 : tr->n;
	len[D_GEO] = n_geo;
	char(*created)[4096] = calloc(tr->n, 4096); /* each trace's id */
	char **cptr = calloc(tr->n, sizeof(*cptr));
	if (!created || !cptr) {
		free(created);
		free(cptr);
		return gerr(err, err_size, "out of memory");
	}
	int st = LLCT_OK;
	for (size_t t = 0; !st && t < tr->n; t++) {
		char why[512];
		if (trace_id(tr->v[t], &dims[D_FRAMES], created[t], sizeof(created[t]), why,
			     sizeof(why)))
			st = gerr(err, err_size, "%s frames: %s", where(g, s, at, sizeof(at)), why);
		cptr[t] = created[t];
	}
	if (st) {
		free(created);
		free(cptr);
		return st;
	}
	for (;;) {
		struct batch_cell c;
		int dup;
		size_t u = idx[D_UNIT];
		const char *geo_text = cell_at(s, dims, idx, geo, &base, &c, &dup);
		char why_[300];
		if (llct_cache_config_check(&c.cache, why_, sizeof(why_))) {
			char hint[160];
			cli_llc_hint(geo_text, hint, sizeof(hint));
			st = gerr(err, err_size, "%s LLC %llu:%u:%u: %s%s",
				  where(g, s, at, sizeof(at)), (unsigned long long)c.cache.size,
				  c.cache.ways, c.cache.line, why_, hint);
			break;
		}
		if (!dup && g->n_cells >= BATCH_MAX_CELLS) { /* a typo's cross product, likely */
			st = gerr(err, err_size,
				  "%s makes more than %u configurations a trace can run; "
				  "split the grid",
				  where(g, s, at, sizeof(at)), BATCH_MAX_CELLS);
			break;
		}
		if (!dup && (!cell_key(g, &c, s->corun ? cptr : &cptr[u]) || !add_cell(g, &c))) {
			st = gerr(err, err_size, "out of memory");
			break;
		}
		int d = N_DIMS - 1; /* next combination */
		while (d >= 0 && ++idx[d] == len[d])
			idx[d--] = 0;
		if (d < 0)
			break;
	}
	free(created);
	free(cptr);
	return st;
}

int batch_grid_load(const char *path, struct batch_grid *g, char *err, size_t err_size)
{
	struct parse p;
	char tmp[PATH_MAX];
	memset(g, 0, sizeof(*g));
	memset(&p, 0, sizeof(p));
	p.g = g;
	if (!(g->path = strdup(path)))
		return gerr(err, err_size, "out of memory");
	snprintf(tmp, sizeof(tmp), "%s", path);
	if (!realpath(dirname(tmp), p.dir))
		return gerr(err, err_size, "'%s': cannot read: no such folder", path);
	/* Debian's inih takes its limits at run time: lines of any length */
	ini_use_stack = false;
	ini_allow_realloc = true;
	ini_max_line = 1 << 20;
	int rc = ini_parse(path, handler, &p), st = LLCT_OK;
	if (rc < 0)
		st = gerr(err, err_size, "'%s': cannot read the grid: %s", path,
			  access(path, R_OK) != 0 ? strerror(errno) : "cannot open it");
	else if (rc > 0)
		st = gerr(err, err_size, "'%s':%d: %s", path, rc,
			  p.why[0] ? p.why : "not a key = value line");
	else if (!p.n)
		st = gerr(err, err_size, "'%s': no [grid] or [corun] section", path);
	for (size_t i = 0; i < p.n && !st; i++)
		st = expand(g, &p.s[i], i, err, err_size);
	if (!st) {
		g->sections = malloc(p.n * sizeof(*g->sections));
		if (!g->sections)
			st = gerr(err, err_size, "out of memory");
		for (size_t i = 0; i < p.n && !st; i++)
			g->sections[i] = p.s[i].name;
		g->n_sections = p.n;
	}
	/* simultaneous intervals: every estimate of the grid's sampled runs that say so */
	for (size_t i = 0; i < g->n_cells && !st; i++)
		if (g->cells[i].k.sample_sets && g->cells[i].k.simultaneous)
			g->family += REPLAY_ESTIMATES_PER_RUN * g->cells[i].n_pol;
	/* the cells point into the lists: the grid keeps them */
	for (size_t i = 0; i < p.n; i++)
		for (int k = 0; k < N_KEYS; k++)
			if (p.s[i].k[k].v && !keep_list(g, p.s[i].k[k].v))
				st = gerr(err, err_size, "out of memory");
	free(p.s);
	return st;
}

void batch_grid_free(struct batch_grid *g)
{
	for (size_t i = 0; i < g->n_strings; i++)
		free(g->strings[i]);
	free(g->strings);
	for (size_t i = 0; i < g->n_lists; i++)
		free(g->lists[i]);
	free(g->lists);
	free(g->sections);
	free(g->cells);
	free(g->path);
	memset(g, 0, sizeof(*g));
}

size_t batch_grid_runs(const struct batch_grid *g)
{
	size_t n = 0;
	for (size_t i = 0; i < g->n_cells; i++)
		n += g->cells[i].n_pol;
	return n;
}
