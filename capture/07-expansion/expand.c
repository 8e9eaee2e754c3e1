/* expand.c - expansion, in submission order (on the device's expansion thread, async.c, or at
 * submission): a captured command buffer's shadow list, walked in order with its bound state,
 * becomes kernels and LLC access records. Render passes are
 * described here (llct/draw.h) and handed to the device's tier with each draw
 * (describe.c); copies and image clears are copies.c's. */
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

#include <stdio.h>
#include <string.h>

static int load_op(VkAttachmentLoadOp op)
{
	return op == VK_ATTACHMENT_LOAD_OP_LOAD        ? LLCT_LOAD_LOAD
	       : op == VK_ATTACHMENT_LOAD_OP_CLEAR     ? LLCT_LOAD_CLEAR
	       : op == VK_ATTACHMENT_LOAD_OP_DONT_CARE ? LLCT_LOAD_DONT_CARE
						       : LLCT_LOAD_NONE;
}

static int store_op(VkAttachmentStoreOp op)
{
	return op == VK_ATTACHMENT_STORE_OP_STORE       ? LLCT_STORE_STORE
	       : op == VK_ATTACHMENT_STORE_OP_DONT_CARE ? LLCT_STORE_DONT_CARE
							: LLCT_STORE_NONE;
}

void capture_att_ids(const struct capture_device *c, struct capture_jtext *t)
{
	capture_jtext_add(t, ",\"attachments\":[");
	int first = 1;
	for (uint32_t i = 0; i < c->walk->pass.n; i++) {
		const struct llct_attachment *a = &c->walk->pass.att[i];
		if (a->role != LLCT_ROLE_COLOR && a->role != LLCT_ROLE_DEPTH)
			continue;
		capture_jtext_num(t, first ? "" : ",", a->id);
		first = 0;
	}
	capture_jtext_add(t, "]");
}

/* A kernel row {"what":WHAT,"attachments":[...]} for the pass's ops. */
static void pass_kernel(struct capture_device *c, const char *kind, const char *what)
{
	struct capture_jtext t;
	capture_jtext_init(&t);
	capture_jtext_add(&t, "{\"what\":");
	capture_jtext_str(&t, what);
	capture_att_ids(c, &t);
	capture_jtext_add(&t, "}");
	capture_new_kernel(c, kind, capture_jtext_get(&t));
	capture_jtext_free(&t);
}

/* One state of a stencil face or both. */
static void faces(struct dyn *y, uint32_t f, int what, uint32_t v)
{
	VkStencilOpState *s[2] = {&y->front, &y->back};
	for (int k = 0; k < 2; k++) {
		if (!(f & (k ? VK_STENCIL_FACE_BACK_BIT : VK_STENCIL_FACE_FRONT_BIT)))
			continue;
		if (what == 0)
			s[k]->compareMask = v;
		else if (what == 1)
			s[k]->writeMask = v;
		else
			s[k]->reference = v;
	}
}

