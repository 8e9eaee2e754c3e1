/* flow.c - pass-to-pass reuse of one model (--flow): for each line, the kernel and stream that
 * wrote it last; for each read of a consumer stream (TEX, CS) of a line another kernel wrote,
 * one read counted against (frame, producer, consumer, from stream, to stream), and a hit when
 * the model hit. Which lines were written by whom comes from the trace alone, so the reads are
 * the same under every policy; only the hits are the policy's (docs/REPLAY.md, "Pass-to-pass
 * reuse"). The last writers are kept in pages of lines, the rows in an open-addressing table. */
#include "engine.h"

#include <stdlib.h>
#include <string.h>

/* The last writer of each line, in pages of 4,096 lines (a trace's resources lie in runs of
 * pages): kernel + 1 (0: never written) and stream of each line; pages found through an
 * open-addressing directory, the last one used kept aside. */
#define PAGE_LINES 4096u
struct page {
	uint64_t key; /* page number + 1; 0: empty directory slot */
	uint32_t kernel[PAGE_LINES];
	uint8_t stream[PAGE_LINES];
};

struct row_slot {
	struct llct_flow_row r;
	int used;
};

struct llct_flow {
	struct page **dir; /* directory of pages (NULL: empty) */
	size_t dir_cap, dir_n;
	struct page *last; /* the page the last access used */
	struct row_slot *rows;
	size_t rows_cap, rows_n;
	struct llct_flow_row *last_row; /* the row the last counted read went to */
	int failed;                     /* out of memory once: counting stops, the replay fails */
};

static uint64_t mix(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xFF51AFD7ED558CCDu;
	h ^= h >> 33;
	h *= 0xC4CEB9FE1A85EC53u;
	return h ^ (h >> 33);
}

struct llct_flow *llct_flow_create(void)
{
	struct llct_flow *f = calloc(1, sizeof(*f));
	if (!f)
		return NULL;
	f->dir_cap = 1 << 8;
	f->rows_cap = 1 << 8;
	f->dir = calloc(f->dir_cap, sizeof(*f->dir));
	f->rows = calloc(f->rows_cap, sizeof(*f->rows));
	if (!f->dir || !f->rows) {
		llct_flow_free(f);
		return NULL;
	}
	return f;
}

void llct_flow_free(struct llct_flow *f)
{
	if (!f)
		return;
	if (f->dir)
		for (size_t i = 0; i < f->dir_cap; i++)
			free(f->dir[i]);
	free(f->dir);
	free(f->rows);
	free(f);
}

size_t llct_flow_bytes(const struct llct_flow *f)
{
	return f ? f->dir_cap * sizeof(*f->dir) + f->dir_n * sizeof(struct page) +
		       f->rows_cap * sizeof(*f->rows)
		 : 0;
}

static struct page **dir_find(struct page **dir, size_t cap, uint64_t key)
{
	size_t s = (size_t)mix(key) & (cap - 1);
	while (dir[s] && dir[s]->key != key)
		s = (s + 1) & (cap - 1);
	return &dir[s];
}

static int dir_grow(struct llct_flow *f)
{
	size_t cap = 2 * f->dir_cap;
	struct page **d = calloc(cap, sizeof(*d));
	if (!d)
		return -1;
	for (size_t i = 0; i < f->dir_cap; i++)
		if (f->dir[i])
			*dir_find(d, cap, f->dir[i]->key) = f->dir[i];
	free(f->dir);
	f->dir = d;
	f->dir_cap = cap;
	return 0;
}

/* The page of `line`, made if `make` and new; NULL if there is none (or memory ran out). */
static struct page *page_of(struct llct_flow *f, uint64_t line, int make)
{
	uint64_t key = (line / PAGE_LINES) + 1;
	if (f->last && f->last->key == key)
		return f->last;
	struct page **slot = dir_find(f->dir, f->dir_cap, key);
	if (!*slot) {
		if (!make)
			return NULL;
		if (2 * (f->dir_n + 1) > f->dir_cap) {
			if (dir_grow(f))
				return NULL;
			slot = dir_find(f->dir, f->dir_cap, key);
		}
		if (!(*slot = calloc(1, sizeof(struct page))))
			return NULL;
		(*slot)->key = key;
		f->dir_n++;
	}
	return f->last = *slot;
}

