/* synth.c - generates LLC access records of a deferred-rendered frame from a small scene model.
 *
 * The model (docs/SYNTH.md) emits what reaches the LLC after per-SM render caches have merged
 * accesses within a screen tile: one access per cache line per surface per tile. It does not
 * rasterize triangles; objects are screen rectangles with a depth, which is enough to give
 * real occlusion (depth pre-pass, then G-buffer with an equal test), RT-to-TEX reuse (the
 * G-buffer sampled later), Z-to-TEX reuse (depth and shadow map sampled later), mip-mapped material
 * reuse across objects, blending and a post chain ending in the displayable image.
 */
#define _GNU_SOURCE
#include "llct/synth.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINE 64
#define BUF_RECS 4096

/* A 2D surface laid out in 64-byte blocks (bw x bh pixels each), block rows in order. */
struct surf {
	uint64_t base;
	uint32_t w, h, bpp, bw, bh, blocks_x, blocks_y;
};

struct object {
	int32_t x, y;  /* top-left at frame 0, pixels */
	uint32_t w, h; /* extent, pixels */
	uint32_t z;    /* depth, 1..65535 (smaller is nearer) */
	uint32_t material;
	uint32_t n_vertices, n_indices;
	uint64_t vb, ib; /* vertex and index buffer addresses */
	float parallax;  /* motion factor */
};

struct gen {
	const struct llct_synth_params *p;
	llct_synth_emit_fn emit;
	llct_synth_kernel_fn kernel_fn;
	void *ud;
	int stop;
	uint32_t frame, kernel, sm;
	struct llct_record buf[BUF_RECS], out[BUF_RECS];
	size_t n;
	uint64_t next_addr;
	struct surf depth, hiz, shadow, gbuf[4], hdr, bloom[2], ldr, disp, ui_atlas;
	struct surf *mats; /* albedo and normal map of each material (mip 0) */
	struct object *objs;
	uint32_t *order;    /* objects sorted front to back */
	uint16_t *zbuf;     /* nearest depth per depth-surface block */
	uint64_t constants; /* uniform buffer, one 256-byte slot per object */
	uint64_t code;      /* shader code */
	uint64_t rng;
};