/* A dynamic state command (record_state.c) applied to the state the walk carries. */
static void apply_dyn(struct dyn *y, const struct cmd *m)
{
	const uint32_t *u = m->u.dyn.u;
	uint32_t bit = m->u.dyn.att < 32 ? 1u << m->u.dyn.att : 0, *mask = NULL;
	switch (m->u.dyn.kind) {
	case D_DEPTH_TEST:
		y->depth_test = (int)u[0];
		break;
	case D_DEPTH_WRITE:
		y->depth_write = (int)u[0];
		break;
	case D_STENCIL_TEST:
		y->stencil_test = (int)u[0];
		break;
	case D_BLEND:
		mask = &y->blend;
		break;
	case D_WRITE_MASK:
		mask = &y->write_mask;
		break;
	case D_WRITE_ENABLE:
		mask = &y->write_enable;
		break;
	case D_TOPOLOGY:
		y->topology = (VkPrimitiveTopology)u[0];
		break;
	case D_CULL:
		y->cull = u[0];
		break;
	case D_FRONT_FACE:
		y->front_face = (VkFrontFace)u[0];
		break;
	case D_DEPTH_COMPARE:
		y->depth_compare = (VkCompareOp)u[0];
		break;
	case D_STENCIL_OP:
		for (int k = 0; k < 2; k++) {
			VkStencilOpState *f = k ? &y->back : &y->front;
			if (!(u[0] & (k ? VK_STENCIL_FACE_BACK_BIT : VK_STENCIL_FACE_FRONT_BIT)))
				continue;
			f->failOp = (VkStencilOp)u[1];
			f->passOp = (VkStencilOp)u[2];
			f->depthFailOp = (VkStencilOp)u[3];
			f->compareOp = (VkCompareOp)m->u.dyn.att;
		}
		break;
	case D_STENCIL_CMASK:
		faces(y, u[0], 0, u[1]);
		break;
	case D_STENCIL_WMASK:
		faces(y, u[0], 1, u[1]);
		break;
	case D_STENCIL_REF:
		faces(y, u[0], 2, u[1]);
		break;
	case D_DEPTH_BIAS:
		y->bias_c = m->u.dyn.f[0];
		y->bias_clamp = m->u.dyn.f[1];
		y->bias_s = m->u.dyn.f[2];
		break;
	case D_DEPTH_BIAS_ENABLE:
		y->bias_enable = (int)u[0];
		break;
	case D_LINE_WIDTH:
		y->line_width = m->u.dyn.f[0];
		break;
	case D_RAST_DISCARD:
		y->rast_discard = (int)u[0];
		break;
	case D_POLYGON_MODE:
		y->polygon_mode = (VkPolygonMode)u[0];
		break;
	case D_SAMPLES:
		y->samples = u[0];
		break;
	case D_DEPTH_CLAMP:
		y->depth_clamp = (int)u[0];
		break;
	case D_DEPTH_CLIP:
		y->depth_clip = (int)u[0];
		break;
	case D_CLIP_NEG:
		y->clip_neg = (int)u[0];
		break;
	}
	if (mask) /* an attachment's bit in a mask */
		*mask = u[0] ? *mask | bit : *mask & ~bit;
}

/* A render pass instance begins: its attachments (views of bound images; others are left out)
 * as the stream models see them, its load ops' kernels and traffic. */
static void begin_pass(struct capture_device *c, uint32_t n, const uint64_t *views,
		       const struct att_desc *att, VkRect2D area)
{
	struct llct_pass *p = &c->walk->pass;
	static const int roles[] = {[ROLE_NONE] = LLCT_ROLE_NONE,
				    [ROLE_COLOR] = LLCT_ROLE_COLOR,
				    [ROLE_DEPTH] = LLCT_ROLE_DEPTH,
				    [ROLE_RESOLVE] = LLCT_ROLE_RESOLVE};
	memset(p, 0, sizeof(*p));
	p->x0 = area.offset.x > 0 ? (uint32_t)area.offset.x : 0;
	p->y0 = area.offset.y > 0 ? (uint32_t)area.offset.y : 0;
	p->x1 = p->x0 + area.extent.width;
	p->y1 = p->y0 + area.extent.height;
	for (uint32_t i = 0; att && i < n && i < MAX_ATT; i++) {
		uint32_t mip, layer;
		struct img *im = capture_view_image(c->tr, views[i], &mip, &layer);
		if (!im)
			continue;
		struct llct_attachment *a = &p->att[p->n++];
		a->s = im->s;
		a->mip = mip;
		a->layer = layer;
		a->id = im->id;
		a->role = roles[att[i].role];
		a->slot = att[i].slot;
		a->is_display = im->swapchain;
		a->has_depth = im->depth;
		a->has_stencil = im->stencil;
		a->load = load_op(att[i].load);
		a->stencil_load = load_op(att[i].stencil_load);
		a->store = store_op(att[i].store);
		a->stencil_store = store_op(att[i].stencil_store);
		a->hiz = im->hiz;
		a->clear_depth = att[i].clear_depth;
		a->clear_stencil = att[i].clear_stencil;
		if (c->tier->zbuf && (im->depth || im->stencil))
			a->z = c->tier->zbuf(im, mip, layer);
	}
	c->walk->rp_active = 1;
	int loads = 0, clears = 0;
	for (uint32_t i = 0; i < p->n; i++) {
		loads |=
		    p->att[i].load == LLCT_LOAD_LOAD || p->att[i].stencil_load == LLCT_LOAD_LOAD;
		clears |= p->att[i].load == LLCT_LOAD_CLEAR && p->att[i].hiz.bpp;
	}
	if (loads || clears) { /* a depth clear writes its HiZ (a fast clear): a kernel too */
		pass_kernel(c, loads ? "load" : "clear",
			    loads ? "render pass load ops" : "render pass clear ops");
	}
	c->tier->begin_pass(c, p);
}

