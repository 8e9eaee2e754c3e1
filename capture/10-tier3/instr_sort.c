/* instr_sort.c - tier 3's draw records of a command buffer's execution put in draw order: the
 * rooms' records read in chunks, each chunk's runs of one draw found on the crew's threads side
 * by side, then the runs (not the records) sorted by draw on the expansion's thread. */
#include "instr.h"
#include "instr_crew.h"

#include <stdlib.h>
#include <string.h>

/* A chunk of room j's records [i0, i1), and the runs of one draw found in it: draw (nd: a
 * record of no draw of that room), start, length, records less prefixes (4 words a run). */
struct chunk {
	uint32_t j, i0, i1;
	uint32_t *runs;
	size_t n_runs, cap;
	int oom;
	double secs;
};

struct sort_ctx {
	const struct cbuf *b;
	struct chunk *ch;
};

static void chunk_runs(const struct cbuf *b, struct chunk *k)
{
	const uint32_t *map = b->frec[k->j].map;
	uint32_t nd = b->n_draws, R = b->n_frec, cur = UINT32_MAX;
	for (uint32_t i = k->i0; i < k->i1; i++) {
		uint32_t w = map[2 + 5 * (size_t)i], dr = w >> 12;
		uint32_t d = dr < nd && dr % R == k->j ? dr : nd;
		uint32_t rec = (w & 4095) != LLCT_SPIRV_PREFIX_SITE;
		if (d == cur) {
			k->runs[4 * k->n_runs - 2]++;
			k->runs[4 * k->n_runs - 1] += rec;
			continue;
		}
		if (k->n_runs == k->cap) {
			size_t cap = k->cap                ? 2 * k->cap
				     : k->i1 - k->i0 < 256 ? k->i1 - k->i0
							   : 256;
			uint32_t *g = realloc(k->runs, cap * 4 * sizeof(*g));
			if (!g) {
				k->oom = 1;
				return;
			}
			k->runs = g, k->cap = cap;
		}
		uint32_t *r = &k->runs[4 * k->n_runs++];
		r[0] = d, r[1] = i, r[2] = 1, r[3] = rec;
		cur = d;
	}
}

static void chunk_job(void *ctx, unsigned k)
{
	struct sort_ctx *x = ctx;
	double t0 = capture_mono_s();
	chunk_runs(x->b, &x->ch[k]);
	x->ch[k].secs = capture_mono_s() - t0;
}

/* The chunks of b's rooms' kept records, in room order, of `chunk` records (NULL: out of
 * memory). */
static struct chunk *chunks_of(const struct cbuf *b, uint64_t chunk, unsigned *n_ch)
{
	size_t n = 0;
	for (uint32_t j = 0; j < b->n_frec; j++)
		n +=
		    (size_t)(((uint64_t)b->frec[j].map[0] / 5 - instr_room_lost(b, j) + chunk - 1) /
			     chunk);
	struct chunk *ch = calloc(n ? n : 1, sizeof(*ch));
	if (!ch)
		return NULL;
	n = 0;
	for (uint32_t j = 0; j < b->n_frec; j++) {
		uint64_t e = b->frec[j].map[0] / 5 - instr_room_lost(b, j);
		for (uint64_t i = 0; i < e; i += chunk, n++)
			ch[n].j = j, ch[n].i0 = (uint32_t)i,
			ch[n].i1 = (uint32_t)(e - i > chunk ? i + chunk : e);
	}
	*n_ch = (unsigned)n;
	return ch;
}

