/* test_streams.c - capture's Vulkan-free stream models, worked by hand: surface layouts (block
 * compressed too), HiZ, render pass load/store traffic, what each binding kind costs, texture
 * LOD, a draw's coverage rectangle and its attachment traffic. */
#include "check.h"
#include "llct/draw.h"
#include "rvec.h"

#include <math.h>
#include <stdlib.h>
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

/* A footprint model with or without render caches, 16 SMs, 16-pixel tiles, 64-byte lines. */
static struct llct_fp *model(int caches)
{
	struct llct_fp_config c;
	struct llct_fp *fp;
	llct_fp_config_default(&c);
	if (!caches)
		memset(c.rc_lines, 0, sizeof(c.rc_lines));
	n_recs = 0;
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

/* Distinct line addresses of a stream/op among the records. */
static size_t distinct(int stream, int op)
{
	size_t n = 0;
	for (size_t i = 0; i < n_recs; i++) {
		if (recs[i].stream != stream || recs[i].op != op)
			continue;
		int seen = 0;
		for (size_t j = 0; j < i && !seen; j++)
			seen = recs[j].stream == stream && recs[j].op == op &&
			       recs[j].addr == recs[i].addr;
		n += !seen;
	}
	return n;
}

static struct llct_surface surf(uint64_t base, uint32_t w, uint32_t h, uint32_t bpp)
{
	return (struct llct_surface){.base = base,
				     .width = w,
				     .height = h,
				     .layers = 1,
				     .mips = 1,
				     .samples = 1,
				     .bpp = bpp,
				     .tiled = 1};
}

static void test_surfaces(void)
{
	struct llct_surface s = surf(0x10000, 256, 256, 4);
	uint32_t tw, th;
	CHECK_EQ(llct_surface_size(&s, 64), 256 * 256 * 4);
	/* 4x4 texels a line, 64 lines a row of lines */
	CHECK_EQ(llct_surface_line(&s, 64, 0, 0, 5, 6), 0x10000 + (1 * 64 + 1) * 64);
	CHECK_EQ(llct_surface_line(&s, 64, 0, 0, 255, 255), 0x10000 + 256 * 256 * 4 - 64);
	llct_surface_line_texels(&s, 64, &tw, &th);
	CHECK(tw == 4 && th == 4);
	/* 1-byte texels: 8x8 a line; 8-byte: 4x2; 16-byte: 2x2 */
	s.bpp = 1;
	llct_surface_line_texels(&s, 64, &tw, &th);
	CHECK(tw == 8 && th == 8);
	s.bpp = 8;
	llct_surface_line_texels(&s, 64, &tw, &th);
	CHECK(tw == 4 && th == 2);
	s.bpp = 16;
	llct_surface_line_texels(&s, 64, &tw, &th);
	CHECK(tw == 2 && th == 2);
	/* BC1: 8 bytes a 4x4 block, 8 blocks a line (4x2 blocks = 16x8 texels): 256x256 is 32 KiB,
	   not the 256 KiB 4 bytes a texel would give */
	struct llct_surface bc1 = surf(0, 256, 256, 8);
	bc1.block_w = bc1.block_h = 4;
	CHECK_EQ(llct_surface_size(&bc1, 64), 32768);
	llct_surface_line_texels(&bc1, 64, &tw, &th);
	CHECK(tw == 16 && th == 8);
	CHECK_EQ(llct_surface_line(&bc1, 64, 0, 0, 15, 7), 0);
	CHECK_EQ(llct_surface_line(&bc1, 64, 0, 0, 16, 0), 64);
	CHECK_EQ(llct_surface_line(&bc1, 64, 0, 0, 0, 8), 16 * 64); /* 256/16 lines a row */
	/* BC7 (16 bytes a block): 4 blocks a line, 2x2 blocks = 8x8 texels */
	bc1.bpp = 16;
	llct_surface_line_texels(&bc1, 64, &tw, &th);
	CHECK(tw == 8 && th == 8);
	CHECK_EQ(llct_surface_region_bytes(&bc1, 10, 10, 1), 3 * 3 * 16);
	/* a mip chain: 64x64 RGBA8 is 16 KiB, 32x32 4 KiB, ... down to 1x1 one line */
	struct llct_surface m = surf(0, 64, 64, 4);
	m.mips = 7;
	CHECK_EQ(llct_surface_size(&m, 64), 16384 + 4096 + 1024 + 256 + 64 + 64 + 64);
	CHECK_EQ(llct_surface_line(&m, 64, 1, 0, 0, 0), 16384);
	CHECK_EQ(llct_surface_line(&m, 64, 6, 0, 0, 0), 16384 + 4096 + 1024 + 256 + 64 + 64);
	/* linear: rows of texels in order */
	struct llct_surface lin = surf(0, 100, 10, 4);
	lin.tiled = 0;
	CHECK_EQ(llct_surface_line(&lin, 64, 0, 0, 17, 1), 7 * 64 + 64);
	/* 4x multisampled RGBA8: 4 pixels a line, 2x2 */
	struct llct_surface ms = surf(0, 128, 128, 4);
	ms.samples = 4;
	llct_surface_line_texels(&ms, 64, &tw, &th);
	CHECK(tw == 2 && th == 2);
	CHECK_EQ(llct_surface_size(&ms, 64), 128 * 128 * 16);
}

static void test_hiz(void)
{
	struct llct_surface d = surf(0x100000, 256, 256, 4), hiz;
	llct_hiz_surface(&d, 0x900000, &hiz);
	/* one entry an 8x8 tile: 32x32 entries of 4 bytes, 4x4 entries (32x32 pixels) a line */
	CHECK(hiz.width == 32 && hiz.height == 32 && hiz.bpp == 4);
	CHECK_EQ(llct_surface_size(&hiz, 64), 4096);
	struct llct_fp *fp = model(0);
	llct_hiz_rect(fp, &hiz, 0, 0, 0, 0, 256, 256, LLCT_OP_WRITE, 0);
	llct_fp_drain(fp);
	CHECK_EQ(count(LLCT_STREAM_HIZ, LLCT_OP_WRITE), 64);
	/* pixels 30..33 x 0..1 straddle two lines (32 pixels a line) */
	n_recs = 0;
	llct_hiz_rect(fp, &hiz, 0, 0, 30, 0, 34, 2, LLCT_OP_READ, 0);
	llct_fp_drain(fp);
	CHECK_EQ(count(LLCT_STREAM_HIZ, LLCT_OP_READ), 2);
	CHECK(recs[0].addr == 0x900000 && recs[1].addr == 0x900040);
	llct_fp_destroy(fp);
}

/* A 256x256 pass: RGBA8 color 0 and D32 depth. */
static struct llct_pass pass256(int color_load, int depth_load, int depth_store)
{
	struct llct_pass p = {.x0 = 0, .y0 = 0, .x1 = 256, .y1 = 256, .n = 2};
	p.att[0] = (struct llct_attachment){.s = surf(0x100000, 256, 256, 4),
					    .role = LLCT_ROLE_COLOR,
					    .slot = 0,
					    .load = color_load,
					    .stencil_load = LLCT_LOAD_DONT_CARE,
					    .store = LLCT_STORE_STORE,
					    .stencil_store = LLCT_STORE_DONT_CARE};
	p.att[1] = (struct llct_attachment){.s = surf(0x200000, 256, 256, 4),
					    .role = LLCT_ROLE_DEPTH,
					    .slot = -1,
					    .has_depth = 1,
					    .load = depth_load,
					    .stencil_load = LLCT_LOAD_DONT_CARE,
					    .store = depth_store,
					    .stencil_store = LLCT_STORE_DONT_CARE};
	llct_hiz_surface(&p.att[1].s, 0x900000, &p.att[1].hiz);
	return p;
}

static void test_pass(void)
{
	struct llct_fp *fp = model(1);
	/* cleared color and depth: only the depth's HiZ is written (a fast clear) */
	struct llct_pass p = pass256(LLCT_LOAD_CLEAR, LLCT_LOAD_CLEAR, LLCT_STORE_DONT_CARE);
	CHECK(llct_pass_loads(&p) == 0 && llct_pass_stores(&p) == 1);
	llct_pass_load(fp, &p);
	llct_fp_drain(fp);
	CHECK_EQ(n_recs, 64);
	CHECK_EQ(count(LLCT_STREAM_HIZ, LLCT_OP_WRITE), 64);
	/* stored color: every line of the 256 KiB target written once; depth discarded */
	n_recs = 0;
	llct_pass_store(fp, &p);
	llct_fp_drain(fp);
	CHECK_EQ(count(LLCT_STREAM_RT, LLCT_OP_WRITE), 4096);
	CHECK_EQ(distinct(LLCT_STREAM_RT, LLCT_OP_WRITE), 4096);
	CHECK_EQ(n_recs, 4096);
	/* loaded: every line read, and the depth's HiZ */
	p = pass256(LLCT_LOAD_LOAD, LLCT_LOAD_LOAD, LLCT_STORE_STORE);
	CHECK(llct_pass_loads(&p) == 1);
	n_recs = 0;
	llct_pass_load(fp, &p);
	llct_fp_drain(fp);
	CHECK_EQ(count(LLCT_STREAM_RT, LLCT_OP_READ), 4096);
	CHECK_EQ(count(LLCT_STREAM_Z, LLCT_OP_READ), 4096);
	CHECK_EQ(count(LLCT_STREAM_HIZ, LLCT_OP_READ), 64);
	/* a depth/stencil image whose depth is not loaded but its stencil is: STC */
	p.att[1].has_stencil = 1;
	p.att[1].load = LLCT_LOAD_DONT_CARE;
	p.att[1].stencil_load = LLCT_LOAD_LOAD;
	CHECK_EQ(llct_attachment_stream(&p.att[1]), LLCT_STREAM_STC);
	p.att[1].load = LLCT_LOAD_LOAD;
	CHECK_EQ(llct_attachment_stream(&p.att[1]), LLCT_STREAM_Z);
	p.att[0].is_display = 1;
	CHECK_EQ(llct_attachment_stream(&p.att[0]), LLCT_STREAM_DISP);
	/* a render area smaller than the images: only its lines */
	p = pass256(LLCT_LOAD_LOAD, LLCT_LOAD_DONT_CARE, LLCT_STORE_DONT_CARE);
	p.x0 = 16, p.y0 = 32, p.x1 = 48, p.y1 = 40;
	n_recs = 0;
	llct_pass_load(fp, &p);
	llct_fp_drain(fp);
	CHECK_EQ(n_recs, 8 * 2); /* 32x8 pixels: 8 lines wide, 2 high */
	llct_fp_destroy(fp);
}

static void test_bindings(void)
{
	struct llct_binding_traffic t;
	llct_binding_traffic(LLCT_BIND_UNIFORM, 0, &t);
	CHECK(t.counted && t.stream == LLCT_STREAM_OTHER && t.reads && !t.writes && !t.cached);
	llct_binding_traffic(LLCT_BIND_UNIFORM_TEXEL, 0, &t);
	CHECK(t.counted && t.stream == LLCT_STREAM_TEX && t.reads && !t.writes && t.cached);
	llct_binding_traffic(LLCT_BIND_SAMPLED_IMAGE, 1, &t);
	CHECK(t.counted && t.stream == LLCT_STREAM_TEX && t.reads && t.cached);
	for (int k = LLCT_BIND_STORAGE; k <= LLCT_BIND_STORAGE_IMAGE; k++) {
		if (k == LLCT_BIND_SAMPLED_IMAGE)
			continue;
		llct_binding_traffic(k, 1, &t);
		CHECK(t.counted && t.stream == LLCT_STREAM_CS && t.reads && t.writes && !t.cached);
		llct_binding_traffic(k, 0, &t); /* a draw's storage: not counted in tier 1 */
		CHECK(!t.counted);
	}
	llct_binding_traffic(LLCT_BIND_INPUT_ATTACHMENT, 0, &t);
	CHECK(!t.counted);
	llct_binding_traffic(LLCT_BIND_OTHER, 1, &t);
	CHECK(!t.counted);
	CHECK_EQ(llct_image_write_stream(1, 0, 0, 1, 0), LLCT_STREAM_DISP);
	CHECK_EQ(llct_image_write_stream(0, 1, 1, 0, 1), LLCT_STREAM_Z);
	CHECK_EQ(llct_image_write_stream(0, 0, 1, 0, 0), LLCT_STREAM_STC);
	CHECK_EQ(llct_image_write_stream(0, 0, 0, 1, 1), LLCT_STREAM_RT);
	CHECK_EQ(llct_image_write_stream(0, 0, 0, 0, 1), LLCT_STREAM_TEX);
	CHECK_EQ(llct_image_write_stream(0, 0, 0, 0, 0), LLCT_STREAM_OTHER);
}

static void test_lod(void)
{
	struct llct_surface t = surf(0, 1024, 1024, 4);
	t.mips = 11;
	CHECK_EQ(llct_texture_lod(&t, 0, 100, 100), 3); /* 128 >= 100 > 64 */
	CHECK_EQ(llct_texture_lod(&t, 0, 1024, 1024), 0);
	CHECK_EQ(llct_texture_lod(&t, 0, 128, 128), 3);
	CHECK_EQ(llct_texture_lod(&t, 0, 1, 1), 10);
	CHECK_EQ(llct_texture_lod(&t, 5, 1000, 1000), 5); /* never above the view's base */
	CHECK_EQ(llct_texture_lod(&t, 0, 300, 20), 1);    /* both dimensions must fit */
	t.mips = 4;
	CHECK_EQ(llct_texture_lod(&t, 0, 1, 1), 3);
}

static void test_draw(void)
{
	struct llct_fp *fp = model(0);
	struct llct_pass p = pass256(LLCT_LOAD_CLEAR, LLCT_LOAD_CLEAR, LLCT_STORE_DONT_CARE);
	struct llct_draw d = {.samples_passed = UINT64_MAX};
	struct llct_draw_result r;
	uint32_t x0, y0, x1, y1;
	d.st = (struct llct_draw_state){.vp_x = 0,
					.vp_y = 256,
					.vp_w = 128,
					.vp_h = -128,
					.has_viewport = 1,
					.sc_x = 64,
					.sc_y = 0,
					.sc_w = 1000,
					.sc_h = 1000,
					.has_scissor = 1};
	/* flipped viewport: y 128..256; scissor from x 64 */
	llct_draw_rect(&p, &d.st, &x0, &y0, &x1, &y1);
	CHECK(x0 == 64 && y0 == 128 && x1 == 128 && y1 == 256);
	d.st.has_scissor = 0;
	d.st.vp_y = 0, d.st.vp_h = 256, d.st.vp_w = 256;
	d.st.depth_test = d.st.depth_write = 1;
	d.st.write_mask = 1;
	/* the whole 256x256: Z read and written, color written, HiZ read and written */
	llct_draw_footprint(fp, &p, &d, &r);
	llct_fp_drain(fp);
	CHECK(r.rect_w == 256 && r.rect_h == 256 && r.covered == 65536 && r.passed == 65536);
	CHECK_EQ(count(LLCT_STREAM_Z, LLCT_OP_READ), 4096);
	CHECK_EQ(count(LLCT_STREAM_Z, LLCT_OP_WRITE), 4096);
	CHECK_EQ(count(LLCT_STREAM_RT, LLCT_OP_WRITE), 4096);
	CHECK_EQ(count(LLCT_STREAM_RT, LLCT_OP_READ), 0);
	CHECK_EQ(count(LLCT_STREAM_HIZ, LLCT_OP_READ), 64);
	CHECK_EQ(count(LLCT_STREAM_HIZ, LLCT_OP_WRITE), 64);
	/* 16,384 samples passed: a centred 128x128 rectangle (32x32 lines of 4x4 pixels) */
	n_recs = 0;
	d.samples_passed = 16384;
	d.st.blend = 1;
	llct_draw_footprint(fp, &p, &d, &r);
	llct_fp_drain(fp);
	CHECK(r.rect_w == 128 && r.rect_h == 128 && r.passed == 16384);
	CHECK_EQ(count(LLCT_STREAM_Z, LLCT_OP_READ), 1024);
	CHECK_EQ(count(LLCT_STREAM_RT, LLCT_OP_READ), 1024); /* blending reads first */
	CHECK_EQ(count(LLCT_STREAM_HIZ, LLCT_OP_READ), 16);  /* 64..192: 16x16 tiles */
	for (size_t i = 0; i < n_recs; i++)
		if (recs[i].stream == LLCT_STREAM_RT)
			CHECK(recs[i].addr >= 0x100000 + 64 * 1024 &&
			      recs[i].addr < 0x100000 + 192 * 1024);
	/* the depth test off: no Z, no HiZ, even with depth writes on; write mask 0: no color */
	n_recs = 0;
	d.st.depth_test = 0;
	d.st.write_mask = 0;
	llct_draw_footprint(fp, &p, &d, &r);
	llct_fp_drain(fp);
	CHECK_EQ(n_recs, 0);
	/* nothing passed: no attachment traffic, no texture, but uniforms and vertices */
	struct llct_surface tex = surf(0x400000, 64, 64, 4);
	struct llct_use uses[3] = {
	    {.kind = LLCT_USE_RANGE, .binding = LLCT_BIND_UNIFORM, .addr = 0x500000, .size = 256},
	    {.kind = LLCT_USE_IMAGE, .binding = LLCT_BIND_SAMPLED_IMAGE, .s = tex},
	    {.kind = LLCT_USE_RANGE,
	     .binding = -1,
	     .stream = LLCT_STREAM_VTX,
	     .op = LLCT_OP_READ,
	     .cached = 1,
	     .addr = 0x600010,
	     .size = 100}};
	d.uses = uses;
	d.n_uses = 3;
	d.samples_passed = 0;
	d.st.depth_test = 1;
	n_recs = 0;
	llct_draw_footprint(fp, &p, &d, &r);
	llct_fp_drain(fp);
	CHECK_EQ(count(LLCT_STREAM_OTHER, LLCT_OP_READ), 4);
	CHECK_EQ(count(LLCT_STREAM_VTX, LLCT_OP_READ), 2); /* bytes 0x10..0x74: two lines */
	CHECK_EQ(n_recs, 6);
	/* 4096 pixels passed (64x64): the 64x64 texture at mip 0, 1024 lines */
	d.samples_passed = 4096;
	n_recs = 0;
	llct_draw_footprint(fp, &p, &d, &r);
	llct_fp_drain(fp);
	CHECK_EQ(count(LLCT_STREAM_TEX, LLCT_OP_READ), 256);
	/* a dispatch: storage buffers read then written, as CS */
	struct llct_use st[1] = {
	    {.kind = LLCT_USE_RANGE, .binding = LLCT_BIND_STORAGE, .addr = 0x700000, .size = 4096}};
	n_recs = 0;
	llct_dispatch_footprint(fp, st, 1);
	llct_fp_drain(fp);
	CHECK(count(LLCT_STREAM_CS, LLCT_OP_READ) == 64 &&
	      count(LLCT_STREAM_CS, LLCT_OP_WRITE) == 64);
	CHECK(recs[0].op == LLCT_OP_READ && recs[64].op == LLCT_OP_WRITE);
	llct_fp_destroy(fp);
}

static uint32_t bits(float f)
{
	uint32_t b;
	memcpy(&b, &f, 4);
	return b;
}

static int by_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* Whether the n lines got are the lines of the n texels want (x, y pairs) of s's level 0. */
static int same_lines(const struct llct_surface *s, const uint64_t *got, uint32_t n,
		      const uint32_t (*want)[2], uint32_t n_want)
{
	uint64_t w[8], g[8];
	uint32_t k = 0;
	for (uint32_t i = 0; i < n_want; i++) {
		uint64_t l = llct_surface_line(s, 64, 0, 0, want[i][0], want[i][1]);
		int seen = 0;
		for (uint32_t q = 0; q < k; q++)
			seen |= w[q] == l;
		if (!seen)
			w[k++] = l;
	}
	if (k != n)
		return 0;
	memcpy(g, got, n * sizeof(*g));
	qsort(w, k, sizeof(*w), by_u64), qsort(g, n, sizeof(*g), by_u64);
	return !memcmp(w, g, n * sizeof(*g));
}

/* The texels a read takes, hand-worked: a sample at the centre of a 64 x 64 image is the 2 x 2
 * around (31.5, 31.5); a volume 16 x 16 x 4 (slices stacked, 16 rows each) sampled at w 0.75
 * reads slices 2 and 3 (0.75 x 4 - 0.5 = 2.5), at its centre texels 7..8 of each; a fetch of
 * (3, 4, 1) is row 16 + 4; nearest reads the one texel the point falls in. */
static void test_texel_lines(void)
{
	uint64_t got[8];
	struct llct_surface s = surf(0x10000, 64, 64, 4);
	struct llct_surface_map m;
	llct_surface_map(&s, 64, 0, 0, &m);
	uint32_t n = llct_texel_lines(&m, LLCT_TEXELS_LINEAR, bits(0.5f), bits(0.5f), 1, 0, got);
	static const uint32_t centre[4][2] = {{31, 31}, {32, 31}, {31, 32}, {32, 32}};
	CHECK(same_lines(&s, got, n, centre, 4));
	n = llct_texel_lines(&m, LLCT_TEXELS_FETCH, 5, 9, 1, 0, got);
	static const uint32_t one[1][2] = {{5, 9}};
	CHECK(same_lines(&s, got, n, one, 1));
	struct llct_surface v = surf(0x40000, 16, 16 * 4, 4);
	llct_surface_map(&v, 64, 0, 0, &m);
	n = llct_texel_lines(&m, LLCT_TEXELS_LINEAR, bits(0.5f), bits(0.5f), 4, bits(0.75f), got);
	static const uint32_t vol[8][2] = {{7, 39}, {8, 39}, {7, 40}, {8, 40},
					   {7, 55}, {8, 55}, {7, 56}, {8, 56}};
	CHECK(same_lines(&v, got, n, vol, 8));
	n = llct_texel_lines(&m, LLCT_TEXELS_FETCH, 3, 4, 4, 1, got);
	static const uint32_t vf[1][2] = {{3, 20}};
	CHECK(same_lines(&v, got, n, vf, 1));
	/* nearest: the texel the point falls in -- (8, 8) of slice 3 (0.75 x 4) */
	n = llct_texel_lines(&m, LLCT_TEXELS_NEAREST, bits(0.5f), bits(0.5f), 4, bits(0.75f), got);
	static const uint32_t vn[1][2] = {{8, 56}};
	CHECK(same_lines(&v, got, n, vn, 1));
	llct_surface_map(&s, 64, 0, 0, &m);
	n = llct_texel_lines(&m, LLCT_TEXELS_NEAREST, bits(0.49f), bits(0.51f), 1, 0, got);
	static const uint32_t n2[1][2] = {{31, 32}};
	CHECK(same_lines(&s, got, n, n2, 1));
}

/* Bilinear reads of a 2D level at random points, against its four texels' lines worked out
 * from scratch (llct_surface_line, clamped to the level, the lines in tap order, each once):
 * texels whose line holds a power-of-two rectangle and ones whose does not (12 and 6 bytes,
 * linear: 5 and 10 texels a line), odd extents, mip 1, points past the edges. */
static void test_texel_lines_random(void)
{
	static const struct {
		uint32_t w, h, bpp;
		int tiled;
	} f[] = {{64, 64, 4, 1}, {37, 23, 4, 1}, {50, 9, 12, 0}, {33, 17, 6, 0}, {5, 3, 16, 1}};
	uint64_t rng = 12345;
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		for (uint32_t mip = 0; mip < 2; mip++) {
			struct llct_surface s = surf(0x20000, f[i].w, f[i].h, f[i].bpp);
			s.tiled = f[i].tiled, s.mips = 2;
			struct llct_surface_map m;
			llct_surface_map(&s, 64, mip, 0, &m);
			for (int k = 0; k < 2000; k++) {
				rng = rng * 6364136223846793005ull + 1442695040888963407ull;
				float u = (float)(rng >> 40) / (float)(1 << 24) * 1.2f - 0.1f;
				float v =
				    (float)(rng >> 16 & 0xffffff) / (float)(1 << 24) * 1.2f - 0.1f;
				uint64_t got[8], want[8];
				uint32_t n = llct_texel_lines(&m, LLCT_TEXELS_LINEAR, bits(u),
							      bits(v), 1, 0, got),
					 nw = 0;
				float tx = u * (float)m.w - 0.5f, ty = v * (float)m.h - 0.5f;
				uint32_t x0 = tx <= 0            ? 0
					      : tx >= (float)m.w ? m.w - 1
								 : (uint32_t)tx;
				uint32_t y0 = ty <= 0            ? 0
					      : ty >= (float)m.h ? m.h - 1
								 : (uint32_t)ty;
				for (uint32_t t = 0; t < 4; t++) {
					uint32_t x = x0 + (t & 1), y = y0 + (t >> 1);
					x = x < m.w ? x : m.w - 1, y = y < m.h ? y : m.h - 1;
					uint64_t l = llct_surface_line(&s, 64, mip, 0, x, y);
					int seen = 0;
					for (uint32_t q = 0; q < nw; q++)
						seen |= want[q] == l;
					if (!seen)
						want[nw++] = l;
				}
				CHECK_MSG(n == nw && !memcmp(got, want, n * sizeof(got[0])),
					  "surface %zu mip %u: (%g, %g) gives %u lines, want %u", i,
					  mip, (double)u, (double)v, n, nw);
			}
		}
}

/* A mapped mip/layer gives the line llct_surface_line works out from scratch, for every texel
 * and past the edges (clamped): texel sizes whose line holds a power-of-two rectangle (4 and 16
 * bytes, BC 4x4 blocks) and ones that do not (12-byte RGB32F: 5 texels a 64-byte line; 6-byte
 * RGB16 linear), tiled and linear, odd extents, mips 0-2, layer 1. */
static void test_map_line(void)
{
	static const struct {
		uint32_t bpp, bw, bh, line;
		int tiled;
	} f[] = {{4, 1, 1, 64, 1},  {16, 1, 1, 128, 1}, {8, 4, 4, 64, 1},
		 {12, 1, 1, 64, 1}, {6, 1, 1, 64, 0},   {4, 1, 1, 64, 0}};
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		struct llct_surface s = surf(0x100000, 37, 23, f[i].bpp);
		s.block_w = f[i].bw, s.block_h = f[i].bh, s.tiled = f[i].tiled;
		s.mips = 3, s.layers = 2;
		for (uint32_t mip = 0; mip < 3; mip++) {
			struct llct_surface_map m;
			llct_surface_map(&s, f[i].line, mip, 1, &m);
			int pow2 = !(m.tw & (m.tw - 1)) && !(m.th & (m.th - 1));
			CHECK(pow2 == (m.tws < 32 && m.ths < 32));
			for (uint32_t y = 0; y < m.h + 3; y++)
				for (uint32_t x = 0; x < m.w + 3; x++)
					CHECK(llct_surface_map_line(&m, x, y) ==
					      llct_surface_line(&s, f[i].line, mip, 1, x, y));
		}
	}
}

