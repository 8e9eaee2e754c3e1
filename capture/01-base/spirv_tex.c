/* spirv_tex.c - which of a fragment shader's sampled images it samples straight at an
 * interpolated input ("direct": the coordinate is an input variable, or two components of one,
 * as texture(tex, uv) compiles), so tier 2 can capture that input from the vertex side and
 * interpolate it per pixel instead of guessing from screen space. Anything else -- computed
 * coordinates, dependent reads, projective or gather forms -- leaves the image to the
 * screen-space footprint. */
#include "spirv.h"

#include <spirv/unified1/spirv.h>
#include <stdlib.h>
#include <string.h>

/* What the walk keeps per id (0 when nothing). */
struct idinfo {
	uint16_t op;      /* the instruction that defines it */
	uint32_t a, b;    /* OpLoad: pointer; OpSampledImage: image, sampler; OpVectorShuffle:
			     the two vectors; OpCompositeExtract: composite; OpVariable: class */
	uint32_t c0, c1;  /* OpVectorShuffle's first two components; OpCompositeExtract's index */
	uint32_t n_comp;  /* OpCompositeConstruct: its first two constituents in a, b */
	int32_t location; /* a variable's Location, -1 */
	int32_t set, binding;
};

/* The interpolated input a coordinate comes from: 0 and *loc, *c0, *c1, or -1. depth bounds
 * the walk (a malformed module may define an id by itself). */
static int direct_coord(const struct idinfo *in, uint32_t bound, uint32_t id, uint32_t *loc,
			uint32_t *c0, uint32_t *c1, int depth)
{
	const struct idinfo *d = id < bound ? &in[id] : NULL;
	if (!d || depth > 4)
		return -1;
	/* an input loaded whole: its first two components */
	if (d->op == SpvOpLoad && d->a < bound && in[d->a].op == SpvOpVariable &&
	    in[d->a].a == SpvStorageClassInput && in[d->a].location >= 0) {
		*loc = (uint32_t)in[d->a].location, *c0 = 0, *c1 = 1;
		return 0;
	}
	/* a swizzle of one: uv.zw */
	if (d->op == SpvOpVectorShuffle && d->c0 < 4 && d->c1 < 4 &&
	    !direct_coord(in, bound, d->a, loc, c0, c1, depth + 1)) {
		*c0 = d->c0, *c1 = d->c1;
		return 0;
	}
	/* vec2(v.x, v.y) of one input */
	if (d->op == SpvOpCompositeConstruct && d->n_comp == 2 && d->a < bound && d->b < bound &&
	    in[d->a].op == SpvOpCompositeExtract && in[d->b].op == SpvOpCompositeExtract) {
		uint32_t la, lb, x, y;
		if (direct_coord(in, bound, in[d->a].a, &la, &x, &y, depth + 1) ||
		    direct_coord(in, bound, in[d->b].a, &lb, &x, &y, depth + 1) || la != lb)
			return -1;
		*loc = la, *c0 = in[d->a].c0, *c1 = in[d->b].c0;
		return 0;
	}
	return -1;
}

/* The descriptor variable a sampled image comes from, or 0. */
static uint32_t image_var(const struct idinfo *in, uint32_t bound, uint32_t id)
{
	const struct idinfo *d = id < bound ? &in[id] : NULL;
	if (d && d->op == SpvOpSampledImage)
		d = d->a < bound ? &in[d->a] : NULL;
	if (d && d->op == SpvOpLoad && d->a < bound && in[d->a].op == SpvOpVariable &&
	    in[d->a].binding >= 0)
		return d->a;
	return 0;
}

