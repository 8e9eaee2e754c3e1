/* flow.c - pass-to-pass reuse of one model (--flow): for each line, the kernel and stream that
 * wrote it last; for each read of a consumer stream (TEX, CS) of a line another kernel wrote,
 * one read counted against (frame, producer, consumer, from stream, to stream), and a hit when
 * the model hit. Which lines were written by whom comes from the trace alone, so the reads are
 * the same under every policy; only the hits are the policy's (docs/REPLAY.md, "Pass-to-pass
 * reuse"). Two open-addressing tables: lines (the last writer) and rows (the counts). */
#include "engine.h"

#include <stdlib.h>
#include <string.h>

struct line_slot {
	uint64_t key;    /* line + 1; 0: empty */
	uint32_t kernel; /* the last write's kernel and stream */
	uint8_t stream;
};

struct row_slot {
	struct llct_flow_row r;
	int used;
};

struct llct_flow {
	struct line_slot *lines;
	size_t lines_cap, lines_n;
	struct row_slot *rows;
	size_t rows_cap, rows_n;
	int failed; /* out of memory once: counting stops, the replay fails */
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
	f->lines_cap = 1 << 12;
	f->rows_cap = 1 << 8;
	f->lines = calloc(f->lines_cap, sizeof(*f->lines));
	f->rows = calloc(f->rows_cap, sizeof(*f->rows));
	if (!f->lines || !f->rows) {
		llct_flow_free(f);
		return NULL;
	}
	return f;
}

void llct_flow_free(struct llct_flow *f)
{
	if (!f)
		return;
	free(f->lines);
	free(f->rows);
	free(f);
}

size_t llct_flow_bytes(const struct llct_flow *f)
{
	return f ? f->lines_cap * sizeof(*f->lines) + f->rows_cap * sizeof(*f->rows) : 0;
}

static struct line_slot *line_find(struct line_slot *t, size_t cap, uint64_t key)
{
	size_t s = (size_t)mix(key) & (cap - 1);
	while (t[s].key && t[s].key != key)
		s = (s + 1) & (cap - 1);
	return &t[s];
}

static int lines_grow(struct llct_flow *f)
{
	size_t cap = 2 * f->lines_cap;
	struct line_slot *t = calloc(cap, sizeof(*t));
	if (!t)
		return -1;
	for (size_t i = 0; i < f->lines_cap; i++)
		if (f->lines[i].key)
			*line_find(t, cap, f->lines[i].key) = f->lines[i];
	free(f->lines);
	f->lines = t;
	f->lines_cap = cap;
	return 0;
}

static uint64_t row_hash(uint32_t frame, uint32_t producer, uint32_t consumer, unsigned from,
			 unsigned to)
{
	return mix((uint64_t)frame << 40 ^ (uint64_t)producer << 20 ^ consumer ^
		   (uint64_t)(from << 4 | to) << 56);
}

static struct row_slot *row_find(struct row_slot *t, size_t cap, const struct llct_flow_row *k)
{
	size_t s = (size_t)row_hash(k->frame, k->producer, k->consumer, k->from_stream,
				    k->to_stream) &
		   (cap - 1);
	for (;; s = (s + 1) & (cap - 1)) {
		struct llct_flow_row *r = &t[s].r;
		if (!t[s].used ||
		    (r->frame == k->frame && r->producer == k->producer &&
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
	if (write) { /* the line's last writer, whatever the stream */
		if (2 * (f->lines_n + 1) > f->lines_cap && lines_grow(f)) {
			f->failed = 1;
			return;
		}
		struct line_slot *s = line_find(f->lines, f->lines_cap, line + 1);
		f->lines_n += !s->key;
		s->key = line + 1;
		s->kernel = kernel;
		s->stream = (uint8_t)stream;
		return;
	}
	if (!llct_flow_is_consumer(stream))
		return;
	const struct line_slot *s = line_find(f->lines, f->lines_cap, line + 1);
	if (!s->key || s->kernel == kernel) /* never written, or the consumer's own output */
		return;
	if (2 * (f->rows_n + 1) > f->rows_cap && rows_grow(f)) {
		f->failed = 1;
		return;
	}
	struct llct_flow_row k = {.frame = frame,
				  .producer = s->kernel,
				  .consumer = kernel,
				  .from_stream = s->stream,
				  .to_stream = (uint8_t)stream};
	struct row_slot *r = row_find(f->rows, f->rows_cap, &k);
	if (!r->used) {
		r->used = 1;
		r->r = k;
		f->rows_n++;
	}
	r->r.reads++;
	r->r.hits += hit != 0;
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
