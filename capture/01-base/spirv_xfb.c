/* spirv_xfb.c - what capture tier 2 reads from and writes into a shader stage's SPIR-V: the
 * stage's kind and output primitive, whether a fragment shader can discard or writes depth,
 * and a copy of a pre-rasterization stage whose Position output is captured by transform
 * feedback (buffer 0, offset 0, stride 16), as lavapipe takes it (checked on this project's
 * development machine). Words are only inserted (a capability, an execution mode, three
 * decorations); no id is added. */
#include "spirv.h"

#include <spirv/unified1/spirv.h>
#include <stdlib.h>
#include <string.h>

/* The entry point named `entry` (NULL: the first): its model, function id and interface. */
struct entry {
	int found;
	uint32_t model, fn;
	const uint32_t *iface;
	uint32_t n_iface;
};

/* Walks the instructions; returns 0 if they tile the module exactly and the id bound is
 * believable (every id needs an instruction that defines it). */
static int well_formed(const uint32_t *w, size_t n)
{
	if (n < 5 || w[0] != SpvMagicNumber || w[3] > n)
		return -1;
	size_t i = 5;
	while (i < n) {
		uint32_t len = w[i] >> 16;
		if (!len || i + len > n)
			return -1;
		i += len;
	}
	return 0;
}

/* A literal string's words within an instruction of len words starting at word at. */
static int string_is(const uint32_t *w, size_t at, size_t end, const char *s)
{
	size_t max = (end - at) * 4, k = 0;
	const char *p = (const char *)(w + at);
	while (k < max && p[k] && s[k] && p[k] == s[k])
		k++;
	return k < max && p[k] == '\0' && s[k] == '\0';
}

static size_t string_words(const uint32_t *w, size_t at, size_t end)
{
	size_t k = 0, max = (end - at) * 4;
	const char *p = (const char *)(w + at);
	while (k < max && p[k])
		k++;
	return k / 4 + 1;
}

static void find_entry(const uint32_t *w, size_t n, const char *name, struct entry *e)
{
	memset(e, 0, sizeof(*e));
	for (size_t i = 5; i < n; i += w[i] >> 16) {
		uint32_t op = w[i] & 0xffff, len = w[i] >> 16;
		if (op != SpvOpEntryPoint || len < 4)
			continue;
		if (name && !string_is(w, i + 3, i + len, name))
			continue;
		size_t sw = string_words(w, i + 3, i + len);
		e->found = 1;
		e->model = w[i + 1];
		e->fn = w[i + 2];
		e->iface = i + 3 + sw <= i + len ? w + i + 3 + sw : NULL;
		e->n_iface = e->iface ? (uint32_t)(len - 3 - sw) : 0;
		return;
	}
}

int llct_spirv_info(const uint32_t *w, size_t n, const char *entry, struct llct_spirv_info *out)
{
	struct entry e;
	memset(out, 0, sizeof(*out));
	out->output_prim = -1;
	if (well_formed(w, n))
		return -1;
	find_entry(w, n, entry, &e);
	if (!e.found)
		return -1;
	out->model = (int)e.model;
	for (size_t i = 5; i < n; i += w[i] >> 16) {
		uint32_t op = w[i] & 0xffff, len = w[i] >> 16;
		if (op == SpvOpCapability && len >= 2 && w[i + 1] == SpvCapabilityTransformFeedback)
			out->has_xfb = 1;
		if (op == SpvOpExecutionMode && len >= 3 && w[i + 1] == e.fn) {
			switch (w[i + 2]) {
			case SpvExecutionModeXfb:
				out->has_xfb = 1;
				break;
			case SpvExecutionModeOutputPoints:
			case SpvExecutionModePointMode:
				out->output_prim = 2;
				break;
			case SpvExecutionModeOutputLineStrip:
			case SpvExecutionModeIsolines:
				out->output_prim = out->output_prim == 2 ? 2 : 1;
				break;
			case SpvExecutionModeOutputTriangleStrip:
			case SpvExecutionModeTriangles:
			case SpvExecutionModeQuads:
				out->output_prim = out->output_prim >= 0 ? out->output_prim : 0;
				break;
			default:
				break;
			}
		}
		if (op == SpvOpDecorate && len >= 4 && w[i + 2] == SpvDecorationBuiltIn) {
			out->has_position |= w[i + 3] == SpvBuiltInPosition;
			out->writes_depth |= w[i + 3] == SpvBuiltInFragDepth;
		}
		if (op == SpvOpMemberDecorate && len >= 5 && w[i + 3] == SpvDecorationBuiltIn)
			out->has_position |= w[i + 4] == SpvBuiltInPosition;
		out->discards |= op == SpvOpKill || op == SpvOpTerminateInvocation ||
				 op == SpvOpDemoteToHelperInvocation;
	}
	if (out->model != SpvExecutionModelFragment)
		out->discards = out->writes_depth = 0;
	return 0;
}

