/* describe.c - draws and dispatches at expansion time, described for the stream models
 * (llct/draw.h): the state that decides their traffic (pipeline and dynamic state), the
 * resources their shaders use (bound descriptors the SPIR-V refers to), index and vertex
 * ranges, what the layer measured; then the tier makes records and the kernel row says what
 * was drawn. */
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
#include <stdlib.h>
#include <string.h>

/* A new entry of the device's use list, or NULL when out of memory. */
static struct llct_use *new_use(struct capture_device *c)
{
	if (c->walk->n_uses == c->walk->cap_uses) {
		size_t cap = c->walk->cap_uses ? 2 * c->walk->cap_uses : 64;
		struct llct_use *u = realloc(c->walk->uses, cap * sizeof(*u));
		if (!u) {
			cap_fail(c, "out of memory describing a draw");
			return NULL;
		}
		c->walk->uses = u;
		c->walk->cap_uses = cap;
	}
	struct llct_use *u = &c->walk->uses[c->walk->n_uses++];
	memset(u, 0, sizeof(*u));
	return u;
}

/* A buffer range in a stream (binding -1: not a bound descriptor), if the buffer is known. */
static void range_use(struct capture_device *c, int binding, uint64_t handle, uint64_t off,
		      uint64_t size, int stream, int op, int cached)
{
	uint64_t addr, len;
	struct llct_use *u;
	if (!capture_buffer_bytes(c->tr, handle, off, size, &addr, &len) || !(u = new_use(c)))
		return;
	*u = (struct llct_use){.kind = LLCT_USE_RANGE,
			       .binding = binding,
			       .stream = stream,
			       .op = op,
			       .cached = cached,
			       .addr = addr,
			       .size = len,
			       .slot = -1};
}

static int binding_kind(VkDescriptorType t)
{
	switch (t) {
	case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER:
	case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC:
		return LLCT_BIND_UNIFORM;
	case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER:
		return LLCT_BIND_UNIFORM_TEXEL;
	case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER:
	case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC:
		return LLCT_BIND_STORAGE;
	case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER:
		return LLCT_BIND_STORAGE_TEXEL;
	case VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE:
	case VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER:
		return LLCT_BIND_SAMPLED_IMAGE;
	case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE:
		return LLCT_BIND_STORAGE_IMAGE;
	case VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT:
		return LLCT_BIND_INPUT_ATTACHMENT;
	default:
		return LLCT_BIND_OTHER;
	}
}

/* Does the pipeline's SPIR-V use binding b (the layout's b-th) of set index s? Bindings
 * numbered 64 or more are not in its mask: taken as used. */
static int binding_used(const struct pipe *p, const struct dset *ds, int s, uint32_t b)
{
	return !p || ds->binding[b] >= 64 || (p->used[s] >> ds->binding[b] & 1);
}

/* A sampled, storage or input-attachment image at slot sl of binding number bn of set index s. */
static void image_use(struct capture_device *c, const struct pipe *p, int compute, int s,
		      uint32_t bn, const struct slot *sl, int kind)
{
	uint32_t mip, layer;
	struct img *im = capture_view_image(c->tr, sl->handle, &mip, &layer);
	struct llct_use *u = im ? new_use(c) : NULL;
	if (!u)
		return;
	*u = (struct llct_use){.kind = LLCT_USE_IMAGE,
			       .binding = kind,
			       .s = im->s,
			       .mip = mip,
			       .layer = layer,
			       .layers = capture_view_layers(c->tr, sl->handle),
			       .slot = -1};
	for (uint32_t j = 0; p && !compute && j < p->fs.n_tex; j++)
		if (p->fs.tex[j].set == (uint32_t)s && p->fs.tex[j].binding == bn) {
			u->slot = (int)p->fs.tex[j].slot;
			u->c0 = (uint8_t)p->fs.tex[j].c0;
			u->c1 = (uint8_t)p->fs.tex[j].c1;
		}
}

