/* test_raster.c - tier 2's rasterizer worked by hand: the top-left rule, culling, clipping,
 * sample positions, depth and stencil tests against the emulated buffer, HiZ accept/reject,
 * and the line-granular traffic it makes; on random meshes that tile the screen, every
 * sample covered exactly once (no gaps, no double cover); and draws split over threads giving
 * one thread's records. A few lines over ~800: the checks share their fixtures (the pass, the
 * draw state, the sampled texture, the model), which a second file would have to copy. */
#include "check.h"
#include "llct/raster.h"

#include <math.h>
#include <string.h>

#define MAXREC (1 << 20)
static struct llct_record recs[MAXREC];
static size_t n_recs;

static int collect(void *ud, const struct llct_record *r, size_t n)
{
	(void)ud;
	for (size_t i = 0; i < n && n_recs < MAXREC; i++)
		recs[n_recs++] = r[i];
	return 0;
}

static struct llct_fp *model(void)
{
	struct llct_fp_config c;
	struct llct_fp *fp;
	llct_fp_config_default(&c);
	memset(c.rc_lines, 0, sizeof(c.rc_lines)); /* every access reaches the records */
	CHECK_EQ(llct_fp_create(&c, collect, NULL, &fp), LLCT_OK);
	return fp;
}

static size_t count(int stream, int op)
{
	size_t n = 0;
	for (size_t i = 0; i < n_recs; i++)
		n += recs[i].stream == stream && recs[i].op == op;
	return n;
}

static size_t distinct(int stream, int op)
{
	size_t n = 0;
	for (size_t i = 0; i < n_recs; i++) {
		int seen = recs[i].stream != stream || recs[i].op != op;
		for (size_t j = 0; j < i && !seen; j++)
			seen = recs[j].stream == stream && recs[j].op == op &&
			       recs[j].addr == recs[i].addr;
		n += !seen;
	}
	return n;
}

#define W 64
#define H 64

/* A W x H pass: RGBA8 color, D32 depth with its emulated buffer z (samples per pixel). */
static struct llct_pass pass(struct llct_zbuf *z, uint32_t samples)
{
	struct llct_pass p = {.x1 = W, .y1 = H, .n = 2};
	struct llct_surface cs = {.base = 0x100000,
				  .width = W,
				  .height = H,
				  .layers = 1,
				  .mips = 1,
				  .samples = samples,
				  .bpp = 4,
				  .tiled = 1};
	struct llct_surface ds = cs;
	ds.base = 0x200000;
	p.att[0] = (struct llct_attachment){.s = cs, .role = LLCT_ROLE_COLOR, .slot = 0};
	p.att[1] = (struct llct_attachment){
	    .s = ds, .role = LLCT_ROLE_DEPTH, .slot = -1, .has_depth = 1, .z = z};
	llct_hiz_surface(&ds, 0x900000, &p.att[1].hiz);
	return p;
}

/* Draw state for a W x H viewport, depth test on (op), writes on, color written. */
static struct llct_draw_state state(int op)
{
	return (struct llct_draw_state){.vp_w = W,
					.vp_h = H,
					.vp_max = 1,
					.has_viewport = 1,
					.depth_test = op >= 0,
					.depth_write = op >= 0,
					.depth_compare = op,
					.write_mask = 1,
					.polygon_fill = 1,
					.samples = 1,
					.front_ccw = 1};
}

/* Clip-space vertex of window position (x, y) at depth z (viewport W x H, depth 0..1). */
static void vtx(float *v, double x, double y, double z)
{
	v[0] = (float)(x / W * 2 - 1);
	v[1] = (float)(y / H * 2 - 1);
	v[2] = (float)z;
	v[3] = 1;
}

static struct llct_draw_result draw(struct llct_fp *fp, const struct llct_pass *p,
				    const struct llct_draw_state *st, const float *pos, uint32_t n)
{
	struct llct_raster *r = llct_raster_create();
	struct llct_draw d = {.st = *st, .pos = pos, .n_vertices = n, .samples_passed = UINT64_MAX};
	struct llct_draw_result res;
	n_recs = 0;
	CHECK_EQ(llct_raster_draw(r, fp, p, &d, &res), 0);
	llct_fp_drain(fp);
	llct_raster_destroy(r);
	return res;
}

/* A quad (two triangles) over window rectangle [x0,x1) x [y0,y1) at depth z. */
static uint32_t quad(float *v, double x0, double y0, double x1, double y1, double z)
{
	vtx(v + 0, x0, y0, z), vtx(v + 4, x1, y0, z), vtx(v + 8, x1, y1, z);
	vtx(v + 12, x0, y0, z), vtx(v + 16, x1, y1, z), vtx(v + 20, x0, y1, z);
	return 6;
}

