/* hiz.c - the HiZ buffer of a depth image (draw.h): where its entries lie, and touching the
 * entries of a pixel rectangle. The tests HiZ makes possible (whole tiles accepted or rejected
 * without reading Z) are tier 2's (raster.c); tier 1 only reads and writes the entries. */
#include "llct/draw.h"

void llct_hiz_surface(const struct llct_surface *d, uint64_t base, struct llct_surface *hiz)
{
	*hiz = (struct llct_surface){.base = base,
				     .width = (d->width + LLCT_HIZ_TILE - 1) / LLCT_HIZ_TILE,
				     .height = (d->height + LLCT_HIZ_TILE - 1) / LLCT_HIZ_TILE,
				     .layers = d->layers ? d->layers : 1,
				     .mips = d->mips ? d->mips : 1,
				     .samples = 1,
				     .bpp = 4,
				     .tiled = 1};
}

void llct_hiz_rect(struct llct_fp *fp, const struct llct_surface *hiz, uint32_t mip, uint32_t layer,
		   uint32_t x0, uint32_t y0, uint32_t x1, uint32_t y1, int op, int cached)
{
	if (!hiz->bpp || x0 >= x1 || y0 >= y1)
		return;
	llct_fp_rect(fp, hiz, mip, layer, x0 / LLCT_HIZ_TILE, y0 / LLCT_HIZ_TILE,
		     (x1 + LLCT_HIZ_TILE - 1) / LLCT_HIZ_TILE,
		     (y1 + LLCT_HIZ_TILE - 1) / LLCT_HIZ_TILE, LLCT_STREAM_HIZ, op, cached);
}