/* b->fidx from the chunks' runs: a run that goes on from the last chunk of its room is one. */
static int runs_by_draw(struct cbuf *b, struct chunk *ch, unsigned n_ch)
{
	uint32_t nd = b->n_draws;
	size_t n_runs = 0;
	for (unsigned k = 0; k < n_ch; k++) /* a chunk's first run joins its room's last */
		if (ch[k].n_runs && k && ch[k - 1].j == ch[k].j && ch[k - 1].n_runs &&
		    ch[k - 1].runs[4 * (ch[k - 1].n_runs - 1)] == ch[k].runs[0]) {
			uint32_t *last = &ch[k - 1].runs[4 * (ch[k - 1].n_runs - 1)];
			ch[k].runs[1] = last[1], ch[k].runs[2] += last[2], ch[k].runs[3] += last[3];
			last[0] = UINT32_MAX; /* gone: taken into the next chunk's */
		}
	uint32_t *cnt = calloc((size_t)nd + 1, 2 * sizeof(*cnt)); /* runs, then records, a draw */
	if (!cnt)
		return -1;
	for (unsigned k = 0; k < n_ch; k++)
		for (size_t q = 0; q < ch[k].n_runs; q++) {
			const uint32_t *r = &ch[k].runs[4 * q];
			if (r[0] == UINT32_MAX)
				continue;
			cnt[r[0]]++;
			cnt[nd + 1 + r[0]] += r[3];
			n_runs++;
		}
	/* kept from one execution to the next (and handed on with the rooms, rooms.c) */
	size_t need = 2 * ((size_t)nd + 2) + 2 * n_runs;
	if (need > b->fidx_cap || !b->fidx) {
		free(b->fidx);
		b->fidx_cap = 0;
		if (!(b->fidx = malloc((need + need / 4) * sizeof(uint32_t)))) {
			free(cnt);
			return -1;
		}
		b->fidx_cap = need + need / 4;
	}
	uint32_t *off = b->fidx, *recs = b->fidx + nd + 2, *sorted = recs + nd + 1;
	off[0] = 0;
	for (uint32_t d = 0; d <= nd; d++) {
		off[d + 1] = off[d] + cnt[d];
		cnt[d] = off[d]; /* where draw d's next run goes */
		recs[d] = cnt[nd + 1 + d];
	}
	for (unsigned k = 0; k < n_ch; k++)
		for (size_t q = 0; q < ch[k].n_runs; q++) {
			const uint32_t *r = &ch[k].runs[4 * q];
			if (r[0] == UINT32_MAX)
				continue;
			uint32_t at = cnt[r[0]]++;
			sorted[2 * (size_t)at] = r[1];
			sorted[2 * (size_t)at + 1] = r[2];
		}
	free(cnt);
	return 0;
}

int instr_sort_records(struct capture_device *c, struct cbuf *b)
{
	if (b->fidx && b->fidx_gen == b->gen)
		return 0;
	/* a job reads 16 x LLCT_CAPTURE_SPLIT_MIN records (262,144 unless set) */
	uint32_t split_min = c && c->t3->split_min ? c->t3->split_min : 16384;
	unsigned n_ch = 0;
	struct chunk *ch = chunks_of(b, 16 * (uint64_t)split_min, &n_ch);
	if (!ch)
		return -1;
	struct instr_crew *crew = c ? instr_expand_crew(c) : NULL;
	struct sort_ctx x = {b, ch};
	if (crew && n_ch > 1) {
		instr_crew_post(crew, chunk_job, &x, n_ch);
		instr_crew_finish(crew);
		instr_expand_account(c);
	} else {
		for (unsigned k = 0; k < n_ch; k++)
			chunk_job(&x, k);
	}
	int oom = 0;
	for (unsigned k = 0; k < n_ch; k++) {
		oom |= ch[k].oom;
		if (c && n_ch > 1 && crew)
			c->t3->split_s += ch[k].secs;
	}
	int st = oom ? -1 : runs_by_draw(b, ch, n_ch);
	for (unsigned k = 0; k < n_ch; k++)
		free(ch[k].runs);
	free(ch);
	if (st)
		return -1;
	b->fidx_gen = b->gen;
	uint32_t kept = 0, lost = 0;
	for (uint32_t j = 0; j < b->n_frec; j++) {
		kept += b->frec[j].map[0] / 5 - instr_room_lost(b, j);
		lost += instr_room_lost(b, j);
	}
	if (lost) { /* said once an execution, and room for all of them next time */
		uint32_t total = kept + lost;
		b->frec_need = total + total / 4;
		cap_log("a command buffer's draws recorded %u texture and buffer accesses, %u with "
			"no room (lost; their draws' rows say so); the next recording gets room",
			total, lost);
	}
	return 0;
}