/* The uses of binding b (the layout's b-th) of set index s. */
static void binding_uses(struct capture_device *c, const struct pipe *p, int compute, int s,
			 const struct dset *ds, uint32_t b)
{
	uint32_t end = ds->first[b] + ds->count[b];
	for (uint32_t k = ds->first[b]; k < end && k < ds->n; k++) {
		const struct slot *sl = &ds->slot[k];
		int kind = binding_kind(sl->type);
		struct llct_binding_traffic t;
		llct_binding_traffic(kind, compute, &t);
		if (!t.counted)
			continue;
		if (kind == LLCT_BIND_SAMPLED_IMAGE || kind == LLCT_BIND_STORAGE_IMAGE ||
		    kind == LLCT_BIND_INPUT_ATTACHMENT)
			image_use(c, p, compute, s, ds->binding[b], sl, kind);
		else
			range_use(c, kind, sl->handle, sl->offset, sl->range, 0, 0, 0);
	}
}

/* The descriptors bound at a bind point that the pipeline's shaders use, in set and slot order
 * (a set's slots are its layout's bindings' in turn, so a binding the shaders do not use is
 * passed over whole: where the set's bindings ascend, by the bits of its bindings and the
 * shaders' in common); sampled images the fragment shader samples at an input the shadow
 * captures say where. */
static void bound_uses(struct capture_device *c, const struct pipe *p, int compute)
{
	for (int s = 0; s < 8; s++) {
		struct dset *ds = capture_hmap_get(&c->ps->sets, c->walk->cur_set[compute][s]);
		if (ds && ds->ascending) {
			for (uint64_t m = ds->has & (p ? p->used[s] : ~0ull); m; m &= m - 1) {
				uint64_t below = (m & -m) - 1; /* the bits below the lowest */
				binding_uses(c, p, compute, s, ds,
					     (uint32_t)__builtin_popcountll(ds->has & below));
			}
			continue;
		}
		for (uint32_t b = 0; ds && b < ds->n_bindings; b++)
			if (binding_used(p, ds, s, b))
				binding_uses(c, p, compute, s, ds, b);
	}
}

static int prim_of(VkPrimitiveTopology t)
{
	switch (t) {
	case VK_PRIMITIVE_TOPOLOGY_POINT_LIST:
		return LLCT_PRIM_POINTS;
	case VK_PRIMITIVE_TOPOLOGY_LINE_LIST:
	case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP:
	case VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY:
	case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY:
		return LLCT_PRIM_LINES;
	default:
		return LLCT_PRIM_TRIANGLES;
	}
}

static struct llct_stencil_face face(const VkStencilOpState *f)
{
	return (struct llct_stencil_face){
	    (uint8_t)f->failOp,    (uint8_t)f->passOp, (uint8_t)f->depthFailOp,
	    (uint8_t)f->compareOp, f->compareMask,     f->writeMask,
	    f->reference};
}

/* The state of a graphics draw: the bound pipeline's, or the dynamic state set by commands
 * where the pipeline says so. An unknown pipeline writes color without blending. */