static void test_top_left(void)
{
	struct llct_fp *fp = model();
	struct llct_pass p = pass(NULL, 1);
	struct llct_draw_state st = state(-1);
	float v[24];
	/* right triangle with its corners on pixel centres: the top and left edges own their
	   centres, the hypotenuse does not: pixels with px + py <= 3, 10 of them */
	vtx(v, 0.5, 0.5, 0.5), vtx(v + 4, 4.5, 0.5, 0.5), vtx(v + 8, 0.5, 4.5, 0.5);
	struct llct_draw_result r = draw(fp, &p, &st, v, 3);
	CHECK_EQ(r.covered, 10);
	CHECK_EQ(r.passed, 10);
	CHECK_EQ(r.primitives, 1);
	/* the same triangle wound the other way covers the same pixels */
	vtx(v, 0.5, 0.5, 0.5), vtx(v + 4, 0.5, 4.5, 0.5), vtx(v + 8, 4.5, 0.5, 0.5);
	CHECK_EQ(draw(fp, &p, &st, v, 3).covered, 10);
	/* its mirror image, the rest of the 4x4 pixels: its hypotenuse is a left edge and owns
	   its centres, its bottom and right edges do not: px + py >= 4 with px, py <= 3, 6 */
	vtx(v, 4.5, 4.5, 0.5), vtx(v + 4, 0.5, 4.5, 0.5), vtx(v + 8, 4.5, 0.5, 0.5);
	CHECK_EQ(draw(fp, &p, &st, v, 3).covered, 6);
	/* a quad on pixel edges covers exactly its pixels, each once */
	CHECK_EQ(draw(fp, &p, &st, v, quad(v, 8, 8, 24, 16, 0.5)).covered, 16 * 8);
	/* half-open at pixel centres: [2.5, 6.5) covers pixel centres 2.5 .. 5.5 */
	CHECK_EQ(draw(fp, &p, &st, v, quad(v, 2.5, 2.5, 6.5, 6.5, 0.5)).covered, 16);
	/* 8 subpixel bits: 2.501 snaps to 2.5 (owned by the left edge), 2.499 too */
	CHECK_EQ(draw(fp, &p, &st, v, quad(v, 2.501, 0, 6, 1, 0.5)).covered, 4);
	CHECK_EQ(draw(fp, &p, &st, v, quad(v, 2.503, 0, 6, 1, 0.5)).covered, 3);
	/* nothing outside the viewport, or the scissor */
	CHECK_EQ(draw(fp, &p, &st, v, quad(v, -10, -10, 100, 100, 0.5)).covered, W * H);
	st.has_scissor = 1, st.sc_x = 10, st.sc_y = 20, st.sc_w = 5, st.sc_h = 7;
	CHECK_EQ(draw(fp, &p, &st, v, quad(v, -10, -10, 100, 100, 0.5)).covered, 35);
	llct_fp_destroy(fp);
}

static void test_cull_and_clip(void)
{
	struct llct_fp *fp = model();
	struct llct_pass p = pass(NULL, 1);
	struct llct_draw_state st = state(-1);
	float v[24];
	/* (0,0),(8,0),(0,8) in y-down window space winds clockwise on screen: with
	   front_ccw it is a back face; it covers the centres with px + py <= 6, 28 */
	vtx(v, 0, 0, 0.5), vtx(v + 4, 8, 0, 0.5), vtx(v + 8, 0, 8, 0.5);
	CHECK_EQ(draw(fp, &p, &st, v, 3).covered, 28);
	st.cull = LLCT_CULL_BACK;
	CHECK_EQ(draw(fp, &p, &st, v, 3).covered, 0);
	st.cull = LLCT_CULL_FRONT;
	CHECK_EQ(draw(fp, &p, &st, v, 3).covered, 28);
	st.front_ccw = 0;
	CHECK_EQ(draw(fp, &p, &st, v, 3).covered, 0);
	st.cull = 0;
	/* a triangle entirely behind the near plane (z < 0) is clipped away; one beyond far too */
	vtx(v, 0, 0, -0.5), vtx(v + 4, 8, 0, -0.5), vtx(v + 8, 0, 8, -0.1);
	CHECK_EQ(draw(fp, &p, &st, v, 3).covered, 0);
	vtx(v, 0, 0, 1.5), vtx(v + 4, 8, 0, 1.5), vtx(v + 8, 0, 8, 1.1);
	CHECK_EQ(draw(fp, &p, &st, v, 3).covered, 0);
	/* depth clamp with depth clipping off keeps it (clamped to the far plane) */
	st.depth_clamp = st.no_depth_clip = 1;
	CHECK_EQ(draw(fp, &p, &st, v, 3).covered, 28);
	st.depth_clamp = st.no_depth_clip = 0;
	/* OpenGL's clip space (z from -w): a triangle at z -0.5 is inside */
	vtx(v, 0, 0, -0.5), vtx(v + 4, 8, 0, -0.5), vtx(v + 8, 0, 8, -0.5);
	CHECK_EQ(draw(fp, &p, &st, v, 3).covered, 0);
	st.z_neg_one = 1;
	CHECK_EQ(draw(fp, &p, &st, v, 3).covered, 28);
	st.z_neg_one = 0;
	/* half in front of the near plane: the quad x in [0,32) from z = -1 to z = 1 across x
	   keeps x >= 16 (z >= 0) */
	vtx(v, 0, 0, -1), vtx(v + 4, 32, 0, 1), vtx(v + 8, 32, 8, 1);
	vtx(v + 12, 0, 0, -1), vtx(v + 16, 32, 8, 1), vtx(v + 20, 0, 8, -1);
	CHECK_EQ(draw(fp, &p, &st, v, 6).covered, 16 * 8);
	/* a vertex behind the eye (w < 0, z < 0): clipped at the near plane the triangle is the
	   trapezoid (-0.5,-0.5) (0.5,-0.5) (0.667,-1.333) (-0.667,-1.333) in NDC, of which
	   y >= -1 is on screen: 16 rows from 38.4 to 32 pixels wide, 563 pixels */
	float b[12] = {-0.5f, -0.5f, 0.5f, 1, 0.5f, -0.5f, 0.5f, 1, 0, -2, -2, -1};
	struct llct_draw_result r = draw(fp, &p, &st, b, 3);
	CHECK(r.covered > 550 && r.covered < 577);
	llct_fp_destroy(fp);
}

