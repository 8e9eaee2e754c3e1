/* rooms.c - tier 3's draw-record rooms handed on: a command buffer begun for one submission
 * (ONE_TIME_SUBMIT, as Zink begins every batch) gives its rooms, and the index its records were
 * sorted by, back once its execution has been expanded, and the next recording that sets rooms
 * up takes them. A program that rotates many command buffers (Zink on lavapipe keeps dozens in
 * flight) so reuses a few rooms instead of giving each command buffer its own: each new room was
 * up to hundreds of MB of fresh pages that the device faulted in and the kernel zeroed as the
 * instrumented shaders wrote them, every frame (docs/journal/performance.md, "Tier 3's rooms handed
 * on"). */
#include "instr.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void capture_rooms_give_back(struct capture_device *c, struct cbuf *b)
{
	struct tier3_state *s = c->t3;
	if (!b->one_time || !b->finished || !b->n_frec) /* the device may still write them */
		return;
	/* what its draws wanted sizes the next recordings' rooms (as the scan of every command
	   buffer's rooms at a recording's start would have found) */
	uint32_t t = instr_draw_wanted(b);
	if (t + t / 4 > s->frec_hint)
		s->frec_hint = t + t / 4;
	for (uint32_t j = 0; j < FREC_ROOMS; j++) {
		struct crec *r = &b->frec[j];
		if (!r->buf)
			continue;
		if (s->n_pool < FREC_ROOMS) {
			s->pool[s->n_pool++] = *r;
			memset(r, 0, sizeof(*r));
			continue;
		}
		/* the pool is full: it keeps the largest rooms (the smaller stays with b) */
		uint32_t m = 0;
		for (uint32_t i = 1; i < s->n_pool; i++)
			if (s->pool[i].cap < s->pool[m].cap)
				m = i;
		if (s->pool[m].cap < r->cap) {
			struct crec x = s->pool[m];
			s->pool[m] = *r;
			*r = x;
		}
	}
	b->n_frec = 0;
	if (b->fidx && b->fidx_cap > s->fidx_spare_cap) {
		free(s->fidx_spare);
		s->fidx_spare = b->fidx, s->fidx_spare_cap = b->fidx_cap;
		b->fidx = NULL, b->fidx_cap = 0;
	}
}

int capture_rooms_take(struct capture_device *c, struct cbuf *b, uint32_t j, uint32_t least)
{
	struct tier3_state *s = c->t3;
	uint32_t best = s->n_pool;
	for (uint32_t i = 0; i < s->n_pool; i++) /* the smallest that holds least */
		if (s->pool[i].cap >= least &&
		    (best == s->n_pool || s->pool[i].cap < s->pool[best].cap))
			best = i;
	if (best == s->n_pool)
		return 0;
	b->frec[j] = s->pool[best];
	s->pool[best] = s->pool[--s->n_pool];
	b->frec[j].map[0] = 0, b->frec[j].map[1] = b->frec[j].cap;
	s->rooms_reused++;
	if (s->fidx_spare && s->fidx_spare_cap > b->fidx_cap) { /* the sort index too */
		free(b->fidx);
		b->fidx = s->fidx_spare, b->fidx_cap = s->fidx_spare_cap;
		b->fidx_gen = b->gen - 1; /* holds no execution of b's: sorted afresh */
		s->fidx_spare = NULL, s->fidx_spare_cap = 0;
	}
	return 1;
}

void capture_rooms_note(struct capture_device *c, struct llct_writer *w)
{
	char v[64];
	snprintf(v, sizeof(v), "%llu made, %llu handed on", (unsigned long long)c->t3->rooms_made,
		 (unsigned long long)c->t3->rooms_reused);
	llct_writer_set(w, "capture.tier3_rooms", v);
}

void capture_rooms_free(struct capture_device *c)
{
	struct tier3_state *s = c->t3;
	for (uint32_t i = 0; i < s->n_pool; i++)
		instr_buffer_free(c->dev, &s->pool[i]);
	s->n_pool = 0;
	free(s->fidx_spare);
	s->fidx_spare = NULL, s->fidx_spare_cap = 0;
}