static void draw_state(struct capture_device *c, const struct pipe *p, struct llct_draw_state *st)
{
	const struct dyn *y = &c->walk->dyn;
	uint32_t dy = p ? p->dyn : 0;
	VkViewport vp = p && p->pr.has_viewport ? p->pr.viewport : c->walk->viewport;
	VkRect2D sc = p && p->pr.has_scissor ? p->pr.scissor : c->walk->scissor;
	memset(st, 0, sizeof(*st));
	st->vp_x = vp.x;
	st->vp_y = vp.y;
	st->vp_w = vp.width;
	st->vp_h = vp.height;
	st->vp_min = vp.minDepth;
	st->vp_max = vp.maxDepth;
	st->has_viewport = vp.width > 0;
	st->sc_x = sc.offset.x;
	st->sc_y = sc.offset.y;
	st->sc_w = sc.extent.width;
	st->sc_h = sc.extent.height;
	st->has_scissor = sc.extent.width > 0;
	st->write_mask = p ? ((dy & DY_WRITE_MASK) ? y->write_mask : p->fo.write_mask) &
				 ((dy & DY_WRITE_ENABLE) ? y->write_enable : UINT32_MAX)
			   : UINT32_MAX;
	st->polygon_fill = 1;
	st->samples = 1;
	if (!p)
		return;
	st->blend = (dy & DY_BLEND) ? y->blend : p->fo.blend;
	st->depth_test = (dy & DY_DEPTH_TEST) ? y->depth_test : p->fs.depth_test;
	/* depth writes happen only where the depth test is on */
	st->depth_write =
	    st->depth_test && ((dy & DY_DEPTH_WRITE) ? y->depth_write : p->fs.depth_write);
	st->depth_compare = (int)((dy & DY_DEPTH_COMPARE) ? y->depth_compare : p->fs.depth_compare);
	st->stencil_test = (dy & DY_STENCIL_TEST) ? y->stencil_test : p->fs.stencil_test;
	st->stencil_write = p->fs.stencil_write;
	VkStencilOpState f = p->fs.front, b = p->fs.back;
	if (dy & DY_STENCIL_OP) {
		f.failOp = y->front.failOp, f.passOp = y->front.passOp;
		f.depthFailOp = y->front.depthFailOp, f.compareOp = y->front.compareOp;
		b.failOp = y->back.failOp, b.passOp = y->back.passOp;
		b.depthFailOp = y->back.depthFailOp, b.compareOp = y->back.compareOp;
	}
	if (dy & DY_STENCIL_CMASK)
		f.compareMask = y->front.compareMask, b.compareMask = y->back.compareMask;
	if (dy & DY_STENCIL_WMASK)
		f.writeMask = y->front.writeMask, b.writeMask = y->back.writeMask;
	if (dy & DY_STENCIL_REF)
		f.reference = y->front.reference, b.reference = y->back.reference;
	st->front = face(&f);
	st->back = face(&b);
	VkPrimitiveTopology topo = (dy & DY_TOPOLOGY) ? y->topology : p->vi.topology;
	st->topology = p->pr.out_prim >= 0 ? p->pr.out_prim : prim_of(topo);
	VkPolygonMode pm = (dy & DY_POLYGON_MODE) ? y->polygon_mode : p->pr.polygon_mode;
	st->polygon_fill = pm == VK_POLYGON_MODE_FILL;
	if (pm == VK_POLYGON_MODE_POINT && st->topology == LLCT_PRIM_TRIANGLES)
		st->polygon_fill = 1,
		st->point_size = 1; /* drawn as its edges (an approximation) */
	VkCullModeFlags cull = (dy & DY_CULL) ? y->cull : p->pr.cull;
	st->cull = ((cull & VK_CULL_MODE_FRONT_BIT) ? LLCT_CULL_FRONT : 0) |
		   ((cull & VK_CULL_MODE_BACK_BIT) ? LLCT_CULL_BACK : 0);
	st->front_ccw = ((dy & DY_FRONT_FACE) ? y->front_face : p->pr.front_face) ==
			VK_FRONT_FACE_COUNTER_CLOCKWISE;
	st->depth_clamp = (dy & DY_DEPTH_CLAMP) ? y->depth_clamp : p->pr.depth_clamp;
	int clip = (dy & DY_DEPTH_CLIP) ? y->depth_clip : p->pr.depth_clip;
	st->no_depth_clip = clip < 0 ? st->depth_clamp : !clip;
	st->z_neg_one = (dy & DY_CLIP_NEG) ? y->clip_neg : p->pr.clip_neg;
	st->depth_bias = (dy & DY_DEPTH_BIAS_ENABLE) ? y->bias_enable : p->pr.bias_enable;
	st->bias_constant = (dy & DY_DEPTH_BIAS) ? y->bias_c : p->pr.bias_c;
	st->bias_clamp = (dy & DY_DEPTH_BIAS) ? y->bias_clamp : p->pr.bias_clamp;
	st->bias_slope = (dy & DY_DEPTH_BIAS) ? y->bias_s : p->pr.bias_s;
	st->line_width = (dy & DY_LINE_WIDTH) ? y->line_width : p->pr.line_width;
	st->samples = (dy & DY_SAMPLES) ? y->samples : p->fs.samples;
	st->samples = st->samples ? st->samples : 1;
	st->discards = p->fs.discards;
	st->writes_depth = p->fs.writes_depth;
	st->no_raster = (dy & DY_RAST_DISCARD) ? y->rast_discard : p->pr.rast_discard;
}

