/* nextuse.c - the next use of each access, for Belady's models: the pass over the trace that
 * indexes every access of a full replay, and the next uses within a set-sampled list kept whole.
 */
#include "engine.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- next-use pass: line address -> index of its last access so far ----
 * Traces walk surfaces, so lines come in runs of neighbours: a small hash table of 1024-line
 * pages, each page a direct array, keeps the lookups in cache where a hash per line would
 * miss to memory on almost every access. */
#define PAGE_BITS 10
#define PAGE_LINES (1u << PAGE_BITS)

struct line_map {
	uint64_t *page_no; /* page number + 1, 0 = empty slot */
	uint32_t **page;   /* PAGE_LINES last indices, NU_NONE = not seen */
	size_t cap, n;
	uint64_t last_no; /* one-entry cache of the last page looked up */
	uint32_t *last;
};

static int map_grow(struct line_map *m)
{
	size_t cap = m->cap ? m->cap * 2 : 1024;
	uint64_t *k = calloc(cap, sizeof(*k));
	uint32_t **v = calloc(cap, sizeof(*v));
	if (!k || !v) {
		free(k);
		free(v);
		return LLCT_ERR_NOMEM;
	}
	for (size_t i = 0; i < m->cap; i++) {
		if (!m->page_no[i])
			continue;
		size_t h = (size_t)((m->page_no[i] * 0x9e3779b97f4a7c15ull) >> 20) & (cap - 1);
		while (k[h])
			h = (h + 1) & (cap - 1);
		k[h] = m->page_no[i];
		v[h] = m->page[i];
	}
	free(m->page_no);
	free(m->page);
	m->page_no = k;
	m->page = v;
	m->cap = cap;
	return LLCT_OK;
}

/* The page holding `line`, created if needed; NULL when out of memory. */
static uint32_t *map_page(struct line_map *m, uint64_t line)
{
	uint64_t key = (line >> PAGE_BITS) + 1;
	if (key == m->last_no)
		return m->last;
	if (m->n * 2 >= m->cap && map_grow(m))
		return NULL;
	size_t h = (size_t)((key * 0x9e3779b97f4a7c15ull) >> 20) & (m->cap - 1);
	while (m->page_no[h] && m->page_no[h] != key)
		h = (h + 1) & (m->cap - 1);
	if (!m->page_no[h]) {
		uint32_t *p = malloc(PAGE_LINES * sizeof(*p));
		if (!p)
			return NULL;
		for (unsigned i = 0; i < PAGE_LINES; i++)
			p[i] = NU_NONE;
		m->page_no[h] = key;
		m->page[h] = p;
		m->n++;
	}
	m->last_no = key;
	m->last = m->page[h];
	return m->last;
}

static void map_release(struct line_map *m)
{
	for (size_t i = 0; i < m->cap; i++)
		free(m->page[i]);
	free(m->page_no);
	free(m->page);
}

/* The next-use pass's state, shared by the thread that decodes and the one that indexes. */
struct nu_pass {
	struct line_map m;
	uint32_t *next;
	uint64_t idx, total; /* accesses indexed so far; accesses the frames hold */
	unsigned shift;      /* line size, log2 */
	int ucd;
	int failed; /* LLCT_ERR_NOMEM, or LLCT_ERR_CORRUPT: more records than the index says */
	const struct window *win; /* to index next */
	pthread_barrier_t start, done;
	int quit;
};

/* Gives each access of the window the index of its line's previous access (the map holds each
 * line's last index so far). */
static void nu_index(struct nu_pass *p, const struct window *w)
{
	for (unsigned k = 0; k < w->n && !p->failed; k++) {
		const struct llct_batch *b = &w->b[k];
		for (uint32_t i = 0; i < b->n; i++) {
			if (p->ucd && b->stream[i] == LLCT_STREAM_DISP)
				continue;
			uint64_t line = b->addr[i] >> p->shift;
			uint32_t *page = p->idx < p->total ? map_page(&p->m, line) : NULL;
			if (!page) {
				p->failed = p->idx < p->total ? LLCT_ERR_NOMEM : LLCT_ERR_CORRUPT;
				return;
			}
			uint32_t *slot = &page[line & (PAGE_LINES - 1)];
			p->next[p->idx] = *slot;
			*slot = (uint32_t)p->idx++;
		}
	}
}

static void *nu_worker(void *arg)
{
	LLCT_THREAD_NAME("llct-nextuse");
	struct nu_pass *p = arg;
	for (;;) {
		pthread_barrier_wait(&p->start);
		if (p->quit)
			return NULL;
		nu_index(p, p->win);
		pthread_barrier_wait(&p->done);
	}
}

/* Decodes up to WINDOW batches into w; returns the cursor status. */
static int decode_window(struct llct_cursor *cur, struct window *w)
{
	int got = 1;
	w->n = 0;
	while (w->n < WINDOW && (got = llct_cursor_next_into(cur, &w->b[w->n])) > 0)
		w->n++;
	return got;
}