static void test_depth_and_hiz(void)
{
	struct llct_fp *fp = model();
	struct llct_zbuf *z = llct_zbuf_create(W, H, 1, 32, 0);
	struct llct_pass p = pass(z, 1);
	struct llct_draw_state st = state(LLCT_CMP_LESS);
	float v[24];
	llct_zbuf_clear(z, 0, 0, W, H, 1, 1.0f, 0, 0);
	/* one triangle over the whole target at 0.5 over a cleared (1.0) buffer: HiZ accepts
	   every block (no Z reads), 256 lines of Z and color written, 64 tiles' HiZ read and
	   written */
	vtx(v, 0, 0, 0.5), vtx(v + 4, 2 * W, 0, 0.5), vtx(v + 8, 0, 2 * H, 0.5);
	struct llct_draw_result r = draw(fp, &p, &st, v, 3);
	CHECK(r.covered == W * H && r.passed == W * H);
	CHECK_EQ(count(LLCT_STREAM_Z, LLCT_OP_READ), 0);
	CHECK_EQ(distinct(LLCT_STREAM_Z, LLCT_OP_WRITE), 256);
	CHECK_EQ(distinct(LLCT_STREAM_RT, LLCT_OP_WRITE), 256);
	CHECK_EQ(distinct(LLCT_STREAM_HIZ, LLCT_OP_READ), 4); /* 8x8 tiles, 4x4 a line */
	CHECK(count(LLCT_STREAM_HIZ, LLCT_OP_WRITE) > 0);
	CHECK(llct_zbuf_depth(z, 10, 10, 0) == 0.5f);
	CHECK_EQ(count(LLCT_STREAM_Z, LLCT_OP_WRITE), 256);
	/* two triangles: where the first has written part of a tile, the second must read */
	llct_zbuf_clear(z, 0, 0, W, H, 1, 1.0f, 0, 0);
	r = draw(fp, &p, &st, v, quad(v, 0, 0, W, H, 0.5));
	CHECK(r.passed == W * H && count(LLCT_STREAM_Z, LLCT_OP_READ) > 0);
	/* behind it: HiZ rejects every tile one triangle wrote whole (its bounds exact, 0.5);
	   the 8 tiles the diagonal splits keep conservative bounds (0.5 to 1.0, as a GPU's HiZ
	   does), so their 32 lines of Z are read */
	r = draw(fp, &p, &st, v, quad(v, 0, 0, W, H, 0.7));
	CHECK(r.covered == W * H && r.passed == 0);
	CHECK_EQ(distinct(LLCT_STREAM_Z, LLCT_OP_READ), 32);
	CHECK_EQ(n_recs, count(LLCT_STREAM_HIZ, LLCT_OP_READ) + count(LLCT_STREAM_Z, LLCT_OP_READ));
	/* equal depth with LESS fails, with LESS_OR_EQUAL passes (accepted: no Z reads) */
	CHECK_EQ(draw(fp, &p, &st, v, quad(v, 0, 0, W, H, 0.5)).passed, 0);
	st.depth_compare = LLCT_CMP_LESS_OR_EQUAL;
	CHECK_EQ(draw(fp, &p, &st, v, quad(v, 0, 0, W, H, 0.5)).passed, W * H);
	st.depth_compare = LLCT_CMP_LESS;
	/* a slope from 0.3 (left) to 0.7 (right) over the 0.5 plane: the left half passes;
	   depth at a pixel centre is the plane there; blocks straddling 0.5 read Z */
	vtx(v, 0, 0, 0.3), vtx(v + 4, W, 0, 0.7), vtx(v + 8, W, H, 0.7);
	vtx(v + 12, 0, 0, 0.3), vtx(v + 16, W, H, 0.7), vtx(v + 20, 0, H, 0.3);
	r = draw(fp, &p, &st, v, 6);
	CHECK_EQ(r.passed, W * H / 2);
	CHECK(fabsf(llct_zbuf_depth(z, 0, 5, 0) - (0.3f + 0.4f * 0.5f / W)) < 1e-6f);
	CHECK(llct_zbuf_depth(z, 40, 5, 0) == 0.5f);
	CHECK(count(LLCT_STREAM_Z, LLCT_OP_READ) > 0 && count(LLCT_STREAM_Z, LLCT_OP_READ) < 256);
	/* depth writes off: the buffer keeps its values */
	st.depth_write = 0;
	draw(fp, &p, &st, v, quad(v, 0, 0, W, H, 0.1));
	CHECK(llct_zbuf_depth(z, 40, 5, 0) == 0.5f);
	CHECK_EQ(count(LLCT_STREAM_Z, LLCT_OP_WRITE), 0);
	/* the test off: everything passes, no Z or HiZ at all */
	st.depth_test = 0;
	r = draw(fp, &p, &st, v, quad(v, 0, 0, W, H, 0.9));
	CHECK(r.passed == W * H && count(LLCT_STREAM_Z, LLCT_OP_READ) == 0 &&
	      count(LLCT_STREAM_HIZ, LLCT_OP_READ) == 0);
	/* D16 stores depth in 1/65535 steps */
	struct llct_zbuf *z16 = llct_zbuf_create(W, H, 1, 16, 0);
	p = pass(z16, 1);
	p.att[1].s.bpp = 2;
	st = state(LLCT_CMP_ALWAYS);
	draw(fp, &p, &st, v, quad(v, 0, 0, W, H, 0.3));
	CHECK(llct_zbuf_depth(z16, 3, 3, 0) == (float)(round(0.3 * 65535) / 65535));
	llct_zbuf_destroy(z16);
	/* unknown contents: the first LESS test passes everywhere */
	llct_zbuf_forget(z);
	p = pass(z, 1);
	st = state(LLCT_CMP_LESS);
	CHECK_EQ(draw(fp, &p, &st, v, quad(v, 0, 0, W, H, 0.99)).passed, W * H);
	llct_zbuf_destroy(z);
	llct_fp_destroy(fp);
}

