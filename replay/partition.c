/* partition.c - way and set partitioning and bypass: parsing the user's specs, the solo
 * miss-curve profiler (LRU stack distances), and the allocators (even, Liang's Algorithm 1
 * with UCP lookahead). The cache model only enforces a struct llct_partition; this file
 * decides what it holds. */
#include "llct/replay.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int class_of(const char *s, size_t len, enum llct_class_by by, unsigned *k)
{
	if (by == LLCT_CLASS_STREAM) {
		int st = llct_stream_from_name(s, len);
		if (st < 0)
			return 0;
		*k = (unsigned)st;
		return 1;
	}
	unsigned v = 0;
	if (!len || len > 3)
		return 0;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return 0;
		v = v * 10 + (unsigned)(s[i] - '0');
	}
	if (v >= LLCT_MAX_CLASSES)
		return 0;
	*k = v;
	return 1;
}

int llct_partition_parse_ways(const char *spec, enum llct_class_by by,
			      struct llct_partition_plan *plan, char *why, size_t why_size)
{
	memset(plan, 0, sizeof(*plan));
	plan->by = by;
	if (strncmp(spec, "ways:", 5) != 0) {
		snprintf(why, why_size,
			 "'%s' is not ways:even, ways:static, ways:dynamic[:N] or "
			 "ways:CLASS=N,...",
			 spec);
		return LLCT_ERR_PARSE;
	}
	spec += 5;
	if (strcmp(spec, "even") == 0) {
		plan->alloc = LLCT_WAYS_EVEN;
		return LLCT_OK;
	}
	if (strcmp(spec, "static") == 0) {
		plan->alloc = LLCT_WAYS_STATIC;
		return LLCT_OK;
	}
	if (strncmp(spec, "dynamic", 7) == 0) {
		plan->alloc = LLCT_WAYS_DYNAMIC;
		plan->interval = 1000000;
		if (spec[7] == ':') {
			char *end;
			unsigned long long v = strtoull(spec + 8, &end, 10);
			if (*end || v < 1000 || spec[8] == '-') {
				snprintf(why, why_size,
					 "dynamic interval must be >= 1000 accesses");
				return LLCT_ERR_PARSE;
			}
			plan->interval = v;
		} else if (spec[7]) {
			snprintf(why, why_size, "bad dynamic partition '%s'", spec);
			return LLCT_ERR_PARSE;
		}
		return LLCT_OK;
	}
	plan->alloc = LLCT_WAYS_MANUAL;
	const char *p = spec;
	while (*p) {
		const char *eq = strchr(p, '='), *end = strchr(p, ',');
		if (!end)
			end = p + strlen(p);
		unsigned k;
		char *num_end;
		if (!eq || eq > end || !class_of(p, (size_t)(eq - p), by, &k)) {
			snprintf(why, why_size, "bad class in '%.*s' (%s)", (int)(end - p), p,
				 by == LLCT_CLASS_STREAM ? "a stream name" : "a tenant number");
			return LLCT_ERR_PARSE;
		}
		unsigned long v = strtoul(eq + 1, &num_end, 10);
		if (num_end != end || eq[1] == '-' || v > LLCT_MAX_WAYS) {
			snprintf(why, why_size, "bad way count in '%.*s'", (int)(end - p), p);
			return LLCT_ERR_PARSE;
		}
		plan->manual[k] = (uint32_t)v;
		p = *end ? end + 1 : end;
	}
	return LLCT_OK;
}

int llct_partition_parse_bypass(const char *spec, struct llct_partition *p, char *why,
				size_t why_size)
{
	const char *s = spec;
	while (*s) {
		const char *end = strchr(s, ',');
		if (!end)
			end = s + strlen(s);
		unsigned k;
		if (!strncmp(s, "stream=", 7) &&
		    class_of(s + 7, (size_t)(end - s - 7), LLCT_CLASS_STREAM, &k)) {
			p->bypass_streams |= 1u << k;
		} else if (!strncmp(s, "tenant=", 7) &&
			   class_of(s + 7, (size_t)(end - s - 7), LLCT_CLASS_TENANT, &k)) {
			p->bypass_tenants |= (uint64_t)1 << k;
		} else {
			snprintf(why, why_size, "bad bypass rule '%.*s' (stream=NAME or tenant=N)",
				 (int)(end - s), s);
			return LLCT_ERR_PARSE;
		}
		s = *end ? end + 1 : end;
	}
	return LLCT_OK;
}

