/* test_raster_ds.c - a block's depth and stencil tests one sample a pixel by masks, both the
 * pixel loop (raster_ds_single_pixels) and the depth by rows around it (raster_ds_single,
 * streams/raster_ds.c), give what the general loop gives (raster_ds_block with one sample a
 * pixel), bit for bit: random blocks of two buffers kept equal, under random depth
 * formats, compare ops, clamps, stencil faces and ops, HiZ verdicts, test and write switches,
 * planes flat enough that stored depths equal incoming ones; the counts, masks, change flags,
 * the primitive's written bounds, and every depth, stencil and tile bound after. */
#include "../../streams/raster_int.h"
#include "check.h"

#include <string.h>

static uint64_t rng = 0x243f6a8885a308d3ull;
static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static float unit(void)
{
	return (float)(next() % 1000001) / 1e6f;
}

static struct llct_stencil_face face(void)
{
	struct llct_stencil_face f = {(uint8_t)(next() % 8),
				      (uint8_t)(next() % 8),
				      (uint8_t)(next() % 8),
				      (uint8_t)(next() % 8),
				      next() % 2 ? 0xffu : (uint32_t)(next() & 0xff),
				      next() % 2 ? 0xffu : (uint32_t)(next() & 0xff),
				      (uint32_t)(next() % 4)};
	return f;
}

/* What one of the three ways returned. */
struct out {
	uint32_t n, pass, zr, zw, sw;
	int ch;
};

/* x (with its context cx) gave what the general loop a (ca) gave. */
static void same_out(const struct out *x, const struct ctx *cx, const struct out *a,
		     const struct ctx *ca)
{
	CHECK_EQ(x->n, a->n);
	CHECK_EQ(x->pass, a->pass);
	CHECK_EQ(x->zr, a->zr);
	CHECK_EQ(x->zw, a->zw);
	CHECK_EQ(x->sw, a->sw);
	CHECK_EQ(x->ch, a->ch);
	CHECK_EQ(cx->zw_n, ca->zw_n);
	CHECK(memcmp(&cx->zw_lo, &ca->zw_lo, 4) == 0 && memcmp(&cx->zw_hi, &ca->zw_hi, 4) == 0);
}

/* Buffer x holds what a does: every depth, stencil and tile bound. */
static void same_buf(const struct llct_zbuf *x, const struct llct_zbuf *a)
{
	size_t n = (size_t)a->tiles_x * a->tiles_y;
	CHECK(memcmp(x->depth, a->depth, n * LLCT_HIZ_TILE * LLCT_HIZ_TILE * 4) == 0);
	CHECK(memcmp(x->stencil, a->stencil, n * LLCT_HIZ_TILE * LLCT_HIZ_TILE) == 0);
	CHECK(memcmp(x->tile_min, a->tile_min, n * 4) == 0);
	CHECK(memcmp(x->tile_max, a->tile_max, n * 4) == 0);
}

