/* surface.c - image layouts at cache-line granularity (surface.h): which line holds a texel,
 * how many bytes a surface takes. Pure arithmetic; no allocation. */
#include "llct/surface.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

static uint32_t bw_of(const struct llct_surface *s)
{
	return s->block_w ? s->block_w : 1;
}

static uint32_t bh_of(const struct llct_surface *s)
{
	return s->block_h ? s->block_h : 1;
}

/* The blocks one line holds, as bw x bh blocks. */
static void line_blocks(const struct llct_surface *s, uint32_t line, uint32_t *bw, uint32_t *bh)
{
	uint32_t blocks = line / (s->bpp ? s->bpp : 4) / (s->samples ? s->samples : 1);
	if (!blocks)
		blocks = 1;
	if (!s->tiled) {
		*bw = blocks;
		*bh = 1;
		return;
	}
	/* the squarest power-of-two group: 16 blocks -> 4x4, 8 -> 4x2, 64 -> 8x8 */
	uint32_t w = 1, h = 1;
	while (w * h < blocks) {
		if (w <= h)
			w *= 2;
		else
			h *= 2;
	}
	*bw = w;
	*bh = h;
}

void llct_surface_mip_extent(const struct llct_surface *s, uint32_t mip, uint32_t *w, uint32_t *h)
{
	uint32_t x = mip < 32 ? s->width >> mip : 0, y = mip < 32 ? s->height >> mip : 0;
	*w = x ? x : 1;
	*h = y ? y : 1;
}

/* The mip's extent in blocks, and its bytes as laid out. */
static uint64_t mip_bytes(const struct llct_surface *s, uint32_t line, uint32_t mip,
			  uint32_t *wb_out, uint32_t *hb_out)
{
	uint32_t w, h, lw, lh;
	llct_surface_mip_extent(s, mip, &w, &h);
	uint32_t wb = (w + bw_of(s) - 1) / bw_of(s), hb = (h + bh_of(s) - 1) / bh_of(s);
	line_blocks(s, line, &lw, &lh);
	if (wb_out)
		*wb_out = wb;
	if (hb_out)
		*hb_out = hb;
	return (uint64_t)((wb + lw - 1) / lw) * ((hb + lh - 1) / lh) * line;
}

uint64_t llct_surface_size(const struct llct_surface *s, uint32_t line)
{
	uint64_t per_layer = 0;
	for (uint32_t m = 0; m < (s->mips ? s->mips : 1); m++)
		per_layer += mip_bytes(s, line, m, NULL, NULL);
	return per_layer * (s->layers ? s->layers : 1);
}

uint64_t llct_surface_line(const struct llct_surface *s, uint32_t line, uint32_t mip,
			   uint32_t layer, uint32_t x, uint32_t y)
{
	uint64_t off = 0, per_layer = 0;
	uint32_t wb, hb, lw, lh, mips = s->mips ? s->mips : 1;
	for (uint32_t m = 0; m < mips; m++) {
		uint64_t b = mip_bytes(s, line, m, NULL, NULL);
		per_layer += b;
		off += m < mip ? b : 0;
	}
	mip_bytes(s, line, mip, &wb, &hb);
	line_blocks(s, line, &lw, &lh);
	x /= bw_of(s);
	y /= bh_of(s);
	if (x >= wb)
		x = wb - 1;
	if (y >= hb)
		y = hb - 1;
	uint64_t lines_x = (wb + lw - 1) / lw;
	return s->base + per_layer * layer + off + ((uint64_t)(y / lh) * lines_x + x / lw) * line;
}

void llct_surface_line_texels(const struct llct_surface *s, uint32_t line, uint32_t *tw,
			      uint32_t *th)
{
	uint32_t lw, lh;
	line_blocks(s, line, &lw, &lh);
	*tw = lw * bw_of(s);
	*th = lh * bh_of(s);
}

void llct_surface_map(const struct llct_surface *s, uint32_t line, uint32_t mip, uint32_t layer,
		      struct llct_surface_map *m)
{
	uint32_t wb, hb;
	m->base = llct_surface_line(s, line, mip, layer, 0, 0);
	llct_surface_mip_extent(s, mip, &m->w, &m->h);
	mip_bytes(s, line, mip, &wb, &hb);
	line_blocks(s, line, &m->lw, &m->lh);
	m->bw = bw_of(s);
	m->bh = bh_of(s);
	m->tw = m->lw * m->bw;
	m->th = m->lh * m->bh;
	m->tws = m->ths = 0xff;
	for (uint8_t k = 0; k < 32; k++) {
		m->tws = m->tw == 1u << k ? k : m->tws;
		m->ths = m->th == 1u << k ? k : m->ths;
	}
	m->lines_x = (wb + m->lw - 1) / m->lw;
	m->line = line;
}