/* A rectangle not through the render caches goes out a row of lines at a time: the same
 * records, in the same order, as touching each line by itself in the order llct_fp_rect
 * documents (screen tile by tile, SM by tile; within a tile, the lines row by row), for
 * tiled, linear, block-compressed and odd-sized texels, rectangles cut by the extent and
 * runs longer than the model's buffer. (The rectangle's corner is first moved back to a line's
 * first texel, so a line wider than a tile is touched by each tile's SM.) */
static void test_rect_direct(void)
{
	static const struct {
		uint32_t bpp, bw, bh, w, h;
		int tiled;
	} f[] = {{4, 1, 1, 300, 200, 1}, {4, 1, 1, 300, 200, 0}, {8, 4, 4, 130, 70, 1},
		 {12, 1, 1, 45, 33, 1},  {2, 1, 1, 515, 97, 0},  {16, 1, 1, 64, 600, 1}};
	static const uint32_t rc[][4] = {
	    {0, 0, 1u << 20, 1u << 20}, {3, 5, 41, 29}, {17, 1, 18, 2}, {250, 190, 400, 300}};
	struct llct_fp_config c;
	llct_fp_config_default(&c);
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		for (size_t k = 0; k < sizeof(rc) / sizeof(rc[0]); k++) {
			struct llct_surface s = surf(0x200000, f[i].w, f[i].h, f[i].bpp);
			s.block_w = f[i].bw, s.block_h = f[i].bh, s.tiled = f[i].tiled;
			s.mips = 2, s.layers = 2;
			struct rvec got = {0}, want = {0};
			struct llct_fp *a, *b;
			CHECK_EQ(llct_fp_create(&c, rvec_collect, &got, &a), LLCT_OK);
			CHECK_EQ(llct_fp_create(&c, rvec_collect, &want, &b), LLCT_OK);
			llct_fp_set_kernel(a, 7);
			llct_fp_set_kernel(b, 7);
			llct_fp_rect(a, &s, 1, 1, rc[k][0], rc[k][1], rc[k][2], rc[k][3],
				     LLCT_STREAM_RT, LLCT_OP_WRITE, 0);
			/* by hand: the texels a line holds, the tiles the rectangle meets */
			uint32_t w, h, tw, th, T = c.tile;
			llct_surface_mip_extent(&s, 1, &w, &h);
			llct_surface_line_texels(&s, c.line, &tw, &th);
			uint32_t x0 = rc[k][0] - rc[k][0] % tw, y0 = rc[k][1] - rc[k][1] % th;
			uint32_t x1 = rc[k][2] < w ? rc[k][2] : w, y1 = rc[k][3] < h ? rc[k][3] : h;
			for (uint32_t ty = y0 / T; x0 < x1 && ty * T < y1; ty++)
				for (uint32_t tx = x0 / T; tx * T < x1; tx++) {
					uint32_t sm = (ty * ((w + T - 1) / T) + tx) % c.n_sms;
					uint32_t ya = ty * T > y0 ? ty * T : y0;
					uint32_t xa = tx * T > x0 ? tx * T : x0;
					for (uint32_t y = ya - ya % th; y < (ty + 1) * T && y < y1;
					     y += th)
						for (uint32_t x = xa - xa % tw;
						     x < (tx + 1) * T && x < x1; x += tw)
							llct_fp_touch(b,
								      llct_surface_line(&s, c.line,
											1, 1, x, y),
								      LLCT_STREAM_RT, LLCT_OP_WRITE,
								      sm, 0);
				}
			llct_fp_drain(a);
			llct_fp_drain(b);
			CHECK(got.n == want.n);
			CHECK((got.n > 0) == (rc[k][0] < w && rc[k][1] < h));
			CHECK(llct_fp_emitted(a) == got.n);
			for (size_t j = 0; j < got.n && j < want.n; j++)
				if (got.v[j].addr != want.v[j].addr ||
				    got.v[j].sm != want.v[j].sm ||
				    got.v[j].kernel != want.v[j].kernel ||
				    got.v[j].tenant != want.v[j].tenant ||
				    got.v[j].stream != want.v[j].stream ||
				    got.v[j].op != want.v[j].op) {
					CHECK(!"the same record");
					break;
				}
			llct_fp_destroy(a);
			llct_fp_destroy(b);
			free(got.v);
			free(want.v);
		}
}