static uint64_t row_hash(uint32_t frame, uint32_t producer, uint32_t consumer, unsigned from,
			 unsigned to)
{
	return mix((uint64_t)frame << 40 ^ (uint64_t)producer << 20 ^ consumer ^
		   (uint64_t)(from << 4 | to) << 56);
}

static struct row_slot *row_find(struct row_slot *t, size_t cap, const struct llct_flow_row *k)
{
	size_t s =
	    (size_t)row_hash(k->frame, k->producer, k->consumer, k->from_stream, k->to_stream) &
	    (cap - 1);
	for (;; s = (s + 1) & (cap - 1)) {
		struct llct_flow_row *r = &t[s].r;
		if (!t[s].used || (r->frame == k->frame && r->producer == k->producer &&
				   r->consumer == k->consumer && r->from_stream == k->from_stream &&
				   r->to_stream == k->to_stream))
			return &t[s];
	}
}

static int rows_grow(struct llct_flow *f)
{
	size_t cap = 2 * f->rows_cap;
	struct row_slot *t = calloc(cap, sizeof(*t));
	if (!t)
		return -1;
	for (size_t i = 0; i < f->rows_cap; i++)
		if (f->rows[i].used)
			*row_find(t, cap, &f->rows[i].r) = f->rows[i];
	free(f->rows);
	f->rows = t;
	f->rows_cap = cap;
	f->last_row = NULL; /* it pointed into the old table */
	return 0;
}

int llct_flow_is_consumer(unsigned stream)
{
	return stream == LLCT_STREAM_TEX || stream == LLCT_STREAM_CS;
}

void llct_flow_access(struct llct_flow *f, uint32_t frame, uint32_t kernel, uint64_t line,
		      unsigned stream, int write, int hit)
{
	if (f->failed)
		return;
	uint32_t at = (uint32_t)(line % PAGE_LINES);
	if (write) { /* the line's last writer, whatever the stream */
		struct page *pg = page_of(f, line, 1);
		if (!pg) {
			f->failed = 1;
			return;
		}
		pg->kernel[at] = kernel + 1;
		pg->stream[at] = (uint8_t)stream;
		return;
	}
	if (!llct_flow_is_consumer(stream))
		return;
	const struct page *pg = page_of(f, line, 0);
	if (!pg || !pg->kernel[at] || pg->kernel[at] - 1 == kernel)
		return; /* never written, or the consumer's own output */
	struct llct_flow_row k = {.frame = frame,
				  .producer = pg->kernel[at] - 1,
				  .consumer = kernel,
				  .from_stream = pg->stream[at],
				  .to_stream = (uint8_t)stream};
	struct llct_flow_row *r = f->last_row;
	if (!r || r->frame != k.frame || r->producer != k.producer || r->consumer != k.consumer ||
	    r->from_stream != k.from_stream || r->to_stream != k.to_stream) {
		if (2 * (f->rows_n + 1) > f->rows_cap && rows_grow(f)) {
			f->failed = 1;
			return;
		}
		struct row_slot *rs = row_find(f->rows, f->rows_cap, &k);
		if (!rs->used) {
			rs->used = 1;
			rs->r = k;
			f->rows_n++;
		}
		r = f->last_row = &rs->r;
	}
	r->reads++;
	r->hits += hit != 0;
}

static int by_key(const void *a, const void *b)
{
	const struct llct_flow_row *x = a, *y = b;
	if (x->frame != y->frame)
		return x->frame < y->frame ? -1 : 1;
	if (x->consumer != y->consumer)
		return x->consumer < y->consumer ? -1 : 1;
	if (x->producer != y->producer)
		return x->producer < y->producer ? -1 : 1;
	if (x->from_stream != y->from_stream)
		return (int)x->from_stream - (int)y->from_stream;
	return (int)x->to_stream - (int)y->to_stream;
}

int llct_flow_take(struct llct_flow *f, struct llct_flow_row **rows, size_t *n)
{
	*rows = NULL;
	*n = 0;
	if (f->failed)
		return LLCT_ERR_NOMEM;
	struct llct_flow_row *out = malloc((f->rows_n ? f->rows_n : 1) * sizeof(*out));
	if (!out)
		return LLCT_ERR_NOMEM;
	size_t m = 0;
	for (size_t i = 0; i < f->rows_cap; i++)
		if (f->rows[i].used)
			out[m++] = f->rows[i].r;
	qsort(out, m, sizeof(*out), by_key);
	*rows = out;
	*n = m;
	return LLCT_OK;
}