/* The vertex and index ranges of a draw: an indexed draw's index range, and the vertices it
 * uses, from the index values (capture_index_data) when the layer can know them, else from the
 * vertex offset and count; an indirect draw (count 0: unknown) the whole bound buffers. */
static void vertex_uses(struct capture_device *c, const struct pipe *p, const struct cmd *m)
{
	uint64_t vfirst = m->u.draw.indexed ? m->u.draw.vertex_offset : m->u.draw.first;
	uint64_t vcount = m->u.draw.count;
	struct buf *ibuf = m->u.draw.indexed ? capture_hmap_get(&c->tr->bufs, c->walk->ib) : NULL;
	if (ibuf && m->u.draw.count && c->walk->ib_size) {
		const uint8_t *p8 = capture_index_data(
		    c, ibuf, c->walk->ib_off + (uint64_t)m->u.draw.first * c->walk->ib_size,
		    (uint64_t)m->u.draw.count * c->walk->ib_size);
		uint64_t lo_i = UINT64_MAX, hi_i = 0;
		for (uint64_t k = 0; p8 && k < m->u.draw.count; k++) {
			uint64_t v = c->walk->ib_size == 2   ? ((const uint16_t *)p8)[k]
				     : c->walk->ib_size == 1 ? p8[k]
							     : ((const uint32_t *)p8)[k];
			if ((c->walk->ib_size == 2 && v == 0xffff) ||
			    (c->walk->ib_size == 4 && v == 0xffffffffu))
				continue; /* primitive restart */
			lo_i = v < lo_i ? v : lo_i;
			hi_i = v > hi_i ? v : hi_i;
		}
		if (lo_i <= hi_i) {
			vfirst = m->u.draw.vertex_offset + lo_i;
			vcount = hi_i - lo_i + 1;
		}
	}
	if (m->u.draw.indexed)
		range_use(c, -1, c->walk->ib,
			  c->walk->ib_off + (uint64_t)m->u.draw.first * c->walk->ib_size,
			  (uint64_t)m->u.draw.count * c->walk->ib_size, LLCT_STREAM_VTX,
			  LLCT_OP_READ, 1);
	for (int b = 0; p && b < 16; b++) {
		uint64_t stride = (p->dyn & DY_STRIDE) ? c->walk->vb_stride[b] : p->vi.stride[b];
		if (c->walk->vb[b] && !m->u.draw.count) /* indirect: the whole bound buffer */
			range_use(c, -1, c->walk->vb[b], c->walk->vb_off[b], VK_WHOLE_SIZE,
				  LLCT_STREAM_VTX, LLCT_OP_READ, 1);
		else if (stride && c->walk->vb[b] && vcount)
			range_use(c, -1, c->walk->vb[b], c->walk->vb_off[b] + vfirst * stride,
				  vcount * stride, LLCT_STREAM_VTX, LLCT_OP_READ, 1);
	}
}

/* Why a twin did not run where it could have (LLCT_CAPTURE_TWIN_LEAD). */
#define NO_TWINS                                                                                   \
	"its command buffer was recorded more frames before the range than "                       \
	"LLCT_CAPTURE_TWIN_LEAD allows a twin"

/* The width of a pass's first color or depth target (its SMs' tiles), else its area's. */
static uint32_t target_width(const struct llct_pass *pass)
{
	for (uint32_t a = 0; a < pass->n; a++)
		if (pass->att[a].role == LLCT_ROLE_COLOR || pass->att[a].role == LLCT_ROLE_DEPTH) {
			uint32_t w, h;
			llct_surface_mip_extent(&pass->att[a].s, pass->att[a].mip, &w, &h);
			return w;
		}
	return pass->x1;
}

