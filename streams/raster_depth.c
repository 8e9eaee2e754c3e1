/* raster_depth.c - the depth test of a 4x4 block of one-sample pixels without stencil (the
 * common case of raster_shade.c's blocks): a pixel at a time, and with AVX2 (chosen at run
 * time, as raster_cover.c's rows) a row of 4 pixels at a time, the same IEEE operations in
 * the same order on each pixel, so both give the same bits (test_raster_simd compares them).
 *
 * A pixel's depth is ((zx[x] + zy[y]) + bias) (raster_int.h), clamped if asked, in the format's
 * steps; it passes by the compare op against the stored one; a passing pixel is written (when depth
 * writes are on) where it differs, and the tile's bounds widen to hold what was written. */
#include "raster_int.h"

#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
#define HAVE_AVX2_VARIANT 1
#endif

#include <math.h>

/* A pixel at a time, over the covered ones only (found from the bit mask). */
static void depth_scalar(struct raster_depth *q)
{
	uint32_t m = q->covm, npass = 0, n_w = 0, pm = 0, wm = 0;
	float w_lo = q->w_lo, w_hi = q->w_hi, t_lo = q->t_lo, t_hi = q->t_hi;
	int ch = 0;
	/* the plane's terms of the block's columns and rows, worked out once a column and a row */
	double zx[BLK], zy[BLK];
	for (uint32_t k = 0; k < BLK; k++) {
		zx[k] = q->z0 + q->dzdx * ((double)(q->bx + k) + q->sox - q->x0);
		zy[k] = q->dzdy * ((double)(q->by + k) + q->soy - q->y0);
	}
	while (m) {
		int i = __builtin_ctz(m);
		m &= m - 1;
		float *p = q->depth + (i / BLK) * LLCT_HIZ_TILE + i % BLK;
		double zz = zx[i % BLK] + zy[i / BLK] + q->bias;
		if (q->clamp)
			zz = zz < q->zlo ? q->zlo : zz > q->zhi ? q->zhi : zz;
		float d = llct_zbuf_quantize_bits(q->qbits, zz); /* (float) unless 16 or 24 bits */
		if (!q->all && !depth_pass(q->op, d, *p))
			continue;
		pm |= 1u << i;
		npass++;
		if (!q->dwrite)
			continue;
		wm |= 1u << i; /* the line is written, if with the same value */
		float o = *p;
		n_w++;
		w_lo = d < w_lo ? d : w_lo;
		w_hi = d > w_hi ? d : w_hi;
		if (o != d) { /* the tile's bounds widen to hold it */
			*p = d;
			ch |= 1;
			if (d < t_lo)
				t_lo = d, ch |= 2;
			if (d > t_hi)
				t_hi = d, ch |= 2;
		}
	}
	q->pass = pm, q->wm = wm, q->npass = npass, q->n_w = n_w, q->ch = ch;
	q->w_lo = w_lo, q->w_hi = w_hi, q->t_lo = t_lo, q->t_hi = t_hi;
}

#ifdef HAVE_AVX2_VARIANT
/* The 4 lanes of a 4-bit mask as all-ones lanes. */
__attribute__((target("avx2"))) static inline __m128 lanes4(uint32_t bits)
{
	const __m128i b = _mm_setr_epi32(1, 2, 4, 8);
	return _mm_castsi128_ps(_mm_cmpeq_epi32(_mm_and_si128(_mm_set1_epi32((int)bits), b), b));
}

/* The lanes of d that pass op against s, as bits. */
__attribute__((target("avx2"))) static inline uint32_t pass4(int op, __m128 d, __m128 s)
{
	switch (op) {
	case LLCT_CMP_NEVER:
		return 0;
	case LLCT_CMP_LESS:
		return (uint32_t)_mm_movemask_ps(_mm_cmp_ps(d, s, _CMP_LT_OQ));
	case LLCT_CMP_EQUAL:
		return (uint32_t)_mm_movemask_ps(_mm_cmp_ps(d, s, _CMP_EQ_OQ));
	case LLCT_CMP_LESS_OR_EQUAL:
		return (uint32_t)_mm_movemask_ps(_mm_cmp_ps(d, s, _CMP_LE_OQ));
	case LLCT_CMP_GREATER:
		return (uint32_t)_mm_movemask_ps(_mm_cmp_ps(d, s, _CMP_GT_OQ));
	case LLCT_CMP_NOT_EQUAL: /* true when either is NaN, as C's != */
		return (uint32_t)_mm_movemask_ps(_mm_cmp_ps(d, s, _CMP_NEQ_UQ));
	case LLCT_CMP_GREATER_OR_EQUAL:
		return (uint32_t)_mm_movemask_ps(_mm_cmp_ps(d, s, _CMP_GE_OQ));
	default:
		return 0xf;
	}
}

/* v < lo ? lo : v > hi ? hi : v, lane by lane (a NaN stays). */
__attribute__((target("avx2"))) static inline __m256d clamp4(__m256d v, __m256d lo, __m256d hi)
{
	__m256d below = _mm256_cmp_pd(v, lo, _CMP_LT_OQ), above = _mm256_cmp_pd(v, hi, _CMP_GT_OQ);
	return _mm256_blendv_pd(_mm256_blendv_pd(v, hi, above), lo, below);
}

/* The smallest (largest) of m and the 4 lanes, as the scalar loop's d < m ? d : m (d > m ? d
 * : m) keeps them. */