/* Front to back, each slot gets the index of its line's previous access, a second thread
 * indexing one window of decoded batches while this one decodes the next (in win[2]); then,
 * again front to back and in place, each access writes its own index into its previous
 * access's slot, after clearing its own: a slot read at step i was written by no step before
 * i, and the step that writes it, its line's next access, comes after. Those writes land a
 * reuse distance back, mostly still in cache. */
int llct_next_use_pass(struct llct_reader *r, const struct llct_replay_options *o, uint64_t total,
		       struct window *win, uint32_t **out, char *err, size_t err_size)
{
	struct llct_cursor *cur;
	struct nu_pass p;
	struct llct_prefault pf;
	pthread_t helper;
	int got, st = LLCT_OK, threaded = 0, at = 0;
	*out = NULL;
	if (total > NU_MAX) {
		snprintf(err, err_size,
			 "'%s': %llu accesses selected, more than the %llu a next-use index "
			 "(Belady) takes; select fewer frames with --frames",
			 llct_reader_path(r), (unsigned long long)total,
			 (unsigned long long)NU_MAX);
		return LLCT_ERR_INVALID;
	}
	memset(&p, 0, sizeof(p));
	p.total = total;
	p.ucd = o->cache.ucd;
	while ((1u << p.shift) < o->cache.line)
		p.shift++;
	p.next = llct_big_alloc((size_t)(total ? total : 1) * sizeof(uint32_t));
	if (!p.next || map_grow(&p.m)) {
		free(p.next);
		map_release(&p.m);
		snprintf(err, err_size, "'%s': out of memory for the next-use pass",
			 llct_reader_path(r));
		return LLCT_ERR_NOMEM;
	}
	llct_prefault_start(&pf, p.next, (size_t)total * sizeof(uint32_t));
	if ((st = llct_cursor_open(r, o->frames, &cur))) {
		snprintf(err, err_size, "%s", llct_reader_error(r));
		goto out;
	}
	pthread_barrier_init(&p.start, NULL, 2);
	pthread_barrier_init(&p.done, NULL, 2);
	threaded = pthread_create(&helper, NULL, nu_worker, &p) == 0;
	got = decode_window(cur, &win[0]);
	while (win[at].n > 0 && !p.failed) {
		int more = got > 0;
		p.win = &win[at];
		win[1 - at].n = 0;
		if (threaded) {
			pthread_barrier_wait(&p.start);
			if (more)
				got = decode_window(cur, &win[1 - at]);
			pthread_barrier_wait(&p.done);
		} else {
			nu_index(&p, &win[at]);
			if (more)
				got = decode_window(cur, &win[1 - at]);
		}
		if (got < 0)
			break;
		at = 1 - at;
	}
	if (threaded) {
		p.quit = 1;
		pthread_barrier_wait(&p.start);
		pthread_join(helper, NULL);
	}
	pthread_barrier_destroy(&p.start);
	pthread_barrier_destroy(&p.done);
	llct_prefault_stop(&pf);
	if (!p.failed && got >= 0)
		for (uint64_t i = 0; i < p.idx; i++) {
			uint32_t prev = p.next[i];
			p.next[i] = NU_NONE;
			if (prev != NU_NONE)
				p.next[prev] = (uint32_t)i;
		}
	if (p.failed || got < 0) {
		st = p.failed ? p.failed : got;
		if (st == LLCT_ERR_NOMEM)
			snprintf(err, err_size, "'%s': out of memory in the next-use pass",
				 llct_reader_path(r));
		else if (p.failed)
			snprintf(err, err_size, "'%s': more records than the frame index says",
				 llct_reader_path(r));
		else
			snprintf(err, err_size, "%s", llct_reader_error(r));
	}
	llct_cursor_close(cur);
out:
	llct_prefault_stop(&pf);
	map_release(&p.m);
	if (st)
		free(p.next);
	else
		*out = p.next;
	return st;
}

int llct_sample_store_next_uses(struct llct_sample_store *s, unsigned line_shift, int ucd)
{
	struct line_map m;
	memset(&m, 0, sizeof(m));
	free(s->next);
	s->next = llct_big_alloc(s->n * sizeof(*s->next));
	if (!s->next || map_grow(&m)) {
		map_release(&m);
		return LLCT_ERR_NOMEM;
	}
	/* back to front: each line's slot holds its next entry so far */
	for (size_t i = s->n; i-- > 0;) {
		const struct llct_sample_entry *e = &s->e[i];
		s->next[i] = LLCT_NEVER;
		if (ucd && (e->so & 15) == LLCT_STREAM_DISP)
			continue; /* bypasses the LLC: nobody's next use */
		uint64_t line = e->addr >> line_shift;
		uint32_t *page = map_page(&m, line);
		if (!page) {
			map_release(&m);
			return LLCT_ERR_NOMEM;
		}
		uint32_t *slot = &page[line & (PAGE_LINES - 1)];
		if (*slot != NU_NONE)
			s->next[i] = *slot;
		*slot = (uint32_t)i;
	}
	map_release(&m);
	return LLCT_OK;
}
