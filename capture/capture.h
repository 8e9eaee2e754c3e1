/* capture.h - private to capture/: the device record (struct capture_device: the one lock, the
 * tracked objects' maps, the writer, the tiers' settings, the walk) over the sub-module headers
 * below it, which each see only those under them: core.h (handle map, logging, failure) <
 * track.h (memory, buffers, images, passes) < pipes.h (shaders, pipelines, descriptors) <
 * record.h (shadow command lists, queries) < output.h (the trace) < walk.h (expansion); the
 * tiers' own headers (tier2/tier2.h, tier3/instr.h) sit above it, seen by the tiers and
 * device.c alone (the rest reaches a tier through tier.h's table). A
 * check in the tests (tests/check_layers.sh) keeps that order, every header under 300 lines
 * and the calls between sub-modules free of loops (docs/CAPTURE.md). Nothing here is seen outside
 * the layer; the loader plumbing is layer.h. */
#ifndef LLCT_CAPTURE_CAPTURE_H
#define LLCT_CAPTURE_CAPTURE_H

#include "async.h"
#include "layer.h"
#include "llct/footprint.h"
#include "llct/trace.h"
#include "llct_intercepts.h"
#include "settings.h"
#include "tier.h"

#include "core.h"
#include "output.h"
#include "pipes.h"
#include "record.h"
#include "submit.h"
#include "track.h"
#include "walk.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

/* Everything the layer knows of one device. One lock for all of it, never held while
 * calling down the chain. */
struct capture_device {
	pthread_mutex_t lock;
	struct layer_device *dev;
	/* the sub-modules' state, each declared by its own header */
	struct track tr;         /* memory, buffers, images, views, samplers, passes (track.h) */
	struct pipes_state ps;   /* shaders, pipelines, descriptor layouts and sets (pipes.h) */
	struct record_state rs;  /* shadow command lists, the layer's counts (record.h) */
	struct output_state out; /* frames chosen, the writer and model, ids (output.h) */
	struct walk walk;        /* the expansion's walk through a submission (walk.h) */
	struct submit_state sub; /* frame boundaries, fences, the time account (submit.h) */
	struct async_state as;   /* the expansion thread's queue and turns (async.h) */
	const struct tier_ops *tier; /* the tier (tier.h) */
	/* the tiers' own state, which only their files and device.c see (tier2/tier2.h,
	   tier3/instr.h); made with the record by device.c */
	struct tier2_state *t2;
	struct tier3_state *t3;
	/* where the device is, read by every sub-module */
	/* atomic: cap_fail may set failed from the expansion thread while it runs a draw without
	 * the lock (async_draw_begin), where another thread reads it with it; in_frame: the
	 * writer has the frame being expanded open (frames.c) */
	_Atomic int failed, in_frame;
	uint32_t frame;     /* the frame being expanded */
	uint32_t rec_frame; /* the frame recordings are in (`frame` may lag: async.c) */
	uint32_t max_sets, n_sms;
	/* what the rest of the layer reads of the tier's settings */
	int xfb;                /* tier 2: transform feedback is on: shadow pipelines and draws */
	int tier3;              /* tier 3: compute pipelines get instrumented twins */
	int frag_instr;         /* tier 3 instruments fragment (and vertex) shaders */
	uint32_t twin_lead;     /* tier 3: twins only in recordings this close to a frame to
				   capture (LLCT_CAPTURE_TWIN_LEAD; UINT32_MAX: any) */
	uint64_t twins_outside; /* tier 3: submissions outside the frames captured that ran twins */
	uint32_t frec_scanned;  /* tier 3: frame + 1 in which the command buffers were last looked
				   at for room (submit.c starts it again) */
};

/* Records a command with the device lock held; the call down the chain happens before, outside
 * it. FILL sees `m`, the new command, and `c_`, the device. */
#define RECORD(cb, OP, FILL)                                                                       \
	do {                                                                                       \
		struct capture_device *c_ = cap_of(cb, NULL);                                      \
		if (!c_)                                                                           \
			break;                                                                     \
		pthread_mutex_lock(&c_->lock);                                                     \
		struct cmd *m = c_->failed ? NULL : capture_record(c_, cb, OP);                    \
		if (m) {                                                                           \
			FILL;                                                                      \
		}                                                                                  \
		pthread_mutex_unlock(&c_->lock);                                                   \
	} while (0)

#endif
