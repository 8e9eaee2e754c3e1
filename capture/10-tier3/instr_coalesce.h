/* instr_coalesce.h - what coalescing a subgroup's sample records by their lines would drop
 * (LLCT_CAPTURE_COALESCE_STATS, counted by instr_expand.c): a sample, fetch or gather record is
 * dropped in a group of n lanes when one of the n - 1 records before it (in the draw's record
 * order, within the expansion's window) came from the same site and draw, on the same SM, and
 * touched the same texel lines in the same order, so its own touches would all find their lines
 * in the SM's cache unless one was evicted between the two. With the subgroup reservation a
 * subgroup's records lie together in lane order, so the n - 1 before a record are the lanes
 * before it in its subgroup where they recorded, or the end of the subgroup before: the count
 * is what a coalescer in n-lane subgroups could drop at most. */
#ifndef LLCT_CAPTURE_INSTR_COALESCE_H
#define LLCT_CAPTURE_INSTR_COALESCE_H

#include <stdint.h>
#include <string.h>

#define CO_LANES 32 /* the widest group counted (GPUs' 32-lane subgroups) */

/* What the counts are kept by: samples (fetches, gathers), buffer accesses of fragment and
 * compute shaders, and those of vertex shaders (which lavapipe cannot coalesce: it runs no
 * subgroup operation in the vertex stage). */
enum { CO_SAMPLE, CO_BUFFER, CO_VERTEX };

struct co_ring {
	struct co_entry {
		uint32_t w0, sm, nl; /* the record's first word (site and draw), its SM, lines */
		uint64_t lines[16];
	} e[CO_LANES];
	unsigned n; /* records seen in this window */
};

/* Which groups would drop a record (bit 0: 8 lanes, bit 1: 32), and the record remembered. */
static inline unsigned co_look(struct co_ring *r, uint32_t w0, uint32_t sm, const uint64_t *lines,
			       uint32_t nl)
{
	unsigned got = 0;
	for (unsigned k = 1; k < CO_LANES && k <= r->n; k++) {
		const struct co_entry *o = &r->e[(r->n - k) % CO_LANES];
		if (o->w0 == w0 && o->sm == sm && o->nl == nl &&
		    !memcmp(o->lines, lines, nl * sizeof(*lines))) {
			got = k < 8 ? 3u : 2u;
			break;
		}
	}
	struct co_entry *e = &r->e[r->n++ % CO_LANES];
	e->w0 = w0, e->sm = sm, e->nl = nl > 16 ? 16 : nl;
	memcpy(e->lines, lines, e->nl * sizeof(*lines));
	return got;
}

#endif