static void end_pass(struct capture_device *c)
{
	if (!c->walk->rp_active)
		return;
	c->walk->rp_active = 0;
	if (llct_pass_stores(&c->walk->pass)) {
		pass_kernel(c, "store", "render pass store ops");
	}
	c->tier->end_pass(c, &c->walk->pass);
}

/* vkCmdClearAttachments: the first rectangle of the color attachments named (any) and the
 * depth/stencil one. */
static void clear_attachments(struct capture_device *c, const struct cmd *m)
{
	pass_kernel(c, "clear", "clear attachments");
	VkRect2D r = m->u.catt.rect;
	uint32_t x0 = r.offset.x > 0 ? (uint32_t)r.offset.x : 0;
	uint32_t y0 = r.offset.y > 0 ? (uint32_t)r.offset.y : 0;
	for (uint32_t a = 0; m->u.catt.n_rects && a < c->walk->pass.n; a++) {
		const struct llct_attachment *at = &c->walk->pass.att[a];
		if ((at->has_depth || at->has_stencil) ? m->u.catt.color_mask >> 31
						       : m->u.catt.color_mask)
			c->tier->clear(c, &c->walk->pass, a, x0, y0, x0 + r.extent.width,
				       y0 + r.extent.height, m->u.catt.ds_aspects, m->u.catt.depth,
				       m->u.catt.stencil);
	}
}

