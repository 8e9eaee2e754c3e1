/* spirv_instr_img.c - the image half of tier 3's instrumentation pass: each image sample,
 * fetch and gather of a fragment shader appends (site, u, v, lod, pixel) to the record buffer
 * -- the coordinates as the shader computed them (float bits; texel integers for a fetch;
 * divided by q for projective samples), the mip level the sampler would use (OpImageQueryLod's
 * level, plus any bias; the explicit Lod operand; 0 for gathers), and the pixel (x + 65536 y)
 * from FragCoord -- so the layer can map each to texels of the bound image through its surface
 * layout. 1D, 2D and cube images, arrayed or not (not cube arrays), are followed; where the
 * record has no room for what else a sample needs -- the array layer, a cube direction's z,
 * the element of an array of images indexed at run time -- a prefix record comes first
 * (spirv.h). A gradient sample (1D, 2D) records rho^2 in place of the level: the larger squared
 * length of its gradients scaled by the image's size, from which the layer takes the level.
 * 3D images take the prefix too (w, the slice coordinate, in the place of the layer).
 * Sparse forms, gradients of cubes and volumes, and cube arrays are counted as skipped.
 * Compute shaders' samples at an explicit level, fetches and gathers (1D, 2D) are recorded
 * too (image_compute), and vertex shaders' as fragment ones are, the vertex index in place of
 * the pixel (projective and gradient forms skipped). */
#include "spirv_instr_int.h"

#include <spirv/unified1/spirv.h>

uint32_t capture_spv_pixel(struct pass *p)
{
	if (p->vertex) { /* the vertex index, as a uint */
		uint32_t v = p->next++, u = p->next++;
		capture_spv_emit4(p, SpvOpLoad, p->t_int, v, p->v_vi);
		capture_spv_emit4(p, SpvOpBitcast, p->t_uint, u, v);
		return u;
	}
	uint32_t v = p->next++, x = p->next++, y = p->next++, xu = p->next++, yu = p->next++,
		 y1 = p->next++, r = p->next++;
	capture_spv_emit4(p, SpvOpLoad, p->t_v4f, v, p->v_fc);
	capture_spv_emit5(p, SpvOpCompositeExtract, p->t_float, x, v, 0);
	capture_spv_emit5(p, SpvOpCompositeExtract, p->t_float, y, v, 1);
	capture_spv_emit4(p, SpvOpConvertFToU, p->t_uint, xu, x);
	capture_spv_emit4(p, SpvOpConvertFToU, p->t_uint, yu, y);
	capture_spv_emit5(p, SpvOpIMul, p->t_uint, y1, yu, capture_spv_konst(p, 65536));
	capture_spv_emit5(p, SpvOpIAdd, p->t_uint, r, xu, y1);
	return r;
}

/* The image variable behind a sampled image or image value (through loads, OpSampledImage,
 * OpImage, copies, and an access chain into an array of descriptors by a constant index, which
 * *elem gets), or 0. An index computed at run time (bindless heaps) is given as the id of its
 * value where elem_id is not NULL (*elem then is LLCT_SPIRV_ELEMENT_IN_RECORD), else 0. */
static uint32_t image_var(struct pass *p, uint32_t id, uint32_t *elem, uint32_t *elem_id, int depth)
{
	if (id >= p->bound || depth > 6)
		return 0;
	const struct id *d = &p->ids[id];
	if (d->op == SpvOpVariable)
		return d->set >= 0 && d->binding >= 0 ? id : 0;
	if (d->op || !d->def)
		return 0;
	const uint32_t *w = p->w + d->def;
	uint32_t op = w[0] & 0xffff, len = w[0] >> 16;
	if ((op == SpvOpAccessChain || op == SpvOpInBoundsAccessChain) && len >= 4) {
		const struct id *k = len == 5 && w[4] < p->bound ? &p->ids[w[4]] : NULL;
		if (!k)
			return 0;             /* more than one index */
		if (k->op != SpvOpConstant) { /* computed at run time: its value rides along */
			uint32_t v = elem_id && (p->graphics || p->compute)
					 ? capture_spv_as_uint(p, w[4])
					 : 0;
			if (!v)
				return 0;
			*elem = LLCT_SPIRV_ELEMENT_IN_RECORD, *elem_id = v;
			return image_var(p, w[3], elem, elem_id, depth + 1);
		}
		*elem = k->count;
		return image_var(p, w[3], elem, elem_id, depth + 1);
	}
	if ((op == SpvOpLoad || op == SpvOpSampledImage || op == SpvOpImage ||
	     op == SpvOpCopyObject) &&
	    len >= 4)
		return image_var(p, w[3], elem, elem_id, depth + 1);
	return 0;
}

