/* zbuf.c - tier 2's emulated depth/stencil buffers (raster.h): per-sample depth (quantized as
 * the format stores it) and stencil, and the bounds of every HiZ tile; a clear of whole tiles
 * is kept per tile and written into the samples only when something looks at them. */
#include "zbuf.h"
#include "llct/bigmem.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct llct_zbuf *llct_zbuf_create(uint32_t width, uint32_t height, uint32_t samples,
				   uint32_t depth_bits, uint32_t stencil_bits)
{
	struct llct_zbuf *z = calloc(1, sizeof(*z));
	if (!z)
		return NULL;
	z->w = width ? width : 1;
	z->h = height ? height : 1;
	z->samples = samples ? samples : 1;
	z->depth_bits = depth_bits;
	z->stencil_bits = stencil_bits;
	z->tiles_x = (z->w + LLCT_HIZ_TILE - 1) / LLCT_HIZ_TILE;
	z->tiles_y = (z->h + LLCT_HIZ_TILE - 1) / LLCT_HIZ_TILE;
	size_t t = (size_t)z->tiles_x * z->tiles_y,
	       n = t * LLCT_HIZ_TILE * LLCT_HIZ_TILE * z->samples;
	/* cache-line aligned: a tile's samples (a multiple of 64 bytes) then share no line with
	   another tile's, which another rasterizer thread may own; on huge pages (bigmem.h): a
	   frame's first pass touches every one */
	z->depth = llct_big_alloc(n * sizeof(*z->depth));
	z->stencil = stencil_bits ? llct_big_alloc(n) : NULL;
	if (z->stencil)
		memset(z->stencil, 0, n);
	z->tile_min = malloc(t * sizeof(float));
	z->tile_max = malloc(t * sizeof(float));
	z->lazy = calloc(t, 1);
	z->lazy_depth = malloc(t * sizeof(float));
	z->lazy_stencil = malloc(t);
	if (!z->depth || (stencil_bits && !z->stencil) || !z->tile_min || !z->tile_max ||
	    !z->lazy || !z->lazy_depth || !z->lazy_stencil) {
		llct_zbuf_destroy(z);
		return NULL;
	}
	llct_zbuf_forget(z);
	return z;
}

void llct_zbuf_destroy(struct llct_zbuf *z)
{
	if (!z)
		return;
	free(z->depth);
	free(z->stencil);
	free(z->tile_min);
	free(z->tile_max);
	free(z->lazy);
	free(z->lazy_depth);
	free(z->lazy_stencil);
	free(z);
}

void llct_zbuf_forget(struct llct_zbuf *z)
{
	size_t t = (size_t)z->tiles_x * z->tiles_y;
	memset(z->lazy, z->stencil ? 3 : 1, t); /* zeros, when something looks */
	memset(z->lazy_stencil, 0, t);
	for (size_t i = 0; i < t; i++)
		z->lazy_depth[i] = z->tile_min[i] = z->tile_max[i] = 0.0f;
	z->known = 0;
}

void llct_zbuf_fill_tile(struct llct_zbuf *z, size_t t)
{
	/* the whole run, padding and all */
	size_t i0 = t * LLCT_HIZ_TILE * LLCT_HIZ_TILE * z->samples,
	       i1 = i0 + LLCT_HIZ_TILE * LLCT_HIZ_TILE * z->samples;
	if (z->lazy[t] & 1)
		for (size_t i = i0; i < i1; i++)
			z->depth[i] = z->lazy_depth[t];
	if ((z->lazy[t] & 2) && z->stencil)
		memset(z->stencil + i0, z->lazy_stencil[t], i1 - i0);
	z->lazy[t] = 0;
}

int llct_zbuf_known(const struct llct_zbuf *z)
{
	return z->known;
}

int llct_zbuf_retile(struct llct_zbuf *z, uint32_t tx, uint32_t ty)
{
	float lo = INFINITY, hi = -INFINITY;
	llct_zbuf_touch_tile(z, (size_t)ty * z->tiles_x + tx);
	uint32_t x1 = (tx + 1) * LLCT_HIZ_TILE, y1 = (ty + 1) * LLCT_HIZ_TILE;
	x1 = x1 < z->w ? x1 : z->w;
	y1 = y1 < z->h ? y1 : z->h;
	for (uint32_t y = ty * LLCT_HIZ_TILE; y < y1; y++) {
		const float *row = z->depth + llct_zbuf_at(z, tx * LLCT_HIZ_TILE, y);
		size_t n = (size_t)(x1 - tx * LLCT_HIZ_TILE) * z->samples;
		for (size_t i = 0; i < n; i++) {
			lo = row[i] < lo ? row[i] : lo;
			hi = row[i] > hi ? row[i] : hi;
		}
	}
	size_t t = (size_t)ty * z->tiles_x + tx;
	int changed = z->tile_min[t] != lo || z->tile_max[t] != hi;
	z->tile_min[t] = lo;
	z->tile_max[t] = hi;
	return changed;
}

