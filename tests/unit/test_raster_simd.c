/* test_raster_simd.c - the rasterizer's vector variants give the same bits as their scalar
 * loops: coverage (streams/raster_cover.c) on random edges through random tiles, edges passing
 * exactly through sample positions, and coordinates near the largest a framebuffer has; the
 * depth test of a block (streams/raster_depth.c) on random planes against random stored
 * depths, some equal to the incoming ones, some NaN, for every compare op and format. */
#include "../../streams/raster_int.h"
#include "check.h"

#include <math.h>
#include <string.h>

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* A random integer in [-m, m]. */
static int64_t span(int64_t m)
{
	return (int64_t)(next() % (uint64_t)(2 * m + 1)) - m;
}

static void test_cover_rows(void)
{
	int differ = 0, covered = 0, partial = 0;
	for (int n = 0; n < 200000; n++) {
		struct tri t;
		memset(&t, 0, sizeof(t));
		int64_t tile_max =
		    n % 3 == 0 ? 16384 / 8 : 64; /* tiles of a 16K surface, or near 0 */
		int64_t tx = (int64_t)(next() % (uint64_t)tile_max) * 8,
			ty = (int64_t)(next() % (uint64_t)tile_max) * 8;
		int64_t sox = (int64_t)(next() % SUB), soy = (int64_t)(next() % SUB);
		for (int e = 0; e < 3; e++) {
			int64_t lim = n % 5 == 0 ? (int64_t)1 << 23 : 1024;
			t.A[e] = span(lim);
			t.B[e] = span(lim);
			/* through a sample position of the tile, give or take a little: ties (E = 0
			   is inside) and both sides of them */
			int64_t px = (tx + (int64_t)(next() % 8)) * SUB + sox,
				py = (ty + (int64_t)(next() % 8)) * SUB + soy;
			t.C[e] = -(t.A[e] * px + t.B[e] * py) + (n % 2 ? 0 : span(3 * SUB));
		}
		int xs = (int)(next() % 8), xe = xs + 1 + (int)(next() % (uint64_t)(8 - xs));
		int ys = (int)(next() % 8), ye = ys + 1 + (int)(next() % (uint64_t)(8 - ys));
		uint32_t a[8], b[8];
		memset(a, 0xa5, sizeof(a));
		memset(b, 0xa5, sizeof(b));
		raster_cover_rows(&t, tx, ty, sox, soy, xs, xe, ys, ye, a);
		raster_cover_rows_scalar(&t, tx, ty, sox, soy, xs, xe, ys, ye, b);
		if (memcmp(a, b, sizeof(a))) {
			if (differ++ < 5)
				fprintf(stderr, "tile (%lld,%lld) x %d..%d y %d..%d: rows differ\n",
					(long long)tx, (long long)ty, xs, xe, ys, ye);
		}
		for (int y = ys; y < ye; y++) {
			uint32_t want = ((1u << xe) - 1) & ~((1u << xs) - 1);
			covered += b[y] == want;
			partial += b[y] && b[y] != want;
		}
	}
	CHECK_EQ(differ, 0);
	/* the cases are not all alike: whole rows, some pixels, none */
	CHECK(covered > 10000 && partial > 10000);
}

/* A random double in [lo, hi). */
static double uniform(double lo, double hi)
{
	return lo + (hi - lo) * (double)(next() >> 11) / 9007199254740992.0;
}

