/* tier2.c - capture tier 2, exact geometry: a draw whose positions its shadow draw captured
 * (geometry.c) goes through llctrace's own rasterizer (streams/raster.c) against emulated
 * depth/stencil buffers kept per image view; load ops, clears and DONT_CARE stores act on those
 * buffers as on the real ones. A draw without positions keeps tier 1's model (its kernel row
 * says why). LLCT_CAPTURE_DUMP_DEPTH=DIR writes each depth buffer at the end of each pass. */
#include "tier2.h"
#include "llct/raster.h"

#include <stdio.h>

struct llct_zbuf *capture_img_zbuf(struct img *im, uint32_t mip, uint32_t layer)
{
	for (uint32_t i = 0; i < im->n_zb; i++)
		if (im->zb[i].mip == mip && im->zb[i].layer == layer)
			return im->zb[i].z;
	if (im->n_zb == sizeof(im->zb) / sizeof(im->zb[0]))
		return NULL; /* views of many subresources: the rest keep tier 1's depth model */
	uint32_t w, h;
	llct_surface_mip_extent(&im->s, mip, &w, &h);
	struct llct_zbuf *z =
	    llct_zbuf_create(w, h, im->s.samples, im->depth_bits, im->stencil_bits ? 8 : 0);
	if (z) {
		im->zb[im->n_zb].mip = mip;
		im->zb[im->n_zb].layer = layer;
		im->zb[im->n_zb++].z = z;
	}
	return z;
}

void tier2_begin_pass(struct capture_device *c, const struct llct_pass *p)
{
	tier2_flush(c); /* the pass's depth buffers change under the queued draws */
	for (uint32_t i = 0; i < p->n; i++) {
		const struct llct_attachment *a = &p->att[i];
		if (!a->z)
			continue;
		int cd = a->has_depth && a->load == LLCT_LOAD_CLEAR;
		int cs = a->has_stencil && a->stencil_load == LLCT_LOAD_CLEAR;
		int keep = (a->has_depth && a->load == LLCT_LOAD_LOAD) ||
			   (a->has_stencil && a->stencil_load == LLCT_LOAD_LOAD);
		if (!cd && !cs && !keep)
			llct_zbuf_forget(a->z); /* DONT_CARE: undefined until written */
		if (cd || cs)
			llct_zbuf_clear(a->z, p->x0, p->y0, p->x1, p->y1, cd, a->clear_depth, cs,
					a->clear_stencil);
	}
	llct_pass_load(c->out->fp, p);
}

void tier2_end_pass(struct capture_device *c, const struct llct_pass *p)
{
	tier2_flush(c);
	for (uint32_t i = 0; i < p->n; i++) {
		const struct llct_attachment *a = &p->att[i];
		if (!a->z)
			continue;
		if (c->t2->dump_depth[0] && c->in_frame && a->has_depth) {
			char path[700];
			uint32_t w, h;
			llct_surface_mip_extent(&a->s, a->mip, &w, &h);
			snprintf(path, sizeof(path), "%s/frame%u-kernel%u-image%llu-%ux%u.f32",
				 c->t2->dump_depth, c->frame,
				 c->out->kernel ? c->out->kernel - 1 : 0, (unsigned long long)a->id,
				 w, h);
			if (llct_zbuf_save(a->z, path))
				cap_log("cannot write the depth dump '%s'", path);
		}
		if (a->store != LLCT_STORE_STORE && a->stencil_store != LLCT_STORE_STORE)
			llct_zbuf_forget(a->z); /* DONT_CARE: its contents are gone */
	}
	llct_pass_store(c->out->fp, p);
}

/* The rasterizer's threads' CPU is the expansion's too. */
static void raster_account(struct capture_device *c)
{
	c->out->t_expand_cpu +=
	    llct_raster_take_cpu(c->t2->raster, &c->t2->raster_shared_cpu, &c->t2->raster_spin_cpu);
}

void tier2_draw(struct capture_device *c, const struct llct_pass *p, const struct llct_draw *d,
		struct llct_draw_result *r)
{
	if (!d->pos) {
		llct_draw_footprint(c->out->fp, p, d, r); /* no positions: tier 1's rectangle */
	} else if (llct_raster_draw(c->t2->raster, c->out->fp, p, d, r)) {
		llct_draw_footprint(c->out->fp, p, d,
				    r); /* out of memory: the same, said in the row */
		r->fell_back = 1;
	}
	raster_account(c);
}

/* Tier 2 queues a small draw for the rasterizer's threads (with two or more: a batch of them
 * shares one wake-up, one merge; llct_raster_queue), at tier 2 only: tier 3 works out a draw's
 * records as it is rasterized. */
