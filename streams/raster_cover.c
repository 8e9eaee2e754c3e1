/* raster_cover.c - which pixels of a tile a primitive covers, one sample a pixel: the three
 * edge functions over a row of 8 pixels at a time, with AVX2 where the CPU has it (chosen at
 * run time: the build targets the x86-64 baseline) and a pixel at a time elsewhere. Integer
 * arithmetic both ways, so both give the same bits (test_raster compares them).
 *
 * A row stepped a pixel at a time is about ten operations a pixel; AVX2 does 8 pixels of the 3
 * edges in 6 additions, 4 ORs and 2 sign masks. */
#include "raster_int.h"

#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
#define HAVE_AVX2_VARIANT 1
#endif

/* Scalar: rows[y] for y in [ys, ye), the edges stepped pixel by pixel over [xs, xe). */
static void cover_scalar(const struct tri *t, int64_t tx, int64_t ty, int64_t sox, int64_t soy,
			 int xs, int xe, int ys, int ye, uint32_t rows[LLCT_HIZ_TILE])
{
	int64_t r[3], dx[3], dy[3];
	for (int e = 0; e < 3; e++) {
		r[e] =
		    t->A[e] * ((tx + xs) * SUB + sox) + t->B[e] * ((ty + ys) * SUB + soy) + t->C[e];
		dx[e] = t->A[e] * SUB;
		dy[e] = t->B[e] * SUB;
	}
	for (int y = ys; y < ye; y++) {
		int64_t e0 = r[0], e1 = r[1], e2 = r[2];
		uint32_t bits = 0;
		for (int x = xs; x < xe; x++) {
			bits |= (uint32_t)(~(uint64_t)(e0 | e1 | e2) >> 63) << x;
			e0 += dx[0], e1 += dx[1], e2 += dx[2];
		}
		rows[y] = bits;
		r[0] += dy[0], r[1] += dy[1], r[2] += dy[2];
	}
}

#ifdef HAVE_AVX2_VARIANT
/* AVX2: each edge over the tile's 8 columns as two vectors of 4, a row at a time; a pixel is
 * covered where no edge is negative (the OR's sign bit clear), then kept within [xs, xe). The
 * values are those the scalar loop reaches (the same sums, exact in 64 bits). */
__attribute__((target("avx2"))) static void cover_avx2(const struct tri *t, int64_t tx, int64_t ty,
						       int64_t sox, int64_t soy, int xs, int xe,
						       int ys, int ye, uint32_t rows[LLCT_HIZ_TILE])
{
	_Static_assert(LLCT_HIZ_TILE == 8, "a row is two vectors of 4 pixels");
	__m256i lo[3], hi[3], dy[3];
	for (int e = 0; e < 3; e++) {
		int64_t r =
		    t->A[e] * (tx * SUB + sox) + t->B[e] * ((ty + ys) * SUB + soy) + t->C[e];
		int64_t d = t->A[e] * SUB;
		lo[e] = _mm256_set_epi64x(r + 3 * d, r + 2 * d, r + d, r);
		hi[e] = _mm256_add_epi64(lo[e], _mm256_set1_epi64x(4 * d));
		dy[e] = _mm256_set1_epi64x(t->B[e] * SUB);
	}
	uint32_t keep = ((1u << xe) - 1) & ~((1u << xs) - 1);
	for (int y = ys; y < ye; y++) {
		__m256i ol = _mm256_or_si256(_mm256_or_si256(lo[0], lo[1]), lo[2]);
		__m256i oh = _mm256_or_si256(_mm256_or_si256(hi[0], hi[1]), hi[2]);
		uint32_t out = (uint32_t)_mm256_movemask_pd(_mm256_castsi256_pd(ol)) |
			       (uint32_t)_mm256_movemask_pd(_mm256_castsi256_pd(oh)) << 4;
		rows[y] = ~out & keep;
		for (int e = 0; e < 3; e++) {
			lo[e] = _mm256_add_epi64(lo[e], dy[e]);
			hi[e] = _mm256_add_epi64(hi[e], dy[e]);
		}
	}
}
#endif

typedef void (*cover_fn)(const struct tri *, int64_t, int64_t, int64_t, int64_t, int, int, int, int,
			 uint32_t *);

int raster_cpu_avx2(void)
{
#if defined(__GNUC__) && defined(__x86_64__)
	__builtin_cpu_init();
	return __builtin_cpu_supports("avx2") != 0;
#else
	return 0;
#endif
}

/* The variant for this CPU. */
static cover_fn pick(void)
{
#ifdef HAVE_AVX2_VARIANT
	if (raster_cpu_avx2())
		return cover_avx2;
#endif
	return cover_scalar;
}

void raster_cover_rows(const struct tri *t, int64_t tx, int64_t ty, int64_t sox, int64_t soy,
		       int xs, int xe, int ys, int ye, uint32_t rows[LLCT_HIZ_TILE])
{
	static cover_fn fn; /* every thread that sets it sets the same value */
	cover_fn f = __atomic_load_n(&fn, __ATOMIC_RELAXED);
	if (!f)
		__atomic_store_n(&fn, f = pick(), __ATOMIC_RELAXED);
	f(t, tx, ty, sox, soy, xs, xe, ys, ye, rows);
}

int raster_cover_vector(void)
{
	return pick() != cover_scalar;
}

void raster_cover_rows_scalar(const struct tri *t, int64_t tx, int64_t ty, int64_t sox, int64_t soy,
			      int xs, int xe, int ys, int ye, uint32_t rows[LLCT_HIZ_TILE])
{
	cover_scalar(t, tx, ty, sox, soy, xs, xe, ys, ye, rows);
}