/* A sink lending room in pieces of 1,000 records, and none every third time (the records
 * then go to emit): what it and emit receive, in order, into one array. */
struct lender {
	struct rvec out;
	struct llct_record room[1000];
	int asked, stop_after; /* commits until commit says stop; 0: never */
};

static struct llct_record *lend(void *ud, size_t *room)
{
	struct lender *l = ud;
	*room = 0;
	if (++l->asked % 3 == 0)
		return NULL;
	*room = sizeof(l->room) / sizeof(l->room[0]);
	return l->room;
}

static int take_back(void *ud, size_t n)
{
	struct lender *l = ud;
	rvec_collect(&l->out, l->room, n);
	return l->stop_after && l->out.n >= (size_t)l->stop_after;
}

static int lender_emit(void *ud, const struct llct_record *r, size_t n)
{
	struct lender *l = ud;
	return rvec_collect(&l->out, r, n) || (l->stop_after && l->out.n >= (size_t)l->stop_after);
}

/* The work both models below do: cached and uncached rectangles, touches, records put. */
static void sink_work(struct llct_fp *fp, const struct llct_surface *s)
{
	llct_fp_set_kernel(fp, 3);
	llct_fp_rect(fp, s, 0, 0, 0, 0, 200, 150, LLCT_STREAM_RT, LLCT_OP_WRITE, 1);
	llct_fp_drain(fp);
	llct_fp_rect(fp, s, 0, 0, 10, 10, 190, 120, LLCT_STREAM_TEX, LLCT_OP_READ, 0);
	for (uint32_t i = 0; i < 3000; i++)
		llct_fp_touch(fp, 0x900000 + (uint64_t)i * 64, LLCT_STREAM_VTX, LLCT_OP_READ, i, 0);
	struct llct_record r[2500];
	for (uint32_t i = 0; i < 2500; i++)
		r[i] = (struct llct_record){.addr = 0x800000 + (uint64_t)i * 64,
					    .kernel = 9,
					    .sm = (uint16_t)(i % 16),
					    .stream = LLCT_STREAM_Z,
					    .op = LLCT_OP_WRITE};
	llct_fp_put(fp, r, 2500);
	llct_fp_flush(fp);
	llct_fp_drain(fp);
}