static void test_stencil_msaa_tex(void)
{
	struct llct_fp *fp = model();
	struct llct_zbuf *z = llct_zbuf_create(W, H, 4, 32, 8);
	struct llct_pass p = pass(z, 4);
	p.att[1].has_stencil = 1;
	struct llct_draw_state st = state(LLCT_CMP_ALWAYS);
	st.samples = 4;
	float v[24];
	llct_zbuf_clear(z, 0, 0, W, H, 1, 1.0f, 1, 0);
	/* 4 samples a pixel: a quad on pixel edges covers all of them */
	CHECK_EQ(draw(fp, &p, &st, v, quad(v, 0, 0, 8, 8, 0.5)).covered, 8 * 8 * 4);
	/* a vertical edge at x = 0.5: of pixel 0's samples at x 0.375, 0.875, 0.125, 0.625
	   the two right of it are covered */
	CHECK_EQ(draw(fp, &p, &st, v, quad(v, 0.5, 0, 1, 1, 0.5)).covered, 2);
	/* stencil: replace with 3 where drawn, then pass only where it equals 3 */
	st.stencil_test = 1;
	st.front = st.back = (struct llct_stencil_face){.fail = LLCT_STENCIL_KEEP,
							.pass = LLCT_STENCIL_REPLACE,
							.depth_fail = LLCT_STENCIL_KEEP,
							.compare = LLCT_CMP_ALWAYS,
							.compare_mask = 0xff,
							.write_mask = 0xff,
							.reference = 3};
	draw(fp, &p, &st, v, quad(v, 0, 0, 16, 16, 0.5));
	CHECK_EQ(llct_zbuf_stencil(z, 5, 5, 2), 3);
	CHECK_EQ(llct_zbuf_stencil(z, 20, 5, 2), 0);
	CHECK(count(LLCT_STREAM_STC, LLCT_OP_WRITE) > 0 &&
	      count(LLCT_STREAM_STC, LLCT_OP_READ) > 0);
	st.front.compare = st.back.compare = LLCT_CMP_EQUAL;
	st.front.pass = st.back.pass = LLCT_STENCIL_INCR_CLAMP;
	CHECK_EQ(draw(fp, &p, &st, v, quad(v, 0, 0, W, H, 0.5)).passed, 16 * 16 * 4);
	CHECK_EQ(llct_zbuf_stencil(z, 5, 5, 0), 4);
	llct_zbuf_destroy(z);
	/* screen-space textures: one triangle over the viewport sampling a W x H RGBA8 image
	   reads each of its 256 lines once */
	p = pass(NULL, 1);
	st = state(-1);
	struct llct_use u = {.kind = LLCT_USE_IMAGE,
			     .binding = LLCT_BIND_SAMPLED_IMAGE,
			     .s = {.base = 0x400000,
				   .width = W,
				   .height = H,
				   .layers = 1,
				   .mips = 1,
				   .samples = 1,
				   .bpp = 4,
				   .tiled = 1}};
	struct llct_raster *r = llct_raster_create();
	struct llct_draw d = {.st = st, .uses = &u, .n_uses = 1, .pos = v};
	struct llct_draw_result res;
	vtx(v, 0, 0, 0.5), vtx(v + 4, 2 * W, 0, 0.5), vtx(v + 8, 0, 2 * H, 0.5);
	d.n_vertices = 3;
	n_recs = 0;
	llct_raster_draw(r, fp, &p, &d, &res);
	llct_fp_drain(fp);
	CHECK_EQ(distinct(LLCT_STREAM_TEX, LLCT_OP_READ), 256);
	CHECK_EQ(count(LLCT_STREAM_TEX, LLCT_OP_READ), 256);
	llct_raster_destroy(r);
	llct_fp_destroy(fp);
}

/* A W x H RGBA8 texture with its full mip chain at 0x400000, sampled at the coordinates in
 * attribute slot 0 (x, y). */
static struct llct_use interp_tex(void)
{
	struct llct_surface tex = {.base = 0x400000,
				   .width = W,
				   .height = H,
				   .layers = 1,
				   .mips = 7,
				   .samples = 1,
				   .bpp = 4,
				   .tiled = 1};
	return (struct llct_use){.kind = LLCT_USE_IMAGE,
				 .binding = LLCT_BIND_SAMPLED_IMAGE,
				 .s = tex,
				 .slot = 0,
				 .c0 = 0,
				 .c1 = 1};
}

/* Sampled images at interpolated coordinates: a triangle over the viewport whose attribute slot
 * 0 holds (u, v) = screen position / viewport reads a W x H texture's 256 lines, one pixel one
 * texel; with coordinates twice that it minifies by 2 and reads mip 1 (32x32: 64 lines), wrapped
 * (repeat) twice over; perspective (w from 1 to 4 across) gives coarser mips where w is large. */