static void test_depth_block(void)
{
	int differ = 0, passed = 0, failed = 0, changed = 0, moved = 0;
	for (int n = 0; n < 200000; n++) {
		float tile[LLCT_HIZ_TILE * LLCT_HIZ_TILE], tile2[LLCT_HIZ_TILE * LLCT_HIZ_TILE];
		struct raster_depth a, b;
		memset(&a, 0, sizeof(a));
		const uint32_t formats[3] = {16, 24, 32};
		a.qbits = formats[next() % 3];
		a.op = (int)(next() % 8); /* NEVER .. ALWAYS */
		a.clamp = next() % 4 == 0;
		a.zlo = uniform(0, 0.5), a.zhi = uniform(0.5, 1);
		if (next() % 8 == 0) /* out of order: the scalar loop's order of tests decides */
			a.zlo = uniform(0.5, 1), a.zhi = uniform(0, 0.5);
		a.dwrite = next() % 4 != 0;
		a.all = next() % 5 == 0;
		a.covm = (uint32_t)(next() & 0xffff);
		if (next() % 3 == 0)
			a.covm = 0xffff;
		/* a plane over the block, now and then leaving [0, 1] */
		a.z0 = uniform(-0.1, 1.1), a.dzdx = uniform(-0.05, 0.05);
		a.dzdy = uniform(-0.05, 0.05);
		a.bx = (uint32_t)(next() % 4096) * BLK, a.by = (uint32_t)(next() % 4096) * BLK;
		a.x0 = a.bx + uniform(-8, 8), a.y0 = a.by + uniform(-8, 8);
		a.sox = (double)(next() % SUB) / SUB, a.soy = (double)(next() % SUB) / SUB;
		a.bias = next() % 4 ? 0 : uniform(-1e-3, 1e-3);
		if (next() % 500 == 0)
			a.bias = NAN;
		/* stored depths: random, equal to the incoming one, or NaN */
		for (int i = 0; i < LLCT_HIZ_TILE * LLCT_HIZ_TILE; i++)
			tile[i] = (float)uniform(0, 1);
		for (int i = 0; i < BLK * BLK; i++) {
			float *p = &tile[(i / BLK) * LLCT_HIZ_TILE + i % BLK];
			uint64_t r = next() % 16;
			if (r < 4) {
				double zz =
				    a.z0 + a.dzdx * ((double)(a.bx + i % BLK) + a.sox - a.x0) +
				    a.dzdy * ((double)(a.by + i / BLK) + a.soy - a.y0) + a.bias;
				if (a.clamp)
					zz = zz < a.zlo ? a.zlo : zz > a.zhi ? a.zhi : zz;
				*p = llct_zbuf_quantize_bits(a.qbits, zz);
			} else if (r == 4 && next() % 8 == 0) {
				*p = NAN;
			}
		}
		a.w_lo = next() % 2 ? INFINITY : (float)uniform(0, 1);
		a.w_hi = next() % 2 ? -INFINITY : (float)uniform(0, 1);
		a.t_lo = (float)uniform(0, 0.6), a.t_hi = (float)uniform(0.4, 1);
		if (next() % 200 == 0)
			a.t_lo = NAN;
		memcpy(tile2, tile, sizeof(tile));
		b = a;
		a.depth = tile + 0, b.depth = tile2 + 0;
		raster_depth_block(&a);
		raster_depth_block_scalar(&b);
		a.depth = b.depth = NULL;
		if (memcmp(&a, &b, sizeof(a)) || memcmp(tile, tile2, sizeof(tile))) {
			if (differ++ < 5)
				fprintf(
				    stderr,
				    "depth block %d (op %d, %u bits, clamp %d, write %d, all %d, "
				    "cov %04x): pass %04x/%04x written %04x/%04x ch %d/%d\n",
				    n, a.op, a.qbits, a.clamp, a.dwrite, a.all, a.covm, a.pass,
				    b.pass, a.wm, b.wm, a.ch, b.ch);
		}
		passed += b.pass != 0;
		failed += b.pass != b.covm;
		changed += b.ch & 1;
		moved += (b.ch & 2) != 0;
	}
	CHECK_EQ(differ, 0);
	/* the cases are not all alike */
	CHECK(passed > 10000 && failed > 10000 && changed > 10000 && moved > 10000);
}

int main(void)
{
	if (!raster_cover_vector()) /* then both sides are the scalar loop */
		printf("raster_simd: this CPU has no AVX2: the vector rows are not checked here\n");
	test_cover_rows();
	test_depth_block();
	return check_done("raster_simd");
}