/* Records written in the room a sink lends are the records emit would have got, in the same
 * order; where it lends none they go to emit; a commit's stop stops the model as emit's does. */
static void test_sink(void)
{
	struct llct_fp_config c;
	llct_fp_config_default(&c);
	struct llct_surface s = surf(0x100000, 200, 150, 4);
	for (int stop = 0; stop < 2; stop++) {
		struct lender *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
		a->stop_after = stop ? 5000 : 0; /* b: all, to compare with */
		struct llct_fp *fa, *fb;
		CHECK_EQ(llct_fp_create(&c, lender_emit, a, &fa), LLCT_OK);
		CHECK_EQ(llct_fp_create(&c, lender_emit, b, &fb), LLCT_OK);
		llct_fp_set_sink(fa, lend, take_back);
		sink_work(fa, &s);
		sink_work(fb, &s);
		CHECK(a->asked >= 3); /* lent room, and refused it */
		CHECK(b->out.n > 8000);
		/* stopped: what came before the stop, and nothing after it */
		CHECK(stop ? a->out.n >= 5000 && a->out.n < b->out.n : a->out.n == b->out.n);
		CHECK(llct_fp_emitted(fa) == llct_fp_emitted(fb));
		for (size_t j = 0; j < a->out.n && j < b->out.n; j++)
			if (a->out.v[j].addr != b->out.v[j].addr ||
			    a->out.v[j].sm != b->out.v[j].sm ||
			    a->out.v[j].kernel != b->out.v[j].kernel ||
			    a->out.v[j].stream != b->out.v[j].stream ||
			    a->out.v[j].op != b->out.v[j].op) {
				CHECK(!"the same record");
				break;
			}
		llct_fp_destroy(fa);
		llct_fp_destroy(fb);
		free(a->out.v);
		free(b->out.v);
		free(a);
		free(b);
	}
}