/* Component k of value v of type t (a vector, or a scalar when k is 0) as a uint id (float
 * bits bitcast; integers as they are), or 0. */
static uint32_t component(struct pass *p, uint32_t v, uint32_t t, uint32_t k)
{
	uint32_t st = t, e = v;
	if (t < p->bound && p->ids[t].op == SpvOpTypeVector) {
		if (k >= p->ids[t].count)
			return capture_spv_konst(p, 0);
		st = p->ids[t].type;
		e = p->next++;
		capture_spv_emit5(p, SpvOpCompositeExtract, st, e, v, k);
	} else if (k) {
		return capture_spv_konst(p, 0);
	}
	if (st >= p->bound || p->ids[st].count != 32 ||
	    (p->ids[st].op != SpvOpTypeFloat && p->ids[st].op != SpvOpTypeInt))
		return 0;
	if (st == p->t_uint)
		return e;
	uint32_t u = p->next++;
	capture_spv_emit4(p, SpvOpBitcast, p->t_uint, u, e);
	return u;
}

/* Image operand `bit` of an instruction whose operand mask is at word m (len words in all):
 * its id, or 0 when absent. Operands come in the order of their bits; Grad takes two. */
static uint32_t image_operand(const uint32_t *w, uint32_t m, uint32_t len, uint32_t bit)
{
	if (m >= len || !(w[m] & bit))
		return 0;
	uint32_t at = m + 1;
	for (uint32_t b = 1; b < bit; b <<= 1)
		if (w[m] & b)
			at += b == SpvImageOperandsGradMask ? 2 : 1;
	return at < len ? w[at] : 0;
}

/* Component k of a float vector v of n components, or of a float scalar (k 0), as a float id. */
static uint32_t fcomp(struct pass *p, uint32_t v, uint32_t n, uint32_t k)
{
	if (n <= 1)
		return v;
	uint32_t e = p->next++;
	capture_spv_emit5(p, SpvOpCompositeExtract, p->t_float, e, v, k);
	return e;
}

/* A gradient sample's rho^2 (bits as a uint id), or 0: the image's size at level 0 scales the
 * two gradients (OpImageQuerySizeLod on the sampled image's image), and the larger of their
 * squared lengths is the one the level comes from, log2(rho^2) / 2, which the layer takes. */
static uint32_t grad_rho2(struct pass *p, const uint32_t *w, uint32_t mask_at, uint32_t len,
			  uint32_t si, uint32_t it, uint32_t n, uint32_t arrayed)
{
	uint32_t at = mask_at + 1; /* the Grad pair follows Bias and Lod when present */
	for (uint32_t b = 1; b < SpvImageOperandsGradMask; b <<= 1)
		at += !!(w[mask_at] & b);
	if (at + 1 >= len || n > 2)
		return 0;
	uint32_t dx = w[at], dy = w[at + 1], sz_n = n + !!arrayed, szt;
	if (sz_n == 1) {
		szt = p->t_uint;
	} else if (sz_n == 2) {
		if (!p->t_v2u)
			p->t_v2u = p->next++, p->new_v2u = 1;
		szt = p->t_v2u;
	} else {
		if (!p->t_v3uint)
			p->t_v3uint = p->next++, p->new_v3 = 1;
		szt = p->t_v3uint;
	}
	uint32_t img = p->next++, sz = p->next++;
	capture_spv_emit4(p, SpvOpImage, it, img, si);
	capture_spv_emit5(p, SpvOpImageQuerySizeLod, szt, sz, img, capture_spv_konst(p, 0));
	uint32_t s = sz; /* the size without its layer count */
	if (sz_n != n) {
		s = p->next++;
		if (n == 2) {
			if (!p->t_v2u)
				p->t_v2u = p->next++, p->new_v2u = 1;
			uint32_t sh[7] = {7u << 16 | SpvOpVectorShuffle, p->t_v2u, s, sz, sz, 0, 1};
			capture_spv_emit(p, sh, 7);
		} else {
			capture_spv_emit5(p, SpvOpCompositeExtract, p->t_uint, s, sz, 0);
		}
	}
	uint32_t ft = n == 2 ? p->t_v2f : p->t_float, sf = p->next++, gx = p->next++,
		 gy = p->next++, a = p->next++, b = p->next++, gt = p->next++, m = p->next++,
		 r = p->next++;
	capture_spv_emit4(p, SpvOpConvertUToF, ft, sf, s);
	capture_spv_emit5(p, SpvOpFMul, ft, gx, dx, sf);
	capture_spv_emit5(p, SpvOpFMul, ft, gy, dy, sf);
	uint32_t sq = n == 2 ? SpvOpDot : SpvOpFMul;
	capture_spv_emit5(p, sq, p->t_float, a, gx, gx);
	capture_spv_emit5(p, sq, p->t_float, b, gy, gy);
	capture_spv_emit5(p, SpvOpFOrdGreaterThan, p->t_bool, gt, a, b);
	uint32_t sel[6] = {6u << 16 | SpvOpSelect, p->t_float, m, gt, a, b};
	capture_spv_emit(p, sel, 6);
	capture_spv_emit4(p, SpvOpBitcast, p->t_uint, r, m);
	return r;
}

