/* surface.h - how an image lies in memory at cache-line granularity: mips, layers, samples,
 * texel blocks (block-compressed formats), optimal (2D blocks of texels in a line) or linear
 * tiling. Vulkan-free: capture describes images with it, the stream models walk them. */
#ifndef LLCT_SURFACE_H
#define LLCT_SURFACE_H

#include <stdint.h>

/* An image as laid out in memory. A texel block is one texel for ordinary formats and e.g. a
 * 4x4 group of texels in 8 or 16 bytes for BC/ETC2 formats. Optimal tiling puts the squarest
 * power-of-two group of blocks that fills a line in each line (4x4 texels of a 4-byte format,
 * 8x8 of a 1-byte one, 16x8 texels of BC1); linear tiling puts rows in order. */
struct llct_surface {
	uint64_t base; /* device address of mip 0, layer 0 */
	uint32_t width, height, layers, mips, samples;
	uint32_t bpp;              /* bytes per texel block per sample */
	uint32_t block_w, block_h; /* texel block extent in texels; 0 means 1 */
	int tiled;
};

/* Bytes the surface occupies as laid out (all mips, layers and samples). */
uint64_t llct_surface_size(const struct llct_surface *s, uint32_t line);
/* The line address holding texel (x, y) of mip/layer (clamped to the mip's extent). */
uint64_t llct_surface_line(const struct llct_surface *s, uint32_t line, uint32_t mip,
			   uint32_t layer, uint32_t x, uint32_t y);
/* The texels one line holds, as a rectangle *tw x *th (a row of texels when linear). */
void llct_surface_line_texels(const struct llct_surface *s, uint32_t line, uint32_t *tw,
			      uint32_t *th);
/* The extent in texels of mip level `mip` (at least 1x1). */
void llct_surface_mip_extent(const struct llct_surface *s, uint32_t mip, uint32_t *w, uint32_t *h);

/* Vulkan's cube map face selection: the face (0..5: +X, -X, +Y, -Y, +Z, -Z, its layer in a
 * cube) direction (x, y, z) hits, and *s, *t the coordinates within it (0..1). A zero or not
 * finite direction gives face 0 at its centre. */
uint32_t llct_cube_face(float x, float y, float z, float *s, float *t);

/* One mip and layer of a surface, worked out once for many lines (llct_surface_line does it
 * all again each time): line (x, y) of it is llct_surface_map_line(m, x, y). */
struct llct_surface_map {
	uint64_t base;    /* the mip/layer's first line */
	uint32_t w, h;    /* its extent in texels */
	uint32_t bw, bh;  /* texel block extent */
	uint32_t lw, lh;  /* blocks a line holds, as lw x lh */
	uint32_t tw, th;  /* texels a line holds (lw*bw x lh*bh) */
	uint32_t lines_x; /* lines a row of lines */
	uint32_t line;    /* line size */
	uint8_t tws, ths; /* log2 of tw and th where they are powers of two, else 0xff */
};
void llct_surface_map(const struct llct_surface *s, uint32_t line, uint32_t mip, uint32_t layer,
		      struct llct_surface_map *m);
/* The line in column col and row row of the mapped mip/layer's lines (texel x / tw, y / th). */
static inline uint64_t llct_surface_map_line_at(const struct llct_surface_map *m, uint32_t col,
						uint32_t row)
{
	return m->base + ((uint64_t)row * m->lines_x + col) * m->line;
}
/* The line holding texel (x, y) of the mapped mip/layer (clamped to its extent). */
static inline uint64_t llct_surface_map_line(const struct llct_surface_map *m, uint32_t x,
					     uint32_t y)
{
	x = x < m->w ? x : m->w - 1;
	y = y < m->h ? y : m->h - 1;
	/* (x / bw) / lw is x / tw: shifts where those are powers of two (nearly always) */
	x = m->tws < 32 ? x >> m->tws : x / m->tw;
	y = m->ths < 32 ? y >> m->ths : y / m->th;
	return llct_surface_map_line_at(m, x, y);
}

/* Bytes of a w x h x d texel region packed tightly, as a buffer-image copy lays it out (whole
 * texel blocks, one sample). */
uint64_t llct_surface_region_bytes(const struct llct_surface *s, uint32_t w, uint32_t h,
				   uint32_t d);

/* The lines a texture read takes from one mapped level m of a surface. LLCT_TEXELS_FETCH:
 * texel (x, y) (x_bits, y_bits as integers); LLCT_TEXELS_LINEAR: the bilinear 2 x 2 texels
 * around (u, v) (float bits); LLCT_TEXELS_NEAREST: the texel (u, v) falls in. A volume
 * (slices > 1: its slices stacked in m, as 3D images are laid out here) reads slice w (a
 * fetch), the two slices around w (linear; float bits: 0..1) or the one w falls in (nearest).
 * Distinct lines into lines[] (up to 8); returns how many. */
enum { LLCT_TEXELS_LINEAR, LLCT_TEXELS_FETCH, LLCT_TEXELS_NEAREST };
uint32_t llct_texel_lines(const struct llct_surface_map *m, int mode, uint32_t x_bits,
			  uint32_t y_bits, uint32_t slices, uint32_t w_bits, uint64_t lines[8]);

#endif