int llct_partition_parse_colors(const char *spec, uint32_t colors, uint32_t n_tenants,
				struct llct_partition *p, char *why, size_t why_size)
{
	if (!colors) {
		snprintf(why, why_size,
			 "page coloring needs a power-of-two number of sets and a "
			 "page size smaller than sets x line");
		return LLCT_ERR_PARSE;
	}
	p->colors_on = 1;
	if (strcmp(spec, "even") == 0) {
		if (n_tenants < 1 || n_tenants > colors) {
			snprintf(why, why_size, "%u tenants cannot share %u colors", n_tenants,
				 colors);
			return LLCT_ERR_PARSE;
		}
		uint32_t per = colors / n_tenants;
		for (uint32_t t = 0; t < n_tenants; t++) {
			p->n_colors[t] = per < LLCT_MAX_CLASSES ? per : LLCT_MAX_CLASSES;
			for (uint32_t i = 0; i < p->n_colors[t]; i++)
				p->colors[t][i] = (uint16_t)(t * per + i);
		}
		return LLCT_OK;
	}
	const char *s = spec;
	while (*s) {
		const char *end = strchr(s, ','), *eq = strchr(s, '=');
		if (!end)
			end = s + strlen(s);
		unsigned t, a, b;
		int used = 0;
		char tbuf[8];
		if (!eq || eq > end || eq - s >= (long)sizeof(tbuf) ||
		    !class_of(s, (size_t)(eq - s), LLCT_CLASS_TENANT, &t)) {
			snprintf(why, why_size, "bad color rule '%.*s' (TENANT=FIRST-LAST)",
				 (int)(end - s), s);
			return LLCT_ERR_PARSE;
		}
		if (sscanf(eq + 1, "%u-%u%n", &a, &b, &used) != 2 || eq + 1 + used != end ||
		    a > b || b >= colors) {
			snprintf(why, why_size, "bad color range in '%.*s' (colors are 0..%u)",
				 (int)(end - s), s, colors - 1);
			return LLCT_ERR_PARSE;
		}
		for (unsigned c = a; c <= b && p->n_colors[t] < LLCT_MAX_CLASSES; c++)
			p->colors[t][p->n_colors[t]++] = (uint16_t)c;
		s = *end ? end + 1 : end;
	}
	return LLCT_OK;
}

uint32_t llct_partition_set_counts(struct llct_partition *p, const uint32_t *ways, size_t n_classes,
				   uint32_t total_ways)
{
	uint32_t at = 0;
	p->ways_on = 1;
	for (size_t k = 0; k < LLCT_MAX_CLASSES; k++) {
		uint32_t n = k < n_classes ? ways[k] : 0;
		if (at + n > total_ways)
			n = total_ways - at;
		p->ways_mask[k] = n ? (n == 64 ? UINT64_MAX : (((uint64_t)1 << n) - 1) << at) : 0;
		at += n;
	}
	return at;
}

/* ---- stack-distance profiles ---- */

int llct_profile_init(struct llct_profile *pr, const struct llct_cache_config *cfg, uint32_t sample)
{
	memset(pr, 0, sizeof(*pr));
	pr->ways = cfg->ways;
	pr->cfg = cfg;
	pr->sets = llct_cache_sets(cfg);
	pr->sample = sample ? sample : 1;
	pr->stacks = calloc(LLCT_MAX_CLASSES, sizeof(*pr->stacks));
	return pr->stacks ? LLCT_OK : LLCT_ERR_NOMEM;
}