/* A draw row's text before the tier's results: the command, its sub-draw, the layer's count. */
static void draw_row_head(struct capture_device *c, const struct cmd *m, const struct pipe *p,
			  uint64_t measured, struct capture_jtext *t)
{
	capture_jtext_init(t);
	capture_jtext_add(t, m->u.draw.indexed ? "{\"indexed\":true" : "{\"indexed\":false");
	capture_jtext_num(t, ",\"count\":", m->u.draw.count);
	capture_jtext_num(t, ",\"instances\":", m->u.draw.instances);
	capture_jtext_num(t, ",\"first\":", m->u.draw.first);
	capture_jtext_num(t, ",\"pipeline\":", p ? p->id : 0);
	if (m->u.draw.sub) /* a later sub-draw of a multi-draw: its index in it */
		capture_jtext_num(t, ",\"sub\":", m->u.draw.sub);
	if (measured != UINT64_MAX)
		capture_jtext_num(t,
				  c->rs->count_query == VK_QUERY_TYPE_OCCLUSION ? ",\"occlusion\":"
										: ",\"fragments\":",
				  measured);
}

/* And after them: where tier 3's accesses came from, the pass's attachments, the end. */
static void draw_row_tail(struct capture_device *c, const struct pipe *p, int recorded, int later,
			  const struct instr_result *ir, struct capture_jtext *t)
{
	struct cbuf *cb = c->walk->cb;
	capture_jtext_init(t);
	if (recorded) { /* the TEX came from the records; those that named nothing the layer
			   knows (or past a buffer's range) are said */
		capture_jtext_add(t, ",\"accesses\":\"instrumented\",\"records\":%u,\"lost\":%u",
				  ir->records, ir->lost);
		if (ir->unplaced)
			capture_jtext_add(t, ",\"unplaced\":%u", ir->unplaced);
	} else if (c->frag_instr && p && (p->tw.why || (p->tw.twin && cb && cb->no_twins))) {
		capture_jtext_add(t, ",\"accesses\":\"model\",\"why\":");
		capture_jtext_str(t, p->tw.why ? p->tw.why : NO_TWINS);
	} else if (c->frag_instr && c->rs->timed_out) { /* the device may still write them */
		capture_jtext_add(t,
				  ",\"accesses\":\"model\",\"why\":\"%s submission did not "
				  "finish within LLCT_CAPTURE_WAIT_SECONDS: records are not read\"",
				  cb && cb->late ? "its" : "an earlier");
	} else if (c->frag_instr) /* tier 3: every draw row says what it got */
		capture_jtext_add(
		    t, "%s",
		    p && p->tw.nothing
			? ",\"accesses\":\"none\",\"why\":\"its shaders make no access to record\""
		    : later && c->walk->multi_recorded
			? ",\"accesses\":\"instrumented\",\"with\":\"its multi-draw's first "
			  "sub-draw, whose row holds the records of every sub-draw\""
		    : later ? ",\"accesses\":\"model\",\"why\":\"its multi-draw's first sub-draw "
			      "made no records\""
			    : ",\"accesses\":\"model\",\"why\":\"no records were made for it\"");
	capture_att_ids(c, t);
	capture_jtext_add(t, "}");
}

