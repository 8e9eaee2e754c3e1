/* kstats.c - per-kernel counters of a replay (--per-kernel): for each frame, kernel and stream,
 * the reads, hits, writes, fills and bypasses, and the lines its fills evicted by their stream,
 * kept in an open-addressing hash table as the model steps each access. */
#include "engine.h"
#include "lines.h"

#include <stdlib.h>
#include <string.h>

struct llct_kstats {
	struct llct_kernel_stats *rows; /* slots; stream 255 marks an empty one */
	size_t cap, n;
	int failed; /* out of memory once: counting stops, the replay fails */
};

#define EMPTY 255

struct llct_kstats *llct_kstats_create(void)
{
	struct llct_kstats *k = calloc(1, sizeof(*k));
	if (!k)
		return NULL;
	k->cap = 1024;
	if (!(k->rows = malloc(k->cap * sizeof(*k->rows)))) {
		free(k);
		return NULL;
	}
	for (size_t i = 0; i < k->cap; i++)
		k->rows[i].stream = EMPTY;
	return k;
}

void llct_kstats_free(struct llct_kstats *k)
{
	if (k)
		free(k->rows);
	free(k);
}

static size_t slot_of(uint32_t frame, uint32_t kernel, unsigned stream, size_t cap)
{
	uint64_t h = ((uint64_t)frame * 0x9E3779B97F4A7C15u) ^ ((uint64_t)kernel << 4 | stream);
	h *= 0xBF58476D1CE4E5B9u;
	return (size_t)(h >> 32) & (cap - 1);
}

static int grow(struct llct_kstats *k)
{
	size_t cap = 2 * k->cap;
	struct llct_kernel_stats *rows = malloc(cap * sizeof(*rows));
	if (!rows)
		return -1;
	for (size_t i = 0; i < cap; i++)
		rows[i].stream = EMPTY;
	for (size_t i = 0; i < k->cap; i++) {
		const struct llct_kernel_stats *r = &k->rows[i];
		if (r->stream == EMPTY)
			continue;
		size_t s = slot_of(r->frame, r->kernel, r->stream, cap);
		while (rows[s].stream != EMPTY)
			s = (s + 1) & (cap - 1);
		rows[s] = *r;
	}
	free(k->rows);
	k->rows = rows;
	k->cap = cap;
	return 0;
}

/* The row of (frame, kernel, stream), made if new; NULL once memory ran out. */
static struct llct_kernel_stats *row_of(struct llct_kstats *k, uint32_t frame, uint32_t kernel,
					unsigned stream)
{
	if (k->failed)
		return NULL;
	if (2 * (k->n + 1) > k->cap && grow(k)) {
		k->failed = 1;
		return NULL;
	}
	size_t s = slot_of(frame, kernel, stream, k->cap);
	for (;; s = (s + 1) & (k->cap - 1)) {
		struct llct_kernel_stats *r = &k->rows[s];
		if (r->stream == EMPTY) {
			memset(r, 0, sizeof(*r));
			r->frame = frame;
			r->kernel = kernel;
			r->stream = (uint8_t)stream;
			k->n++;
			return r;
		}
		if (r->frame == frame && r->kernel == kernel && r->stream == stream)
			return r;
	}
}

void llct_kstats_evicted(struct llct_kstats *k, uint32_t frame, uint32_t kernel, unsigned stream,
			 unsigned owner, int dirty)
{
	struct llct_kernel_stats *r = row_of(k, frame, kernel, stream);
	if (r) {
		r->evicted[owner]++;
		r->writebacks += dirty != 0;
	}
}

void llct_kstats_sectors(struct llct_kstats *k, uint32_t frame, uint32_t kernel, unsigned so,
			 int sector_miss, uint32_t writeback_sectors)
{
	struct llct_kernel_stats *r = row_of(k, frame, kernel, so & 15);
	if (!r)
		return;
	if (sector_miss) { /* the step counted a hit */
		*(so >> 4 & 1 ? &r->write_hits : &r->read_hits) -= 1;
		r->sector_fills++;
	}
	r->writeback_sectors += writeback_sectors;
}

void llct_kstats_count(struct llct_kstats *k, uint32_t frame, uint32_t kernel, unsigned ev)
{
	struct llct_kernel_stats *r = row_of(k, frame, kernel, LLCT_EV_S(ev));
	if (!r)
		return;
	/* the same rules as llct_event_count's, for the counters kept per kernel */
	int write = LLCT_EV_OP(ev) != 0;
	*(write ? &r->writes : &r->reads) += 1;
	if (llct_ev_is_bypass(ev)) {
		*(write ? &r->bypass_writes : &r->bypass_reads) += 1;
	} else if (llct_ev_is_hit(ev)) {
		*(write ? &r->write_hits : &r->read_hits) += 1;
	} else {
		unsigned f = ev - LLCT_EV_FILL;
		r->fills++;
		if (f >> 5 & 1) {
			r->evicted[f >> 6 & 15]++;
			r->writebacks += f >> 10 & 1;
		}
	}
}

static int by_key(const void *a, const void *b)
{
	const struct llct_kernel_stats *x = a, *y = b;
	if (x->frame != y->frame)
		return x->frame < y->frame ? -1 : 1;
	if (x->kernel != y->kernel)
		return x->kernel < y->kernel ? -1 : 1;
	return (int)x->stream - (int)y->stream;
}

int llct_kstats_take(struct llct_kstats *k, struct llct_kernel_stats **rows, size_t *n)
{
	*rows = NULL;
	*n = 0;
	if (k->failed)
		return LLCT_ERR_NOMEM;
	struct llct_kernel_stats *out = malloc((k->n ? k->n : 1) * sizeof(*out));
	if (!out)
		return LLCT_ERR_NOMEM;
	size_t m = 0;
	for (size_t i = 0; i < k->cap; i++)
		if (k->rows[i].stream != EMPTY)
			out[m++] = k->rows[i];
	qsort(out, m, sizeof(*out), by_key);
	*rows = out;
	*n = m;
	return LLCT_OK;
}