void llct_profile_access(struct llct_profile *pr, unsigned k, uint64_t addr)
{
	uint64_t line = addr / pr->cfg->line;
	uint32_t set = llct_cache_set_of(pr->cfg, line), W = pr->ways;
	if (k >= LLCT_MAX_CLASSES || set % pr->sample)
		return;
	if (!pr->stacks[k]) {
		size_t n = (size_t)(pr->sets / pr->sample + 1) * W;
		pr->stacks[k] = malloc(n * sizeof(uint64_t));
		pr->hist[k] = calloc(W + 1, sizeof(uint64_t));
		if (!pr->stacks[k] || !pr->hist[k]) {
			free(pr->stacks[k]);
			free(pr->hist[k]);
			pr->stacks[k] = NULL;
			pr->hist[k] = NULL;
			return;
		}
		for (size_t i = 0; i < n; i++)
			pr->stacks[k][i] = UINT64_MAX;
	}
	uint64_t *st = &pr->stacks[k][(size_t)(set / pr->sample) * W];
	uint32_t d = 0;
	while (d < W && st[d] != line)
		d++;
	pr->accesses[k]++;
	pr->hist[k][d]++; /* d == W: a miss even with every way */
	if (d == W)
		d = W - 1; /* the LRU line falls out */
	memmove(st + 1, st, d * sizeof(*st));
	st[0] = line;
}

uint64_t llct_profile_hits(const struct llct_profile *pr, unsigned k, uint32_t c)
{
	uint64_t h = 0;
	if (k >= LLCT_MAX_CLASSES || !pr->hist[k])
		return 0;
	for (uint32_t d = 0; d < c && d < pr->ways; d++)
		h += pr->hist[k][d];
	return h;
}

void llct_profile_halve(struct llct_profile *pr)
{
	for (unsigned k = 0; k < LLCT_MAX_CLASSES; k++) {
		pr->accesses[k] /= 2;
		for (uint32_t d = 0; pr->hist[k] && d <= pr->ways; d++)
			pr->hist[k][d] /= 2;
	}
}

void llct_profile_release(struct llct_profile *pr)
{
	for (unsigned k = 0; pr->stacks && k < LLCT_MAX_CLASSES; k++) {
		free(pr->stacks[k]);
		free(pr->hist[k]);
	}
	free(pr->stacks);
	memset(pr, 0, sizeof(*pr));
}

/* ---- allocation ---- */

/* UCP lookahead: deal `left` ways one block at a time to the class whose next k ways give
 * the most utility per way. */
static void lookahead(const double *const *u, const int *in, size_t n, uint32_t ways,
		      uint32_t *alloc, uint32_t left)
{
	while (left) {
		double best = -1;
		size_t bk = n;
		uint32_t bn = 0;
		for (size_t k = 0; k < n; k++) {
			if (!in[k])
				continue;
			for (uint32_t j = 1; j <= left && alloc[k] + j <= ways; j++) {
				double g = (u[k][alloc[k] + j] - u[k][alloc[k]]) / j;
				if (g > best) {
					best = g;
					bk = k;
					bn = j;
				}
			}
		}
		if (bk == n)
			return;
		alloc[bk] += bn;
		left -= bn;
	}
}

double llct_partition_allocate(const double *const *u, const int *active, size_t n_classes,
			       uint32_t ways, uint32_t *out)
{
	size_t cand[16], m = 0;
	double best = -1;
	uint32_t alloc[LLCT_MAX_CLASSES];
	int in[LLCT_MAX_CLASSES];
	for (size_t k = 0; k < n_classes; k++)
		if (active[k] && u[k][0] >= u[k][1] && m < 16)
			cand[m++] = k;
	for (size_t k = 0; k < n_classes; k++)
		out[k] = 0;
	for (uint64_t mask = 0; mask < ((uint64_t)1 << m); mask++) {
		uint32_t used = 0;
		for (size_t k = 0; k < n_classes; k++) {
			in[k] = active[k];
			alloc[k] = 0;
		}
		for (size_t j = 0; j < m; j++)
			if (mask >> j & 1)
				in[cand[j]] = 0; /* bypasses: 0 ways */
		for (size_t k = 0; k < n_classes; k++)
			if (in[k] && used < ways) {
				alloc[k] = 1;
				used++;
			}
		lookahead(u, in, n_classes, ways, alloc, ways - used);
		double total = 0;
		for (size_t k = 0; k < n_classes; k++)
			if (active[k])
				total += u[k][alloc[k]];
		/* ties go to the subset tried later, which bypasses more: ways that give a
		 * class nothing are better left to the others */
		if (total >= best - 1e-12) {
			best = total;
			memcpy(out, alloc, n_classes * sizeof(*out));
		}
	}
	return best;
}