/* The Output variable of the entry's interface that holds Position: *var, and *block and *member
 * when it is a member of a block (gl_PerVertex), else *block = 0. Returns 0 if found. */
static int find_position(const uint32_t *w, size_t n, const struct entry *e, uint32_t *var,
			 uint32_t *block, uint32_t *member)
{
	uint32_t bound = w[3], pos_var = 0;
	uint32_t *ptr_to = calloc(bound + 1, sizeof(uint32_t)); /* pointer type -> pointee */
	uint32_t *var_type = calloc(bound + 1, sizeof(uint32_t));
	uint32_t *pos_member = calloc(bound + 1, sizeof(uint32_t)); /* struct -> member + 1 */
	uint8_t *is_output = calloc(bound + 1, 1);
	int found = -1;
	if (!ptr_to || !var_type || !pos_member || !is_output)
		goto done;
	for (size_t i = 5; i < n; i += w[i] >> 16) {
		uint32_t op = w[i] & 0xffff, len = w[i] >> 16;
		if (op == SpvOpDecorate && len >= 4 && w[i + 2] == SpvDecorationBuiltIn &&
		    w[i + 3] == SpvBuiltInPosition && w[i + 1] < bound)
			pos_var = pos_var ? pos_var : w[i + 1];
		else if (op == SpvOpMemberDecorate && len >= 5 &&
			 w[i + 3] == SpvDecorationBuiltIn && w[i + 4] == SpvBuiltInPosition &&
			 w[i + 1] < bound)
			pos_member[w[i + 1]] = w[i + 2] + 1; /* gl_in's block has one too */
		else if (op == SpvOpTypePointer && len >= 4 && w[i + 1] < bound)
			ptr_to[w[i + 1]] = w[i + 3];
		else if (op == SpvOpVariable && len >= 4 && w[i + 2] < bound) {
			var_type[w[i + 2]] = w[i + 1] < bound ? w[i + 1] : 0;
			is_output[w[i + 2]] = w[i + 3] == SpvStorageClassOutput;
		}
	}
	for (uint32_t k = 0; k < e->n_iface && found; k++) {
		uint32_t v = e->iface[k];
		if (v >= bound || !is_output[v])
			continue;
		if (v == pos_var) {
			*var = v, *block = 0, *member = 0, found = 0;
		} else if (ptr_to[var_type[v]] < bound && pos_member[ptr_to[var_type[v]]]) {
			*block = ptr_to[var_type[v]];
			*var = v, *member = pos_member[*block] - 1, found = 0;
		}
	}
done:
	free(ptr_to);
	free(var_type);
	free(pos_member);
	free(is_output);
	return found;
}

static int is_annotation(uint32_t op)
{
	return op == SpvOpDecorate || op == SpvOpMemberDecorate || op == SpvOpDecorationGroup ||
	       op == SpvOpGroupDecorate || op == SpvOpGroupMemberDecorate ||
	       op == SpvOpDecorateId || op == SpvOpDecorateString ||
	       op == SpvOpMemberDecorateString;
}

/* The Output variable of the entry's interface at Location loc whose type is a 32-bit float or
 * a vector of them (up to 4), or 0. */
static uint32_t float_output(const uint32_t *w, size_t n, const struct entry *e, uint32_t loc)
{
	uint32_t bound = w[3], found = 0;
	uint32_t *info = calloc(3 * ((size_t)bound + 1), sizeof(uint32_t));
	if (!info)
		return 0;
	/* per id: its kind (1 Output variable, 2 pointer type, 3 vector type, 4 32-bit float
	   type); info[3 id]: a variable's type, a pointer's pointee, a vector's element type;
	   info[3 id + 1]: a vector's size; info[3 id + 2]: Location + 1 */
	uint8_t *kind = calloc((size_t)bound + 1, 1);
	if (!kind) {
		free(info);
		return 0;
	}
	for (size_t i = 5; i < n; i += w[i] >> 16) {
		uint32_t op = w[i] & 0xffff, len = w[i] >> 16;
		if (op == SpvOpDecorate && len >= 4 && w[i + 1] < bound &&
		    w[i + 2] == SpvDecorationLocation)
			info[3 * w[i + 1] + 2] = w[i + 3] + 1;
		else if (op == SpvOpVariable && len >= 4 && w[i + 2] < bound &&
			 w[i + 3] == SpvStorageClassOutput)
			kind[w[i + 2]] = 1, info[3 * w[i + 2]] = w[i + 1];
		else if (op == SpvOpTypePointer && len >= 4 && w[i + 1] < bound)
			kind[w[i + 1]] = 2, info[3 * w[i + 1]] = w[i + 3];
		else if (op == SpvOpTypeVector && len >= 4 && w[i + 1] < bound)
			kind[w[i + 1]] = 3, info[3 * w[i + 1]] = w[i + 2],
				   info[3 * w[i + 1] + 1] = w[i + 3];
		else if (op == SpvOpTypeFloat && len >= 3 && w[i + 1] < bound && w[i + 2] == 32)
			kind[w[i + 1]] = 4;
	}
	for (uint32_t k = 0; k < e->n_iface && !found; k++) {
		uint32_t v = e->iface[k], t;
		if (v >= bound || kind[v] != 1 || info[3 * v + 2] != loc + 1)
			continue;
		t = info[3 * v] < bound && kind[info[3 * v]] == 2 ? info[3 * info[3 * v]] : bound;
		if (t < bound && kind[t] == 3 && info[3 * t] < bound && kind[info[3 * t]] == 4 &&
		    info[3 * t + 1] <= 4)
			found = v;
		else if (t < bound && kind[t] == 4)
			found = v;
	}
	free(info);
	free(kind);
	return found;
}