/* Cube map face selection, hand-worked from Vulkan's table: the major axis picks the face,
 * the other two (signed as the table says) over its magnitude give s and t. */
static void test_cube_faces(void)
{
	static const struct {
		float x, y, z;
		uint32_t face;
		float s, t;
	} want[] = {
	    {1, 0.5f, -0.25f, 0, 0.625f, 0.25f},  /* +X: sc = -z, tc = -y */
	    {-2, 1, 1, 1, 0.75f, 0.25f},          /* -X: sc = z, tc = -y */
	    {0.5f, 1, -0.5f, 2, 0.75f, 0.25f},    /* +Y: sc = x, tc = z */
	    {0.5f, -1, -0.5f, 3, 0.75f, 0.75f},   /* -Y: sc = x, tc = -z */
	    {0.25f, -0.5f, 1, 4, 0.625f, 0.75f},  /* +Z: sc = x, tc = -y */
	    {0.25f, -0.5f, -1, 5, 0.375f, 0.75f}, /* -Z: sc = -x, tc = -y */
	    {0, 0, 0, 0, 0.5f, 0.5f},             /* no direction: face 0's centre */
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		float s = -1, t = -1;
		uint32_t f = llct_cube_face(want[i].x, want[i].y, want[i].z, &s, &t);
		CHECK(f == want[i].face);
		CHECK(fabsf(s - want[i].s) < 1e-6f && fabsf(t - want[i].t) < 1e-6f);
	}
}

