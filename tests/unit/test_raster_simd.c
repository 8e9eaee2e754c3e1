/* test_raster_simd.c - the rasterizer's vector variants (streams/raster_cover.c) give the same
 * bits as their scalar loops, on random edges through random tiles, edges passing exactly
 * through sample positions, and coordinates near the largest a framebuffer has. */
#include "../../streams/raster_int.h"
#include "check.h"

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

int main(void)
{
	if (!raster_cover_vector()) /* then both sides are the scalar loop */
		printf("raster_simd: this CPU has no AVX2: the vector rows are not checked here\n");
	test_cover_rows();
	return check_done("raster_simd");
}