/* ---- resolving a plan into a partition ---- */

int llct_partition_resolve(const struct llct_partition_plan *plan,
			   const struct llct_cache_config *cfg, const char *const *paths,
			   size_t n_paths, const struct llct_frame_range *frames, double hit_lat,
			   double miss_lat, const double *mlp, struct llct_partition *part,
			   uint32_t *counts, int *active_out, char *err, size_t err_size)
{
	struct llct_profile pr;
	int active[LLCT_MAX_CLASSES] = {0};
	size_t n_classes = plan->by == LLCT_CLASS_STREAM ? LLCT_N_STREAMS : LLCT_MAX_CLASSES;
	int st = LLCT_OK;
	memset(counts, 0, LLCT_MAX_CLASSES * sizeof(*counts));
	if (plan->alloc == LLCT_WAYS_NONE)
		return LLCT_OK;
	if (plan->alloc == LLCT_WAYS_MANUAL) {
		uint32_t sum = 0;
		for (size_t k = 0; k < LLCT_MAX_CLASSES; k++)
			sum += plan->manual[k];
		if (sum > cfg->ways) {
			snprintf(err, err_size, "the partition gives %u ways, the LLC has %u", sum,
				 cfg->ways);
			return LLCT_ERR_INVALID;
		}
		memcpy(counts, plan->manual, LLCT_MAX_CLASSES * sizeof(*counts));
		for (size_t k = 0; active_out && k < LLCT_MAX_CLASSES; k++)
			active_out[k] = counts[k] > 0;
		llct_partition_set_counts(part, counts, LLCT_MAX_CLASSES, cfg->ways);
		part->ways_by = plan->by;
		return LLCT_OK;
	}
	/* The classes that access the LLC, and (for static) their solo miss curves: one pass
	 * over each trace. A dynamic plan starts from an even split. */
	if ((st = llct_profile_init(&pr, cfg, 1)))
		return st;
	for (size_t i = 0; i < n_paths && !st; i++) {
		struct llct_reader *r;
		struct llct_cursor *c;
		struct llct_batch b;
		int got;
		if ((st = llct_reader_open(paths[i], &r, err, err_size)))
			break;
		if ((st = llct_cursor_open(r, frames, &c))) {
			snprintf(err, err_size, "%s", llct_reader_error(r));
			llct_reader_close(r);
			break;
		}
		while ((got = llct_cursor_next(c, &b)) > 0)
			for (uint32_t j = 0; j < b.n; j++) {
				unsigned k = plan->by == LLCT_CLASS_STREAM
						 ? b.stream[j]
						 : (n_paths > 1 ? (unsigned)i : b.tenant[j]);
				if (k >= LLCT_MAX_CLASSES)
					continue;
				active[k] = 1;
				if (plan->alloc == LLCT_WAYS_STATIC)
					llct_profile_access(&pr, k, b.addr[j]);
			}
		if (got < 0) {
			snprintf(err, err_size, "%s", llct_reader_error(r));
			st = got;
		}
		llct_cursor_close(c);
		llct_reader_close(r);
	}
	if (!st && (plan->alloc == LLCT_WAYS_EVEN || plan->alloc == LLCT_WAYS_DYNAMIC)) {
		uint32_t n_act = 0, given = 0;
		for (size_t k = 0; k < n_classes; k++)
			n_act += active[k];
		for (size_t k = 0; k < n_classes && n_act; k++)
			if (active[k]) {
				counts[k] = cfg->ways / n_act + (given < cfg->ways % n_act);
				given++;
			}
	} else if (!st) { /* static: Liang Algorithm 1 on modeled time from the curves */
		double *u[LLCT_MAX_CLASSES], T[LLCT_MAX_WAYS + 1];
		for (size_t k = 0; k < n_classes; k++) {
			u[k] = calloc(cfg->ways + 1, sizeof(double));
			if (!u[k]) {
				st = LLCT_ERR_NOMEM;
				n_classes = k;
				break;
			}
			if (!active[k])
				continue;
			double m =
			    mlp && k < LLCT_MAX_CLASSES && mlp[k] > 0 ? mlp[k] : LLCT_DEFAULT_MLP;
			for (uint32_t w = 0; w <= cfg->ways; w++) {
				uint64_t h = llct_profile_hits(&pr, (unsigned)k, w);
				T[w] = ((double)h * hit_lat +
					(double)(pr.accesses[k] - h) * miss_lat) /
				       m;
			}
			for (uint32_t w = 0; w <= cfg->ways; w++) /* weighted speed vs all ways */
				u[k][w] = T[w] > 0 ? T[cfg->ways] / T[w] : 1.0;
		}
		if (!st)
			llct_partition_allocate((const double *const *)u, active, n_classes,
						cfg->ways, counts);
		for (size_t k = 0; k < n_classes; k++)
			free(u[k]);
	}
	llct_profile_release(&pr);
	if (st)
		return st;
	if (active_out)
		memcpy(active_out, active, sizeof(active));
	llct_partition_set_counts(part, counts, LLCT_MAX_CLASSES, cfg->ways);
	/* classes with no ways and no traffic keep no ways; active ones with 0 ways bypass */
	part->ways_by = plan->by;
	return LLCT_OK;
}

