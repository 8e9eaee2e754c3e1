/* footprint_split.c - the footprint model's render-cache step for a round of access batches
 * split by SM over threads: an SM's render caches are its own, so each job passes its SMs'
 * accesses through them in order, writing their records run by run, and one pass on the
 * model's thread copies the runs' records in the accesses' order. */
#include "footprint_int.h"

#include <stdlib.h>
#include <string.h>

#define SKIPPED 255 /* llct_fp_group's group before the first run */

static inline uint32_t sm_of(const struct llct_fp *fp, uint32_t sm)
{
	return sm < fp->c.n_sms ? sm : sm % fp->c.n_sms;
}

/* The same_skip key of SM sm's access to a line (llct_fp_touch_batch's). */
static inline uint64_t skip_key(uint64_t line, uint32_t sm)
{
	return line ^ (uint64_t)sm << 58;
}

int llct_fp_group(const struct llct_fp *fp, const struct llct_fp_access *a, size_t n,
		  unsigned groups, struct llct_fp_group *g)
{
	groups = groups < 1 ? 1 : groups > 64 ? 64 : groups;
	g->groups = groups, g->first = UINT32_MAX, g->last = UINT64_MAX;
	memset(g->start, 0, sizeof(g->start));
	if (n >= UINT32_MAX)
		return -1;
	uint32_t n_sms = fp->c.n_sms;
	if (g->tab_sms != n_sms || g->tab_groups != groups) { /* a division an SM, not an access */
		uint8_t *tab = realloc(g->tab, n_sms);
		if (!tab)
			return -1;
		for (uint32_t sm = 0; sm < n_sms; sm++)
			tab[sm] = (uint8_t)((uint64_t)sm * groups / n_sms);
		g->tab = tab, g->tab_sms = n_sms, g->tab_groups = groups;
	}
	if (n > g->cap) {
		uint32_t *idx = realloc(g->idx, n * sizeof(*idx));
		if (idx)
			g->idx = idx;
		uint32_t *ra = idx ? realloc(g->run_at, n * sizeof(*ra)) : NULL;
		if (ra)
			g->run_at = ra;
		uint8_t *rk = ra ? realloc(g->run_k, n) : NULL;
		if (rk)
			g->run_k = rk;
		uint32_t *ri = rk ? realloc(g->ridx, n * sizeof(*ri)) : NULL;
		if (!ri)
			return -1;
		g->ridx = ri, g->cap = n;
	}
	/* one pass: the accesses kept (a same_skip access before them in the batch skips none of
	   them) in order, counted by group and cut into runs of one group. In locals: a store
	   through run_k (bytes) could otherwise be any of g's fields. Accesses come in runs of one
	   SM, so a run's count is kept in a register along it. */
	uint32_t cnt[64] = {0}, runs[64] = {0}, first = UINT32_MAX, run = 0, m = 0;
	uint32_t *run_at = g->run_at, *idx = g->idx;
	const uint8_t *tab = g->tab;
	uint8_t *run_k = g->run_k, cur = SKIPPED;
	uint64_t prev = UINT64_MAX;
	size_t nr = 0;
	for (size_t i = 0; i < n; i++) {
		const struct llct_fp_access *t = &a[i];
		uint32_t sm = sm_of(fp, t->sm);
		if (t->same_skip) {
			uint64_t key = skip_key(t->line, sm);
			if (first != UINT32_MAX && key == prev)
				continue;
			first = first == UINT32_MAX ? (uint32_t)i : first;
			prev = key;
		}
		uint8_t k = tab[sm];
		if (k != cur) {
			if (cur != SKIPPED)
				cnt[cur] += run, runs[cur]++;
			run_at[nr] = m, run_k[nr++] = k, run = 0, cur = k;
		}
		idx[m++] = (uint32_t)i;
		run++;
	}
	if (cur != SKIPPED)
		cnt[cur] += run, runs[cur]++;
	g->first = first;
	g->last = first == UINT32_MAX ? UINT64_MAX : prev;
	g->kept = m, g->n_runs = nr;
	g->rstart[0] = 0;
	for (unsigned k = 0; k < groups; k++) {
		g->start[k + 1] = g->start[k] + cnt[k];
		g->rstart[k + 1] = g->rstart[k] + runs[k], runs[k] = g->rstart[k];
	}
	for (size_t r = 0; r < nr; r++) /* the runs by group */
		g->ridx[runs[run_k[r]]++] = (uint32_t)r;
	return 0;
}

