/* instr_slots.c - capture tier 3: what a draw's slot (binding 1 of the layer's set, at the
 * draw's dynamic offset) tells its coalescing samples (spirv_instr_sg.c) of the views bound
 * when the draw is recorded: word k (1, 2, ...) the site whose `coalesce` is k. A word is 0
 * (do not coalesce) or 1 | tws << 1 |
 * ths << 6 | top << 11: the view's lines hold 2^tws x 2^ths texels at every level (the
 * footprint model's layout, surface.h: a texel's line is a function of x >> tws and y >> ths),
 * and top is the last level the layer's expansion may read (the view shows at least that many,
 * so the shader's size queries reach every level the expansion uses). A view the layer cannot
 * follow, or one shown with fewer levels, gives 0. Views changed after the draw is recorded
 * (update-after-bind) are not seen: the sample then compares lines of the old view. */
#include "instr.h"
#include "spirv.h"

#include <string.h>

void instr_slot_fill(struct capture_device *c, const struct cbuf *b, const struct pipe *p,
		     uint32_t *slot)
{
	memset(slot + 1, 0, 4 * INSTR_SLOT_SITES);
	for (uint32_t s = 0; s < p->tw.n_frag_sites; s++) {
		const struct llct_spirv_site *st = &p->tw.sites[s];
		if (!st->coalesce || st->coalesce > INSTR_SLOT_SITES || st->set >= 8)
			continue;
		struct dset *ds = capture_hmap_get(&c->ps->sets, b->rec_sets[st->set]);
		struct slot *sl = ds ? capture_find_slot(ds, st->binding, st->element) : NULL;
		uint32_t mip, layer;
		struct img *im = sl ? capture_view_image(c->tr, sl->handle, &mip, &layer) : NULL;
		if (!im)
			continue;
		uint32_t mips = im->s.mips ? im->s.mips : 1, levels = mips > mip ? mips - mip : 1;
		if (capture_view_levels(c->tr, sl->handle) < levels || levels > 32768)
			continue;
		struct llct_surface_map m;
		llct_surface_map(&im->s, c->t3->line, mip, layer, &m);
		if (m.tws < 31 && m.ths < 31)
			slot[st->coalesce] =
			    1u | (uint32_t)m.tws << 1 | (uint32_t)m.ths << 6 | (levels - 1) << 11;
	}
}