/* ---- dynamic partitioning (UCP) ---- */

int llct_dynpart_init(struct llct_dynpart *d, const struct llct_partition_plan *plan,
		      const struct llct_cache_config *cfg, const struct llct_partition *start)
{
	memset(d, 0, sizeof(*d));
	d->plan = *plan;
	d->cfg = *cfg;
	d->part = *start;
	return llct_profile_init(&d->mon, &d->cfg, 32); /* UMON: every 32nd set */
}

static int log_counts(struct llct_dynpart *d, const uint32_t *counts)
{
	for (unsigned k = 0; k < LLCT_MAX_CLASSES; k++) {
		if (!counts[k] && !d->seen[k])
			continue;
		if (d->n_log == d->cap_log) {
			size_t cap = d->cap_log ? d->cap_log * 2 : 64;
			void *p = realloc(d->log, cap * sizeof(*d->log));
			if (!p)
				return LLCT_ERR_NOMEM;
			d->log = p;
			d->cap_log = cap;
		}
		d->log[d->n_log++] = (struct llct_part_log){d->interval_no, d->accesses, k,
							    counts[k], d->part.ways_mask[k]};
	}
	return LLCT_OK;
}

void llct_dynpart_start(struct llct_dynpart *d, const uint32_t *counts)
{
	log_counts(d, counts);
}

void llct_dynpart_access(struct llct_dynpart *d, unsigned cls, uint64_t addr)
{
	if (cls < LLCT_MAX_CLASSES) {
		d->seen[cls] = 1;
		llct_profile_access(&d->mon, cls, addr);
	}
	if (++d->accesses % d->plan.interval)
		return;
	double *u[LLCT_MAX_CLASSES];
	int active[LLCT_MAX_CLASSES];
	uint32_t counts[LLCT_MAX_CLASSES];
	size_t n = d->plan.by == LLCT_CLASS_STREAM ? LLCT_N_STREAMS : LLCT_MAX_CLASSES;
	double store[LLCT_MAX_CLASSES][LLCT_MAX_WAYS + 1];
	for (size_t k = 0; k < n; k++) {
		u[k] = store[k];
		active[k] = d->seen[k];
		for (uint32_t w = 0; w <= d->cfg.ways; w++) /* UCP: utility = hits */
			store[k][w] = (double)llct_profile_hits(&d->mon, (unsigned)k, w);
	}
	llct_partition_allocate((const double *const *)u, active, n, d->cfg.ways, counts);
	for (size_t k = n; k < LLCT_MAX_CLASSES; k++)
		counts[k] = 0;
	llct_partition_set_counts(&d->part, counts, LLCT_MAX_CLASSES, d->cfg.ways);
	llct_profile_halve(&d->mon);
	d->interval_no++;
	log_counts(d, counts);
}

void llct_dynpart_release(struct llct_dynpart *d)
{
	llct_profile_release(&d->mon);
	free(d->log);
	d->log = NULL;
}
