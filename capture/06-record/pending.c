/* pending.c - the marks async.c keeps on command buffers waiting to be expanded, set, cleared and
 * read through a command buffer and the secondaries it executes (async_init's pending_fn):
 * the record sub-module's, since async.c sees no command buffer's fields. */
#include "async.h"
#include "core.h"
#include "pipes.h"
#include "record.h"
#include "track.h"

/* Marks on command buffer b and the secondaries it executes (two levels deep), for async.c
 * (async_init's pending_fn): set them waiting for job seq, clear those of seq, or give the last
 * job any of them waits for. */
static uint64_t pending_tree(struct capture_device *c, struct cbuf *b, int what, uint64_t seq,
			     int depth)
{
	uint64_t last = 0;
	if (!b)
		return 0;
	if (what == ASYNC_MARK)
		b->pending_seq = seq;
	else if (what == ASYNC_CLEAR && b->pending_seq == seq)
		b->pending_seq = 0;
	else if (what == ASYNC_LAST)
		last = b->pending_seq;
	for (size_t i = 0; b->executes && depth < 2 && i < b->n; i++)
		if (b->cmds[i].op == C_EXECUTE) {
			uint64_t l =
			    pending_tree(c, capture_hmap_get(&c->tr->cbufs, b->cmds[i].u.exec.cb),
					 what, seq, depth + 1);
			last = l > last ? l : last;
		}
	return last;
}

uint64_t capture_cbuf_pending(struct capture_device *c, uint64_t cb, int what, uint64_t seq)
{
	return pending_tree(c, capture_hmap_get(&c->tr->cbufs, cb), what, seq, 0);
}
