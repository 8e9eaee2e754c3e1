/* draw.c - tier 1's stream model of draws and dispatches (draw.h): what a bound resource of
 * each kind costs, the rectangle a draw covers and the texture LOD it samples, and the
 * traffic of its attachments over that rectangle through the render caches. */
#include "llct/draw.h"

#include <math.h>

void llct_binding_traffic(int binding, int compute, struct llct_binding_traffic *out)
{
	*out = (struct llct_binding_traffic){0};
	switch (binding) {
	case LLCT_BIND_UNIFORM: /* constants: not through a render cache we model */
		*out = (struct llct_binding_traffic){1, LLCT_STREAM_OTHER, 1, 0, 0};
		break;
	case LLCT_BIND_UNIFORM_TEXEL: /* read through the texture units */
	case LLCT_BIND_SAMPLED_IMAGE:
		*out = (struct llct_binding_traffic){1, LLCT_STREAM_TEX, 1, 0, 1};
		break;
	case LLCT_BIND_STORAGE:
	case LLCT_BIND_STORAGE_TEXEL:
	case LLCT_BIND_STORAGE_IMAGE:
		/* a dispatch reads and writes its storage resources; for a draw tier 1 cannot tell
		   which part it touches, and all of it every draw would swamp the frame */
		if (compute)
			*out = (struct llct_binding_traffic){1, LLCT_STREAM_CS, 1, 1, 0};
		break;
	default: /* input attachments (the attachment's own traffic), samplers, inline data */
		break;
	}
}

int llct_image_write_stream(int is_display, int has_depth, int has_stencil, int is_color_attachment,
			    int is_sampled)
{
	if (is_display)
		return LLCT_STREAM_DISP;
	if (has_depth)
		return LLCT_STREAM_Z;
	if (has_stencil)
		return LLCT_STREAM_STC;
	if (is_color_attachment)
		return LLCT_STREAM_RT;
	if (is_sampled)
		return LLCT_STREAM_TEX;
	return LLCT_STREAM_OTHER;
}

uint32_t llct_texture_lod(const struct llct_surface *s, uint32_t mip, uint32_t cw, uint32_t ch)
{
	while (mip + 1 < s->mips && mip + 1 < 32 && (s->width >> (mip + 1)) >= cw &&
	       (s->height >> (mip + 1)) >= ch)
		mip++;
	return mip;
}

void llct_draw_rect(const struct llct_pass *p, const struct llct_draw_state *st, uint32_t *ox0,
		    uint32_t *oy0, uint32_t *ox1, uint32_t *oy1)
{
	float vx = st->vp_x, vy = st->vp_y, vw = st->vp_w, vh = st->vp_h;
	if (vh < 0) { /* a flipped viewport (VK_KHR_maintenance1), as GL layers use */
		vy += vh;
		vh = -vh;
	}
	int64_t x0 = p->x0, y0 = p->y0, x1 = p->x1, y1 = p->y1;
	if (st->has_viewport && vw > 0) {
		x0 = x0 > (int64_t)vx ? x0 : (int64_t)vx;
		y0 = y0 > (int64_t)vy ? y0 : (int64_t)vy;
		x1 = x1 < (int64_t)(vx + vw) ? x1 : (int64_t)(vx + vw);
		y1 = y1 < (int64_t)(vy + vh) ? y1 : (int64_t)(vy + vh);
	}
	if (st->has_scissor && st->sc_w) {
		x0 = x0 > st->sc_x ? x0 : st->sc_x;
		y0 = y0 > st->sc_y ? y0 : st->sc_y;
		x1 = x1 < st->sc_x + (int64_t)st->sc_w ? x1 : st->sc_x + (int64_t)st->sc_w;
		y1 = y1 < st->sc_y + (int64_t)st->sc_h ? y1 : st->sc_y + (int64_t)st->sc_h;
	}
	x0 = x0 < 0 ? 0 : x0;
	y0 = y0 < 0 ? 0 : y0;
	x1 = x1 < x0 ? x0 : x1;
	y1 = y1 < y0 ? y0 : y1;
	*ox0 = (uint32_t)x0;
	*oy0 = (uint32_t)y0;
	*ox1 = (uint32_t)x1;
	*oy1 = (uint32_t)y1;
}

/* A bound buffer range or image, as tier 1 sees it; images of a draw at the LOD of the covered
 * area cw x ch (nothing when the draw covers nothing), a dispatch's at its view's mip. */
static void use(struct llct_fp *fp, const struct llct_use *u, int compute, uint32_t cw, uint32_t ch)
{
	struct llct_binding_traffic t = {1, u->stream, u->op == LLCT_OP_READ,
					 u->op == LLCT_OP_WRITE, u->cached};
	if (u->binding >= 0)
		llct_binding_traffic(u->binding, compute, &t);
	if (!t.counted)
		return;
	if (u->kind == LLCT_USE_RANGE) {
		if (t.reads)
			llct_fp_range(fp, u->addr, u->size, t.stream, LLCT_OP_READ, t.cached);
		if (t.writes)
			llct_fp_range(fp, u->addr, u->size, t.stream, LLCT_OP_WRITE, t.cached);
		return;
	}
	uint32_t mip = u->mip, w, h;
	if (!compute) {
		if (!cw || !ch)
			return;
		mip = llct_texture_lod(&u->s, mip, cw, ch);
	}
	llct_surface_mip_extent(&u->s, mip, &w, &h);
	uint32_t layers = u->layers ? u->layers : 1; /* an arrayed or cube view: every layer */
	for (uint32_t l = u->layer; l < u->layer + layers && l < u->s.layers; l++) {
		if (t.reads)
			llct_fp_rect(fp, &u->s, mip, l, 0, 0, w, h, t.stream, LLCT_OP_READ,
				     t.cached);
		if (t.writes)
			llct_fp_rect(fp, &u->s, mip, l, 0, 0, w, h, t.stream, LLCT_OP_WRITE,
				     t.cached);
	}
}