static int tier2_queue(struct capture_device *c, const struct llct_pass *p,
		       const struct llct_draw *d, uint32_t kernel)
{
	return c->tier->tier == 2 && c->t2->raster &&
	       llct_raster_queue(c->t2->raster, c->out->fp, p, d, kernel) == 1;
}

static void row_done(void *ud, size_t i, const struct llct_draw_result *r)
{
	capture_rows_result(ud, i, r);
}

void tier2_flush(struct capture_device *c)
{
	if (!c->t2 || !c->t2->raster || !llct_raster_queued(c->t2->raster))
		return;
	async_draw_begin(c); /* as a draw: the program may record meanwhile */
	llct_raster_flush(c->t2->raster, row_done, c); /* out of memory: each row says so */
	async_draw_end(c);
	raster_account(c);
	capture_rows_write(c);
}

void tier2_note(struct capture_device *c, struct llct_writer *w)
{
	raster_account(c); /* what the threads counted as they went to sleep after the last draw */
	/* the CPU seconds of draws split over the rasterizer's threads, summed over them (the
	   layer's thread's share included; 0 when none was): the part of expanding_cpu that
	   more threads share */
	char v[24];
	snprintf(v, sizeof(v), "%.6f", c->t2->raster_shared_cpu);
	llct_writer_set(w, "capture.seconds.raster_shared_cpu", v);
	/* and what those threads spent spinning for the next draw (in expanding_cpu, neither
	   the expansion's own work nor the draws') */
	snprintf(v, sizeof(v), "%.6f", c->t2->raster_spin_cpu);
	llct_writer_set(w, "capture.seconds.raster_spin_cpu", v);
	/* and how the rasterizer was set up to draw */
	unsigned threads;
	uint32_t mesh;
	double spin;
	if (!c->t2->raster)
		return;
	llct_raster_describe(c->t2->raster, &threads, &mesh, &spin);
	snprintf(v, sizeof(v), "%u", threads);
	llct_writer_set(w, "capture.raster_threads", v);
	snprintf(v, sizeof(v), "%u", mesh);
	llct_writer_set(w, "capture.raster_mesh", v);
	snprintf(v, sizeof(v), "%.0f", spin * 1e6);
	llct_writer_set(w, "capture.raster_spin_us", v);
	/* small draws queued and done together on the threads (tier2_queue), in how many runs */
	uint64_t queued, batches;
	llct_raster_queue_counts(c->t2->raster, &queued, &batches);
	char qb[64];
	snprintf(qb, sizeof(qb), "%llu", (unsigned long long)queued);
	llct_writer_set(w, "capture.raster_queued_draws", qb);
	snprintf(qb, sizeof(qb), "%llu", (unsigned long long)batches);
	llct_writer_set(w, "capture.raster_queue_runs", qb);
	llct_writer_set(w, "capture.worker_policy",
			c->t2->batch
			    ? "SCHED_BATCH (llct-raster, llct-lanes; LLCT_CAPTURE_BATCH_WORKERS=1)"
			    : "the program's");
}

void tier2_clear(struct capture_device *c, const struct llct_pass *p, uint32_t i, uint32_t x0,
		 uint32_t y0, uint32_t x1, uint32_t y1, uint32_t aspects, float depth,
		 uint32_t stencil)
{
	const struct llct_attachment *a = &p->att[i];
	tier2_flush(c);
	if (a->z)
		llct_zbuf_clear(a->z, x0, y0, x1, y1, !!(aspects & VK_IMAGE_ASPECT_DEPTH_BIT),
				depth, !!(aspects & VK_IMAGE_ASPECT_STENCIL_BIT), stencil);
	llct_tier1.clear(c, p, i, x0, y0, x1, y1, aspects, depth, stencil);
}

static void recording_begun(struct capture_device *c, struct cbuf *b)
{
	(void)c;
	capture_geom_begin(b);
}

const struct tier_ops llct_tier2 = {
    .tier = 2,
    .setting = "2 (exact geometry: transform feedback, own rasterizer)",
    .begin_pass = tier2_begin_pass,
    .end_pass = tier2_end_pass,
    .draw = tier2_draw,
    .queue = tier2_queue,
    .flush = tier2_flush,
    .clear = tier2_clear,
    .zbuf = capture_img_zbuf,
    .positions = capture_geom_positions,
    .consumed = capture_geom_consumed,
    .graphics_pipeline = capture_shadow_create,
    .recording_begun = recording_begun,
    .recording_freed = capture_geom_free,
    .draw_shadow = capture_geom_shadow,
    .note = tier2_note,
};
