/* tier.h - private to capture/: a capture fidelity tier, the one way the rest of the layer
 * reaches one. Object tracking, recording, submission and the expansion call the tier's hooks
 * in this table and never a tier's functions by name; which tier runs is a setting of the
 * device, recorded in the trace. Tier 1 (tier1.c) is the footprint model; tier 2 (tier2.c,
 * with its shadow pipelines in shadow.c and their geometry in geometry.c) rasterizes the
 * geometry the driver produced; tier 3 (instr.c, instr_draw.c) is tier 2 with the texture and
 * buffer accesses of draws' and dispatches' shaders recorded by instrumented twins. A hook a
 * tier does without is NULL. */
#ifndef LLCT_CAPTURE_TIER_H
#define LLCT_CAPTURE_TIER_H

#include "llct/draw.h"

#include <stddef.h>
#include <stdint.h>
#include <vulkan/vulkan.h>

struct capture_device;
struct layer_device;
struct cbuf;
struct cmd;
struct pipe;
struct img;
struct draw_call;
struct draw_query;
struct llct_zbuf;

/* A dispatch as recorded (dispatch_begin fills it, dispatch_end reads it). */
struct instr_call {
	uint32_t rec;  /* 1 + the record buffer, 0: the dispatch went down as recorded */
	uint64_t orig; /* the program's pipeline, bound back after */
};
/* What a dispatch's or draw's records came to. */
struct instr_result {
	uint32_t records, lost, unplaced; /* recorded; lost to a full buffer; outside a range */
};

struct tier_ops {
	int tier;            /* 1, 2, 3 */
	const char *setting; /* the trace's capture.tier value */

	/* ---- the expansion (with the lock) ---- */
	/* The pass begins (after its load kernel, if it loads) and ends (after its store kernel).
	 */
	void (*begin_pass)(struct capture_device *c, const struct llct_pass *p);
	void (*end_pass)(struct capture_device *c, const struct llct_pass *p);
	/* One draw of the current pass: its records, and what was made of it in *r. */
	void (*draw)(struct capture_device *c, const struct llct_pass *p, const struct llct_draw *d,
		     struct llct_draw_result *r);
	/* Or (NULL: never) the draw queued (1) to be done with the draws queued before it at the
	 * next flush, its records carrying kernel; its row then waits in rows.c's list
	 * (capture_rows_add), whose rows the flush fills in and writes. 0: not queued (the caller
	 * flushes, then draws it). */
	int (*queue)(struct capture_device *c, const struct llct_pass *p, const struct llct_draw *d,
		     uint32_t kernel);
	/* Does the queued draws (NULL: none ever are): before any other use of the model, the
	 * tier's depth buffers or the frame's rows, and at the end of each command list. */
	void (*flush)(struct capture_device *c);
	/* Attachment a of the pass cleared over [x0,x1) x [y0,y1) (vkCmdClearAttachments); a
	 * depth/stencil one's aspects (VkImageAspectFlags) to the values given. */
	void (*clear)(struct capture_device *c, const struct llct_pass *p, uint32_t a, uint32_t x0,
		      uint32_t y0, uint32_t x1, uint32_t y1, uint32_t aspects, float depth,
		      uint32_t stencil);
	/* The depth buffer the tier keeps for level mip, layer `layer` of a depth/stencil image. */
	struct llct_zbuf *(*zbuf)(struct img *im, uint32_t mip, uint32_t layer);
	/* A draw's positions from its shadow (geometry record gi of b): 0 with them, or -1 with
	 * why not in state; consumed: the expansion is done with its n vertices. */
	int (*positions)(struct capture_device *c, struct cbuf *b, uint32_t gi, const float **pos,
			 uint32_t *n, uint32_t *stride, char *state, size_t state_size);
	void (*consumed)(struct cbuf *b, uint32_t gi, uint32_t n);
	/* A draw's records (rec: its number + 1) after the submission: 0 with counts, or -1;
	 * draw_records expands them (width: the target's, for the SM of a pixel), and
	 * draw_records_begin, where a tier has it, starts that before the draw is rasterized (with
	 * the lock; res: the peek's), to be finished by draw_records after. */
	int (*draw_peek)(struct capture_device *c, struct cbuf *b, uint32_t rec,
			 const struct pipe *p, struct instr_result *res);
	void (*draw_records_begin)(struct capture_device *c, struct cbuf *b, uint32_t rec,
				   const struct pipe *p, uint32_t width,
				   const struct instr_result *res);
	int (*draw_records)(struct capture_device *c, struct cbuf *b, uint32_t rec,
			    const struct pipe *p, uint32_t width, struct instr_result *res);
	/* A dispatch's record count and losses (0, or -1 when it has none), and its expansion. */
	int (*dispatch_peek)(const struct cbuf *b, const struct cmd *m, const struct pipe *p,
			     struct instr_result *res);
	int (*dispatch_records)(struct capture_device *c, struct cbuf *b, const struct cmd *m,
				const struct pipe *p, struct instr_result *res);

