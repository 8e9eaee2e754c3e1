/* tier2.h - private to capture/09-tier2/: capture tier 2's own functions, seen by tier 2's files,
 * tier 3's (which builds on them) and device.c only; the rest of the layer reaches the tier
 * through its tier_ops table (tier.h). Tier 2 is exact geometry: each draw's shadow (shadow.c:
 * the pipeline writing its positions by transform feedback with rasterizer discard), the
 * positions it wrote (geometry.c) and llctrace's rasterizer over emulated depth (tier2.c). */
#ifndef LLCT_CAPTURE_TIER2_H
#define LLCT_CAPTURE_TIER2_H

#include "async.h"
#include "core.h"
#include "layer.h"
#include "llct_intercepts.h"
#include "output.h"
#include "pipes.h"
#include "record.h"
#include "settings.h"
#include "tier.h"
#include "track.h"
#include "walk.h"

/* Tier 2's own state (the device record's t2, made by device.c for tiers 2 and 3). */
struct tier2_state {
	uint32_t xfb_mem_types; /* memory types host-visible and coherent (bit mask) */
	uint32_t xfb_mem_fast;  /* of those, the ones the CPU reads fast: host-cached and not
				   device-local (a GPU's BAR or write-combined memory reads at
				   a fraction of the speed: 4x a frame at tier 3 on an H200) */
	uint32_t xfb_guess;     /* room (vertices) for a shadow draw of unknown size at first:
				   65,536, or LLCT_CAPTURE_XFB_GUESS (tests force truncation) */
	struct llct_raster *raster;
	double raster_shared_cpu; /* CPU seconds of draws the rasterizer's threads shared */
	double raster_spin_cpu;   /* and of those threads spinning between draws */
	int batch;                /* the rasterizer's and tier 3's worker threads under SCHED_BATCH
				     (LLCT_CAPTURE_BATCH_WORKERS=1) */
	char dump_depth[512]; /* LLCT_CAPTURE_DUMP_DEPTH: where emulated depth goes at pass end */
};

/* ---- shadow.c ---- */

/* Tier 2: the shadow of a pipeline just created (without the lock; calls down). */
void capture_shadow_create(struct capture_device *c, struct layer_device *d, VkPipelineCache cache,
			   const VkGraphicsPipelineCreateInfo *g, VkPipeline real);

/* ---- geometry.c ---- */

/* Before a draw goes down: its shadow draw, when the bound pipeline has one and the recording
 * allows it. sub_geom[i] gets sub-draw i's geometry record (1 + index, 0: none; one per
 * sub-draw of a multi-draw, as many as call->n). Returns sub_geom[0]. */
uint32_t capture_geom_shadow(VkCommandBuffer cb, const struct draw_call *call, uint32_t *sub_geom);
/* A host-visible, coherent, mapped buffer of size bytes (calls down: without the lock): 0, or
 * -1 with nothing left made. */
int capture_host_buffer(struct capture_device *c, VkDeviceSize size, VkBufferUsageFlags usage,
			VkBuffer *buf, VkDeviceMemory *mem, void **map);
/* The same, its memory allocated with flags alloc (VkMemoryAllocateFlagsInfo; 0: none). */
int capture_host_buffer_ex(struct capture_device *c, VkDeviceSize size, VkBufferUsageFlags usage,
			   VkMemoryAllocateFlags alloc, VkBuffer *buf, VkDeviceMemory *mem,
			   void **map);
/* A new recording: b's buffers are reused from their start. */
void capture_geom_begin(struct cbuf *b);
/* Frees b's buffers (calls down: without the lock, or at device end). */
void capture_geom_free(struct layer_device *d, struct cbuf *b);
/* The positions draw record gi wrote in its last execution (the submission completed): 0 with
 * *pos, *n vertices of *stride floats each (x, y, z, w, then captured inputs); -1 when there
 * are none to use. state gets "xfb" or why not. */
int capture_geom_positions(struct capture_device *c, struct cbuf *b, uint32_t gi, const float **pos,
			   uint32_t *n, uint32_t *stride, char *state, size_t state_size);
/* The expansion is done with record gi's n vertices: their room gets the sentinel again. */
void capture_geom_consumed(struct cbuf *b, uint32_t gi, uint32_t n);

/* ---- tier2.c ---- */

/* The emulated depth/stencil of an image's view (created on first use), or NULL. */
struct llct_zbuf *capture_img_zbuf(struct img *im, uint32_t mip, uint32_t layer);
/* Tier 2's passes, draws and clears (its tier_ops', which tier 3's table shares). */
void tier2_begin_pass(struct capture_device *c, const struct llct_pass *p);
void tier2_end_pass(struct capture_device *c, const struct llct_pass *p);
void tier2_draw(struct capture_device *c, const struct llct_pass *p, const struct llct_draw *d,
		struct llct_draw_result *r);
/* The draws queued for the rasterizer's threads done, their rows written (tier_ops' flush). */
void tier2_flush(struct capture_device *c);
/* The tier-2 account in the trace (capture.seconds.raster_shared_cpu); tier 3's includes it. */
void tier2_note(struct capture_device *c, struct llct_writer *w);
void tier2_clear(struct capture_device *c, const struct llct_pass *p, uint32_t i, uint32_t x0,
		 uint32_t y0, uint32_t x1, uint32_t y1, uint32_t aspects, float depth,
		 uint32_t stencil);

#endif
