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
			uint32_t pa, ra, wa, sa, pb, rb, wb, sb, pc, rc, wc, sc;
			int cha = 0, chb = 0, chc = 0;
			uint32_t na = raster_ds_block(&ca, &t, bx, by, NULL, covm, verdict, &pa,
						      &ra, &wa, &sa, &cha);
			uint32_t nb = raster_ds_single(&cb, &t, bx, by, covm, verdict, &pb, &rb,
						       &wb, &sb, &chb);
			uint32_t nc = raster_ds_single_pixels(&cc, &t, bx, by, covm, verdict, &pc,
							      &rc, &wc, &sc, &chc);
			CHECK_EQ(nc, na);
			CHECK_EQ(pc, pa);
			CHECK_EQ(rc, ra);
			CHECK_EQ(wc, wa);
			CHECK_EQ(sc, sa);
			CHECK_EQ(chc, cha);
			CHECK_EQ(cc.zw_n, ca.zw_n);
			CHECK(memcmp(&cc.zw_lo, &ca.zw_lo, 4) == 0 &&
			      memcmp(&cc.zw_hi, &ca.zw_hi, 4) == 0);
			CHECK_EQ(nb, na);
			CHECK_EQ(pb, pa);
			CHECK_EQ(rb, ra);
			CHECK_EQ(wb, wa);
			CHECK_EQ(sb, sa);
			CHECK_EQ(chb, cha);
			CHECK_EQ(cb.zw_n, ca.zw_n);
			CHECK(memcmp(&cb.zw_lo, &ca.zw_lo, 4) == 0 &&
			      memcmp(&cb.zw_hi, &ca.zw_hi, 4) == 0);
			checked++, passed += na, stencil_changed += sa != 0,
			    depth_changed += cha & 1;
		}
		size_t n = (size_t)za->tiles_x * za->tiles_y;
		CHECK(memcmp(za->depth, zb->depth, n * LLCT_HIZ_TILE * LLCT_HIZ_TILE * 4) == 0);
		CHECK(memcmp(za->stencil, zb->stencil, n * LLCT_HIZ_TILE * LLCT_HIZ_TILE) == 0);
		CHECK(memcmp(za->tile_min, zb->tile_min, n * 4) == 0);
		CHECK(memcmp(za->tile_max, zb->tile_max, n * 4) == 0);
		CHECK(memcmp(za->depth, zc->depth, n * LLCT_HIZ_TILE * LLCT_HIZ_TILE * 4) == 0);
		CHECK(memcmp(za->stencil, zc->stencil, n * LLCT_HIZ_TILE * LLCT_HIZ_TILE) == 0);
		CHECK(memcmp(za->tile_min, zc->tile_min, n * 4) == 0);
		CHECK(memcmp(za->tile_max, zc->tile_max, n * 4) == 0);
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