static void test_interpolated_tex(void)
{
	struct llct_fp *fp = model();
	struct llct_pass p = pass(NULL, 1);
	struct llct_draw_state st = state(-1);
	struct llct_use u = interp_tex();
	float v[3 * 8];
	struct llct_raster *r = llct_raster_create();
	struct llct_draw d = {
	    .st = st, .uses = &u, .n_uses = 1, .pos = v, .n_vertices = 3, .stride = 8};
	struct llct_draw_result res;
	for (int scale = 1; scale <= 2; scale++) {
		const double pts[3][2] = {{0, 0}, {2 * W, 0}, {0, 2 * H}};
		for (int i = 0; i < 3; i++) {
			vtx(v + 8 * i, pts[i][0], pts[i][1], 0.5);
			v[8 * i + 4] = (float)(scale * pts[i][0] / W);
			v[8 * i + 5] = (float)(scale * pts[i][1] / H);
			v[8 * i + 6] = v[8 * i + 7] = 0;
		}
		n_recs = 0;
		CHECK_EQ(llct_raster_draw(r, fp, &p, &d, &res), 0);
		llct_fp_drain(fp);
		CHECK(res.tex_interpolated == 1 && res.tex_screen == 0);
		CHECK_EQ(distinct(LLCT_STREAM_TEX, LLCT_OP_READ), scale == 1 ? 256 : 64);
		uint64_t lo = UINT64_MAX, hi = 0;
		for (size_t i = 0; i < n_recs; i++)
			if (recs[i].stream == LLCT_STREAM_TEX) {
				lo = recs[i].addr < lo ? recs[i].addr : lo;
				hi = recs[i].addr > hi ? recs[i].addr : hi;
			}
		/* mip 0 is the first 16 KiB, mip 1 the next 4 KiB */
		CHECK(scale == 1 ? hi < 0x400000 + 16384
				 : lo >= 0x400000 + 16384 && hi < 0x400000 + 20480);
	}
	/* the nearest mip is floor(log2(scale) + 0.5): 1.4 reads mip 0, 1.5 and 2.5 mip 1, 3 mip 2
	   (mip 1 at 16 KiB, mip 2 at 20 KiB, mip 3 at 21 KiB); coordinates offset by whole
	   repeats (+1, -2) read exactly the texels, in the same order, as the unshifted ones */
	static const struct {
		double scale, off;
		uint64_t lo, hi;
	} lod[] = {{1.4, 0, 0, 16384},   {1.5, 0, 16384, 20480}, {2.5, 0, 16384, 20480},
		   {3, 0, 20480, 21504}, {1, 0, 0, 16384},       {1, 1, 0, 16384},
		   {1, -2, 0, 16384},    {1.5, 3, 16384, 20480}};
	static uint64_t first[2][MAXREC]; /* the unshifted reads of scales 1.5 and 1 */
	size_t n_first[2] = {0, 0};
	for (size_t k = 0; k < sizeof(lod) / sizeof(lod[0]); k++) {
		const double pts[3][2] = {{0, 0}, {2 * W, 0}, {0, 2 * H}};
		for (int i = 0; i < 3; i++) {
			vtx(v + 8 * i, pts[i][0], pts[i][1], 0.5);
			v[8 * i + 4] = (float)(lod[k].off + lod[k].scale * pts[i][0] / W);
			v[8 * i + 5] = (float)(lod[k].off + lod[k].scale * pts[i][1] / H);
		}
		n_recs = 0;
		llct_raster_draw(r, fp, &p, &d, &res);
		llct_fp_drain(fp);
		static uint64_t got[MAXREC];
		uint64_t lo = UINT64_MAX, hi = 0;
		size_t n = 0;
		for (size_t i = 0; i < n_recs; i++)
			if (recs[i].stream == LLCT_STREAM_TEX) {
				got[n++] = recs[i].addr;
				lo = recs[i].addr < lo ? recs[i].addr : lo;
				hi = recs[i].addr > hi ? recs[i].addr : hi;
			}
		CHECK(n > 0 && lo >= 0x400000 + lod[k].lo && hi < 0x400000 + lod[k].hi);
		int f = lod[k].scale == 1; /* which unshifted run this one is or repeats */
		if (lod[k].off == 0 && (lod[k].scale == 1 || lod[k].scale == 1.5)) {
			n_first[f] = n;
			memcpy(first[f], got, n * sizeof(*got));
		} else if (lod[k].off != 0) {
			CHECK_EQ(n, n_first[f]);
			CHECK(n == n_first[f] && !memcmp(got, first[f], n * sizeof(*got)));
		}
	}
	/* one texel position for every pixel, between texels (3, 3) and (4, 4): the four bilinear
	   taps straddle a corner of 4 x 4-texel lines, so each quad reads four lines, the taps'
	   order: (3, 3), (4, 3), (3, 4), (4, 4) */
	for (int i = 0; i < 3; i++) {
		vtx(v + 8 * i, i == 1 ? 8 : 0, i == 2 ? 8 : 0, 0.5);
		v[8 * i + 4] = (float)(4.0 / W), v[8 * i + 5] = (float)(4.0 / H);
	}
	n_recs = 0;
	llct_raster_draw(r, fp, &p, &d, &res);
	llct_fp_drain(fp);
	const uint32_t corner[4][2] = {{3, 3}, {4, 3}, {3, 4}, {4, 4}};
	size_t n_tex = 0, wrong = 0;
	for (size_t i = 0; i < n_recs; i++)
		if (recs[i].stream == LLCT_STREAM_TEX) {
			const uint32_t *xy = corner[n_tex++ % 4];
			wrong += recs[i].addr != llct_surface_line(&u.s, 64, 0, 0, xy[0], xy[1]);
		}
	CHECK(n_tex >= 8 && n_tex % 4 == 0);
	CHECK_EQ(wrong, 0);
	CHECK_EQ(distinct(LLCT_STREAM_TEX, LLCT_OP_READ), 4);
	/* perspective: w grows to the right, so the right side minifies more: mips past 1 read */
	const double pts[3][3] = {{0, 0, 1}, {W, 0, 4}, {0, H, 1}};
	for (int i = 0; i < 3; i++) {
		double w = pts[i][2];
		v[8 * i + 0] = (float)((pts[i][0] / W * 2 - 1) * w);
		v[8 * i + 1] = (float)((pts[i][1] / H * 2 - 1) * w);
		v[8 * i + 2] = (float)(0.5 * w);
		v[8 * i + 3] = (float)w;
		v[8 * i + 4] = (float)(4 * pts[i][0] / W);
		v[8 * i + 5] = (float)(pts[i][1] / H);
	}
	n_recs = 0;
	llct_raster_draw(r, fp, &p, &d, &res);
	llct_fp_drain(fp);
	uint64_t hi = 0;
	for (size_t i = 0; i < n_recs; i++)
		if (recs[i].stream == LLCT_STREAM_TEX && recs[i].addr > hi)
			hi = recs[i].addr;
	CHECK(hi >= 0x400000 + 20480); /* mip 2 or smaller reached */
	/* without the attribute in the vertices the image falls back to the screen */
	d.stride = 4;
	vtx(v, 0, 0, 0.5), vtx(v + 4, 2 * W, 0, 0.5), vtx(v + 8, 0, 2 * H, 0.5);
	llct_raster_draw(r, fp, &p, &d, &res);
	CHECK(res.tex_screen == 1 && res.tex_interpolated == 0);
	llct_raster_destroy(r);
	llct_fp_destroy(fp);
}