int llct_spirv_xfb(const uint32_t *w, size_t n, const char *entry, const uint32_t *locs, int n_locs,
		   uint32_t *captured, uint32_t **out, size_t *out_n, const char **why)
{
	struct llct_spirv_info info;
	struct entry e;
	uint32_t var, block, member, stride = 16u * (1u + (uint32_t)(n_locs > 0 ? n_locs : 0));
	*out = NULL;
	*out_n = 0;
	*captured = 0;
	if (llct_spirv_info(w, n, entry, &info)) {
		*why = "the module is not well-formed SPIR-V or lacks the entry point";
		return -1;
	}
	if (info.has_xfb) {
		*why = "the shader already uses transform feedback";
		return -1;
	}
	if (info.model != SpvExecutionModelVertex && info.model != SpvExecutionModelGeometry &&
	    info.model != SpvExecutionModelTessellationEvaluation) {
		*why = "not a last pre-rasterization stage";
		return -1;
	}
	find_entry(w, n, entry, &e);
	if (find_position(w, n, &e, &var, &block, &member)) {
		*why = "the stage writes no Position output";
		return -1;
	}
	/* where the new words go: after the last capability, the last entry point, and the last
	   annotation */
	size_t at_cap = 0, at_entry = 0, at_annot = 0;
	for (size_t i = 5; i < n; i += w[i] >> 16) {
		uint32_t op = w[i] & 0xffff, end = (uint32_t)(i + (w[i] >> 16));
		if (op == SpvOpCapability)
			at_cap = end;
		else if (op == SpvOpEntryPoint)
			at_entry = end;
		else if (is_annotation(op))
			at_annot = end;
	}
	if (!at_cap || !at_entry || !at_annot) {
		*why = "the module lacks a capability, an entry point or annotations";
		return -1;
	}
	uint32_t cap[2] = {2u << 16 | SpvOpCapability, SpvCapabilityTransformFeedback};
	uint32_t mode[3] = {3u << 16 | SpvOpExecutionMode, e.fn, SpvExecutionModeXfb};
	uint32_t dec[13 + 12 * 4] = {4u << 16 | SpvOpDecorate, var, SpvDecorationXfbBuffer, 0,
				     4u << 16 | SpvOpDecorate, var, SpvDecorationXfbStride, stride};
	size_t n_dec = 8;
	if (block) {
		uint32_t m[5] = {5u << 16 | SpvOpMemberDecorate, block, member, SpvDecorationOffset,
				 0};
		memcpy(dec + n_dec, m, sizeof(m));
		n_dec += 5;
	} else {
		uint32_t m[4] = {4u << 16 | SpvOpDecorate, var, SpvDecorationOffset, 0};
		memcpy(dec + n_dec, m, sizeof(m));
		n_dec += 4;
	}
	for (int k = 0; k < n_locs && k < 4; k++) { /* the inputs asked for, after Position */
		uint32_t v = float_output(w, n, &e, locs[k]);
		if (!v || v == var)
			continue;
		uint32_t d[12] = {
		    4u << 16 | SpvOpDecorate, v, SpvDecorationXfbBuffer, 0,
		    4u << 16 | SpvOpDecorate, v, SpvDecorationXfbStride, stride,
		    4u << 16 | SpvOpDecorate, v, SpvDecorationOffset,    16u * (uint32_t)(k + 1)};
		memcpy(dec + n_dec, d, sizeof(d));
		n_dec += 12;
		*captured |= 1u << k;
	}
	size_t total = n + 2 + 3 + n_dec, o = 0;
	uint32_t *r = malloc(total * sizeof(*r));
	if (!r) {
		*why = "out of memory";
		return -1;
	}
	for (size_t i = 0; i <= n; i++) {
		if (i == at_cap)
			memcpy(r + o, cap, sizeof(cap)), o += 2;
		if (i == at_entry)
			memcpy(r + o, mode, sizeof(mode)), o += 3;
		if (i == at_annot)
			memcpy(r + o, dec, n_dec * sizeof(*dec)), o += n_dec;
		if (i < n)
			r[o++] = w[i];
	}
	*out = r;
	*out_n = o;
	return 0;
}