/* The SM map gives llct_fp_pixel_sm's SM for every pixel, with tile edges and SM counts that
 * are powers of two (shifts and masks) and ones that are not (divisions). */
static void test_sm_map(void)
{
	static const uint32_t tiles[] = {16, 13, 1, 64}, sms[] = {16, 12, 1, 7, 64};
	for (size_t ti = 0; ti < sizeof(tiles) / sizeof(tiles[0]); ti++)
		for (size_t si = 0; si < sizeof(sms) / sizeof(sms[0]); si++) {
			struct llct_fp_config c;
			struct llct_fp *fp;
			llct_fp_config_default(&c);
			c.tile = tiles[ti], c.n_sms = sms[si];
			CHECK_EQ(llct_fp_create(&c, collect, NULL, &fp), LLCT_OK);
			for (uint32_t width = 1; width < 2000; width += 333) {
				struct llct_fp_sm_map m;
				llct_fp_sm_map_init(fp, width, &m);
				int bad = 0;
				for (uint32_t y = 0; y < 300; y += 7)
					for (uint32_t x = 0; x < width; x += 5)
						bad += llct_fp_sm_map_get(&m, x, y) !=
						       llct_fp_pixel_sm(fp, x, y, width);
				CHECK_EQ(bad, 0);
			}
			llct_fp_destroy(fp);
		}
}