/* Random meshes that tile the viewport (a grid of cells whose shared corners are jittered,
 * each split into two triangles): every sample is covered exactly once. */
static void test_watertight(void)
{
	struct llct_fp *fp = model();
	uint64_t seed = 7;
	enum { G = 9 };
	static float v[G * G * 6 * 4];
	for (uint32_t samples = 1; samples <= 4; samples *= 4)
		for (int round_ = 0; round_ < 20; round_++) {
			double gx[G + 1][G + 1], gy[G + 1][G + 1];
			for (int j = 0; j <= G; j++)
				for (int i = 0; i <= G; i++) {
					double jx =
					    (i > 0 && i < G)
						? (double)(test_rand(&seed) % 1000) / 250 - 2
						: 0;
					double jy =
					    (j > 0 && j < G)
						? (double)(test_rand(&seed) % 1000) / 250 - 2
						: 0;
					gx[j][i] = (double)i * W / G + jx;
					gy[j][i] = (double)j * H / G + jy;
				}
			uint32_t n = 0;
			for (int j = 0; j < G; j++)
				for (int i = 0; i < G; i++) {
					int flip = (int)(test_rand(&seed) & 1);
					double ax = gx[j][i], ay = gy[j][i], bx = gx[j][i + 1],
					       by = gy[j][i + 1];
					double cx = gx[j + 1][i + 1], cy = gy[j + 1][i + 1],
					       dx = gx[j + 1][i], dy = gy[j + 1][i];
					if (!flip) {
						vtx(v + 4 * n++, ax, ay, 0.5),
						    vtx(v + 4 * n++, bx, by, 0.5);
						vtx(v + 4 * n++, cx, cy, 0.5),
						    vtx(v + 4 * n++, ax, ay, 0.5);
						vtx(v + 4 * n++, cx, cy, 0.5),
						    vtx(v + 4 * n++, dx, dy, 0.5);
					} else {
						vtx(v + 4 * n++, ax, ay, 0.5),
						    vtx(v + 4 * n++, bx, by, 0.5);
						vtx(v + 4 * n++, dx, dy, 0.5),
						    vtx(v + 4 * n++, bx, by, 0.5);
						vtx(v + 4 * n++, cx, cy, 0.5),
						    vtx(v + 4 * n++, dx, dy, 0.5);
					}
				}
			struct llct_zbuf *z = llct_zbuf_create(W, H, samples, 32, 8);
			struct llct_pass p = pass(z, samples);
			p.att[1].has_stencil = 1;
			struct llct_draw_state st = state(-1);
			st.samples = samples;
			st.stencil_test = 1; /* count covers per sample in the stencil */
			st.front = st.back =
			    (struct llct_stencil_face){.pass = LLCT_STENCIL_INCR_WRAP,
						       .compare = LLCT_CMP_ALWAYS,
						       .compare_mask = 0xff,
						       .write_mask = 0xff};
			llct_zbuf_clear(z, 0, 0, W, H, 1, 1.0f, 1, 0);
			struct llct_draw_result r = draw(fp, &p, &st, v, n);
			CHECK_EQ(r.covered, W * H * samples);
			int once = 1;
			for (uint32_t y = 0; y < H; y++)
				for (uint32_t x = 0; x < W; x++)
					for (uint32_t s = 0; s < samples; s++)
						once &= llct_zbuf_stencil(z, x, y, s) == 1;
			CHECK(once);
			llct_zbuf_destroy(z);
		}
	llct_fp_destroy(fp);
}

/* UNORM depth as stored: every value a 16- or 24-bit format can hold, reached from the float
 * nearest it and the floats either side, against an independent reference (libm's rounding
 * of the product, a true division), and values outside 0..1 clamped. */
static void test_unorm_depth(void)
{
	for (uint32_t bits = 16; bits <= 24; bits += 8) {
		struct llct_zbuf *z = llct_zbuf_create(1, 1, 1, bits, 0);
		double steps = (double)((1u << bits) - 1);
		uint64_t bad = 0;
		for (uint32_t k = 0; k <= (1u << bits) - 1; k++) {
			float f = (float)(k / steps);
			const float in[3] = {f, nextafterf(f, -1), nextafterf(f, 2)};
			for (int i = 0; i < 3; i++) {
				double d = in[i] < 0 ? 0 : in[i] > 1 ? 1 : in[i];
				float want = (float)(nearbyint(d * steps) / steps);
				llct_zbuf_clear(z, 0, 0, 1, 1, 1, in[i], 0, 0);
				bad += llct_zbuf_depth(z, 0, 0, 0) != want;
			}
		}
		CHECK_EQ(bad, 0);
		llct_zbuf_clear(z, 0, 0, 1, 1, 1, -0.25f, 0, 0);
		CHECK(llct_zbuf_depth(z, 0, 0, 0) == 0.0f);
		llct_zbuf_clear(z, 0, 0, 1, 1, 1, 1.5f, 0, 0);
		CHECK(llct_zbuf_depth(z, 0, 0, 0) == 1.0f);
		llct_zbuf_destroy(z);
	}
}