int llct_spirv_tex_inputs(const uint32_t *w, size_t n, struct llct_spirv_tex *out, int max)
{
	if (n < 5 || w[0] != SpvMagicNumber || w[3] > n)
		return -1;
	uint32_t bound = w[3];
	struct idinfo *in = calloc(bound + 1, sizeof(*in));
	if (!in)
		return -1;
	for (uint32_t i = 0; i <= bound; i++)
		in[i].location = in[i].set = in[i].binding = -1;
	size_t i = 5;
	int count = 0, bad = 0;
	/* definitions and decorations first (they come before the functions) */
	for (; i < n; i += w[i] >> 16) {
		uint32_t op = w[i] & 0xffff, len = w[i] >> 16;
		if (!len || i + len > n) {
			bad = 1;
			break;
		}
		if (op == SpvOpDecorate && len >= 4 && w[i + 1] < bound) {
			if (w[i + 2] == SpvDecorationLocation)
				in[w[i + 1]].location = (int32_t)w[i + 3];
			else if (w[i + 2] == SpvDecorationDescriptorSet)
				in[w[i + 1]].set = (int32_t)w[i + 3];
			else if (w[i + 2] == SpvDecorationBinding)
				in[w[i + 1]].binding = (int32_t)w[i + 3];
		} else if (op == SpvOpVariable && len >= 4 && w[i + 2] < bound) {
			in[w[i + 2]].op = SpvOpVariable;
			in[w[i + 2]].a = w[i + 3];
		} else if (op == SpvOpLoad && len >= 4 && w[i + 2] < bound) {
			in[w[i + 2]].op = SpvOpLoad;
			in[w[i + 2]].a = w[i + 3];
		} else if (op == SpvOpSampledImage && len >= 5 && w[i + 2] < bound) {
			in[w[i + 2]].op = SpvOpSampledImage;
			in[w[i + 2]].a = w[i + 3];
			in[w[i + 2]].b = w[i + 4];
		} else if (op == SpvOpVectorShuffle && len >= 7 && w[i + 2] < bound) {
			in[w[i + 2]] = (struct idinfo){SpvOpVectorShuffle,
						       w[i + 3],
						       w[i + 4],
						       w[i + 5],
						       w[i + 6],
						       0,
						       -1,
						       -1,
						       -1};
		} else if (op == SpvOpCompositeExtract && len >= 5 && w[i + 2] < bound) {
			in[w[i + 2]] = (struct idinfo){
			    SpvOpCompositeExtract, w[i + 3], 0, w[i + 4], 0, 0, -1, -1, -1};
		} else if (op == SpvOpCompositeConstruct && len >= 4 && w[i + 2] < bound) {
			in[w[i + 2]] = (struct idinfo){SpvOpCompositeConstruct,
						       w[i + 3],
						       len > 4 ? w[i + 4] : 0,
						       0,
						       0,
						       len - 3,
						       -1,
						       -1,
						       -1};
		}
	}
	/* the samples: each image direct at one input, or not */
	for (i = 5; !bad && i < n; i += w[i] >> 16) {
		uint32_t op = w[i] & 0xffff, len = w[i] >> 16;
		int sample =
		    op == SpvOpImageSampleImplicitLod || op == SpvOpImageSampleExplicitLod ||
		    op == SpvOpImageSampleDrefImplicitLod || op == SpvOpImageSampleDrefExplicitLod;
		int other = op == SpvOpImageSampleProjImplicitLod ||
			    op == SpvOpImageSampleProjExplicitLod ||
			    op == SpvOpImageSampleProjDrefImplicitLod ||
			    op == SpvOpImageSampleProjDrefExplicitLod || op == SpvOpImageGather ||
			    op == SpvOpImageDrefGather || op == SpvOpImageFetch;
		if ((!sample && !other) || len < 5)
			continue;
		uint32_t var = image_var(in, bound, w[i + 3]), loc = 0, c0 = 0, c1 = 0;
		if (!var)
			continue;
		uint32_t set = in[var].set < 0 ? 0 : (uint32_t)in[var].set;
		int direct = sample && !direct_coord(in, bound, w[i + 4], &loc, &c0, &c1, 0);
		int k = 0;
		while (k < count &&
		       !(out[k].set == set && out[k].binding == (uint32_t)in[var].binding))
			k++;
		if (k == count) {
			if (count == max)
				continue;
			out[count++] = (struct llct_spirv_tex){
			    set, (uint32_t)in[var].binding, loc, c0, c1, direct};
		} else if (!direct || out[k].location != loc || out[k].c0 != c0 ||
			   out[k].c1 != c1) {
			out[k].direct = 0; /* sampled two ways: the screen-space footprint */
		}
	}
	free(in);
	return bad ? -1 : count;
}