/* What image instruction op is: its kind, where its image operands mask is, whether it divides
 * by q and whether it takes its level implicitly; 0 when it is no sample, fetch or gather. */
static int image_op(uint32_t op, uint32_t *kind, uint32_t *mask_at, int *proj, int *implicit)
{
	*proj = op >= SpvOpImageSampleProjImplicitLod && op <= SpvOpImageSampleProjDrefExplicitLod;
	*implicit = op == SpvOpImageSampleImplicitLod || op == SpvOpImageSampleDrefImplicitLod ||
		    op == SpvOpImageSampleProjImplicitLod ||
		    op == SpvOpImageSampleProjDrefImplicitLod;
	switch (op) {
	case SpvOpImageSampleImplicitLod:
	case SpvOpImageSampleExplicitLod:
	case SpvOpImageSampleProjImplicitLod:
	case SpvOpImageSampleProjExplicitLod:
		*kind = LLCT_SPIRV_SAMPLE, *mask_at = 5;
		return 1;
	case SpvOpImageSampleDrefImplicitLod:
	case SpvOpImageSampleDrefExplicitLod:
	case SpvOpImageSampleProjDrefImplicitLod:
	case SpvOpImageSampleProjDrefExplicitLod:
		*kind = LLCT_SPIRV_SAMPLE, *mask_at = 6;
		return 1;
	case SpvOpImageFetch:
		*kind = LLCT_SPIRV_FETCH, *mask_at = 5;
		return 1;
	case SpvOpImageGather:
	case SpvOpImageDrefGather:
		*kind = LLCT_SPIRV_GATHER, *mask_at = 6;
		return 1;
	default:
		return 0;
	}
}

static int sparse(uint32_t op)
{
	return op >= SpvOpImageSparseSampleImplicitLod && op <= SpvOpImageSparseDrefGather;
}

/* Compute: a sample at an explicit level, a fetch or a gather of a 1D or 2D image (not arrayed)
 * takes two records at once, (LLCT_SPIRV_PREFIX_SITE, u, v) and (site + 4096 x element, level,
 * workgroup); any other form counts in tex_skipped, so the sampled images keep their footprint. */
