/* zbuf.h - private to streams/: the layout of an emulated depth/stencil buffer, shared by
 * zbuf.c (which owns it) and raster.c (which tests and writes it in its inner loops). */
#ifndef LLCT_STREAMS_ZBUF_H
#define LLCT_STREAMS_ZBUF_H

#include "llct/raster.h"

struct llct_zbuf {
	uint32_t w, h, samples;
	uint32_t depth_bits, stencil_bits; /* depth 16/24 UNORM, 32 float, 0 none */
	float *depth;                      /* by tile: llct_zbuf_at */
	uint8_t *stencil;                  /* the same, or NULL */
	uint32_t tiles_x, tiles_y;
	float *tile_min; /* per HiZ tile (LLCT_HIZ_TILE pixels square): bounds of its depths,
			    conservative as a GPU's HiZ keeps them (every depth in the tile lies
			    within; exact after a clear or a primitive that wrote it all) */
	float *tile_max;
	/* clears and forgets are kept per HiZ tile until something reads or writes its samples:
	   bit 1, the tile's depth is all lazy_depth[t]; bit 2, its stencil all lazy_stencil[t] */
	uint8_t *lazy;
	float *lazy_depth;
	uint8_t *lazy_stencil;
	int known; /* contents defined (cleared or written) */
};

/* Where pixel (x, y)'s samples start in depth[] and stencil[]: a HiZ tile at a time
 * (LLCT_HIZ_TILE pixels square, tiles row by row), inside it pixel rows of LLCT_HIZ_TILE, each
 * pixel's samples together. A tile is one run of memory (256 bytes of one-sample depth): a
 * primitive's pixels in a tile share 4 cache lines and a page, where rows of a 2048-pixel
 * shadow map put a tile on 8 pages; a tile belongs to one rasterizer lane. The last tiles of a
 * row or column are padded. */
static inline size_t llct_zbuf_at(const struct llct_zbuf *z, uint32_t x, uint32_t y)
{
	enum { T = LLCT_HIZ_TILE };
	size_t t = (size_t)(y / T) * z->tiles_x + x / T;
	return (t * T * T + (y % T) * T + x % T) * z->samples;
}

/* Writes tile t's pending clear into its samples. */
void llct_zbuf_fill_tile(struct llct_zbuf *z, size_t t);
/* Before the samples of tile t are read or written. */
static inline void llct_zbuf_touch_tile(struct llct_zbuf *z, size_t t)
{
	if (z->lazy[t])
		llct_zbuf_fill_tile(z, t);
}

/* Recomputes HiZ tile (tx, ty)'s bounds from its samples; returns whether they changed. */
int llct_zbuf_retile(struct llct_zbuf *z, uint32_t tx, uint32_t ty);
/* Makes the compiler hold double x as computed, rounded, in a register: no contraction with
 * the next operation, no folding across it (a volatile round trip where the register class is
 * not known). */
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__)) && defined(__SSE2_MATH__)
#define LLCT_ZBUF_ROUNDED(x) __asm__("" : "+x"(x))
#elif defined(__GNUC__) && defined(__aarch64__)
#define LLCT_ZBUF_ROUNDED(x) __asm__("" : "+w"(x))
#else
#define LLCT_ZBUF_ROUNDED(x)                                                                       \
	do {                                                                                       \
		volatile double v_ = (x);                                                          \
		(x) = v_;                                                                          \
	} while (0)
#endif

/* A depth value as a format of depth_bits bits stores it (UNORM formats round to their steps,
 * clamp to 0..1). */
static inline float llct_zbuf_quantize_bits(uint32_t depth_bits, double d)
{
	if (depth_bits == 16 || depth_bits == 24) {
		double steps = depth_bits == 16 ? 65535.0 : 16777215.0;
		double inv = depth_bits == 16 ? 1 / 65535.0 : 1 / 16777215.0;
		d = d < 0 ? 0 : d > 1 ? 1 : d;
		/* round to the nearest step, ties to even, without a libm call: below 2^52, adding
		   and taking away 2^52 leaves d * steps rounded in the current (nearest) mode. The
		   product is rounded on its own first (no fused multiply-add), on every target. */
		double r = d * steps;
		LLCT_ZBUF_ROUNDED(r);
		r += 4503599627370496.0;
		LLCT_ZBUF_ROUNDED(r);
		/* k * (1 / steps) becomes the same float as k / steps for every step k (k / steps
		   is a repeating binary fraction, never within the product's error of a float
		   rounding midpoint; test_raster checks all 2^24), without a division */
		return (float)((r - 4503599627370496.0) * inv);
	}
	return (float)d;
}

/* A depth value as z's format stores it. */
static inline float llct_zbuf_quantize(const struct llct_zbuf *z, double d)
{
	return llct_zbuf_quantize_bits(z->depth_bits, d);
}

/* A sample of tile t gets depth d: the tile's bounds widen to hold it. Returns 1 when they
 * changed. */
static inline int llct_zbuf_widen(struct llct_zbuf *z, size_t t, float d)
{
	/* stores only when a bound moves: the rasterizer's threads own tiles that share cache
	   lines of these arrays, and a store each sample made those lines bounce between them */
	int changed = 0;
	if (d < z->tile_min[t])
		z->tile_min[t] = d, changed = 1;
	if (d > z->tile_max[t])
		z->tile_max[t] = d, changed = 1;
	return changed;
}

#endif