void llct_fp_group_free(struct llct_fp_group *g)
{
	free(g->idx);
	free(g->tab);
	free(g->run_at);
	free(g->run_k);
	free(g->ridx);
	g->idx = NULL, g->tab = NULL, g->cap = 0, g->tab_sms = g->tab_groups = 0;
	g->run_at = NULL, g->run_k = NULL, g->ridx = NULL, g->n_runs = 0;
}

/* Room for n of *p's elements of size el (*cap of them now), the new room zeroed (a record's
 * padding is then 0, as in the model's own buffer): 0, or -1. */
static int room(void **p, size_t *cap, size_t n, size_t el)
{
	if (n <= *cap)
		return 0;
	size_t c = n + n / 4;
	char *q = realloc(*p, c * el);
	if (!q)
		return -1;
	memset(q + *cap * el, 0, (c - *cap) * el);
	*p = q, *cap = c;
	return 0;
}

int llct_fp_split_init(struct llct_fp_split *s, const struct llct_fp_access *const *a,
		       const struct llct_fp_group *const *g, const size_t *n, size_t n_batches,
		       unsigned groups, const struct llct_fp_batch *b)
{
	if (groups < 1 || groups > 64 || (n_batches && !g))
		return -1;
	for (size_t q = 0; q < n_batches; q++) /* a job reads its group's place in each */
		if (!g[q] || g[q]->groups != groups)
			return -1;
	/* a group's records from where the groups before it end (two an access at most: a
	   dirty line written back, the line read); a run's count from where the batch's begin */
	size_t kept[64] = {0}, runs = 0;
	for (size_t q = 0; q < n_batches; q++) {
		for (unsigned k = 0; k < groups; k++)
			kept[k] += g[q]->start[k + 1] - g[q]->start[k];
		runs += g[q]->n_runs;
	}
	s->rec_at[0] = 0;
	for (unsigned k = 0; k < groups; k++)
		s->rec_at[k + 1] = s->rec_at[k] + 2 * kept[k];
	if (room((void **)&s->recs, &s->rec_cap, s->rec_at[groups], sizeof(*s->recs)) ||
	    room((void **)&s->counts, &s->counts_cap, runs, sizeof(*s->counts)) ||
	    room((void **)&s->run_at, &s->run_at_cap, n_batches, sizeof(*s->run_at)))
		return -1;
	for (size_t q = 0, at = 0; q < n_batches; at += g[q]->n_runs, q++)
		s->run_at[q] = at;
	s->a = a, s->g = g, s->n = n, s->n_batches = n_batches;
	s->groups = groups;
	s->prev = b->prev;
	return 0;
}

void llct_fp_split_free(struct llct_fp_split *s)
{
	free(s->recs);
	free(s->counts);
	free(s->run_at);
	s->recs = NULL, s->counts = NULL, s->run_at = NULL;
	s->rec_cap = s->counts_cap = s->run_at_cap = 0;
}

/* A record of SM sm's access to a line into *r (llct_fp_out's, with the model's kernel). */
static inline void rec(struct llct_record *r, const struct llct_fp *fp, uint64_t line, int stream,
		       int op, uint32_t sm, uint32_t site)
{
	r->addr = line;
	r->kernel = fp->kernel;
	r->sm = (uint16_t)sm;
	r->tenant = 0;
	r->stream = (uint8_t)stream;
	r->op = (uint8_t)op;
	r->site = site;
}

/* SM sm's access t through its render cache (llct_fp_touch_rc and llct_fp_miss): its records
 * into r (none on a hit or a write's miss of a clean entry; a dirty line written back, naming
 * no site, then a read's line; the access as it is where there is no render cache for it).
 * Returns the records, *hit 1 when it hit. */