void capture_expand(struct capture_device *c, struct cbuf *b, int depth)
{
	struct cbuf *outer = c->walk->cb;
	c->walk->cb = b;
	/* bound state does not outlive a command buffer (render pass state of a secondary
	 * comes from the primary that executes it) */
	memset(c->walk->cur_pipe, 0, sizeof(c->walk->cur_pipe));
	memset(c->walk->cur_set, 0, sizeof(c->walk->cur_set));
	memset(c->walk->vb, 0, sizeof(c->walk->vb));
	memset(c->walk->vb_stride, 0, sizeof(c->walk->vb_stride));
	c->walk->ib = 0;
	memset(&c->walk->viewport, 0, sizeof(c->walk->viewport));
	memset(&c->walk->scissor, 0, sizeof(c->walk->scissor));
	memset(&c->walk->dyn, 0, sizeof(c->walk->dyn));
	/* until a command says otherwise, color is written */
	c->walk->dyn.write_mask = c->walk->dyn.write_enable = UINT32_MAX;
	c->walk->dyn.line_width = 1;
	c->walk->dyn.samples = 1;
	c->walk->dyn.depth_clip = 1;
	for (size_t i = 0; b && i < b->n && !c->failed; i++) {
		const struct cmd *m = &b->cmds[i];
		if (m->op == C_COPY)
			capture_index_copy(c, m); /* captured frame or not */
		if (!c->in_frame &&
		    (m->op == C_BEGIN_RP || m->op == C_BEGIN_RENDERING || m->op == C_END_RP ||
		     m->op == C_DRAW || m->op == C_DISPATCH || m->op == C_COPY ||
		     m->op == C_CLEAR_IMAGE || m->op == C_CLEAR_ATT))
			continue; /* work of a frame that is not captured */
		switch (m->op) {
		case C_BEGIN_RP: {
			static const struct cmd_pass none;
			const struct cmd_pass *ps =
			    m->u.pass < b->n_passes ? &b->passes[m->u.pass] : &none;
			struct rpass *rp = capture_hmap_get(&c->tr->rpasses, ps->rp.rp);
			struct fbuf *fb = capture_hmap_get(&c->tr->fbufs, ps->rp.fb);
			uint32_t n = rp && fb ? (rp->n < fb->n ? rp->n : fb->n) : 0;
			uint64_t views[MAX_ATT];
			for (uint32_t a = 0; a < n; a++) /* an imageless framebuffer's views come
							    with the begin */
				views[a] = ps->rp.n_views
					       ? (a < ps->rp.n_views ? ps->rp.view[a] : 0)
					       : fb->view[a];
			struct att_desc att[MAX_ATT];
			for (uint32_t a = 0; a < n; a++) { /* with the begin's clear values */
				att[a] = rp->att[a];
				att[a].clear_depth = ps->rp.clear_depth[a];
				att[a].clear_stencil = ps->rp.clear_stencil[a];
			}
			begin_pass(c, n, views, att, ps->rp.area);
			break;
		}
		case C_BEGIN_RENDERING: {
			static const struct cmd_pass none;
			const struct cmd_pass *ps =
			    m->u.pass < b->n_passes ? &b->passes[m->u.pass] : &none;
			begin_pass(c, ps->dr.n, ps->dr.view, ps->dr.att, ps->dr.area);
			break;
		}
		case C_END_RP:
			end_pass(c);
			break;
		case C_BIND_PIPELINE:
			c->walk->cur_pipe[m->u.bind.compute] = m->u.bind.pipe;
			break;
		case C_BIND_SET:
			if (m->u.set.index < 8)
				c->walk->cur_set[m->u.set.compute][m->u.set.index] = m->u.set.set;
			break;
		case C_BIND_VB:
			if (m->u.vb.binding < 16) {
				c->walk->vb[m->u.vb.binding] = m->u.vb.buf;
				c->walk->vb_off[m->u.vb.binding] = m->u.vb.offset;
			}
			break;
		case C_BIND_IB:
			c->walk->ib = m->u.ib.buf;
			c->walk->ib_off = m->u.ib.offset;
			c->walk->ib_size = m->u.ib.index_size;
			break;
		case C_VIEWPORT:
			c->walk->viewport = m->u.viewport;
			break;
		case C_SCISSOR:
			c->walk->scissor = m->u.scissor;
			break;
		case C_DRAW:
			capture_do_draw(c, m);
			break;
		case C_DISPATCH:
			capture_do_dispatch(c, b, m);
			break;
		case C_COPY:
			capture_do_copy(c, m);
			break;
		case C_CLEAR_IMAGE:
			capture_do_clear_image(c, m);
			break;
		case C_CLEAR_ATT:
			clear_attachments(c, m);
			break;
		case C_EXECUTE:
			if (depth < 2)
				capture_expand(c, capture_hmap_get(&c->tr->cbufs, m->u.exec.cb),
					       depth + 1);
			break;
		case C_LABEL_BEGIN:
			if (c->out->boundary_label && !strcmp(m->u.label, c->out->boundary_name)) {
				/* a new frame starts here, in the middle of the submission */
				capture_frame_boundary(c);
				capture_frame_open(
				    c); /* if not chosen, records and kernels are dropped */
			}
			snprintf(c->out->label, sizeof(c->out->label), "%s", m->u.label);
			break;
		case C_LABEL_END:
			c->out->label[0] = '\0';
			break;
		case C_DYN_STATE:
			apply_dyn(&c->walk->dyn, m);
			break;
		case C_VB_STRIDE:
			if (m->u.stride.binding < 16)
				c->walk->vb_stride[m->u.stride.binding] = m->u.stride.stride;
			break;
		}
	}
	if (c->tier->flush) /* what it queued: its resources may go once it is expanded */
		c->tier->flush(c);
	llct_fp_drain(c->out->fp);
	c->walk->cb = outer;
}