void capture_do_draw(struct capture_device *c, const struct cmd *m)
{
	struct pipe *p = capture_hmap_get(&c->ps->pipes, c->walk->cur_pipe[0]);
	struct llct_draw d = {.samples_passed = UINT64_MAX};
	struct llct_draw_result r;
	struct cbuf *cb = c->walk->cb;
	uint64_t measured = UINT64_MAX;
	draw_state(c, p, &d.st);
	/* the layer's count of the draw: samples that passed (occlusion) or fragment shader
	   invocations (pipeline statistics: only where the pipeline has a fragment stage) */
	if (m->u.draw.query && cb && cb->cnt.res_ok && m->u.draw.query <= cb->cnt.used &&
	    (c->rs->count_query == VK_QUERY_TYPE_OCCLUSION || (p && p->fs.has_fs)))
		measured = cb->cnt.res[m->u.draw.query - 1];
	/* tier 1 scales its rectangle by the count: samples, or invocations as pixels */
	d.samples_passed = measured == UINT64_MAX || c->rs->count_query == VK_QUERY_TYPE_OCCLUSION
			       ? measured
			       : measured * d.st.samples;
	/* tier 2: the positions the shadow draw wrote */
	char pos_state[112] = "";
	if (c->tier->positions) {
		if ((cb && cb->late) || (c->rs->timed_out && !c->xfb))
			snprintf(pos_state, sizeof(pos_state),
				 "none: %s did not finish within LLCT_CAPTURE_WAIT_SECONDS",
				 cb && cb->late ? "its submission" : "an earlier submission");
		else if (!p || !p->pr.shadow)
			snprintf(pos_state, sizeof(pos_state), "none: %s",
				 !p                ? "unknown pipeline"
				 : p->pr.no_shadow ? p->pr.no_shadow
						   : "no shadow pipeline");
		else if (!c->tier->positions(c, cb, m->u.draw.geom, &d.pos, &d.n_vertices,
					     &d.stride, pos_state, sizeof(pos_state)) &&
			 !d.n_vertices)
			d.pos = NULL, snprintf(pos_state, sizeof(pos_state), "xfb: no primitives");
	}
	c->walk->n_uses = 0;
	bound_uses(c, p, 0);
	vertex_uses(c, p, m);
	/* tier 3: the fragment twin's records give the sampled images' traffic */
	struct instr_result ir;
	int recorded = c->frag_instr && c->tier->draw_peek && !c->rs->timed_out &&
		       !c->tier->draw_peek(c, cb, m->u.draw.rec, p, &ir); /* tier 3 */
	/* a multi-draw's later sub-draws that went down with it (not split: no records of their
	   own): their accesses are in the first's records, so their sampled images (and
	   buffers) are not modelled again */
	int later = m->u.draw.sub && !m->u.draw.rec;
	int in_first = c->frag_instr && later && c->walk->multi_recorded && p && p->tw.twin;
	if (recorded || in_first) { /* sampled images, and buffers when every stage records,
				       from records */
		size_t k = 0;
		for (size_t i = 0; i < c->walk->n_uses; i++) {
			const struct llct_use *u = &c->walk->uses[i];
			int img =
			    u->kind == LLCT_USE_IMAGE && u->binding == LLCT_BIND_SAMPLED_IMAGE;
			int buf = u->binding == LLCT_BIND_UNIFORM ||
				  u->binding == LLCT_BIND_STORAGE ||
				  u->binding == LLCT_BIND_STORAGE_IMAGE;
			if (!img && !(buf && p->tw.all_stages))
				c->walk->uses[k++] = *u;
		}
		c->walk->n_uses = k;
	}
	d.uses = c->walk->uses;
	d.n_uses = (uint32_t)c->walk->n_uses;
	uint32_t id = capture_kernel_next(c); /* the tier's queue flushed below, unless it is
						 queued behind them */
	struct capture_jtext head, tail;
	draw_row_head(c, m, p, measured, &head);
	draw_row_tail(c, p, recorded, later, &ir, &tail);
	int queued = !recorded && d.pos && c->tier->queue && c->in_frame &&
		     !capture_rows_add(c, id, capture_jtext_get(&head), capture_jtext_get(&tail),
				       pos_state, d.st.discards);
	if (queued && c->tier->queue(c, &c->walk->pass, &d, id) != 1) {
		capture_rows_drop_last(c);
		queued = 0;
	}
	if (!queued) {
		if (c->tier->flush)
			c->tier->flush(c);
		uint32_t width = recorded ? target_width(&c->walk->pass) : 0;
		if (recorded && c->tier->draw_records_begin) /* its records worked out as it
								rasterizes */
			c->tier->draw_records_begin(c, cb, m->u.draw.rec, p, width, &ir);
		async_draw_begin(c); /* on the expansion thread, the program may record meanwhile */
		c->tier->draw(c, &c->walk->pass, &d, &r);
		async_draw_end(c);
		if (recorded)
			c->tier->draw_records(c, cb, m->u.draw.rec, p, width, &ir);
	}
	if (c->in_frame) { /* what the device wrote for it, read back (capture.raw.*) */
		c->out->raw_records += recorded ? ir.records : 0;
		c->out->raw_vertices += d.pos ? d.n_vertices : 0;
	}
	if (d.pos)
		c->tier->consumed(cb, m->u.draw.geom, d.n_vertices);
	if (!m->u.draw.sub) /* a single draw, or a multi-draw's first */
		c->walk->multi_recorded = recorded;
	if (!queued) {
		if (c->tier->tier >= 2)
			capture_draw_results(&head, pos_state, &r, d.st.discards);
		capture_jtext_add(&head, "%s", capture_jtext_get(&tail));
		capture_kernel_row(c, id, "draw", capture_jtext_get(&head));
	}
	capture_jtext_free(&head);
	capture_jtext_free(&tail);
}