static uint64_t rnd(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint64_t alloc(struct gen *g, uint64_t size)
{
	uint64_t a = g->next_addr;
	g->next_addr += (size + 0xffff) & ~(uint64_t)0xffff;
	return a;
}

static void surf_init(struct gen *g, struct surf *s, uint32_t w, uint32_t h, uint32_t bpp)
{
	s->w = w ? w : 1;
	s->h = h ? h : 1;
	s->bpp = bpp;
	switch (bpp) {
	case 1:
		s->bw = 8, s->bh = 8;
		break;
	case 2:
		s->bw = 8, s->bh = 4;
		break;
	case 8:
		s->bw = 4, s->bh = 2;
		break;
	default:
		s->bpp = 4, s->bw = 4, s->bh = 4;
	}
	s->blocks_x = (s->w + s->bw - 1) / s->bw;
	s->blocks_y = (s->h + s->bh - 1) / s->bh;
	s->base = alloc(g, (uint64_t)s->blocks_x * s->blocks_y * LINE);
}

static uint64_t line_of(const struct surf *s, uint32_t x, uint32_t y)
{
	if (x >= s->w)
		x = s->w - 1;
	if (y >= s->h)
		y = s->h - 1;
	return s->base + ((uint64_t)(y / s->bh) * s->blocks_x + x / s->bw) * LINE;
}

/* SMs work in parallel: the buffered records, in runs of one SM each (one tile, one vertex
 * batch), reach the LLC interleaved, a burst of up to BURST records from each run in turn. */
#define BURST 8
static void flush(struct gen *g)
{
	size_t starts[BUF_RECS + 1], n_runs = 0;
	if (!g->n || g->stop) {
		g->n = 0;
		return;
	}
	for (size_t i = 0; i < g->n; i++)
		if (i == 0 || g->buf[i].sm != g->buf[i - 1].sm)
			starts[n_runs++] = i;
	starts[n_runs] = g->n;
	size_t pos[BUF_RECS], k = 0, window = g->p->n_sms < n_runs ? g->p->n_sms : n_runs;
	for (size_t r = 0; r < n_runs; r++)
		pos[r] = starts[r];
	/* Runs are taken `window` at a time (the SMs in flight), round robin within the group. */
	for (size_t base = 0; base < n_runs; base += window) {
		size_t end = base + window < n_runs ? base + window : n_runs, left = end - base;
		while (left) {
			for (size_t r = base; r < end; r++) {
				size_t take = starts[r + 1] - pos[r];
				if (!take)
					continue;
				if (take > BURST)
					take = BURST;
				memcpy(&g->out[k], &g->buf[pos[r]], take * sizeof(g->out[0]));
				k += take;
				pos[r] += take;
				if (pos[r] == starts[r + 1])
					left--;
			}
		}
	}
	g->stop = g->emit(g->ud, g->out, g->n);
	g->n = 0;
}

static void put(struct gen *g, uint64_t addr, int stream, int op)
{
	struct llct_record *r = &g->buf[g->n++];
	r->addr = addr;
	r->stream = (uint8_t)stream;
	r->op = (uint8_t)op;
	r->sm = (uint16_t)g->sm;
	r->kernel = g->kernel;
	r->tenant = 0;
	r->site = 0;
	if (g->n == BUF_RECS)
		flush(g);
}

/* Emits the lines of surface s covering pixel block [x, x+4) x [y, y+4). */
static void put_block(struct gen *g, const struct surf *s, uint32_t x, uint32_t y, int stream,
		      int op)
{
	uint32_t ex = x + 4 > s->w ? s->w : x + 4, ey = y + 4 > s->h ? s->h : y + 4;
	for (uint32_t yy = y; yy < ey; yy += s->bh)
		for (uint32_t xx = x; xx < ex; xx += s->bw)
			put(g, line_of(s, xx, yy), stream, op);
}

static void begin_kernel(struct gen *g, const char *kind, const char *pass, int object)
{
	char name[64], params[128];
	flush(g);
	g->kernel++;
	if (!g->kernel_fn || g->stop)
		return;
	if (object >= 0) {
		snprintf(name, sizeof(name), "%s obj %d", pass, object);
		snprintf(params, sizeof(params), "{\"pass\":\"%s\",\"object\":%d}", pass, object);
	} else {
		snprintf(name, sizeof(name), "%s", pass);
		snprintf(params, sizeof(params), "{\"pass\":\"%s\"}", pass);
	}
	struct llct_kernel k = {
	    .id = g->kernel, .frame = g->frame, .kind = kind, .name = name, .params = params};
	if (g->kernel_fn(g->ud, &k))
		g->stop = 1;
}

/* Per-draw fixed traffic: constants and shader code (OTHER), then vertex/index fetch (VTX). */
static void draw_setup(struct gen *g, uint32_t obj, int full_attributes)
{
	const struct object *o = &g->objs[obj];
	g->sm = g->kernel % g->p->n_sms;
	put(g, g->constants + (uint64_t)obj * 256, LLCT_STREAM_OTHER, LLCT_OP_READ);
	put(g, g->constants + (uint64_t)obj * 256 + 64, LLCT_STREAM_OTHER, LLCT_OP_READ);
	put(g, g->code + (full_attributes ? 4096 : 0), LLCT_STREAM_OTHER, LLCT_OP_READ);
	uint32_t stride = full_attributes ? 32 : 12;
	uint64_t ib_lines = ((uint64_t)o->n_indices * 4 + LINE - 1) / LINE;
	uint64_t vb_lines = ((uint64_t)o->n_vertices * stride + LINE - 1) / LINE;
	for (uint64_t i = 0; i < ib_lines || i < vb_lines; i++) {
		g->sm = (uint32_t)((g->kernel + i / 16) % g->p->n_sms); /* vertex batches */
		if (i < ib_lines)
			put(g, o->ib + i * LINE, LLCT_STREAM_VTX, LLCT_OP_READ);
		if (i < vb_lines)
			put(g, o->vb + i * LINE, LLCT_STREAM_VTX, LLCT_OP_READ);
	}
}

/* The object's rectangle on screen in `frame`, clipped; returns 0 if it is off screen. */
static int screen_rect(const struct gen *g, const struct object *o, uint32_t r[4])
{
	int64_t dx = (int64_t)((float)g->frame * (float)g->p->motion * o->parallax);
	int64_t x0 = o->x - dx, y0 = o->y, x1 = x0 + o->w, y1 = y0 + o->h;
	if (x0 < 0)
		x0 = 0;
	if (y0 < 0)
		y0 = 0;
	if (x1 > g->p->width)
		x1 = g->p->width;
	if (y1 > g->p->height)
		y1 = g->p->height;
	if (x0 >= x1 || y0 >= y1)
		return 0;
	r[0] = (uint32_t)x0 & ~3u, r[1] = (uint32_t)y0 & ~3u, r[2] = (uint32_t)x1,
	r[3] = (uint32_t)y1;
	return 1;
}

/* Calls fn for each 4x4 block of rect r, tile by tile (tiles in raster order, SM per tile). */
#define FOR_BLOCKS(g, r, BODY)                                                                     \
	for (uint32_t ty = (r)[1] / (g)->p->tile; ty * (g)->p->tile < (r)[3]; ty++)                \
		for (uint32_t tx = (r)[0] / (g)->p->tile; tx * (g)->p->tile < (r)[2]; tx++) {      \
			uint32_t tiles_x_ = ((g)->p->width + (g)->p->tile - 1) / (g)->p->tile;     \
			(g)->sm = (ty * tiles_x_ + tx) % (g)->p->n_sms;                            \
			uint32_t by0 = ty * (g)->p->tile, bx0 = tx * (g)->p->tile;                 \
			if (by0 < (r)[1])                                                          \
				by0 = (r)[1];                                                      \
			if (bx0 < (r)[0])                                                          \
				bx0 = (r)[0];                                                      \
			for (uint32_t y = by0; y < (ty + 1) * (g)->p->tile && y < (r)[3]; y += 4)  \
				for (uint32_t x = bx0; x < (tx + 1) * (g)->p->tile && x < (r)[2];  \
				     x += 4) {                                                     \
					BODY                                                       \
				}                                                                  \
		}

static uint16_t *zcell(struct gen *g, uint32_t x, uint32_t y)
{
	return &g->zbuf[(y / 4) * g->depth.blocks_x + x / 4];
}

static void pass_depth(struct gen *g)
{
	uint32_t r[4];
	begin_kernel(g, "clear", "depth-clear", -1);
	for (uint32_t i = 0; i < g->hiz.blocks_x * g->hiz.blocks_y; i++) {
		g->sm = i % g->p->n_sms;
		put(g, g->hiz.base + (uint64_t)i * LINE, LLCT_STREAM_HIZ, LLCT_OP_WRITE);
	}
	for (size_t i = 0; i < (size_t)g->depth.blocks_x * g->depth.blocks_y; i++)
		g->zbuf[i] = 0xffff;
	for (uint32_t k = 0; k < g->p->n_objects && !g->stop; k++) {
		uint32_t obj = g->order[k];
		const struct object *o = &g->objs[obj];
		begin_kernel(g, "draw", "depth-prepass", (int)obj);
		draw_setup(g, obj, 0);
		if (!screen_rect(g, o, r))
			continue;
		uint32_t last_tile_sm = UINT32_MAX;
		FOR_BLOCKS(g, r, {
			if (g->sm != last_tile_sm) {
				put(g, line_of(&g->hiz, x, y), LLCT_STREAM_HIZ, LLCT_OP_READ);
				last_tile_sm = g->sm;
			}
			uint16_t *zc = zcell(g, x, y);
			put(g, line_of(&g->depth, x, y), LLCT_STREAM_Z, LLCT_OP_READ);
			if (o->z < *zc) {
				*zc = (uint16_t)o->z;
				put(g, line_of(&g->depth, x, y), LLCT_STREAM_Z, LLCT_OP_WRITE);
			}
		})
	}
}

static void pass_shadow(struct gen *g)
{
	uint32_t r[4];
	float sx = (float)g->p->shadow_size / (float)g->p->width;
	float sy = (float)g->p->shadow_size / (float)g->p->height;
	for (uint32_t k = 0; k < g->p->n_objects && !g->stop; k++) {
		uint32_t obj = g->order[k];
		const struct object *o = &g->objs[obj];
		begin_kernel(g, "draw", "shadow", (int)obj);
		draw_setup(g, obj, 0);
		/* The light does not move with the camera: project the frame-0 rectangle. */
		int64_t x0 = (int64_t)((float)o->x * sx), y0 = (int64_t)((float)o->y * sy);
		int64_t x1 = x0 + (int64_t)((float)o->w * sx),
			y1 = y0 + (int64_t)((float)o->h * sy);
		if (x0 < 0)
			x0 = 0;
		if (x1 > g->p->shadow_size)
			x1 = g->p->shadow_size;
		if (y1 > g->p->shadow_size)
			y1 = g->p->shadow_size;
		if (x0 >= x1 || y0 >= y1)
			continue;
		r[0] = (uint32_t)x0 & ~3u, r[1] = (uint32_t)y0 & ~3u, r[2] = (uint32_t)x1,
		r[3] = (uint32_t)y1;
		FOR_BLOCKS(g, r, {
			put(g, line_of(&g->shadow, x, y), LLCT_STREAM_Z, LLCT_OP_READ);
			if ((x / 4 + y / 4 + obj) % 3)
				put(g, line_of(&g->shadow, x, y), LLCT_STREAM_Z, LLCT_OP_WRITE);
		})
	}
}

/* Texel line of material texture t at mip `lod` for normalized coordinates (u, v) in 1/65536. */
static uint64_t texel_line(const struct gen *g, const struct surf *t, uint32_t lod, uint32_t u,
			   uint32_t v)
{
	/* Mips follow mip 0 contiguously, each a quarter of the previous (4x4-texel lines). */
	uint64_t base = t->base, w = t->w;
	for (uint32_t l = 0; l < lod; l++) {
		base += ((w + 3) / 4) * ((w + 3) / 4) * LINE;
		w = w > 1 ? w / 2 : 1;
	}
	uint64_t tx = ((uint64_t)u * w) >> 16, ty = ((uint64_t)v * w) >> 16;
	uint64_t bx = (w + 3) / 4;
	return base + ((ty / 4) * bx + tx / 4) * LINE;
}

static void pass_gbuffer(struct gen *g)
{
	uint32_t r[4];
	for (uint32_t k = 0; k < g->p->n_objects && !g->stop; k++) {
		uint32_t obj = g->order[k];
		const struct object *o = &g->objs[obj];
		begin_kernel(g, "draw", "gbuffer", (int)obj);
		draw_setup(g, obj, 1);
		if (!screen_rect(g, o, r))
			continue;
		/* LOD that maps the object's screen width onto the texture. */
		uint32_t lod = 0, tw = g->p->texture_size;
		while (tw > o->w && tw > 4) {
			tw /= 2;
			lod++;
		}
		const struct surf *alb = &g->mats[2 * o->material],
				  *nrm = &g->mats[2 * o->material + 1];
		int64_t dx = (int64_t)((float)g->frame * (float)g->p->motion * o->parallax);
		int64_t ox = o->x - dx;
		uint32_t last_tile_sm = UINT32_MAX;
		FOR_BLOCKS(g, r, {
			if (g->sm != last_tile_sm) {
				put(g, line_of(&g->hiz, x, y), LLCT_STREAM_HIZ, LLCT_OP_READ);
				last_tile_sm = g->sm;
			}
			put(g, line_of(&g->depth, x, y), LLCT_STREAM_Z, LLCT_OP_READ);
			if (*zcell(g, x, y) == o->z) {
				uint32_t u = (uint32_t)(((int64_t)x - ox) * 65536 / o->w) & 0xffff;
				uint32_t v =
				    (uint32_t)(((int64_t)y - o->y) * 65536 / o->h) & 0xffff;
				put(g, texel_line(g, alb, lod, u, v), LLCT_STREAM_TEX,
				    LLCT_OP_READ);
				put(g, texel_line(g, nrm, lod, u, v), LLCT_STREAM_TEX,
				    LLCT_OP_READ);
				for (uint32_t b = 0; b < g->p->n_gbuffers; b++)
					put_block(g, &g->gbuf[b], x, y, LLCT_STREAM_RT,
						  LLCT_OP_WRITE);
			}
		})
	}
}

static void pass_lighting(struct gen *g)
{
	uint32_t r[4] = {0, 0, g->p->width, g->p->height};
	begin_kernel(g, "draw", "lighting", -1);
	put(g, g->code + 8192, LLCT_STREAM_OTHER, LLCT_OP_READ);
	FOR_BLOCKS(g, r, {
		put(g, line_of(&g->depth, x, y), LLCT_STREAM_TEX, LLCT_OP_READ);
		if (*zcell(g, x, y) != 0xffff) { /* sky has no G-buffer data or shadow */
			for (uint32_t b = 0; b < g->p->n_gbuffers; b++)
				put_block(g, &g->gbuf[b], x, y, LLCT_STREAM_TEX, LLCT_OP_READ);
			uint32_t shx = (uint32_t)((uint64_t)x * g->p->shadow_size / g->p->width);
			uint32_t shy = (uint32_t)((uint64_t)y * g->p->shadow_size / g->p->height);
			put(g, line_of(&g->shadow, shx, shy), LLCT_STREAM_TEX, LLCT_OP_READ);
		}
		put_block(g, &g->hdr, x, y, LLCT_STREAM_RT, LLCT_OP_WRITE);
	})
}

/* Alpha-blended particles after lighting: depth test (Z read, no write), particle atlas
 * reads, and a read-modify-write of the HDR target (RT read and write: blending). Particles
 * cluster in a few emitters, so their quads overlap and blending re-reads what it wrote. */
static void pass_particles(struct gen *g)
{
	uint64_t s = g->p->seed ^ 0x9a9a9a9aull ^ ((uint64_t)g->frame << 40);
	uint32_t ex = 0, ey = 0;
	for (uint32_t i = 0; i < g->p->n_particles && !g->stop; i++) {
		if (i % 8 == 0) { /* a new emitter */
			ex = (uint32_t)(rnd(&s) % g->p->width);
			ey = (uint32_t)(rnd(&s) % g->p->height);
		}
		uint32_t size = 16 + (uint32_t)(rnd(&s) % 96);
		uint32_t x0 = (ex + (uint32_t)(rnd(&s) % 64)) % g->p->width & ~3u;
		uint32_t y0 = (ey + (uint32_t)(rnd(&s) % 64)) % g->p->height & ~3u;
		uint32_t r[4] = {x0, y0, x0 + size > g->p->width ? g->p->width : x0 + size,
				 y0 + size > g->p->height ? g->p->height : y0 + size};
		begin_kernel(g, "draw", "particles", (int)i);
		put(g, g->code + 20480, LLCT_STREAM_OTHER, LLCT_OP_READ);
		FOR_BLOCKS(g, r, {
			put(g, line_of(&g->depth, x, y), LLCT_STREAM_Z, LLCT_OP_READ);
			put(g, line_of(&g->ui_atlas, (x - x0) % 128, (y - y0) % 128),
			    LLCT_STREAM_TEX, LLCT_OP_READ);
			put_block(g, &g->hdr, x, y, LLCT_STREAM_RT, LLCT_OP_READ);
			put_block(g, &g->hdr, x, y, LLCT_STREAM_RT, LLCT_OP_WRITE);
		})
	}
}

/* Full-screen pass reading `src` (sampled at dst's scale) and writing dst as `stream`. */
static void pass_fullscreen(struct gen *g, const char *name, const struct surf *src,
			    const struct surf *src2, const struct surf *dst, int stream)
{
	uint32_t r[4] = {0, 0, dst->w, dst->h};
	begin_kernel(g, "draw", name, -1);
	put(g, g->code + 12288, LLCT_STREAM_OTHER, LLCT_OP_READ);
	FOR_BLOCKS(g, r, {
		uint32_t sx = (uint32_t)((uint64_t)x * src->w / dst->w);
		uint32_t sy = (uint32_t)((uint64_t)y * src->h / dst->h);
		put_block(g, src, sx, sy, LLCT_STREAM_TEX, LLCT_OP_READ);
		if (src2) {
			uint32_t s2x = (uint32_t)((uint64_t)x * src2->w / dst->w);
			uint32_t s2y = (uint32_t)((uint64_t)y * src2->h / dst->h);
			put(g, line_of(src2, s2x, s2y), LLCT_STREAM_TEX, LLCT_OP_READ);
		}
		put_block(g, dst, x, y, stream, LLCT_OP_WRITE);
	})
}

static void pass_post_and_present(struct gen *g)
{
	const struct surf *cur = &g->hdr;
	for (uint32_t i = 0; i + 1 < g->p->n_post && !g->stop; i++) {
		const struct surf *dst = &g->bloom[i % 2];
		pass_fullscreen(g, i == 0 ? "bloom-downsample" : "bloom-blur", cur, NULL, dst,
				LLCT_STREAM_RT);
		cur = dst;
	}
	if (g->p->n_post)
		pass_fullscreen(g, "tonemap", &g->hdr, cur == &g->hdr ? NULL : cur, &g->ldr,
				LLCT_STREAM_RT);
	pass_fullscreen(g, "present-blit", g->p->n_post ? &g->ldr : &g->hdr, NULL, &g->disp,
			LLCT_STREAM_DISP);
	/* Alpha-blended UI: read and write the displayable image, sample the UI atlas. */
	uint64_t s = g->p->seed ^ 0x55aa55aa;
	for (uint32_t i = 0; i < g->p->n_ui && !g->stop; i++) {
		uint32_t w = 32 + (uint32_t)(rnd(&s) % (g->p->width / 4 + 1));
		uint32_t h = 16 + (uint32_t)(rnd(&s) % (g->p->height / 8 + 1));
		uint32_t x0 = (uint32_t)(rnd(&s) % g->p->width) & ~3u;
		uint32_t y0 = (uint32_t)(rnd(&s) % g->p->height) & ~3u;
		uint32_t r[4] = {x0, y0, x0 + w > g->p->width ? g->p->width : x0 + w,
				 y0 + h > g->p->height ? g->p->height : y0 + h};
		begin_kernel(g, "draw", "ui", (int)i);
		put(g, g->code + 16384, LLCT_STREAM_OTHER, LLCT_OP_READ);
		FOR_BLOCKS(g, r, {
			put(g,
			    line_of(&g->ui_atlas, (x - x0) % g->ui_atlas.w,
				    (y - y0) % g->ui_atlas.h),
			    LLCT_STREAM_TEX, LLCT_OP_READ);
			put(g, line_of(&g->disp, x, y), LLCT_STREAM_DISP, LLCT_OP_READ);
			put(g, line_of(&g->disp, x, y), LLCT_STREAM_DISP, LLCT_OP_WRITE);
		})
	}
}

int llct_synth_check(const struct llct_synth_params *p, char *why, size_t why_size)
{
	const char *bad = NULL;
	if (p->width < 16 || p->height < 16 || p->width > 16384 || p->height > 16384)
		bad = "width and height must be 16..16384";
	else if (p->n_objects < 1 || p->n_objects > 100000)
		bad = "objects must be 1..100000";
	else if (p->n_materials < 1 || p->n_materials > 4096)
		bad = "materials must be 1..4096";
	else if (p->texture_size < 4 || p->texture_size > 16384 ||
		 (p->texture_size & (p->texture_size - 1)))
		bad = "texture size must be a power of two, 4..16384";
	else if (p->shadow_size < 16 || p->shadow_size > 16384)
		bad = "shadow size must be 16..16384";
	else if (p->n_gbuffers < 1 || p->n_gbuffers > 4)
		bad = "G-buffers must be 1..4";
	else if (p->n_post > 16)
		bad = "post passes must be 0..16";
	else if (p->n_sms < 1 || p->n_sms > 65535)
		bad = "SMs must be 1..65535";
	else if (p->tile < 4 || p->tile > 256 || p->tile % 4)
		bad = "tile must be a multiple of 4, 4..256";
	else if (p->n_ui > 10000 || p->n_particles > 100000 || p->motion > 10000)
		bad = "ui quads and motion must be at most 10000, particles 100000";
	if (bad && why)
		snprintf(why, why_size, "%s", bad);
	return bad ? LLCT_ERR_INVALID : LLCT_OK;
}

static int by_depth(const void *a, const void *b, void *objs)
{
	const struct object *o = objs;
	uint32_t za = o[*(const uint32_t *)a].z, zb = o[*(const uint32_t *)b].z;
	return za < zb ? -1 : za > zb;
}

static void gen_release(struct gen *g)
{
	free(g->mats);
	free(g->objs);
	free(g->order);
	free(g->zbuf);
}

static int gen_init(struct gen *g, const struct llct_synth_params *p)
{
	memset(g, 0, sizeof(*g));
	g->p = p;
	g->rng = p->seed;
	g->next_addr = (uint64_t)1 << 32;
	surf_init(g, &g->depth, p->width, p->height, 4);
	surf_init(g, &g->hiz, (p->width + 7) / 8, (p->height + 7) / 8, 1);
	surf_init(g, &g->shadow, p->shadow_size, p->shadow_size, 4);
	for (uint32_t b = 0; b < p->n_gbuffers; b++)
		surf_init(g, &g->gbuf[b], p->width, p->height, b == 1 ? 8 : 4);
	surf_init(g, &g->hdr, p->width, p->height, 8);
	surf_init(g, &g->bloom[0], p->width / 2, p->height / 2, 8);
	surf_init(g, &g->bloom[1], p->width / 2, p->height / 2, 8);
	surf_init(g, &g->ldr, p->width, p->height, 4);
	surf_init(g, &g->disp, p->width, p->height, 4);
	surf_init(g, &g->ui_atlas, 512, 512, 4);
	g->constants = alloc(g, (uint64_t)p->n_objects * 256);
	g->code = alloc(g, 65536);
	g->mats = calloc(2 * (size_t)p->n_materials, sizeof(*g->mats));
	g->objs = calloc(p->n_objects, sizeof(*g->objs));
	g->order = calloc(p->n_objects, sizeof(*g->order));
	g->zbuf = calloc((size_t)g->depth.blocks_x * g->depth.blocks_y, sizeof(*g->zbuf));
	if (!g->mats || !g->objs || !g->order || !g->zbuf) {
		gen_release(g);
		return LLCT_ERR_NOMEM;
	}
	for (uint32_t m = 0; m < 2 * p->n_materials; m++) {
		/* mip 0 plus the chain: 4/3 of mip 0 */
		uint32_t t = p->texture_size;
		struct surf *s = &g->mats[m];
		s->w = s->h = t;
		s->bpp = 4, s->bw = 4, s->bh = 4;
		s->blocks_x = s->blocks_y = (t + 3) / 4;
		s->base = alloc(g, (uint64_t)s->blocks_x * s->blocks_y * LINE * 4 / 3 + LINE);
	}
	for (uint32_t i = 0; i < p->n_objects; i++) {
		struct object *o = &g->objs[i];
		/* widths log-distributed from 1/128 to 1/4 of the screen width */
		uint32_t shift = 3 + (uint32_t)(rnd(&g->rng) % 5);
		o->w = p->width >> shift;
		o->w += (uint32_t)(rnd(&g->rng) % (o->w + 1));
		o->h = (uint32_t)((uint64_t)o->w * (50 + rnd(&g->rng) % 100) / 100);
		if (o->w < 4)
			o->w = 4;
		if (o->h < 4)
			o->h = 4;
		/* spread over a band wider than the screen so motion brings objects in */
		o->x = (int32_t)(rnd(&g->rng) % (p->width + p->width / 2)) - (int32_t)(o->w / 2);
		o->y = (int32_t)(rnd(&g->rng) % p->height) - (int32_t)(o->h / 2);
		o->z = 1 + (uint32_t)(rnd(&g->rng) % 65534);
		o->material = (uint32_t)(rnd(&g->rng) % p->n_materials);
		o->n_vertices = 32 + (uint32_t)(rnd(&g->rng) % 1024);
		o->n_indices = o->n_vertices * 3;
		o->vb = alloc(g, (uint64_t)o->n_vertices * 32);
		o->ib = alloc(g, (uint64_t)o->n_indices * 4);
		o->parallax = 0.5f + (float)(65535 - o->z) / 65535.0f;
		g->order[i] = i;
	}
	qsort_r(g->order, p->n_objects, sizeof(*g->order), by_depth, g->objs);
	return LLCT_OK;
}

int llct_synth_frame(const struct llct_synth_params *p, uint32_t frame, uint32_t *next_kernel,
		     llct_synth_emit_fn emit, llct_synth_kernel_fn kernel, void *ud)
{
	struct gen *g = malloc(sizeof(*g));
	int st;
	if (!g)
		return LLCT_ERR_NOMEM;
	if (llct_synth_check(p, NULL, 0) || (st = gen_init(g, p))) {
		free(g);
		return LLCT_ERR_INVALID;
	}
	g->emit = emit;
	g->kernel_fn = kernel;
	g->ud = ud;
	g->frame = frame;
	g->kernel = *next_kernel - 1; /* begin_kernel increments before use */
	pass_depth(g);
	if (!g->stop)
		pass_shadow(g);
	if (!g->stop)
		pass_gbuffer(g);
	if (!g->stop)
		pass_lighting(g);
	if (!g->stop)
		pass_particles(g);
	if (!g->stop)
		pass_post_and_present(g);
	flush(g);
	*next_kernel = g->kernel + 1;
	st = g->stop;
	gen_release(g);
	free(g);
	return st;
}

struct write_ctx {
	struct llct_writer *w;
	int st;
};

static int write_recs(void *ud, const struct llct_record *recs, size_t n)
{
	struct write_ctx *c = ud;
	return c->st = llct_writer_append(c->w, recs, n);
}

static int write_kernel(void *ud, const struct llct_kernel *k)
{
	struct write_ctx *c = ud;
	return c->st = llct_writer_add_kernel(c->w, k);
}

int llct_synth_write_settings(const struct llct_synth_params *p, uint32_t n_frames,
			      struct llct_writer *w)
{
	char v[64];
	int st;
	struct {
		const char *key;
		uint64_t value;
	} knobs[] = {{"synth.width", p->width},
		     {"synth.height", p->height},
		     {"synth.objects", p->n_objects},
		     {"synth.materials", p->n_materials},
		     {"synth.texture_size", p->texture_size},
		     {"synth.shadow_size", p->shadow_size},
		     {"synth.gbuffers", p->n_gbuffers},
		     {"synth.post", p->n_post},
		     {"synth.ui", p->n_ui},
		     {"synth.particles", p->n_particles},
		     {"synth.sms", p->n_sms},
		     {"synth.tile", p->tile},
		     {"synth.motion", p->motion},
		     {"synth.seed", p->seed},
		     {"synth.frames", n_frames}};
	for (size_t i = 0; i < sizeof(knobs) / sizeof(knobs[0]); i++) {
		snprintf(v, sizeof(v), "%llu", (unsigned long long)knobs[i].value);
		if ((st = llct_writer_set(w, knobs[i].key, v)))
			return st;
	}
	return LLCT_OK;
}

int llct_synth_write_frame(const struct llct_synth_params *p, uint32_t frame, uint32_t *next_kernel,
			   struct llct_writer *w)
{
	struct write_ctx c = {w, 0};
	int st;
	if ((st = llct_writer_begin_frame(w, frame)))
		return st;
	st = llct_synth_frame(p, frame, next_kernel, write_recs, write_kernel, &c);
	if (st || c.st) {
		llct_writer_abort_frame(w);
		return c.st ? c.st : st;
	}
	return llct_writer_end_frame(w);
}
