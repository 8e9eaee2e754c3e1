/* block.h - private to capture/: the device record and its sub-modules' states as one block,
 * zeroed and wired together: device.c makes each device's so (one allocation, freed with the
 * record, its first member), and capture's unit tests make theirs on the stack. */
#ifndef LLCT_CAPTURE_BLOCK_H
#define LLCT_CAPTURE_BLOCK_H

#include "async.h"
#include "core.h"
#include "output.h"
#include "pipes.h"
#include "record.h"
#include "submit.h"
#include "track.h"
#include "walk.h"

#include <string.h>

struct capture_block {
	struct capture_device c;
	struct track tr;
	struct pipes_state ps;
	struct async_state as;
	struct output_state out;
	struct record_state rs;
	struct walk walk;
	struct submit_state sub;
};

/* Zeroes k and points its record at its states; returns the record. */
static inline struct capture_device *capture_block_init(struct capture_block *k)
{
	memset(k, 0, sizeof(*k));
	k->c.tr = &k->tr, k->c.ps = &k->ps, k->c.as = &k->as, k->c.out = &k->out;
	k->c.rs = &k->rs, k->c.walk = &k->walk, k->c.sub = &k->sub;
	return &k->c;
}

#endif