static void image_compute(struct pass *p, const uint32_t *w)
{
	uint32_t op = w[0] & 0xffff, len = w[0] >> 16, kind, mask_at;
	int proj, implicit, is = image_op(op, &kind, &mask_at, &proj, &implicit);
	if (!is || proj || implicit) {
		p->tex_skipped += is || sparse(op);
		return;
	}
	uint32_t si = len >= 5 ? w[3] : 0, coord = len >= 5 ? w[4] : 0, elem = 0, elem_id = 0,
		 var = si ? image_var(p, si, &elem, &elem_id, 0) : 0;
	uint32_t st = si < p->bound ? p->ids[si].type : p->bound, it = st;
	if (st < p->bound && p->ids[st].op == SpvOpTypeSampledImage)
		it = p->ids[st].type;
	uint32_t l = kind == LLCT_SPIRV_GATHER ? 0
		     : len > mask_at ? image_operand(w, mask_at, len, SpvImageOperandsLodMask)
				     : 0;
	if (!var || it >= p->bound || p->ids[it].op != SpvOpTypeImage ||
	    (kind == LLCT_SPIRV_SAMPLE && !l) ||
	    image_operand(w, mask_at, len, SpvImageOperandsGradMask)) {
		p->tex_skipped++;
		return;
	}
	uint32_t dim = p->w[p->ids[it].at + 3], arrayed = p->w[p->ids[it].at + 5];
	if (dim == SpvDimBuffer)
		return; /* a uniform texel buffer's fetch: its footprint stands */
	uint32_t ct = coord < p->bound ? p->ids[coord].type : p->bound;
	uint32_t u = (dim == SpvDim1D || dim == SpvDim2D) && !arrayed ? component(p, coord, ct, 0)
								      : 0,
		 v = u && dim == SpvDim2D ? component(p, coord, ct, 1)
		     : u                  ? capture_spv_konst(p, 0)
					  : 0,
		 lod = l ? component(p, l, p->ids[l < p->bound ? l : 0].type, 0)
			 : capture_spv_konst(p, 0);
	if (!u || !v || !lod) {
		p->tex_skipped++;
		return;
	}
	uint32_t site = capture_spv_site(p, var, kind, 0, elem);
	if (!site)
		return;
	struct llct_spirv_site *sd = &p->sites[p->n_sites - 1];
	sd->dim = (uint8_t)(dim == SpvDim2D ? 2 : 1);
	sd->prefix = 1;
	if (elem_id) /* the element, as buffers' records carry it: site + 4096 x element */
		site = capture_spv_site_plus(p, site, elem_id);
	uint32_t vals[6] = {capture_spv_konst(p, LLCT_SPIRV_PREFIX_SITE),
			    u,
			    v,
			    site,
			    lod,
			    capture_spv_workgroup(p)};
	capture_spv_record_n(p, vals, 6);
}

/* The level an implicit-level sample at coordinate c (cn components, n of them the
 * coordinates proper) of sampled image si uses: OpImageQueryLod's, plus the Bias operand of the
 * sample w; as uint bits. */
static uint32_t implicit_level(struct pass *p, const uint32_t *w, uint32_t mask_at, uint32_t si,
			       uint32_t c, uint32_t cn, uint32_t n)
{
	uint32_t q = p->next++, f = p->next++;
	if (cn != n) { /* the coordinate without its array layer */
		uint32_t x = p->next++;
		if (n == 2) {
			uint32_t sh[7] = {7u << 16 | SpvOpVectorShuffle, p->t_v2f, x, c, c, 0, 1};
			capture_spv_emit(p, sh, 7);
		} else if (n == 1) {
			capture_spv_emit5(p, SpvOpCompositeExtract, p->t_float, x, c, 0);
		} else { /* a cube array's direction: its first 3 of 4 */
			if (!p->t_v3f)
				p->t_v3f = p->next++, p->new_v3f = 1;
			uint32_t sh[8] = {
			    8u << 16 | SpvOpVectorShuffle, p->t_v3f, x, c, c, 0, 1, 2};
			capture_spv_emit(p, sh, 8);
		}
		c = x;
	}
	capture_spv_emit5(p, SpvOpImageQueryLod, p->t_v2f, q, si, c);
	capture_spv_emit5(p, SpvOpCompositeExtract, p->t_float, f, q, 0);
	uint32_t bias = image_operand(w, mask_at, w[0] >> 16, SpvImageOperandsBiasMask);
	if (bias) {
		uint32_t b = p->next++;
		capture_spv_emit5(p, SpvOpFAdd, p->t_float, b, f, bias);
		f = b;
	}
	uint32_t lod = p->next++;
	capture_spv_emit4(p, SpvOpBitcast, p->t_uint, lod, f);
	return lod;
}