/* llct_fp_lines_apart against the model itself: where it says k consecutive lines never share
 * an entry of an SM's cache, touching them and then them again hits every time on the second
 * pass, for every first line tried; where it says they may, some line misses so. 4 entries:
 * a line and the next (20,737,780 apart in the hash, a multiple of 4) may share one; 128 (the
 * default): five lines apart, as the layer's runs of four lines' bytes need. */
static void test_lines_apart(void)
{
	static const struct {
		uint32_t n, k;
		int apart;
	} cases[] = {{0, 5, 1},   {4, 2, 0},   {8, 2, 1},   {8, 5, 1},  {64, 5, 1},
		     {128, 5, 1}, {128, 9, 1}, {512, 5, 1}, {96, 3, 1}, {1000, 5, 1}};
	for (size_t q = 0; q < sizeof(cases) / sizeof(cases[0]); q++) {
		struct llct_fp_config c;
		struct llct_fp *fp;
		llct_fp_config_default(&c);
		c.rc_lines[LLCT_STREAM_VTX] = cases[q].n;
		int apart = llct_fp_lines_apart(&c, LLCT_STREAM_VTX, cases[q].k), missed = 0;
		CHECK_EQ(llct_fp_create(&c, collect, NULL, &fp), LLCT_OK);
		for (uint64_t key = 1; key < 100000; key += 37) {
			uint64_t a = key * 64 + ((uint64_t)q << 40), hits;
			for (uint32_t j = 0; j < cases[q].k; j++)
				llct_fp_touch(fp, a + 64 * j, LLCT_STREAM_VTX, LLCT_OP_READ, 3, 1);
			hits = llct_fp_filtered(fp);
			for (uint32_t j = 0; j < cases[q].k; j++)
				llct_fp_touch(fp, a + 64 * j, LLCT_STREAM_VTX, LLCT_OP_READ, 3, 1);
			missed += cases[q].n && llct_fp_filtered(fp) != hits + cases[q].k;
			llct_fp_drain(fp);
			n_recs = 0;
		}
		CHECK_MSG(apart ? missed == 0 : missed > 0,
			  "%u entries, %u lines: apart %d, %d first lines missed", cases[q].n,
			  cases[q].k, apart, missed);
		CHECK_MSG(apart == cases[q].apart, "%u entries, %u lines: apart %d", cases[q].n,
			  cases[q].k, apart);
		llct_fp_destroy(fp);
	}
}

int main(void)
{
	test_lines_apart();
	test_sm_map();
	test_surfaces();
	test_cube_faces();
	test_texel_lines();
	test_texel_lines_random();
	test_map_line();
	test_rect_direct();
	test_sink();
	test_hiz();
	test_pass();
	test_bindings();
	test_lod();
	test_draw();
	return check_done("streams");
}