__attribute__((target("avx2"))) static inline float hmin(__m128 v, float m)
{
	float f[4];
	_mm_storeu_ps(f, v);
	for (int k = 0; k < 4; k++)
		m = f[k] < m ? f[k] : m;
	return m;
}
__attribute__((target("avx2"))) static inline float hmax(__m128 v, float m)
{
	float f[4];
	_mm_storeu_ps(f, v);
	for (int k = 0; k < 4; k++)
		m = f[k] > m ? f[k] : m;
	return m;
}

/* A row of 4 pixels at a time: the depths as 4 doubles (the scalar loop's sums and steps, no
 * fused multiply-adds), stored as 4 floats, compared, and written where they pass and differ
 * (the row's other pixels rewritten with what they hold: the tile is this thread's alone).
 * The bounds go lane by lane (a lane's min is the scalar loop's d < m ? d : m), then across. */
__attribute__((target("avx2"))) static void depth_avx2(struct raster_depth *q)
{
	/* the columns' terms, 4 lanes of the scalar loop's z0 + dzdx ((bx + k + sox) - x0) */
	const __m256d cols = _mm256_cvtepi32_pd(
	    _mm_add_epi32(_mm_set1_epi32((int)q->bx), _mm_setr_epi32(0, 1, 2, 3)));
	const __m256d zx =
	    _mm256_add_pd(_mm256_set1_pd(q->z0),
			  _mm256_mul_pd(_mm256_set1_pd(q->dzdx),
					_mm256_sub_pd(_mm256_add_pd(cols, _mm256_set1_pd(q->sox)),
						      _mm256_set1_pd(q->x0))));
	const __m256d bias = _mm256_set1_pd(q->bias);
	const __m256d zlo = _mm256_set1_pd(q->zlo), zhi = _mm256_set1_pd(q->zhi);
	const int unorm = q->qbits == 16 || q->qbits == 24;
	const __m256d steps = _mm256_set1_pd(q->qbits == 16 ? 65535.0 : 16777215.0);
	const __m256d inv = _mm256_set1_pd(q->qbits == 16 ? 1 / 65535.0 : 1 / 16777215.0);
	const __m256d big = _mm256_set1_pd(4503599627370496.0);
	const __m256d zero = _mm256_setzero_pd(), one = _mm256_set1_pd(1.0);
	__m128 wlo = _mm_set1_ps(INFINITY), whi = _mm_set1_ps(-INFINITY);
	__m128 tlo = _mm_set1_ps(INFINITY), thi = _mm_set1_ps(-INFINITY);
	uint32_t pm = 0, wm = 0;
	int ch = 0;
	for (int r = 0; r < BLK; r++) {
		uint32_t cov = q->covm >> (r * BLK) & 0xfu;
		if (!cov)
			continue;
		double zy = q->dzdy * ((double)(q->by + (uint32_t)r) + q->soy - q->y0);
		__m256d zz = _mm256_add_pd(_mm256_add_pd(zx, _mm256_set1_pd(zy)), bias);
		if (q->clamp)
			zz = clamp4(zz, zlo, zhi);
		__m128 d;
		if (unorm) { /* llct_zbuf_quantize_bits' steps */
			__m256d v = _mm256_mul_pd(clamp4(zz, zero, one), steps);
			v = _mm256_sub_pd(_mm256_add_pd(v, big), big);
			d = _mm256_cvtpd_ps(_mm256_mul_pd(v, inv));
		} else {
			d = _mm256_cvtpd_ps(zz);
		}
		float *row = q->depth + r * LLCT_HIZ_TILE;
		__m128 s = _mm_loadu_ps(row);
		uint32_t pass = q->all ? cov : cov & pass4(q->op, d, s);
		pm |= pass << (r * BLK);
		if (!q->dwrite || !pass)
			continue;
		wm |= pass << (r * BLK);
		__m128 pl = lanes4(pass);
		wlo = _mm_blendv_ps(wlo, _mm_min_ps(d, wlo), pl);
		whi = _mm_blendv_ps(whi, _mm_max_ps(d, whi), pl);
		uint32_t diff = pass & (uint32_t)_mm_movemask_ps(_mm_cmp_ps(s, d, _CMP_NEQ_UQ));
		if (!diff)
			continue;
		__m128 dl = lanes4(diff);
		_mm_storeu_ps(row, _mm_blendv_ps(s, d, dl));
		ch |= 1;
		tlo = _mm_blendv_ps(tlo, _mm_min_ps(d, tlo), dl);
		thi = _mm_blendv_ps(thi, _mm_max_ps(d, thi), dl);
	}
	q->pass = pm, q->wm = wm, q->ch = ch;
	q->npass = bits16(pm), q->n_w = bits16(wm);
	if (wm) {
		q->w_lo = hmin(wlo, q->w_lo);
		q->w_hi = hmax(whi, q->w_hi);
	}
	if (ch) {
		float lo = hmin(tlo, q->t_lo), hi = hmax(thi, q->t_hi);
		q->ch |= (lo < q->t_lo || hi > q->t_hi) << 1; /* a bound moved */
		q->t_lo = lo, q->t_hi = hi;
	}
}
#endif

typedef void (*depth_fn)(struct raster_depth *);

/* The variant for this CPU. */
static depth_fn pick(void)
{
#ifdef HAVE_AVX2_VARIANT
	if (raster_cpu_avx2())
		return depth_avx2;
#endif
	return depth_scalar;
}

void raster_depth_block(struct raster_depth *q)
{
	static depth_fn fn; /* every thread that sets it sets the same value */
	depth_fn f = __atomic_load_n(&fn, __ATOMIC_RELAXED);
	if (!f)
		__atomic_store_n(&fn, f = pick(), __ATOMIC_RELAXED);
	f(q);
}

void raster_depth_block_scalar(struct raster_depth *q)
{
	depth_scalar(q);
}