int main(void)
{
	enum { W = 64, H = 64 };
	static const uint32_t bits[3] = {16, 24, 32};
	uint64_t checked = 0, passed = 0, stencil_changed = 0, depth_changed = 0;
	for (int round = 0; round < 60; round++) {
		uint32_t db = bits[round % 3];
		struct llct_zbuf *za = llct_zbuf_create(W, H, 1, db, 8),
				 *zb = llct_zbuf_create(W, H, 1, db, 8),
				 *zc = llct_zbuf_create(W, H, 1, db, 8);
		CHECK(za && zb && zc);
		llct_zbuf_clear(za, 0, 0, W, H, 1, 0.5f, 1, 1);
		llct_zbuf_clear(zb, 0, 0, W, H, 1, 0.5f, 1, 1);
		llct_zbuf_clear(zc, 0, 0, W, H, 1, 0.5f, 1, 1);
		for (size_t t = 0; t < (size_t)za->tiles_x * za->tiles_y; t++)
			llct_zbuf_touch_tile(za, t), llct_zbuf_touch_tile(zb, t),
			    llct_zbuf_touch_tile(zc, t);
		/* random stored values, a few stencil values the references hit */
		for (uint32_t y = 0; y < H; y++)
			for (uint32_t x = 0; x < W; x++) {
				size_t at = llct_zbuf_at(za, x, y);
				za->depth[at] = zb->depth[at] = zc->depth[at] =
				    llct_zbuf_quantize(za, unit());
				za->stencil[at] = zb->stencil[at] = zc->stencil[at] =
				    (uint8_t)(next() % 5);
			}
		for (int n = 0; n < 4000; n++) {
			struct llct_draw_state st;
			memset(&st, 0, sizeof(st));
			st.depth_compare = (int)(next() % 8);
			st.depth_clamp = next() % 4 == 0;
			st.front = face(), st.back = face();
			struct ctx ca;
			memset(&ca, 0, sizeof(ca));
			ca.st = &st, ca.z = za, ca.ns = 1;
			ca.so[0][0] = (int32_t)(next() % SUB),
			ca.so[0][1] = (int32_t)(next() % SUB);
			ca.zlo = 0.25f, ca.zhi = 0.75f;
			ca.dtest = next() % 4 != 0, ca.dwrite = next() % 2,
			ca.stest = next() % 4 != 0;
			ca.zw_n = 3, ca.zw_lo = 0.4f, ca.zw_hi = 0.6f;
			struct ctx cb = ca, cc = ca;
			cb.z = zb, cc.z = zc;
			struct tri t;
			memset(&t, 0, sizeof(t));
			/* a plane through a stored depth at times (equal depths), flat or sloped */
			t.z0 = next() % 3 ? unit() : za->depth[llct_zbuf_at(za, 5, 7)];
			t.dzdx = next() % 3 ? 0 : ((double)unit() - 0.5) / 64;
			t.dzdy = next() % 3 ? 0 : ((double)unit() - 0.5) / 64;
			t.x0 = next() % W, t.y0 = next() % H;
			t.bias = next() % 4 ? 0 : 1e-4;
			t.front = next() % 2;
			int32_t bx = (int32_t)(next() % (W / BLK)) * BLK,
				by = (int32_t)(next() % (H / BLK)) * BLK;
			uint32_t covm = (uint32_t)(next() & 0xffff);
			covm = covm ? covm : 1;
			int verdict = (int)(next() % 3) - 1;
			struct out a = {0}, b = {0}, c = {0};
			a.n = raster_ds_block(&ca, &t, bx, by, NULL, covm, verdict, &a.pass, &a.zr,
					      &a.zw, &a.sw, &a.ch);
			b.n = raster_ds_single(&cb, &t, bx, by, covm, verdict, &b.pass, &b.zr,
					       &b.zw, &b.sw, &b.ch);
			c.n = raster_ds_single_pixels(&cc, &t, bx, by, covm, verdict, &c.pass,
						      &c.zr, &c.zw, &c.sw, &c.ch);
			same_out(&b, &cb, &a, &ca);
			same_out(&c, &cc, &a, &ca);
			checked++, passed += a.n, stencil_changed += a.sw != 0,
			    depth_changed += a.ch & 1;
		}
		same_buf(zb, za);
		same_buf(zc, za);
		llct_zbuf_destroy(za), llct_zbuf_destroy(zb), llct_zbuf_destroy(zc);
	}
	/* the random states reached what they are meant to */
	CHECK(passed > 0 && stencil_changed > 1000 && depth_changed > 1000);
	printf("raster_ds: %llu blocks, %llu samples passed, %llu with stencil written, %llu with "
	       "depth changed\n",
	       (unsigned long long)checked, (unsigned long long)passed,
	       (unsigned long long)stencil_changed, (unsigned long long)depth_changed);
	return check_done("raster_ds");
}
