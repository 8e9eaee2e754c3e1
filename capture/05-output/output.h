/* output.h - private to capture/: frames, kernels, resources and sites into the trace, the
 * captured address space, and the footprint model's sink (frames.c); where a submission's
 * expansion starts (submit.c). */
#ifndef LLCT_CAPTURE_OUTPUT_H
#define LLCT_CAPTURE_OUTPUT_H

#include "core.h"
#include "llct/footprint.h"

#include <vulkan/vulkan.h>

#include <pthread.h>
#include <stdio.h>

/* The output sub-module's state (the device record's out): which frames are written, the
 * writer and the footprint model, the trace's ids and addresses, progress. */
struct output_state {
	struct llct_writer *w;
	struct llct_fp *fp;
	pthread_mutex_t wmu; /* the writer's calls (records come without the device lock) */
	struct llct_frame_range frames;
	int all_frames, bounded;
	uint32_t last_frame;  /* last frame of a bounded range (bounded) */
	uint32_t captured;    /* frames written */
	uint32_t kernel;      /* the next kernel's id */
	uint64_t records;     /* records written */
	struct hmap site_ids; /* under wmu: a pipeline's id -> the trace's number of its first
				 instrumented site (trace_sites) */
	uint32_t next_site;   /* under wmu: the next number free (0 is no site) */
	uint64_t next_addr, next_id;
	uint64_t next_meta_addr; /* where the next HiZ buffer goes */
	char path[1024];
	double t_start, t_log; /* progress: when capture began, when it last said so */
	FILE *times;           /* LLCT_CAPTURE_TIMES: each frame's end, for timing a program */
	/* where the layer's time goes (under the lock): seconds spent waiting for captured
	 * submissions and reading their counts (capture_read_fragments), and expanding submissions
	 * into records (capture_expand_submission, rasterizing included); noted in the trace
	 * (capture.seconds.*) and LLCT_CAPTURE_TIMES; t_expand_cpu: the CPU seconds of that
	 * expansion, the expansion thread's and tier 3's expansion threads' (not the rasterizer's
	 * own threads, which split only primitives bigger than a tile row) */
	double t_wait, t_expand, t_expand_cpu;
	/* what the device wrote for the layer to read back (under the lock), noted beside the
	 * time account (capture.raw.*): tier 3's shader records of the captured kernels, and tier
	 * 2's transform-feedback vertices of the captured draws */
	uint64_t raw_records, raw_vertices;
	/* how frames are counted, for capture.frames_seen: set where the boundary is chosen
	   (device.c) and where a swapchain makes the auto boundary move to presents */
	const char *frames_by;
	int boundary_label;             /* a debug label starts each frame (the walk meets them) */
	char boundary_name[64];         /* its name */
	char label[64];                 /* the debug label the kernels being written are under */
	int exit_after;                 /* end the program once a bounded range is written */
	int rdc, rdc_pending, rdc_exit; /* the RenderDoc link (renderdoc.c) */
};

/* ---- frames.c: frame selection and the trace writer ---- */

int capture_frame_selected(const struct capture_device *c);
int capture_rec_frame_selected(const struct capture_device *c); /* of rec_frame */
/* The end of the frame being expanded: its last records and the writer's frame. */
void capture_frame_end(struct capture_device *c);
/* submit.c: a submission's command buffers, expanded in order (with the lock). */
void capture_expand_submission(struct capture_device *c, uint32_t n, const VkCommandBuffer *cbs);
/* Whether a command buffer recorded now can still run in a frame to capture: never once a
 * bounded range is over; with `ahead` (not UINT32_MAX), only when a frame to capture is at
 * most that many frames away (tier 3's twins: programs record a frame's work during it or a
 * frame or two before). Call with the lock held. */
int capture_reachable(const struct capture_device *c, uint32_t ahead);
/* Notes where the layer's time went (t_wait, t_expand) in the trace's settings. */
void capture_note_costs(struct capture_device *c);
/* Makes sure a writer frame is open for the current frame if it is selected; 1 if open. */
int capture_frame_open(struct capture_device *c);
/* A frame ends where the program is: rec_frame moves on, and capture_frame_end is queued behind the
 * frame's expansions (async.c), or, without, happens now. */
void capture_frame_boundary(struct capture_device *c);
/* Starts a kernel: the records that follow carry its id (returned). The draws the tier holds
 * queued (its flush: tier 2's small draws) are done first. */
uint32_t capture_kernel_begin(struct capture_device *c);
/* The same without the tier's flush: a draw, which the tier may queue behind them. */
uint32_t capture_kernel_next(struct capture_device *c);
/* Writes kernel id's row (when the frame is captured): its kind, the current debug label,
 * its parameters as JSON. */
void capture_kernel_row(struct capture_device *c, uint32_t id, const char *kind,
			const char *params);
/* The same for a kernel of frame `frame` under label `label` (NULL: none), written later (a
 * queued draw's: when the current frame is still that frame). */
void capture_kernel_row_of(struct capture_device *c, uint32_t id, uint32_t frame, const char *label,
			   const char *kind, const char *params);
/* capture_kernel_begin and capture_kernel_row at once, for kernels whose parameters are known up
 * front. */
uint32_t capture_new_kernel(struct capture_device *c, const char *kind, const char *params);
/* The trace's number of the first of the n sites of pipeline p (instrumented: stage of each
 * from its index, below n_frag the fragment shader's, the rest the vertex shader's, or compute),
 * numbering them and writing their `sites` rows at the pipeline's first use; 0 on failure. */
struct llct_spirv_site;
uint32_t capture_trace_sites(struct capture_device *c, uint64_t pipeline, int compute,
			     const struct llct_spirv_site *sites, size_t n, size_t n_frag);
void capture_add_resource(struct capture_device *c, uint64_t id, const char *kind, uint64_t addr,
			  uint64_t size, const char *params);
/* Addresses for size bytes of program memory (64 KiB aligned), or of GPU metadata the
 * program never sees (HiZ; a region of its own, so it moves no program address). */
uint64_t capture_alloc_addr(struct capture_device *c, uint64_t size);
uint64_t capture_alloc_meta_addr(struct capture_device *c, uint64_t size);
int capture_model_create(struct capture_device *c, const struct llct_fp_config *fc);

#endif