void capture_spv_image(struct pass *p, size_t i)
{
	const uint32_t *w = p->w + i;
	if (p->compute) {
		image_compute(p, w);
		return;
	}
	uint32_t op = w[0] & 0xffff, len = w[0] >> 16, kind, mask_at;
	int proj, implicit;
	if (!image_op(op, &kind, &mask_at, &proj, &implicit)) {
		p->skipped += sparse(op); /* sparse forms are not followed */
		return;
	}
	if (len < 5)
		return;
	uint32_t si = w[3], coord = w[4], elem = 0, elem_id = 0,
		 var = image_var(p, si, &elem, &elem_id, 0);
	uint32_t st = si < p->bound ? p->ids[si].type : p->bound, it = st;
	if (st < p->bound && p->ids[st].op == SpvOpTypeSampledImage)
		it = p->ids[st].type;
	if (!var || it >= p->bound || p->ids[it].op != SpvOpTypeImage) {
		p->skipped++;
		return;
	}
	uint32_t dim = p->w[p->ids[it].at + 3], arrayed = p->w[p->ids[it].at + 5];
	if (dim == SpvDimBuffer)
		return; /* a uniform texel buffer's fetch: its footprint stands (not stripped) */
	uint32_t grad = kind == LLCT_SPIRV_SAMPLE
			    ? image_operand(w, mask_at, len, SpvImageOperandsGradMask)
			    : 0;
	if ((grad && (dim == SpvDimCube || proj || it == st)) ||
	    (p->vertex && (grad || proj))) { /* a vertex shader's: at an explicit level */
		p->skipped++; /* gradients of a cube's direction, projective ones: not followed */
		return;
	}
	/* n: the coordinates the dimension takes (a cube's direction: 3); the layer follows */
	uint32_t n = dim == SpvDim1D                        ? 1
		     : dim == SpvDim2D                      ? 2
		     : dim == SpvDimCube || dim == SpvDim3D ? 3
							    : 0;
	if (!n || (dim == SpvDimCube && kind == LLCT_SPIRV_FETCH) ||
	    (proj && (arrayed || n == 3))) {
		p->skipped++;
		return;
	}
	uint32_t ct = coord < p->bound ? p->ids[coord].type : p->bound;
	uint32_t cn = ct < p->bound && p->ids[ct].op == SpvOpTypeVector ? p->ids[ct].count : 1;
	if (cn < n + (arrayed || proj) ||
	    (kind != LLCT_SPIRV_FETCH && ct < p->bound && p->ids[ct].op == SpvOpTypeVector &&
	     p->ids[ct].type != p->t_float)) {
		p->skipped++;
		return;
	}
	uint32_t c = coord; /* what OpImageQueryLod takes: the first n, divided by q */
	if (proj) {
		uint32_t q = fcomp(p, coord, cn, n), x = p->next++;
		capture_spv_emit5(p, SpvOpFDiv, p->t_float, x, fcomp(p, coord, cn, 0), q);
		c = x;
		if (n == 2) {
			uint32_t y = p->next++;
			capture_spv_emit5(p, SpvOpFDiv, p->t_float, y, fcomp(p, coord, cn, 1), q);
			c = p->next++;
			uint32_t cc[5] = {5u << 16 | SpvOpCompositeConstruct, p->t_v2f, c, x, y};
			capture_spv_emit(p, cc, 5);
		}
		ct = n == 2 ? p->t_v2f : p->t_float, cn = n;
	}
	uint32_t u = component(p, c, ct, 0),
		 v = n >= 2 ? component(p, c, ct, 1) : capture_spv_konst(p, 0);
	/* the prefix's coordinate: a cube's z, or the layer (after u, or after u and v) */
	uint32_t third = n == 3    ? component(p, c, ct, 2) /* a cube's z, a volume's w */
			 : arrayed ? component(p, coord, ct, n)
				   : capture_spv_konst(p, 0);
	/* a cube array's layer: the prefix's fourth word */
	uint32_t fourth =
	    dim == SpvDimCube && arrayed ? component(p, coord, ct, 3) : capture_spv_konst(p, 0);
	if (!u || !v || !third || !fourth) {
		p->skipped++;
		return;
	}
	uint32_t lod = capture_spv_konst(p, 0), l;
	if (grad) {
		lod = grad_rho2(p, w, mask_at, len, si, it, n, arrayed);
	} else if (kind == LLCT_SPIRV_FETCH) {
		if ((l = image_operand(w, mask_at, len, SpvImageOperandsLodMask)))
			lod = component(p, l, p->ids[l < p->bound ? l : 0].type, 0);
	} else if (kind == LLCT_SPIRV_SAMPLE &&
		   (l = image_operand(w, mask_at, len, SpvImageOperandsLodMask))) {
		lod = component(p, l, p->ids[l < p->bound ? l : 0].type, 0);
	} else if (kind == LLCT_SPIRV_SAMPLE && p->vertex) { /* no implicit level there */
		p->skipped++;
		return;
	} else if (kind == LLCT_SPIRV_SAMPLE) { /* implicit: the level the hardware picks */
		lod = implicit_level(p, w, mask_at, si, c, cn, n);
	}
	if (!lod) {
		p->skipped++;
		return;
	}
	uint32_t site = capture_spv_site(p, var, kind, 0, elem);
	if (!site)
		return;
	struct llct_spirv_site *sd = &p->sites[p->n_sites - 1];
	sd->dim = dim == SpvDimCube ? LLCT_SPIRV_DIM_CUBE : (uint8_t)n; /* 3: 3D */
	sd->arrayed = !!arrayed;
	sd->prefix = arrayed || n == 3 || elem_id;
	sd->grad = !!grad;
	uint32_t word = capture_spv_site_word(p, site), pixel = capture_spv_pixel(p);
	if (!sd->prefix) {
		uint32_t vals[5] = {word, u, v, lod, pixel}, key[3], ok = 0;
		if (dim == SpvDim2D && !grad && !elem_id)
			ok = capture_spv_sample_key(p, p->n_co, kind == LLCT_SPIRV_FETCH, si, it, u,
						    v, lod, key);
		if (ok) { /* coalesced with the lane before where it reads the same lines */
			sd->coalesce = (uint8_t)++p->n_co;
			capture_spv_record_sample(p, vals, key, ok, pixel);
		} else {
			capture_spv_record(p, vals);
		}
		return;
	}
	/* the prefix's site word: the record's, its site replaced by LLCT_SPIRV_PREFIX_SITE */
	uint32_t pw = p->next++;
	capture_spv_emit5(p, SpvOpIAdd, p->t_uint, pw, word,
			  capture_spv_konst(p, LLCT_SPIRV_PREFIX_SITE -
						   (p->site_base + (uint32_t)p->n_sites - 1)));
	uint32_t vals[10] = {pw,    elem_id ? elem_id : capture_spv_konst(p, 0),
			     third, fourth,
			     pixel, word,
			     u,     v,
			     lod,   pixel};
	capture_spv_record_n(p, vals, 10);
}