uint64_t llct_surface_region_bytes(const struct llct_surface *s, uint32_t w, uint32_t h, uint32_t d)
{
	return (uint64_t)((w + bw_of(s) - 1) / bw_of(s)) * ((h + bh_of(s) - 1) / bh_of(s)) *
	       (d ? d : 1) * (s->bpp ? s->bpp : 4);
}

uint32_t llct_cube_face(float x, float y, float z, float *s, float *t)
{
	float ax = fabsf(x), ay = fabsf(y), az = fabsf(z), sc, tc, ma;
	uint32_t face;
	if (az >= ax && az >= ay) /* ties go to z, then y, as the major axis */
		face = z >= 0 ? 4 : 5, sc = z >= 0 ? x : -x, tc = -y, ma = az;
	else if (ay >= ax)
		face = y >= 0 ? 2 : 3, sc = x, tc = y >= 0 ? z : -z, ma = ay;
	else
		face = x >= 0 ? 0 : 1, sc = x >= 0 ? -z : z, tc = -y, ma = ax;
	if (!(ma > 0) || !isfinite(ma) || !isfinite(sc) || !isfinite(tc)) {
		*s = *t = 0.5f;
		return 0;
	}
	*s = 0.5f * (sc / ma + 1.0f), *t = 0.5f * (tc / ma + 1.0f);
	return face;
}

uint32_t llct_texel_lines(const struct llct_surface_map *m, int mode, uint32_t x_bits,
			  uint32_t y_bits, uint32_t slices, uint32_t w_bits, uint64_t lines[8])
{
	uint32_t sh = m->h, z0 = 0, z1 = 0, x0, y0, n = 2;
	int fetch = mode == LLCT_TEXELS_FETCH, near = mode == LLCT_TEXELS_NEAREST;
	float half = near ? 0.0f : 0.5f; /* nearest: the texel the point falls in */
	slices = slices ? slices : 1;
	if (slices > 1) { /* slices of sh rows each */
		sh = m->h / slices ? m->h / slices : 1;
		float w, tz;
		memcpy(&w, &w_bits, 4);
		tz = fetch ? (float)(int32_t)w_bits : w * (float)slices - half;
		tz = isfinite(tz) ? tz : 0;
		z0 = tz <= 0 ? 0 : tz >= (float)slices ? slices - 1 : (uint32_t)tz;
		z1 = fetch || near || tz <= 0 || z0 + 1 >= slices ? z0 : z0 + 1;
	}
	if (fetch) {
		x0 = x_bits, y0 = y_bits, n = 1;
	} else { /* bilinear: the 2 x 2 texels around the sample point; nearest: one */
		float u, v;
		memcpy(&u, &x_bits, 4), memcpy(&v, &y_bits, 4);
		n = near ? 1 : 2;
		float tx = u * (float)m->w - half, ty = v * (float)sh - half;
		tx = isfinite(tx) ? tx : 0, ty = isfinite(ty) ? ty : 0;
		x0 = tx <= 0 ? 0 : tx >= (float)m->w ? m->w - 1 : (uint32_t)tx;
		y0 = ty <= 0 ? 0 : ty >= (float)sh ? sh - 1 : (uint32_t)ty;
	}
	uint32_t nl = 0;
	if (slices == 1 && n == 2) { /* a 2D bilinear read (most of them): the taps' columns and
					rows of lines, the loop's lines in its order */
		uint32_t xa = x0 < m->w ? x0 : m->w - 1, xb = x0 + 1 < m->w ? x0 + 1 : m->w - 1;
		uint32_t ya = y0 < m->h ? y0 : m->h - 1, yb = y0 + 1 < m->h ? y0 + 1 : m->h - 1;
		uint32_t c0 = m->tws < 32 ? xa >> m->tws : xa / m->tw;
		uint32_t c1 = m->tws < 32 ? xb >> m->tws : xb / m->tw;
		uint32_t r0 = m->ths < 32 ? ya >> m->ths : ya / m->th;
		uint32_t r1 = m->ths < 32 ? yb >> m->ths : yb / m->th;
		lines[nl++] = llct_surface_map_line_at(m, c0, r0);
		if (c1 != c0)
			lines[nl++] = llct_surface_map_line_at(m, c1, r0);
		if (r1 != r0) {
			lines[nl++] = llct_surface_map_line_at(m, c0, r1);
			if (c1 != c0)
				lines[nl++] = llct_surface_map_line_at(m, c1, r1);
		}
		return nl;
	}
	for (uint32_t z = z0; z <= z1; z++)
		for (uint32_t dy = 0; dy < n; dy++)
			for (uint32_t dx = 0; dx < n; dx++) {
				uint32_t y = y0 + dy;
				y = slices > 1 ? z * sh + (y < sh ? y : sh - 1) : y;
				uint64_t l = llct_surface_map_line(m, x0 + dx, y);
				int seen = 0;
				for (uint32_t q = 0; q < nl; q++)
					seen |= lines[q] == l;
				if (!seen)
					lines[nl++] = l;
			}
	return nl;
}