static inline uint32_t step(const struct llct_fp *fp, const struct llct_fp_access *t, uint32_t sm,
			    struct llct_record *r, int *hit)
{
	uint32_t n = fp->c.rc_lines[t->stream];
	rc_line *rc = fp->rc[t->stream];
	*hit = 0;
	if (!rc || !n || (t->line & 3)) {
		rec(r, fp, t->line, t->stream, t->op, sm, t->site);
		return 1;
	}
	rc_line *e = llct_fp_rc_entry(fp, rc, n, t->line, sm);
	if ((*e & ~(uint64_t)2) == (t->line | 1)) {
		*hit = 1;
		*e |= (uint64_t)t->op << 1;
		return 0;
	}
	uint32_t k = 0;
	if (*e & 2)
		rec(&r[k++], fp, *e & ~(uint64_t)3, t->stream, LLCT_OP_WRITE, sm, 0);
	if (!t->op)
		rec(&r[k++], fp, t->line, t->stream, LLCT_OP_READ, sm, t->site);
	*e = t->line | 1 | (uint64_t)t->op << 1;
	return k;
}

void llct_fp_split_job(struct llct_fp *fp, struct llct_fp_split *s, unsigned k)
{
	uint64_t prev = s->prev, filtered = 0, tag[8] = {0};
	struct llct_record *r = s->recs + s->rec_at[k];
	for (size_t q = 0; q < s->n_batches; q++) {
		const struct llct_fp_access *a = s->a[q];
		const struct llct_fp_group *g = s->g[q];
		uint32_t *counts = s->counts + s->run_at[q];
		for (uint32_t x = g->rstart[k]; x < g->rstart[k + 1]; x++) {
			uint32_t run = g->ridx[x];
			uint32_t end = run + 1 < g->n_runs ? g->run_at[run + 1] : g->kept;
			const struct llct_record *r0 = r;
			for (uint32_t p = g->run_at[run]; p < end; p++) {
				uint32_t i = g->idx[p];
				const struct llct_fp_access *t = &a[i];
				uint32_t sm = sm_of(fp, t->sm);
				if (i == g->first && skip_key(t->line, sm) == prev)
					continue; /* skipped by the batch before's last */
				int hit;
				uint32_t m = step(fp, t, sm, r, &hit);
				r += m;
				filtered += (uint64_t)hit;
				if (t->tag && !hit) /* it missed: an LLC record */
					for (uint32_t b = 0; b < 8; b++)
						tag[b] += t->tag >> b & 1;
			}
			counts[run] = (uint32_t)(r - r0);
		}
		prev = g->last != UINT64_MAX ? g->last : prev;
	}
	s->part[k].filtered = filtered;
	memcpy(s->part[k].tag_misses, tag, sizeof(tag));
}

void llct_fp_split_write(struct llct_fp *fp, const struct llct_fp_split *s, struct llct_fp_batch *b)
{
	const struct llct_record *from[64];
	for (unsigned k = 0; k < s->groups; k++)
		from[k] = s->recs + s->rec_at[k];
	uint64_t emitted = 0;
	for (size_t q = 0; q < s->n_batches; q++) {
		const struct llct_fp_group *g = s->g[q];
		const uint32_t *counts = s->counts + s->run_at[q];
		for (size_t run = 0; run < g->n_runs; run++) {
			uint32_t m = counts[run];
			if (!m)
				continue;
			const struct llct_record *r = from[g->run_k[run]];
			from[g->run_k[run]] = r + m;
			emitted += m;
			if (fp->cap - fp->n >= m) { /* the common case: room in the buffer */
				struct llct_record *d = fp->buf + fp->n;
				for (uint32_t j = 0; j < m; j++)
					d[j] = r[j];
				fp->n += m;
			} else {
				llct_fp_put(fp, r, m);
			}
		}
		/* the skips carried on as the jobs found them; the last access's site, as
		   llct_fp_touch_batch leaves it */
		b->prev = g->last != UINT64_MAX ? g->last : b->prev;
		if (s->n[q])
			b->site = fp->site = s->a[q][s->n[q] - 1].site;
	}
	fp->emitted += emitted;
	for (unsigned k = 0; k < s->groups; k++) {
		fp->filtered += s->part[k].filtered;
		for (uint32_t t = 0; t < 8; t++)
			b->tag_misses[t] += s->part[k].tag_misses[t];
	}
}