void llct_zbuf_clear(struct llct_zbuf *z, uint32_t x0, uint32_t y0, uint32_t x1, uint32_t y1,
		     int do_depth, float depth, int do_stencil, uint32_t stencil)
{
	x1 = x1 < z->w ? x1 : z->w;
	y1 = y1 < z->h ? y1 : z->h;
	if (x0 >= x1 || y0 >= y1)
		return;
	float d = llct_zbuf_quantize(z, depth);
	const uint32_t T = LLCT_HIZ_TILE;
	for (uint32_t ty = y0 / T; ty * T < y1; ty++)
		for (uint32_t tx = x0 / T; tx * T < x1; tx++) {
			size_t t = (size_t)ty * z->tiles_x + tx;
			int whole = tx * T >= x0 && ty * T >= y0 &&
				    ((tx + 1) * T <= x1 || x1 == z->w) &&
				    ((ty + 1) * T <= y1 || y1 == z->h);
			if (whole) { /* kept as pending until the tile's samples are looked at */
				if (do_depth) {
					z->lazy[t] |= 1;
					z->lazy_depth[t] = z->tile_min[t] = z->tile_max[t] = d;
				}
				if (do_stencil && z->stencil) {
					z->lazy[t] |= 2;
					z->lazy_stencil[t] = (uint8_t)stencil;
				}
				if (!do_depth) /* bounds from the samples, as always */
					llct_zbuf_retile(z, tx, ty);
				continue;
			}
			llct_zbuf_touch_tile(z, t); /* part of the tile: its samples, then bounds */
			uint32_t xa = tx * T > x0 ? tx * T : x0, ya = ty * T > y0 ? ty * T : y0;
			uint32_t xb = (tx + 1) * T < x1 ? (tx + 1) * T : x1,
				 yb = (ty + 1) * T < y1 ? (ty + 1) * T : y1;
			for (uint32_t y = ya; y < yb; y++) {
				size_t i0 = llct_zbuf_at(z, xa, y),
				       i1 = i0 + (size_t)(xb - xa) * z->samples;
				if (do_depth)
					for (size_t i = i0; i < i1; i++)
						z->depth[i] = d;
				if (do_stencil && z->stencil)
					memset(z->stencil + i0, (int)(uint8_t)stencil, i1 - i0);
			}
			llct_zbuf_retile(z, tx, ty);
		}
	/* a partial clear of unknown contents leaves the rest unknown; count it known (tests then
	   compare with the zeros there), as programs clear the whole area */
	z->known = 1;
}

float llct_zbuf_depth(const struct llct_zbuf *z, uint32_t x, uint32_t y, uint32_t s)
{
	size_t t = (size_t)(y / LLCT_HIZ_TILE) * z->tiles_x + x / LLCT_HIZ_TILE;
	return z->lazy[t] & 1 ? z->lazy_depth[t] : z->depth[llct_zbuf_at(z, x, y) + s];
}

uint32_t llct_zbuf_stencil(const struct llct_zbuf *z, uint32_t x, uint32_t y, uint32_t s)
{
	size_t t = (size_t)(y / LLCT_HIZ_TILE) * z->tiles_x + x / LLCT_HIZ_TILE;
	if (!z->stencil)
		return 0;
	return z->lazy[t] & 2 ? z->lazy_stencil[t] : z->stencil[llct_zbuf_at(z, x, y) + s];
}

int llct_zbuf_save(const struct llct_zbuf *z, const char *path)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		return -1;
	int bad = 0;
	for (uint32_t y = 0; y < z->h && !bad; y++)
		for (uint32_t x = 0; x < z->w && !bad; x++) {
			float d = llct_zbuf_depth(z, x, y, 0);
			bad = fwrite(&d, sizeof(d), 1, f) != 1;
		}
	bad |= fclose(f) != 0;
	return bad ? -1 : 0;
}