int capture_spv_fragment_setup(struct pass *p)
{
	for (size_t i = 5; i < p->n; i += p->w[i] >> 16) {
		const uint32_t *w = p->w + i;
		if ((w[0] & 0xffff) == SpvOpTypeVector && (w[0] >> 16) >= 4 && p->t_float &&
		    w[2] == p->t_float) {
			if (w[3] == 4 && !p->t_v4f)
				p->t_v4f = w[1];
			if (w[3] == 2 && !p->t_v2f)
				p->t_v2f = w[1];
			if (w[3] == 3 && !p->t_v3f)
				p->t_v3f = w[1];
		}
	}
	if (!p->t_float)
		p->t_float = p->next++, p->new_float = 1;
	if (!p->t_v4f)
		p->t_v4f = p->next++, p->new_v4f = 1;
	if (!p->t_v2f)
		p->t_v2f = p->next++, p->new_v2f = 1;
	if (p->v_fc) { /* the module's own FragCoord: a pointer to that vec4 */
		uint32_t pt = p->ids[p->v_fc].type;
		return pt < p->bound && p->ids[pt].type == p->t_v4f ? 0 : -1;
	}
	p->new_fc = 1, p->v_fc = p->next++, p->t_pv4f = p->next++;
	return 0;
}

int capture_spv_vertex_setup(struct pass *p)
{
	for (size_t i = 5; i < p->n; i += p->w[i] >> 16) {
		const uint32_t *w = p->w + i;
		uint32_t op = w[0] & 0xffff, len = w[0] >> 16;
		if (op == SpvOpDecorate && len >= 4 && w[2] == SpvDecorationBuiltIn &&
		    w[3] == SpvBuiltInVertexIndex && w[1] < p->bound &&
		    p->ids[w[1]].op == SpvOpVariable)
			p->v_vi = w[1];
		else if (op == SpvOpTypeInt && len >= 4 && w[2] == 32 && w[3] == 1 && !p->t_int)
			p->t_int = w[1];
	}
	if (p->v_vi) { /* the module's own: a pointer to a 32-bit int */
		uint32_t pt = p->ids[p->v_vi].type, t = pt < p->bound ? p->ids[pt].type : p->bound;
		if (t >= p->bound || p->ids[t].op != SpvOpTypeInt || p->ids[t].count != 32)
			return -1;
		p->t_int = t;
		return 0;
	}
	if (!p->t_int)
		p->t_int = p->next++, p->new_int = 1;
	p->new_vi = 1, p->v_vi = p->next++, p->t_pint = p->next++;
	return 0;
}

