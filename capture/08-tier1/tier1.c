/* tier1.c - capture tier 1, the footprint model: passes, draws and clears go straight to the
 * stream models of streams/ (draw.h), which know no geometry. */
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

static void begin_pass(struct capture_device *c, const struct llct_pass *p)
{
	llct_pass_load(c->out->fp, p);
}

static void end_pass(struct capture_device *c, const struct llct_pass *p)
{
	llct_pass_store(c->out->fp, p);
}

static void draw(struct capture_device *c, const struct llct_pass *p, const struct llct_draw *d,
		 struct llct_draw_result *r)
{
	llct_draw_footprint(c->out->fp, p, d, r);
}

static void clear(struct capture_device *c, const struct llct_pass *p, uint32_t i, uint32_t x0,
		  uint32_t y0, uint32_t x1, uint32_t y1, uint32_t aspects, float depth,
		  uint32_t stencil)
{
	(void)aspects, (void)depth, (void)stencil;
	const struct llct_attachment *a = &p->att[i];
	llct_fp_rect(c->out->fp, &a->s, a->mip, a->layer, x0, y0, x1, y1, llct_attachment_stream(a),
		     LLCT_OP_WRITE, 1);
	if (a->has_depth)
		llct_hiz_rect(c->out->fp, &a->hiz, a->mip, a->layer, x0, y0, x1, y1, LLCT_OP_WRITE,
			      1);
}

const struct tier_ops llct_tier1 = {
    .tier = 1,
    .setting = "1 (footprint: coarse)",
    .begin_pass = begin_pass,
    .end_pass = end_pass,
    .draw = draw,
    .clear = clear,
};
