/* tier.h - private to capture/: a capture fidelity tier turns the passes and draws that the
 * expansion describes (llct/draw.h) into records. The submission code drives it through this
 * table; which tier runs is a setting of the device, recorded in the trace. Tier 1 (tier1.c)
 * is the footprint model; tier 2 (tier2.c) rasterizes the geometry the driver produced; tier 3
 * is tier 2 with compute dispatches' buffer accesses recorded by instrumented shaders. */
#ifndef LLCT_CAPTURE_TIER_H
#define LLCT_CAPTURE_TIER_H

#include "llct/draw.h"

struct capture_device;

struct tier_ops {
	int tier;            /* 1, 2, 3 */
	const char *setting; /* the trace's capture.tier value */
	/* The pass begins (after its load kernel, if it loads) and ends (after its store kernel).
	 */
	void (*begin_pass)(struct capture_device *c, const struct llct_pass *p);
	void (*end_pass)(struct capture_device *c, const struct llct_pass *p);
	/* One draw of the current pass: its records, and what was made of it in *r. */
	void (*draw)(struct capture_device *c, const struct llct_pass *p, const struct llct_draw *d,
		     struct llct_draw_result *r);
	/* Attachment a of the pass cleared over [x0,x1) x [y0,y1) (vkCmdClearAttachments); a
	 * depth/stencil one's aspects (VkImageAspectFlags) to the values given. */
	void (*clear)(struct capture_device *c, const struct llct_pass *p, uint32_t a, uint32_t x0,
		      uint32_t y0, uint32_t x1, uint32_t y1, uint32_t aspects, float depth,
		      uint32_t stencil);
};

extern const struct tier_ops llct_tier1, llct_tier2, llct_tier3;

#endif
