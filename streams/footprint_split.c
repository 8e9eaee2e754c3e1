/* footprint_split.c - the footprint model's render-cache step for a run of access batches split
 * by SM over threads: an SM's render caches are its own, so each job passes its SMs' accesses
 * through them in order, and one pass on the model's thread writes the records. */
#include "footprint_int.h"

#include <stdlib.h>
#include <string.h>

/* An access's outcome word: 0, nothing out (a hit, a write's miss of a clean entry); low bits 0
 * but not 0: out as it is (no render cache for it); else bit 0, a read's miss (the line
 * fetched) and bit 1, the entry's dirty line (the word less its low two bits, a line's address
 * with them 0) written back first. */
#define OUT_READ 1u
#define OUT_BACK 2u
#define OUT_PASS 4u
#define SKIPPED 255 /* llct_fp_group's mark of an access skipped in its batch */

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
		uint8_t *gb = idx ? realloc(g->gb, n) : NULL;
		if (!gb)
			return -1;
		g->gb = gb, g->cap = n;
	}
	/* in locals: a store through gb (bytes) could otherwise be any of g's fields. Accesses come
	   in runs of one SM, so a group's count and cursor are kept in a register along a run. */
	uint32_t cnt[64] = {0}, first = UINT32_MAX, *idx = g->idx, run = 0;
	const uint8_t *tab = g->tab;
	uint8_t *gb = g->gb, cur = 0;
	uint64_t prev = UINT64_MAX;
	for (size_t i = 0; i < n; i++) {
		const struct llct_fp_access *t = &a[i];
		uint32_t sm = sm_of(fp, t->sm);
		if (t->same_skip) {
			uint64_t key = skip_key(t->line, sm);
			if (first != UINT32_MAX && key == prev) {
				gb[i] = SKIPPED;
				continue;
			}
			first = first == UINT32_MAX ? (uint32_t)i : first;
			prev = key;
		}
		uint8_t k = tab[sm];
		gb[i] = k;
		if (k != cur)
			cnt[cur] += run, run = 0, cur = k;
		run++;
	}
	cnt[cur] += run;
	g->first = first;
	g->last = first == UINT32_MAX ? UINT64_MAX : prev;
	for (unsigned k = 0; k < groups; k++)
		g->start[k + 1] = g->start[k] + cnt[k], cnt[k] = g->start[k];
	uint32_t at = cnt[0];
	cur = 0;
	for (size_t i = 0; i < n; i++) {
		uint8_t k = gb[i];
		if (k == SKIPPED)
			continue;
		if (k != cur)
			cnt[cur] = at, at = cnt[k], cur = k;
		idx[at++] = (uint32_t)i;
	}
	return 0;
}

void llct_fp_group_free(struct llct_fp_group *g)
{
	free(g->idx);
	free(g->gb);
	free(g->tab);
	g->idx = NULL, g->gb = NULL, g->tab = NULL, g->cap = 0, g->tab_sms = g->tab_groups = 0;
}

int llct_fp_split_init(struct llct_fp_split *s, const struct llct_fp_access *const *a,
		       const struct llct_fp_group *const *g, const size_t *n, size_t n_batches,
		       uint64_t *out, unsigned groups, const struct llct_fp_batch *b)
{
	if (groups < 1 || groups > 64 || (n_batches && !g))
		return -1;
	for (size_t q = 0; q < n_batches; q++) /* a job reads its group's place in each */
		if (!g[q] || g[q]->groups != groups)
			return -1;
	s->a = a, s->g = g, s->n = n, s->n_batches = n_batches, s->out = out;
	s->groups = groups;
	s->prev = b->prev;
	return 0;
}

/* What SM sm's access t makes through its render cache (llct_fp_touch_rc and llct_fp_miss, but
 * for the records, which the word says): the word; *hit when it hit. */
static uint64_t step(struct llct_fp *fp, const struct llct_fp_access *t, uint32_t sm, int *hit)
{
	uint32_t n = fp->c.rc_lines[t->stream];
	rc_line *rc = fp->rc[t->stream];
	*hit = 0;
	if (!rc || !n || (t->line & 3))
		return OUT_PASS;
	rc_line *e = llct_fp_rc_entry(fp, rc, n, t->line, sm);
	if ((*e & ~(uint64_t)2) == (t->line | 1)) {
		*hit = 1;
		*e |= (uint64_t)t->op << 1;
		return 0;
	}
	uint64_t w = *e & 2 ? (*e & ~(uint64_t)3) | OUT_BACK : 0;
	w |= t->op ? 0 : OUT_READ;
	*e = t->line | 1 | (uint64_t)t->op << 1;
	return w;
}

void llct_fp_split_job(struct llct_fp *fp, struct llct_fp_split *s, unsigned k)
{
	uint64_t prev = s->prev, filtered = 0, tag[8] = {0};
	uint64_t *o = s->out;
	for (size_t q = 0; q < s->n_batches; o += s->n[q], q++) {
		const struct llct_fp_access *a = s->a[q];
		const struct llct_fp_group *g = s->g[q];
		for (uint32_t p = g->start[k]; p < g->start[k + 1]; p++) {
			uint32_t i = g->idx[p];
			const struct llct_fp_access *t = &a[i];
			uint32_t sm = sm_of(fp, t->sm);
			if (i == g->first && skip_key(t->line, sm) == prev)
				continue; /* skipped by the batch before's last */
			int hit;
			o[i] = step(fp, t, sm, &hit);
			filtered += (uint64_t)hit;
			if (t->tag && !hit) /* it missed: an LLC record */
				for (uint32_t b = 0; b < 8; b++)
					tag[b] += t->tag >> b & 1;
		}
		prev = g->last != UINT64_MAX ? g->last : prev;
	}
	s->part[k].filtered = filtered;
	memcpy(s->part[k].tag_misses, tag, sizeof(tag));
}

void llct_fp_split_write(struct llct_fp *fp, const struct llct_fp_split *s, struct llct_fp_batch *b)
{
	uint32_t site = b->site;
	uint64_t prev = b->prev;
	const uint64_t *o = s->out;
	size_t any = 0;
	for (size_t q = 0; q < s->n_batches; o += s->n[q], q++) {
		const struct llct_fp_access *a = s->a[q];
		any |= s->n[q];
		for (size_t i = 0; i < s->n[q]; i++) {
			const struct llct_fp_access *t = &a[i];
			site = t->site;
			uint32_t sm = sm_of(fp, t->sm);
			if (t->same_skip) { /* the skips as the jobs found them, in the same order
					     */
				uint64_t key = skip_key(t->line, sm);
				if (key == prev)
					continue;
				prev = key;
			}
			uint64_t w = o[i];
			if (!w)
				continue;
			if (!(w & 3)) {
				fp->site = site;
				llct_fp_out(fp, t->line, t->stream, t->op, sm);
				continue;
			}
			if (w & OUT_BACK) { /* a write-back names no site */
				fp->site = 0;
				llct_fp_out(fp, w & ~(uint64_t)3, t->stream, LLCT_OP_WRITE, sm);
			}
			fp->site = site;
			if (w & OUT_READ)
				llct_fp_out(fp, t->line, t->stream, LLCT_OP_READ, sm);
		}
	}
	if (any) /* the last access's site, as llct_fp_touch_batch leaves it */
		fp->site = site;
	for (unsigned k = 0; k < s->groups; k++) {
		fp->filtered += s->part[k].filtered;
		for (uint32_t t = 0; t < 8; t++)
			b->tag_misses[t] += s->part[k].tag_misses[t];
	}
	b->prev = prev;
	b->site = site;
}