void llct_dispatch_footprint(struct llct_fp *fp, const struct llct_use *uses, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		use(fp, &uses[i], 1, 0, 0);
	llct_fp_flush(fp);
}

/* The attachments' traffic over [x0,x1) x [y0,y1), through the render caches. */
static void attachments(struct llct_fp *fp, const struct llct_pass *p,
			const struct llct_draw_state *st, uint32_t x0, uint32_t y0, uint32_t x1,
			uint32_t y1)
{
	for (uint32_t i = 0; i < p->n; i++) {
		const struct llct_attachment *a = &p->att[i];
		const struct llct_surface *s = &a->s;
		if (a->role != LLCT_ROLE_COLOR && a->role != LLCT_ROLE_DEPTH)
			continue; /* resolve targets and unused attachments are not drawn to */
		if (a->has_depth || a->has_stencil) {
			int dt = a->has_depth && st->depth_test, dw = dt && st->depth_write;
			int stc = a->has_stencil && st->stencil_test;
			if (dt)
				llct_hiz_rect(fp, &a->hiz, a->mip, a->layer, x0, y0, x1, y1,
					      LLCT_OP_READ, 1);
			if (dt)
				llct_fp_rect(fp, s, a->mip, a->layer, x0, y0, x1, y1, LLCT_STREAM_Z,
					     LLCT_OP_READ, 1);
			if (dw)
				llct_fp_rect(fp, s, a->mip, a->layer, x0, y0, x1, y1, LLCT_STREAM_Z,
					     LLCT_OP_WRITE, 1);
			if (dw)
				llct_hiz_rect(fp, &a->hiz, a->mip, a->layer, x0, y0, x1, y1,
					      LLCT_OP_WRITE, 1);
			if (stc) /* the test reads; its ops may write */
				llct_fp_rect(fp, s, a->mip, a->layer, x0, y0, x1, y1,
					     LLCT_STREAM_STC, LLCT_OP_READ, 1);
			if (stc && st->stencil_write)
				llct_fp_rect(fp, s, a->mip, a->layer, x0, y0, x1, y1,
					     LLCT_STREAM_STC, LLCT_OP_WRITE, 1);
			continue;
		}
		uint32_t bit = a->slot >= 0 && a->slot < 32 ? (uint32_t)1 << a->slot : 0;
		int stream = llct_attachment_stream(a);
		if ((st->write_mask & bit) && (st->blend & bit))
			llct_fp_rect(fp, s, a->mip, a->layer, x0, y0, x1, y1, stream, LLCT_OP_READ,
				     1);
		if (st->write_mask & bit)
			llct_fp_rect(fp, s, a->mip, a->layer, x0, y0, x1, y1, stream, LLCT_OP_WRITE,
				     1);
	}
}

void llct_draw_footprint(struct llct_fp *fp, const struct llct_pass *p, const struct llct_draw *d,
			 struct llct_draw_result *r)
{
	uint32_t x0, y0, x1, y1;
	llct_draw_rect(p, &d->st, &x0, &y0, &x1, &y1);
	uint64_t cw = x1 - x0, ch = y1 - y0, samples = d->st.samples ? d->st.samples : 1;
	uint64_t frags = d->samples_passed == UINT64_MAX ? UINT64_MAX : d->samples_passed / samples;
	if (d->st.no_raster)
		frags = 0;
	if (frags < cw * ch) { /* fewer fragments than pixels: shrink the rectangle to that
				  area, same shape, centred (tier 1 does not know where) */
		uint64_t nw =
		    (uint64_t)((double)cw * sqrt((double)frags / (double)(cw * ch)) + 0.5);
		nw = nw < 1 ? 1 : nw > cw ? cw : nw;
		uint64_t nh = frags ? (frags + nw - 1) / nw : 0;
		nh = nh > ch ? ch : nh;
		x0 += (uint32_t)((cw - nw) / 2);
		y0 += (uint32_t)((ch - nh) / 2);
		x1 = x0 + (uint32_t)nw;
		y1 = y0 + (uint32_t)nh;
		cw = frags ? nw : 0;
		ch = nh;
	}
	*r = (struct llct_draw_result){0};
	r->rect_w = (uint32_t)cw;
	r->rect_h = (uint32_t)ch;
	r->covered = cw * ch * samples;
	r->passed = frags == UINT64_MAX ? r->covered : frags * samples;
	for (uint32_t i = 0; i < d->n_uses; i++)
		use(fp, &d->uses[i], 0, (uint32_t)cw, (uint32_t)ch);
	if (cw && ch)
		attachments(fp, p, &d->st, x0, y0, x1, y1);
}