/* Records of one run of test_lanes. */
struct run {
	struct llct_record *r;
	size_t n;
};

static int collect_run(void *ud, const struct llct_record *r, size_t n)
{
	struct run *x = ud;
	for (size_t i = 0; i < n && x->n < MAXREC; i++)
		x->r[x->n++] = r[i];
	return 0;
}

static void lanes_case(int small, uint32_t samples);

/* Draws split among threads by SM give exactly one thread's records, in its order, with
 * the render caches on (lanes share them, each its own SMs), and the same depth, stencil and
 * counts: several draws in a row of random overlapping triangles (depth LESS, stencil, an
 * interpolated texture, 1 and 4 samples, some off screen and behind the eye), 1 thread
 * against 2 and 3; and meshes of small ones (a few pixels to a few tiles, most within one
 * lane's tiles, some across several) sent to the threads by llct_raster_set_mesh, 1 thread
 * against 2 and 5 (ten lanes: not a power of two). */
static void test_lanes(void)
{
	for (int small = 0; small < 2; small++)
		for (uint32_t samples = 1; samples <= 4; samples *= 4)
			lanes_case(small, samples);
}

static void lanes_case(int small, uint32_t samples)
{
	static struct llct_record got[3][MAXREC];
	enum { N = 300, S = 8 };
	static float v[N * 3 * S];
	struct llct_use u = interp_tex();
	const unsigned th[3] = {1, 2, small ? 5 : 3};
	{
		struct run runs[3];
		struct llct_zbuf *zs[3];
		uint64_t covered[3] = {0}, passed[3] = {0};
		for (unsigned t = 0; t < 3; t++) {
			struct llct_fp_config c;
			struct llct_fp *fp;
			llct_fp_config_default(&c); /* render caches on */
			runs[t] = (struct run){got[t], 0};
			CHECK_EQ(llct_fp_create(&c, collect_run, &runs[t], &fp), LLCT_OK);
			struct llct_raster *r = llct_raster_create();
			llct_raster_set_threads(r, th[t]);
			llct_raster_set_mesh(r, small ? 1 : 0);
			if (th[t] == 2) /* the merged records copied by the lanes */
				llct_raster_set_copy_min(r, 1);
			if (th[t] >
			    2) /* spinning between draws and steps (more threads than cores) */
				llct_raster_set_spin(r, 20);
			zs[t] = llct_zbuf_create(W, H, samples, 24, 8);
			struct llct_pass p = pass(zs[t], samples);
			p.att[1].has_stencil = 1;
			llct_zbuf_clear(zs[t], 0, 0, W, H, 1, 1.0f, 1, 0);
			uint64_t seed = 99 + samples;
			float cx = 0, cy = 0;         /* a small triangle's centre */
			for (int k = 0; k < 4; k++) { /* draws in a row: the caches carry over */
				for (int i = 0; i < N * 3; i++) {
					float *x = v + S * i;
					x[3] = (float)(test_rand(&seed) % 1000) / 400 + 0.02f;
					if (test_rand(&seed) % 50 == 0 && !small)
						x[3] = -x[3]; /* behind the eye: clipped */
					x[0] =
					    ((float)(test_rand(&seed) % 2000) / 800 - 1.25f) * x[3];
					x[1] =
					    ((float)(test_rand(&seed) % 2000) / 800 - 1.25f) * x[3];
					if (small && i % 3 == 0)
						cx = x[0] / x[3], cy = x[1] / x[3];
					if (small) { /* within ~5 pixels of the centre */
						x[0] = (cx + x[0] / x[3] / 8) * x[3];
						x[1] = (cy + x[1] / x[3] / 8) * x[3];
					}
					x[2] = (float)(test_rand(&seed) % 1000) / 1000 * x[3];
					x[4] = (float)(test_rand(&seed) % 1000) / 300;
					x[5] = (float)(test_rand(&seed) % 1000) / 300;
					x[6] = x[7] = 0;
				}
				struct llct_draw_state st = state(LLCT_CMP_LESS);
				st.samples = samples;
				st.stencil_test = 1;
				st.front = st.back =
				    (struct llct_stencil_face){.pass = LLCT_STENCIL_INCR_WRAP,
							       .depth_fail = LLCT_STENCIL_INVERT,
							       .compare = LLCT_CMP_ALWAYS,
							       .compare_mask = 0xff,
							       .write_mask = 0xff};
				struct llct_draw d = {.st = st,
						      .uses = &u,
						      .n_uses = 1,
						      .pos = v,
						      .n_vertices = N * 3,
						      .stride = S,
						      .samples_passed = UINT64_MAX};
				struct llct_draw_result res;
				llct_fp_set_kernel(fp, (uint32_t)k + 1);
				CHECK_EQ(llct_raster_draw(r, fp, &p, &d, &res), 0);
				covered[t] += res.covered, passed[t] += res.passed;
			}
			llct_fp_flush(fp);
			llct_fp_drain(fp);
			/* the lanes' threads (the caller is one lane) say whose they are */
			CHECK_EQ(threads_named_started("llct-raster", (int)th[t] - 1),
				 (int)th[t] - 1);
			llct_raster_destroy(r);
			llct_fp_destroy(fp);
		}
		CHECK_EQ(threads_named_joined("llct-raster"), 0);
		CHECK(runs[0].n > 1000 && runs[0].n < MAXREC);
		CHECK(passed[0] > 0 && passed[0] < covered[0]);
		for (unsigned t = 1; t < 3; t++) {
			CHECK_EQ(runs[t].n, runs[0].n);
			CHECK_EQ(covered[t], covered[0]);
			CHECK_EQ(passed[t], passed[0]);
			size_t diff = runs[t].n == runs[0].n ? 0 : 1;
			for (size_t i = 0; !diff && i < runs[0].n; i++)
				diff = got[t][i].addr != got[0][i].addr ||
				       got[t][i].stream != got[0][i].stream ||
				       got[t][i].op != got[0][i].op ||
				       got[t][i].sm != got[0][i].sm ||
				       got[t][i].kernel != got[0][i].kernel;
			CHECK_EQ(diff, 0);
			int same = 1;
			for (uint32_t y = 0; y < H; y++)
				for (uint32_t x = 0; x < W; x++)
					for (uint32_t s = 0; s < samples; s++)
						same &= llct_zbuf_depth(zs[t], x, y, s) ==
							    llct_zbuf_depth(zs[0], x, y, s) &&
							llct_zbuf_stencil(zs[t], x, y, s) ==
							    llct_zbuf_stencil(zs[0], x, y, s);
			CHECK(same);
		}
		for (unsigned t = 0; t < 3; t++)
			llct_zbuf_destroy(zs[t]);
	}
	/* small primitives, all in front of the eye, stay on the caller's thread: no lanes */
	struct llct_fp *fp = model();
	struct llct_raster *r = llct_raster_create();
	llct_raster_set_threads(r, 2);
	uint32_t n = 0;
	for (int y = 0; y + 4 <= H; y += 4)
		for (int x = 0; x + 4 <= W; x += 4, n++) {
			vtx(v + S * (3 * n), x, y, 0.5);
			vtx(v + S * (3 * n + 1), x + 4, y, 0.5);
			vtx(v + S * (3 * n + 2), x, y + 4, 0.5);
			for (int k = 0; k < 3; k++)
				v[S * (3 * n + k) + 4] = v[S * (3 * n + k) + 5] = 0;
		}
	struct llct_pass p = pass(NULL, 1);
	struct llct_draw d = {.st = state(-1), .pos = v, .n_vertices = 3 * n, .stride = S};
	struct llct_draw_result res;
	CHECK_EQ(llct_raster_draw(r, fp, &p, &d, &res), 0);
	CHECK_EQ(res.primitives, n);
	CHECK_EQ(threads_named("llct-raster"), 0);
	llct_raster_destroy(r);
	llct_fp_destroy(fp);
}

