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
	struct track tr;       /* the memory, buffers, images, views, samplers, passes (track.h) */
	struct pipes_state ps; /* shaders, pipelines, descriptor layouts and sets (pipes.h) */
	struct hmap cbufs, swaps;
	uint64_t next_addr, next_id;
	uint64_t next_meta_addr; /* where the next HiZ buffer goes */
	uint64_t next_push;      /* pushed sets live in the set map under keys no handle has */
	struct llct_writer *w;
	struct llct_fp *fp;
	struct llct_frame_range frames;
	int all_frames, boundary_submit, boundary_label, frame_is_open, boundary_auto, presenting,
	    rdc, rdc_pending, rdc_exit, exit_after, bounded;
	/* atomic: cap_fail may set them from the expansion thread while it runs a draw without
	 * the lock (async_draw_begin), where another thread reads them with it */
	_Atomic int failed, in_frame;
	char boundary_name[64]; /* label boundary: a debug label with this name starts a frame */
	uint32_t last_frame;    /* last frame of a bounded range (bounded) */
	uint32_t captured;      /* frames written */
	double t_start, t_log;  /* progress: when capture began, when it last said so */
	FILE *times;            /* LLCT_CAPTURE_TIMES: each frame's end, for timing a program */
	uint32_t frame, kernel;
	uint32_t rec_frame;    /* the frame recordings are in (`frame` may lag: async.c) */
	struct async_state as; /* async.h */
	pthread_mutex_t wmu;   /* the writer's calls (records come without the lock) */
	struct hmap site_ids;  /* under wmu: a pipeline's id -> the trace's number of its first
				  instrumented site (frames.c: trace_sites) */
	uint32_t next_site;    /* under wmu: the next number free (0 is no site) */
	char path[1024];
	struct walk walk; /* the expansion's walk through a submission (walk.h) */
	const struct tier_ops *tier;
	uint64_t records;
	/* per-draw counts: the kind of query (VK_QUERY_TYPE_OCCLUSION, precise, or
	 * ..._PIPELINE_STATISTICS for fragment shader invocations) and whether they are in use;
	 * the layer's fences for waiting on captured submissions (free ones, under the lock:
	 * each wait takes its own, so none is held across it) */
	int stats, stats_off;
	VkQueryType count_query;
	VkFence fences[8];
	int n_fences;
	/* where the layer's time goes (under the lock): seconds spent waiting for captured
	 * submissions and reading their counts (read_fragments), and expanding submissions into
	 * records (expand_submission, rasterizing included); noted in the trace (capture.seconds.*)
	 * and LLCT_CAPTURE_TIMES */
	double t_wait, t_expand;
	struct hmap qpools; /* the program's query pools: their VkQueryType + 1 */
	VkMemoryPropertyFlags mem_flags[VK_MAX_MEMORY_TYPES];
	/* tier 2 */
	int xfb;   /* transform feedback is on: shadow pipelines and draws */
	int tier3; /* compute pipelines get instrumented twins (instr.c) */
	uint32_t max_sets, n_sms;
	uint32_t frec_scanned;  /* tier 3: frame + 1 in which the command buffers were last looked
				   at for room (submit.c starts it again) */
	uint32_t twin_lead;     /* tier 3: twins only in recordings this close to a frame to
				   capture (LLCT_CAPTURE_TWIN_LEAD; UINT32_MAX: any) */
	uint64_t twins_outside; /* submissions outside the frames captured that ran twins */
	int frag_instr;         /* tier 3 instruments fragment (and vertex) shaders */
	int instrument;         /* recordings now get shadow draws (captured frames may run them) */
	/* the tiers' own state, which only their files and device.c see (tier2/tier2.h,
	   tier3/instr.h); NULL below the tier */
	struct tier2_state *t2;
	struct tier3_state *t3;
};

/* Records a command with the device lock held; the call down the chain happens before, outside
 * it. FILL sees `m`, the new command, and `c_`, the device. */
#define RECORD(cb, OP, FILL)                                                                       \
	do {                                                                                       \
		struct capture_device *c_ = cap_of(cb, NULL);                                      \
		if (!c_)                                                                           \
			break;                                                                     \
		pthread_mutex_lock(&c_->lock);                                                     \
		struct cmd *m = c_->failed ? NULL : record(c_, cb, OP);                            \
		if (m) {                                                                           \
			FILL;                                                                      \
		}                                                                                  \
		pthread_mutex_unlock(&c_->lock);                                                   \
	} while (0)

#endif