void capture_do_dispatch(struct capture_device *c, struct cbuf *b, const struct cmd *m)
{
	struct pipe *p = capture_hmap_get(&c->ps->pipes, c->walk->cur_pipe[1]);
	struct capture_jtext t;
	struct instr_result ir;
	/* tier 3: what the instrumented twin recorded, in place of the buffers' footprint */
	int recorded =
	    c->tier->dispatch_peek && !c->rs->timed_out && !c->tier->dispatch_peek(b, m, p, &ir);
	capture_jtext_init(&t);
	capture_jtext_add(&t, "{\"groups\":[%u,%u,%u],\"pipeline\":%llu", m->u.dispatch.x,
			  m->u.dispatch.y, m->u.dispatch.z, (unsigned long long)(p ? p->id : 0));
	if (recorded)
		capture_jtext_add(&t, ",\"accesses\":\"instrumented\",\"records\":%u,\"lost\":%u",
				  ir.records, ir.lost);
	else if (c->tier3) {
		capture_jtext_add(&t, ",\"accesses\":\"footprint\",\"why\":");
		capture_jtext_str(
		    &t, c->rs->timed_out && b && b->late
			    ? "its submission did not finish within "
			      "LLCT_CAPTURE_WAIT_SECONDS: records are not read"
			: c->rs->timed_out ? "an earlier submission did not finish within "
					     "LLCT_CAPTURE_WAIT_SECONDS: records are not read"
			: p && p->tw.why   ? p->tw.why
			: p && p->tw.twin && b && b->no_twins ? NO_TWINS
			: p && p->tw.twin ? "recorded before the layer could record its accesses"
					  : "no pipeline");
	}
	if (recorded && c->in_frame)
		c->out->raw_records += ir.records;
	uint32_t id = capture_kernel_begin(c);
	c->walk->n_uses = 0;
	bound_uses(c, p, 1);
	if (recorded) { /* the buffers' and images' traffic is the records' (sampled images'
			   unless some sample was not followed); texel buffers keep their
			   footprint */
		size_t k = 0;
		for (size_t i = 0; i < c->walk->n_uses; i++)
			if (c->walk->uses[i].binding != LLCT_BIND_UNIFORM &&
			    c->walk->uses[i].binding != LLCT_BIND_STORAGE &&
			    c->walk->uses[i].binding != LLCT_BIND_STORAGE_IMAGE &&
			    (c->walk->uses[i].binding != LLCT_BIND_SAMPLED_IMAGE ||
			     p->tw.tex_partial))
				c->walk->uses[k++] = c->walk->uses[i];
		c->walk->n_uses = k;
		c->tier->dispatch_records(c, b, m, p, &ir);
		if (ir.lost) { /* said, and the next recording of it gets room */
			cap_log("frame %u: a dispatch recorded %u buffer accesses, %u with no room "
				"in its record buffer (lost; its kernel row says so)",
				c->frame, ir.records, ir.lost);
			p->tw.need = ir.records > p->tw.need ? ir.records : p->tw.need;
		}
	}
	llct_dispatch_footprint(c->out->fp, c->walk->uses, (uint32_t)c->walk->n_uses);
	if (recorded && ir.unplaced) /* records that named nothing the layer knows */
		capture_jtext_add(&t, ",\"unplaced\":%u", ir.unplaced);
	capture_jtext_add(&t, "}");
	capture_kernel_row(c, id, "dispatch", capture_jtext_get(&t));
	capture_jtext_free(&t);
}