	/* ---- object tracking (without the lock: they call down) ---- */
	/* A graphics or compute pipeline the program just made (real). */
	void (*graphics_pipeline)(struct capture_device *c, struct layer_device *d,
				  VkPipelineCache cache, const VkGraphicsPipelineCreateInfo *g,
				  VkPipeline real);
	void (*compute_pipeline)(struct capture_device *c, VkPipelineCache cache,
				 const VkComputePipelineCreateInfo *info, VkPipeline real);
	/* A pipeline layout's twin with the tier's own set after the program's (its index in
	 * *set), or VK_NULL_HANDLE; layout_gone destroys one (with the lock). */
	VkPipelineLayout (*layout_created)(struct capture_device *c,
					   const VkPipelineLayoutCreateInfo *info, uint32_t *set);
	void (*layout_gone)(struct capture_device *c, VkPipelineLayout ext);

	/* ---- recording ---- */
	/* A recording of b begins (with the lock), and b's own objects go (without it). */
	void (*recording_begun)(struct capture_device *c, struct cbuf *b);
	void (*recording_freed)(struct layer_device *d, struct cbuf *b);
	/* Before a draw goes down: its shadow draw, the geometry record of each of its draws in
	 * sub_geom (0: none; set to 0 by the caller where the tier has no hook). */
	uint32_t (*draw_shadow)(VkCommandBuffer cb, const struct draw_call *call,
				uint32_t *sub_geom);
	/* Around the program's draw, inside the layer's count query dq. */
	void (*draw_begin)(VkCommandBuffer cb, struct draw_query *dq);
	void (*draw_end)(VkCommandBuffer cb, const struct draw_query *dq);
	/* Whether a multi-draw of several sub-draws about to be recorded into cb goes down one
	 * sub-draw at a time, each inside its own draw_begin/draw_end (tier 3: each its own
	 * records); NULL: never. */
	int (*draw_split)(VkCommandBuffer cb);
	/* Around the program's dispatch (groups: its size, 0 unknown): *ic zeroed by the caller
	 * where the tier has no hook. */
	uint32_t (*dispatch_begin)(VkCommandBuffer cb, uint64_t groups, struct instr_call *ic);
	void (*dispatch_end)(VkCommandBuffer cb, const struct instr_call *ic);

	/* ---- submission ---- */
	/* A captured submission of b is about to go down (with the lock). */
	void (*submitting)(struct capture_device *c, struct cbuf *b, int depth);
	/* What the tier notes in the trace's settings as the trace is finished. */
	void (*note)(struct capture_device *c, struct llct_writer *w);
	/* b's execution (of a submission's list) has been expanded, or will not be (a twin lead
	 * frame's), with the lock: what b held for it alone may be handed on once the device has
	 * finished it (b->finished). */
	void (*executed)(struct capture_device *c, struct cbuf *b);
	/* A command buffer of a submission outside the frames captured, as it is expanded (with
	 * the lock): tier 3 counts the twins that ran for nothing. */
	void (*outside)(struct capture_device *c, const struct cbuf *b);
	/* The twin lead's submission has been seen to run (with the lock): what its command
	 * buffers wanted is known again. */
	void (*lead_done)(struct capture_device *c);
};

extern const struct tier_ops llct_tier1, llct_tier2, llct_tier3;

#endif