void capture_spv_storage_image(struct pass *p, size_t i)
{
	const uint32_t *w = p->w + i;
	uint32_t op = w[0] & 0xffff, len = w[0] >> 16, img, coord, kind;
	if (op == SpvOpImageRead && len >= 5)
		img = w[3], coord = w[4], kind = LLCT_SPIRV_IMAGE_READ;
	else if (op == SpvOpImageWrite && len >= 4)
		img = w[1], coord = w[2], kind = LLCT_SPIRV_IMAGE_WRITE;
	else if (op == SpvOpImageTexelPointer && len >= 6) /* an image atomic's pointer */
		img = w[3], coord = w[4], kind = LLCT_SPIRV_IMAGE_ATOMIC;
	else
		return;
	uint32_t elem = 0, var = image_var(p, img, &elem, NULL, 0);
	uint32_t pt = var ? p->ids[var].type : p->bound,
		 it = pt < p->bound ? p->ids[pt].type : p->bound;
	if (it < p->bound &&
	    (p->ids[it].op == SpvOpTypeArray || p->ids[it].op == SpvOpTypeRuntimeArray))
		it = p->ids[it].type;
	if (!var || it >= p->bound || p->ids[it].op != SpvOpTypeImage) {
		p->skipped++;
		return;
	}
	uint32_t dim = p->w[p->ids[it].at + 3], arrayed = p->w[p->ids[it].at + 5];
	if (dim == SpvDimBuffer)
		return; /* a texel buffer: its footprint stands (its traffic is not stripped) */
	/* 2D, arrayed 2D and 3D: the third coordinate (layer, slice) where there is one */
	int third = dim == SpvDim3D || (dim == SpvDim2D && arrayed);
	if ((dim != SpvDim2D && dim != SpvDim3D) || (dim == SpvDim3D && arrayed)) {
		p->skipped++;
		return;
	}
	uint32_t ct = coord < p->bound ? p->ids[coord].type : p->bound;
	uint32_t x = component(p, coord, ct, 0), y = component(p, coord, ct, 1),
		 z = third ? component(p, coord, ct, 2) : capture_spv_konst(p, 0);
	if (!x || !y || !z) {
		p->skipped++;
		return;
	}
	uint32_t site = capture_spv_site(p, var, kind, 0, elem);
	if (!site)
		return;
	struct llct_spirv_site *sd = &p->sites[p->n_sites - 1];
	sd->dim = dim == SpvDim3D ? LLCT_SPIRV_DIM_3D : LLCT_SPIRV_DIM_2D;
	sd->arrayed = !!arrayed;
	if (p->graphics) { /* (site, x, y, layer or slice, pixel) */
		uint32_t vals[5] = {capture_spv_site_word(p, site), x, y, z, capture_spv_pixel(p)};
		capture_spv_record(p, vals);
		return;
	}
	uint32_t y16 = p->next++, xy = p->next++;
	capture_spv_emit5(p, SpvOpShiftLeftLogical, p->t_uint, y16, y, capture_spv_konst(p, 16));
	capture_spv_emit5(p, SpvOpBitwiseOr, p->t_uint, xy, x, y16);
	if (third) { /* compute: (LLCT_SPIRV_PREFIX_SITE, layer or slice, 0) first */
		sd->prefix = 1;
		uint32_t vals[6] = {capture_spv_konst(p, LLCT_SPIRV_PREFIX_SITE),
				    z,
				    capture_spv_konst(p, 0),
				    site,
				    xy,
				    capture_spv_workgroup(p)};
		capture_spv_record_n(p, vals, 6);
		return;
	}
	uint32_t vals[3] = {site, xy, capture_spv_workgroup(p)};
	capture_spv_record(p, vals);
}