/* Clears kept per tile until looked at read back as if written at once: random whole and
 * partial clears of depth, stencil or both, and forgets, on a buffer whose edges cut tiles
 * (37 x 29, 2 samples), against a plain array after every step. */
static void test_lazy_clear(void)
{
	enum { ZW = 37, ZH = 29, ZS = 2 };
	static float d[ZH][ZW][ZS];
	static uint8_t st[ZH][ZW][ZS];
	struct llct_zbuf *z = llct_zbuf_create(ZW, ZH, ZS, 32, 8);
	uint64_t seed = 5;
	llct_zbuf_forget(z);
	memset(d, 0, sizeof(d)), memset(st, 0, sizeof(st));
	int bad = 0;
	for (int step = 0; step < 400; step++) {
		uint32_t r = (uint32_t)(test_rand(&seed) % 10);
		if (r == 0) {
			llct_zbuf_forget(z);
			memset(d, 0, sizeof(d)), memset(st, 0, sizeof(st));
		} else {
			uint32_t x0 = 0, y0 = 0, x1 = ZW, y1 = ZH;
			if (r > 3) { /* part of it */
				x0 = (uint32_t)(test_rand(&seed) % ZW),
				y0 = (uint32_t)(test_rand(&seed) % ZH);
				x1 = x0 + 1 + (uint32_t)(test_rand(&seed) % (ZW - x0));
				y1 = y0 + 1 + (uint32_t)(test_rand(&seed) % (ZH - y0));
			}
			int dd = (int)(test_rand(&seed) % 3), ds = dd != 1 || test_rand(&seed) % 2;
			dd = dd != 2;
			float v = (float)(test_rand(&seed) % 1000) / 1000;
			uint32_t sv = (uint32_t)(test_rand(&seed) % 256);
			llct_zbuf_clear(z, x0, y0, x1, y1, dd, v, ds, sv);
			for (uint32_t y = y0; y < y1; y++)
				for (uint32_t x = x0; x < x1; x++)
					for (int s = 0; s < ZS; s++) {
						d[y][x][s] = dd ? v : d[y][x][s];
						st[y][x][s] = ds ? (uint8_t)sv : st[y][x][s];
					}
		}
		for (uint32_t y = 0; y < ZH; y++)
			for (uint32_t x = 0; x < ZW; x++)
				for (uint32_t s = 0; s < ZS; s++)
					bad += llct_zbuf_depth(z, x, y, s) != d[y][x][s] ||
					       llct_zbuf_stencil(z, x, y, s) != st[y][x][s];
	}
	CHECK_EQ(bad, 0);
	llct_zbuf_destroy(z);
}

int main(void)
{
	test_top_left();
	test_cull_and_clip();
	test_depth_and_hiz();
	test_stencil_msaa_tex();
	test_interpolated_tex();
	test_watertight();
	test_unorm_depth();
	test_lanes();
	test_lazy_clear();
	return check_done("raster");
}
