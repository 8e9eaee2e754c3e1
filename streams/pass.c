/* pass.c - the traffic of a render pass's load and store operations on its attachments (and
 * their HiZ buffers), from a Vulkan-free description (draw.h). */
#include "llct/draw.h"

int llct_attachment_stream(const struct llct_attachment *a)
{
	if (a->is_display)
		return LLCT_STREAM_DISP;
	if (a->has_depth)
		return a->has_stencil && a->load == LLCT_LOAD_DONT_CARE &&
			       a->stencil_load != LLCT_LOAD_DONT_CARE
			   ? LLCT_STREAM_STC
			   : LLCT_STREAM_Z;
	if (a->has_stencil)
		return LLCT_STREAM_STC;
	return LLCT_STREAM_RT;
}

static int loads(const struct llct_attachment *a)
{
	return a->load == LLCT_LOAD_LOAD || a->stencil_load == LLCT_LOAD_LOAD;
}

static int stores(const struct llct_attachment *a)
{
	return a->store == LLCT_STORE_STORE || a->stencil_store == LLCT_STORE_STORE;
}

static int has_hiz(const struct llct_attachment *a)
{
	return a->has_depth && a->hiz.bpp;
}

int llct_pass_loads(const struct llct_pass *p)
{
	for (uint32_t i = 0; i < p->n; i++)
		if (loads(&p->att[i]))
			return 1;
	return 0;
}

int llct_pass_stores(const struct llct_pass *p)
{
	for (uint32_t i = 0; i < p->n; i++)
		if (stores(&p->att[i]))
			return 1;
	return 0;
}

/* The render area of attachment a, read or written once, not through the render caches. */
static void area(struct llct_fp *fp, const struct llct_pass *p, const struct llct_attachment *a,
		 int op)
{
	llct_fp_rect(fp, &a->s, a->mip, a->layer, p->x0, p->y0, p->x1, p->y1,
		     llct_attachment_stream(a), op, 0);
}

void llct_pass_load(struct llct_fp *fp, const struct llct_pass *p)
{
	for (uint32_t i = 0; i < p->n; i++) {
		const struct llct_attachment *a = &p->att[i];
		if (loads(a))
			area(fp, p, a, LLCT_OP_READ);
		/* HiZ: a loaded depth needs its tile ranges; a cleared one is cleared there only */
		if (has_hiz(a) && (a->load == LLCT_LOAD_LOAD || a->load == LLCT_LOAD_CLEAR))
			llct_hiz_rect(fp, &a->hiz, a->mip, a->layer, p->x0, p->y0, p->x1, p->y1,
				      a->load == LLCT_LOAD_LOAD ? LLCT_OP_READ : LLCT_OP_WRITE, 0);
	}
}

void llct_pass_store(struct llct_fp *fp, const struct llct_pass *p)
{
	uint32_t line = llct_fp_line_size(fp);
	for (uint32_t i = 0; i < p->n; i++) {
		const struct llct_attachment *a = &p->att[i];
		llct_fp_drop(fp, a->s.base, a->s.base + llct_surface_size(&a->s, line));
		if (stores(a))
			area(fp, p, a, LLCT_OP_WRITE);
		else if (has_hiz(a)) /* discarded depth: its HiZ is not written back either */
			llct_fp_drop(fp, a->hiz.base,
				     a->hiz.base + llct_surface_size(&a->hiz, line));
	}
	llct_fp_flush(fp);
}
