/* spirv_instr.c - capture tier 3's instrumentation pass, its driver: a copy of a shader module
 * in which every buffer access (spirv_instr_buf.c) and, in fragment shaders, every image sample
 * (spirv_instr_img.c) also appends a record to a record buffer in a descriptor set of the
 * layer's own, so the layer learns what each invocation really touched. This file reads the
 * module, finds or plans the types and built-ins the records need, walks the functions and
 * puts the module back together with what was added (the words added, and the record code,
 * are spirv_instr_rec.c's).
 *
 * The record buffer (set `set`, binding 0, a StorageBuffer block):
 *     uint cursor;   words taken so far (atomically; may run past cap: overflow, counted)
 *     uint cap;      words of data[] the layer gave (host-written; data[] has spill room)
 *     uint data[];   records of record_words words: compute (site, byte offset, workgroup
 *                    x + 65536 y + 16777216 z); fragment (site + 4096 x draw, a, b, c, pixel
 *                    x + 65536 y) with the draw from binding 1 of the set; other stages
 *                    (site, byte offset, 0)
 * (A draw's sample of an arrayed or cube image, or through an array of images indexed at run
 * time, is two records reserved at once: a prefix, then the record; see spirv.h. So is every
 * compute sample: (4095, u, v), then (site + 4096 x element, level, workgroup).)
 * Binding 1 of the set is the draw's slot (graphics): {uint draw; uint sites[31]}, the second
 * member only where samples coalesce (spirv_instr_co.c). Room for a record is taken with an
 * atomic on the cursor by each lane, or once for a subgroup's records (spirv_instr_sg.c), which
 * can also leave out a lane's record its neighbour stands for (coalescing).
 * A record whose words do not fit goes to data[cap ..], a slot the layer never reads, so
 * nothing branches and nothing is lost silently: cursor > cap says how many were. What the pass
 * cannot follow is counted in r->skipped and not recorded. The upstream SPIRV-Tools
 * instrumentation passes are C++ and gone from Debian's version, hence this pass over the
 * words; every module it writes for the test programs is checked with spvValidate
 * (tests/unit/test_spirv_instr.c), and fuzz_spirv checks valid modules stay valid. */
#include "spirv.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#define SPV_ENABLE_UTILITY_CODE /* SpvHasResultAndType: which instructions have a result type */
#include <spirv/unified1/spirv.h>

/* the header's definition is C99 `inline`: this file gives it its one external definition */
extern inline void SpvHasResultAndType(SpvOp opcode, bool *hasResult, bool *hasResultType);

#include "spirv_instr_int.h"

static int is_annotation(uint32_t op)
{
	return op == SpvOpDecorate || op == SpvOpMemberDecorate || op == SpvOpDecorationGroup ||
	       op == SpvOpGroupDecorate || op == SpvOpGroupMemberDecorate ||
	       op == SpvOpDecorateId || op == SpvOpDecorateString ||
	       op == SpvOpMemberDecorateString;
}

static int is_atomic(uint32_t op)
{
	return (op >= SpvOpAtomicLoad && op <= SpvOpAtomicXor) || op == SpvOpAtomicFAddEXT ||
	       op == SpvOpAtomicFMinEXT || op == SpvOpAtomicFMaxEXT;
}

/* Pass 1: what every id is. */
static int analyse(struct pass *p)
{
	const uint32_t *w = p->w;
	size_t n_mdec = 0;
	for (size_t i = 5; i < p->n; i += w[i] >> 16)
		n_mdec += (w[i] & 0xffff) == SpvOpMemberDecorate;
	p->mdec = malloc((n_mdec + 1) * 4 * sizeof(uint32_t));
	if (!p->mdec)
		return -1;
	for (size_t i = 5; i < p->n; i += w[i] >> 16) {
		uint32_t op = w[i] & 0xffff, len = w[i] >> 16;
		struct id *d;
		switch (op) {
		case SpvOpDecorate:
			if (len < 3 || w[i + 1] >= p->bound)
				break;
			d = &p->ids[w[i + 1]];
			if (w[i + 2] == SpvDecorationBlock)
				d->flags |= 1;
			else if (w[i + 2] == SpvDecorationBufferBlock)
				d->flags |= 2;
			else if (len >= 4 && w[i + 2] == SpvDecorationDescriptorSet)
				d->set = (int32_t)(w[i + 3] & 0x7fffffff);
			else if (len >= 4 && w[i + 2] == SpvDecorationBinding)
				d->binding = (int32_t)(w[i + 3] & 0x7fffffff);
			else if (len >= 4 && w[i + 2] == SpvDecorationArrayStride)
				d->stride = w[i + 3];
			break;
		case SpvOpMemberDecorate:
			if (len < 4 || w[i + 1] >= p->bound)
				break;
			p->mdec[4 * p->n_mdec] = w[i + 1];
			p->mdec[4 * p->n_mdec + 1] = w[i + 2];
			p->mdec[4 * p->n_mdec + 2] = w[i + 3];
			p->mdec[4 * p->n_mdec + 3] = len >= 5 ? w[i + 4] : 0;
			p->n_mdec++;
			break;
		case SpvOpTypeInt:
		case SpvOpTypeFloat:
			if (len < 3 || w[i + 1] >= p->bound)
				break;
			d = &p->ids[w[i + 1]];
			d->op = (uint16_t)op, d->count = w[i + 2], d->at = (uint32_t)i;
			if (op == SpvOpTypeInt && len >= 4 && w[i + 3])
				d->flags |= 8;
			if (op == SpvOpTypeInt && w[i + 2] == 32 && len >= 4 && !w[i + 3] &&
			    !p->t_uint)
				p->t_uint = w[i + 1];
			break;
		case SpvOpTypeBool:
			if (len >= 2 && w[i + 1] < p->bound) {
				p->ids[w[i + 1]].op = (uint16_t)op;
				p->t_bool = p->t_bool ? p->t_bool : w[i + 1];
			}
			break;
		case SpvOpTypeVector:
		case SpvOpTypeMatrix:
		case SpvOpTypeArray:
			if (len < 4 || w[i + 1] >= p->bound)
				break;
			d = &p->ids[w[i + 1]];
			d->op = (uint16_t)op, d->type = w[i + 2], d->count = w[i + 3];
			d->at = (uint32_t)i;
			break;
		case SpvOpTypeImage:
		case SpvOpTypeSampledImage:
			if (len < 3 || w[i + 1] >= p->bound)
				break;
			d = &p->ids[w[i + 1]];
			d->op = (uint16_t)op, d->type = w[i + 2], d->at = (uint32_t)i;
			break;
		case SpvOpTypeRuntimeArray:
			if (len < 3 || w[i + 1] >= p->bound)
				break;
			d = &p->ids[w[i + 1]];
			d->op = (uint16_t)op, d->type = w[i + 2], d->at = (uint32_t)i;
			break;
		case SpvOpTypeStruct:
			if (len < 2 || w[i + 1] >= p->bound)
				break;
			d = &p->ids[w[i + 1]];
			d->op = (uint16_t)op, d->count = len - 2, d->at = (uint32_t)i;
			break;
		case SpvOpTypePointer:
			if (len < 4 || w[i + 1] >= p->bound)
				break;
			d = &p->ids[w[i + 1]];
			d->op = (uint16_t)op, d->at = (uint32_t)i;
			d->cls = (uint8_t)(w[i + 2] < 254 ? w[i + 2] + 1 : 255);
			d->type = w[i + 3];
			break;
		case SpvOpConstant:
			if (len < 4 || w[i + 2] >= p->bound)
				break;
			d = &p->ids[w[i + 2]];
			d->op = (uint16_t)op, d->type = w[i + 1], d->count = w[i + 3];
			break;
		case SpvOpVariable:
			if (len < 4 || w[i + 2] >= p->bound)
				break;
			d = &p->ids[w[i + 2]];
			d->op = (uint16_t)op, d->type = w[i + 1];
			d->cls = (uint8_t)(w[i + 3] < 254 ? w[i + 3] + 1 : 255);
			break;
		default:
			break;
		}
	}
	/* a value's type, for the indices' signedness and the loaded and stored sizes */
	for (size_t i = 5; i < p->n; i += w[i] >> 16) {
		uint32_t op = w[i] & 0xffff, len = w[i] >> 16;
		bool has_res = false, has_type = false;
		SpvHasResultAndType((SpvOp)op, &has_res, &has_type);
		if (has_res && has_type && len >= 3 && w[i + 2] < p->bound && !p->ids[w[i + 2]].op)
			p->ids[w[i + 2]].type = w[i + 1], p->ids[w[i + 2]].def = (uint32_t)i;
	}
	return 0;
}

/* A 4-word instruction (a type) at o: its length. */
/* Emitters for the module's parts outside functions, one per instruction shape: each writes
 * its instruction at o and returns its length in words. */
static uint32_t put2(uint32_t *o, uint32_t op, uint32_t a)
{
	o[0] = 2u << 16 | op, o[1] = a;
	return 2;
}

static uint32_t put3(uint32_t *o, uint32_t op, uint32_t a, uint32_t b)
{
	o[0] = 3u << 16 | op, o[1] = a, o[2] = b;
	return 3;
}

static uint32_t put4(uint32_t *o, uint32_t op, uint32_t a, uint32_t b, uint32_t c)
{
	o[0] = 4u << 16 | op, o[1] = a, o[2] = b, o[3] = c;
	return 4;
}

static uint32_t put5(uint32_t *o, uint32_t op, uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
	o[0] = 5u << 16 | op, o[1] = a, o[2] = b, o[3] = c, o[4] = d;
	return 5;
}

/* An OpExtension naming `name` (a string literal, padded with zeros to whole words). */
static uint32_t put_extension(uint32_t *o, const char *name, size_t size)
{
	uint32_t len = 1 + (uint32_t)(size + 3) / 4;
	o[0] = len << 16 | SpvOpExtension;
	memset(o + 1, 0, (len - 1) * 4);
	memcpy(o + 1, name, size);
	return len;
}

/* An Input pointer type to `type` and a variable of it at o: its length. */
static uint32_t input_var(uint32_t *o, uint32_t ptr, uint32_t type, uint32_t var)
{
	put4(o, SpvOpTypePointer, ptr, SpvStorageClassInput, type);
	put4(o + 4, SpvOpVariable, ptr, var, SpvStorageClassInput);
	return 8;
}

int llct_spirv_instrument(const uint32_t *w, size_t n, uint32_t set, uint32_t site_base,
			  struct llct_spirv_instr *r)
{
	return llct_spirv_instrument_ex(w, n, set, site_base, 0, r);
}

/* Where the module's parts are (word indexes) and what it already has. */
struct layout {
	size_t first_fn, at_types, at_annot_end, at_cap, at_entry, at_modes;
	int n_entries, has_query, has_sb_ext, early, late;
};

static void pass_free(struct pass *p)
{
	free(p->ids), free(p->mdec), free(p->chains), free(p->out), free(p->consts);
	capture_spv_sg_free(p);
}

/* What the module declares that the records use (its entry points' stage, the built-ins and
 * types it has, capabilities and extensions, the depth-test modes): into p and l. */
static void scan_declarations(struct pass *p, struct layout *l)
{
	const uint32_t *w = p->w;
	int all_compute = 1, all_fragment = 1, all_vertex = 1;
	for (size_t i = 5; i < p->n; i += w[i] >> 16) {
		uint32_t op = w[i] & 0xffff, len = w[i] >> 16;
		if (op == SpvOpEntryPoint && len >= 3) {
			l->n_entries++;
			all_compute &= w[i + 1] == SpvExecutionModelGLCompute;
			all_fragment &= w[i + 1] == SpvExecutionModelFragment;
			all_vertex &= w[i + 1] == SpvExecutionModelVertex;
		} else if (op == SpvOpCapability && len >= 2 &&
			   w[i + 1] == SpvCapabilityImageQuery) {
			l->has_query = 1;
		} else if (op == SpvOpCapability && len >= 2 &&
			   w[i + 1] == SpvCapabilityPhysicalStorageBufferAddresses) {
			p->has_psb_cap = 1;
		} else if (op == SpvOpExtension && len >= 2 &&
			   !strncmp((const char *)(w + i + 1), "SPV_KHR_physical_storage_buffer",
				    (len - 1) * 4)) {
			p->has_psb_ext = 1;
		} else if (op == SpvOpExecutionMode && len >= 3 &&
			   w[i + 2] == SpvExecutionModeEarlyFragmentTests) {
			l->early = 1;
		} else if (op == SpvOpKill || op == SpvOpTerminateInvocation ||
			   op == SpvOpDemoteToHelperInvocation ||
			   (op == SpvOpDecorate && len >= 4 && w[i + 2] == SpvDecorationBuiltIn &&
			    w[i + 3] == SpvBuiltInFragDepth)) {
			l->late = 1; /* the depth test must wait for the shader */
		} else if (op == SpvOpDecorate && len >= 4 && w[i + 2] == SpvDecorationBuiltIn &&
			   w[i + 3] == SpvBuiltInFragCoord && w[i + 1] < p->bound &&
			   p->ids[w[i + 1]].op == SpvOpVariable) {
			p->v_fc = w[i + 1];
		} else if (op == SpvOpTypeFloat && len >= 3 && w[i + 2] == 32 && !p->t_float) {
			p->t_float = w[i + 1];
		} else if (op == SpvOpDecorate && len >= 4 && w[i + 2] == SpvDecorationBuiltIn &&
			   w[i + 3] == SpvBuiltInWorkgroupId && w[i + 1] < p->bound &&
			   p->ids[w[i + 1]].op == SpvOpVariable) {
			p->v_wg = w[i + 1];
		} else if (op == SpvOpTypeVector && len >= 4 && w[i + 2] == p->t_uint &&
			   w[i + 3] == 3 && !p->t_v3uint) {
			p->t_v3uint = w[i + 1];
		} else if (op == SpvOpTypeVector && len >= 4 && w[i + 2] == p->t_uint &&
			   w[i + 3] == 2 && !p->t_v2u) {
			p->t_v2u = w[i + 1];
		}
	}
	p->compute = l->n_entries && all_compute;
	p->fragment = l->n_entries && all_fragment;
	p->vertex = l->n_entries && all_vertex;
	p->graphics = p->fragment || p->vertex;
	p->rec_words = p->graphics ? 5 : 3;
}

/* The ids of what the records need and the module lacks (the stage's built-ins, the record
 * buffer, its address and the draw's number); NULL, or why the module cannot be followed. */
static const char *plan_ids(struct pass *p)
{
	if (p->vertex && capture_spv_vertex_setup(p))
		return "the vertex shader's VertexIndex is not a 32-bit integer";
	if (p->fragment && capture_spv_fragment_setup(p))
		return "the fragment shader's FragCoord is not a vec4 of 32-bit floats";
	if (p->compute && p->v_wg) { /* the module's own: a pointer to a uvec3 of our uint */
		uint32_t pt = p->ids[p->v_wg].type, v = pt < p->bound ? p->ids[pt].type : p->bound;
		p->compute = v < p->bound && v == p->t_v3uint;
	} else if (p->compute) {
		p->new_wg = 1, p->v_wg = p->next++, p->t_pv3 = p->next++;
		if (!p->t_v3uint)
			p->new_v3 = 1, p->t_v3uint = p->next++;
	}
	if (!p->t_bool)
		p->t_bool = p->new_bool = p->next++;
	p->t_rarr = p->next++, p->t_rec = p->next++, p->t_prec = p->next++, p->t_puint = p->next++;
	p->v_rec = p->next++;
	if (p->by_addr) {
		p->t_addr = p->next++, p->t_paddr = p->next++, p->t_psbv2 = p->next++;
		p->t_pprec = p->next++, p->t_ppuint = p->next++;
		if (!p->t_v2u)
			p->t_v2u = p->next++, p->new_v2u = 1;
	}
	if (p->graphics)
		p->t_rid = p->next++, p->t_prid = p->next++, p->v_id = p->next++;
	capture_spv_sg_plan(p);
	return NULL;
}

/* Where the capabilities, entry points, modes, annotations, types and functions are; NULL, or
 * why the module cannot be put back together. */
static const char *find_parts(const struct pass *p, struct layout *l)
{
	const uint32_t *w = p->w;
	for (size_t i = 5; i < p->n; i += w[i] >> 16) {
		uint32_t op = w[i] & 0xffff, len = w[i] >> 16;
		if (op == SpvOpCapability)
			l->at_cap = i + len;
		if (op == SpvOpExtension && len >= 2 &&
		    !strncmp((const char *)(w + i + 1), "SPV_KHR_storage_buffer_storage_class",
			     (len - 1) * 4))
			l->has_sb_ext = 1;
		if (op == SpvOpEntryPoint && !l->at_entry)
			l->at_entry = i;
		if (op == SpvOpEntryPoint)
			l->at_modes = i + len;
		if (is_annotation(op))
			l->at_annot_end = i + len;
		if (!l->at_types && ((op >= SpvOpTypeVoid && op <= SpvOpTypeForwardPointer) ||
				     (op >= SpvOpConstantTrue && op <= SpvOpSpecConstantOp) ||
				     op == SpvOpVariable || op == SpvOpUndef))
			l->at_types = i;
		if (op == SpvOpFunction) {
			l->first_fn = i;
			break;
		}
	}
	if (!l->first_fn || !l->at_types || !l->at_cap || !l->at_entry)
		return "the module has no function, types, capability or entry point";
	if (!l->at_annot_end || l->at_annot_end > l->at_types)
		l->at_annot_end = l->at_types;
	return NULL;
}

/* The function bodies, copied into p->out with each access's offset and record code before it. */
static void rewrite_functions(struct pass *p, size_t first_fn)
{
	const uint32_t *w = p->w;
	for (size_t i = first_fn; i < p->n && !p->oom; i += w[i] >> 16) {
		uint32_t op = w[i] & 0xffff, len = w[i] >> 16;
		p->at = (uint32_t)i; /* the sites made here are this instruction's */
		capture_spv_run_barrier(p, op);
		if (op == SpvOpLoad && len >= 4)
			capture_spv_buffer_record(p, w[i + 3], w[i + 1], LLCT_SPIRV_LOAD);
		else if (op == SpvOpStore && len >= 3)
			capture_spv_buffer_record(
			    p, w[i + 1], w[i + 2] < p->bound ? p->ids[w[i + 2]].type : p->bound,
			    LLCT_SPIRV_STORE);
		else if (op == SpvOpAtomicStore && len >= 5)
			capture_spv_buffer_record(
			    p, w[i + 1], w[i + 4] < p->bound ? p->ids[w[i + 4]].type : p->bound,
			    LLCT_SPIRV_ATOMIC);
		else if (is_atomic(op) && len >= 4)
			capture_spv_buffer_record(p, w[i + 3], w[i + 1], LLCT_SPIRV_ATOMIC);
		else if ((op == SpvOpCopyMemory || op == SpvOpCopyMemorySized ||
			  op == SpvOpPtrAccessChain) &&
			 len >= 3) {
			const struct chain *c;
			if (!capture_spv_buffer_pointer(p, w[i + 1], &c) ||
			    !capture_spv_buffer_pointer(p, w[i + 2], &c) ||
			    (len >= 4 && !capture_spv_buffer_pointer(p, w[i + 3], &c)))
				p->skipped++;
		} else if ((op == SpvOpImageRead || op == SpvOpImageWrite ||
			    op == SpvOpImageTexelPointer) &&
			   (p->compute || p->fragment)) {
			capture_spv_storage_image(p, i);
		} else if (p->vertex && op == SpvOpImageRead) {
			p->skipped++; /* a vertex shader's storage image reads: not recorded */
		} else if (p->fragment || p->compute || p->vertex) {
			capture_spv_image(p, i);
		}
		capture_spv_sg_copy(p, i);
		if ((op == SpvOpAccessChain || op == SpvOpInBoundsAccessChain) && len >= 4)
			capture_spv_access_chain(p, i);
	}
}

/* After the capabilities: ImageQuery (fragments' level queries), the physical storage buffer
 * addressing and the extensions the added code needs. */
static uint32_t emit_capabilities(const struct pass *p, const struct layout *l, uint32_t *o)
{
	uint32_t k = 0;
	if (p->fragment && !l->has_query)
		k += put2(o + k, SpvOpCapability, SpvCapabilityImageQuery);
	if (p->by_addr && !p->has_psb_cap)
		k += put2(o + k, SpvOpCapability, SpvCapabilityPhysicalStorageBufferAddresses);
	static const uint32_t sg_caps[4] = {
	    SpvCapabilityGroupNonUniform, SpvCapabilityGroupNonUniformBallot,
	    SpvCapabilityGroupNonUniformArithmetic, SpvCapabilityGroupNonUniformShuffle};
	for (int c = 0; c < 4; c++)
		if (p->sg && !p->has_sg_cap[c] && (c < 3 || p->coalesce))
			k += put2(o + k, SpvOpCapability, sg_caps[c]);
	if (p->version < 0x10300 && !l->has_sb_ext) {
		static const char name[] = "SPV_KHR_storage_buffer_storage_class";
		k += put_extension(o + k, name, sizeof(name));
	}
	if (p->by_addr && !p->has_psb_ext && p->version < 0x10500) {
		static const char name[] = "SPV_KHR_physical_storage_buffer";
		k += put_extension(o + k, name, sizeof(name));
	}
	return k;
}

/* At the annotations' end: the record buffer's block and binding, the address block, the
 * built-ins added, and binding 1 (the draw's number). */
static uint32_t emit_annotations(const struct pass *p, uint32_t set, uint32_t *o)
{
	uint32_t k = 0;
	k += put3(o + k, SpvOpDecorate, p->t_rec, SpvDecorationBlock);
	for (uint32_t m = 0; m < 3; m++)
		k += put5(o + k, SpvOpMemberDecorate, p->t_rec, m, SpvDecorationOffset, 4 * m);
	k += put4(o + k, SpvOpDecorate, p->t_rarr, SpvDecorationArrayStride, 4);
	k += put4(o + k, SpvOpDecorate, p->v_rec, SpvDecorationDescriptorSet, set);
	k += put4(o + k, SpvOpDecorate, p->v_rec, SpvDecorationBinding, 0);
	if (p->by_addr) { /* binding 0 is the block of the records' address */
		k += put3(o + k, SpvOpDecorate, p->t_addr, SpvDecorationBlock);
		k += put5(o + k, SpvOpMemberDecorate, p->t_addr, 0, SpvDecorationOffset, 0);
	}
	if (p->new_wg)
		k += put4(o + k, SpvOpDecorate, p->v_wg, SpvDecorationBuiltIn,
			  SpvBuiltInWorkgroupId);
	if (p->new_fc)
		k += put4(o + k, SpvOpDecorate, p->v_fc, SpvDecorationBuiltIn, SpvBuiltInFragCoord);
	if (p->new_vi)
		k += put4(o + k, SpvOpDecorate, p->v_vi, SpvDecorationBuiltIn,
			  SpvBuiltInVertexIndex);
	if (p->new_help)
		k += put4(o + k, SpvOpDecorate, p->v_help, SpvDecorationBuiltIn,
			  SpvBuiltInHelperInvocation);
	if (p->new_help && p->version >= 0x10600) /* 1.6: HelperInvocation is Volatile */
		k += put3(o + k, SpvOpDecorate, p->v_help, SpvDecorationVolatile);
	if (p->new_lt)
		k += put4(o + k, SpvOpDecorate, p->v_lt, SpvDecorationBuiltIn,
			  SpvBuiltInSubgroupLtMask);
	if (p->new_lt && p->fragment) /* a fragment's integer input */
		k += put3(o + k, SpvOpDecorate, p->v_lt, SpvDecorationFlat);
	for (size_t i = 0; i < p->n_nocontract; i++)
		k += put3(o + k, SpvOpDecorate, p->nocontract[i], SpvDecorationNoContraction);
	if (p->graphics) { /* binding 1: the draw */
		k += put3(o + k, SpvOpDecorate, p->t_rid, SpvDecorationBlock);
		k += put5(o + k, SpvOpMemberDecorate, p->t_rid, 0, SpvDecorationOffset, 0);
		if (p->t_slots) { /* and the slot's words for the sites' views */
			k += put5(o + k, SpvOpMemberDecorate, p->t_rid, 1, SpvDecorationOffset, 4);
			k += put4(o + k, SpvOpDecorate, p->t_slots, SpvDecorationArrayStride, 4);
		}
		k += put4(o + k, SpvOpDecorate, p->v_id, SpvDecorationDescriptorSet, set);
		k += put4(o + k, SpvOpDecorate, p->v_id, SpvDecorationBinding, 1);
	}
	return k;
}

/* An entry point with the variables added in its interface: from SPIR-V 1.4 every global one,
 * before it the Input ones. */
static uint32_t emit_entry(const struct pass *p, const uint32_t *e, uint32_t *o)
{
	uint32_t len = e[0] >> 16, k = 0, v14 = p->version >= 0x10400;
	uint32_t extra = v14 * (1 + !!p->graphics) + !!p->new_wg + !!p->new_fc + !!p->new_vi +
			 !!p->new_help + !!p->new_lt;
	o[k++] = (len + extra) << 16 | SpvOpEntryPoint;
	memcpy(o + k, e + 1, (len - 1) * 4);
	k += len - 1;
	if (v14)
		o[k++] = p->v_rec;
	if (v14 && p->graphics)
		o[k++] = p->v_id;
	if (p->new_vi)
		o[k++] = p->v_vi;
	if (p->new_wg)
		o[k++] = p->v_wg;
	if (p->new_fc)
		o[k++] = p->v_fc;
	if (p->new_help)
		o[k++] = p->v_help;
	if (p->new_lt)
		o[k++] = p->v_lt;
	return k;
}

/* Everything before the functions, instruction by instruction, with what the records need put
 * in its place: capabilities and extensions, the addressing model, early fragment tests (only
 * fragments that pass record), annotations, entry points' interfaces. */
static uint32_t emit_preamble(const struct pass *p, const struct layout *l, uint32_t set,
			      uint32_t *o)
{
	const uint32_t *w = p->w;
	int add_early = p->fragment && !l->early && !l->late;
	uint32_t k = 5;
	memcpy(o, w, 5 * 4);
	for (size_t i = 5; i < l->first_fn; i += w[i] >> 16) {
		uint32_t op = w[i] & 0xffff, len = w[i] >> 16;
		if (i == l->at_cap)
			k += emit_capabilities(p, l, o + k);
		if (op == SpvOpMemoryModel && len >= 3 && p->by_addr) {
			/* pointers made of addresses need the physical storage buffer addressing */
			o[k++] = w[i];
			o[k++] = SpvAddressingModelPhysicalStorageBuffer64;
			memcpy(o + k, w + i + 2, (len - 2) * 4);
			k += len - 2;
			continue;
		}
		if (i == l->at_modes && add_early) /* after the entry points, with the modes */
			for (size_t e = 5; e < l->at_modes; e += w[e] >> 16)
				if ((w[e] & 0xffff) == SpvOpEntryPoint && (w[e] >> 16) >= 3)
					k += put3(o + k, SpvOpExecutionMode, w[e + 2],
						  SpvExecutionModeEarlyFragmentTests);
		if (i == l->at_annot_end)
			k += emit_annotations(p, set, o + k);
		if (op == SpvOpEntryPoint && (p->version >= 0x10400 || p->new_wg || p->new_fc ||
					      p->new_vi || p->new_help || p->new_lt)) {
			k += emit_entry(p, w + i, o + k);
			continue;
		}
		memcpy(o + k, w + i, len * 4);
		k += len;
	}
	return k;
}

/* After the module's types: the types and built-in variables planned (each where the module
 * had none), the record buffer's types and variable, the address's, the draw's, and the uint
 * constants the code uses. */
static uint32_t emit_types(const struct pass *p, uint32_t *o)
{
	uint32_t k = 0;
	if (p->new_uint)
		k += put4(o + k, SpvOpTypeInt, p->new_uint, 32, 0);
	if (p->new_bool)
		k += put2(o + k, SpvOpTypeBool, p->new_bool);
	if (p->new_float)
		k += put3(o + k, SpvOpTypeFloat, p->t_float, 32);
	if (p->new_v4f)
		k += put4(o + k, SpvOpTypeVector, p->t_v4f, p->t_float, 4);
	if (p->new_v2f)
		k += put4(o + k, SpvOpTypeVector, p->t_v2f, p->t_float, 2);
	if (p->new_v3f)
		k += put4(o + k, SpvOpTypeVector, p->t_v3f, p->t_float, 3);
	if (p->new_v2u)
		k += put4(o + k, SpvOpTypeVector, p->t_v2u, p->t_uint, 2);
	if (p->new_fc)
		k += input_var(o + k, p->t_pv4f, p->t_v4f, p->v_fc);
	if (p->new_int)
		k += put4(o + k, SpvOpTypeInt, p->t_int, 32, 1);
	if (p->new_vi)
		k += input_var(o + k, p->t_pint, p->t_int, p->v_vi);
	if (p->new_v3)
		k += put4(o + k, SpvOpTypeVector, p->t_v3uint, p->t_uint, 3);
	if (p->new_wg)
		k += input_var(o + k, p->t_pv3, p->t_v3uint, p->v_wg);
	if (p->new_v4u)
		k += put4(o + k, SpvOpTypeVector, p->t_v4u, p->t_uint, 4);
	if (p->new_help)
		k += input_var(o + k, p->t_phelp, p->t_bool, p->v_help);
	if (p->new_lt)
		k += input_var(o + k, p->t_plt, p->t_v4u, p->v_lt);
	/* the record buffer: {uint cursor; uint cap; uint data[]} */
	k += put3(o + k, SpvOpTypeRuntimeArray, p->t_rarr, p->t_uint);
	k += put5(o + k, SpvOpTypeStruct, p->t_rec, p->t_uint, p->t_uint, p->t_rarr);
	k += put4(o + k, SpvOpTypePointer, p->t_prec, SpvStorageClassStorageBuffer, p->t_rec);
	k += put4(o + k, SpvOpTypePointer, p->t_puint, SpvStorageClassStorageBuffer, p->t_uint);
	if (p->by_addr) { /* {uvec2 address}, and the pointers to it and through it */
		k += put3(o + k, SpvOpTypeStruct, p->t_addr, p->t_v2u);
		k += put4(o + k, SpvOpTypePointer, p->t_paddr, SpvStorageClassStorageBuffer,
			  p->t_addr);
		k += put4(o + k, SpvOpTypePointer, p->t_psbv2, SpvStorageClassStorageBuffer,
			  p->t_v2u);
		k += put4(o + k, SpvOpTypePointer, p->t_pprec, SpvStorageClassPhysicalStorageBuffer,
			  p->t_rec);
		k += put4(o + k, SpvOpTypePointer, p->t_ppuint,
			  SpvStorageClassPhysicalStorageBuffer, p->t_uint);
	}
	k += put4(o + k, SpvOpVariable, p->by_addr ? p->t_paddr : p->t_prec, p->v_rec,
		  SpvStorageClassStorageBuffer);
	if (p->graphics && p->t_slots) { /* binding 1: {uint draw; uint sites[15]} */
		k += put4(o + k, SpvOpConstant, p->t_uint, p->c_slots, LLCT_SPIRV_SLOT_SITES);
		k += put4(o + k, SpvOpTypeArray, p->t_slots, p->t_uint, p->c_slots);
		k += put4(o + k, SpvOpTypeStruct, p->t_rid, p->t_uint, p->t_slots);
	} else if (p->graphics) { /* binding 1: {uint draw} */
		k += put3(o + k, SpvOpTypeStruct, p->t_rid, p->t_uint);
	}
	if (p->graphics) {
		k += put4(o + k, SpvOpTypePointer, p->t_prid, SpvStorageClassStorageBuffer,
			  p->t_rid);
		k += put4(o + k, SpvOpVariable, p->t_prid, p->v_id, SpvStorageClassStorageBuffer);
	}
	for (size_t c = 0; c < p->n_consts; c++)
		k += put4(o + k, SpvOpConstant, p->t_uint, p->consts[c][1], p->consts[c][0]);
	return k;
}

int llct_spirv_instrument_ex(const uint32_t *w, size_t n, uint32_t set, uint32_t site_base,
			     int flags, struct llct_spirv_instr *r)
{
	memset(r, 0, sizeof(*r));
	if (n < 5 || w[0] != SpvMagicNumber || w[3] > (n + 16) * 4) {
		r->why = "not SPIR-V";
		return -1;
	}
	for (size_t i = 5; i < n;) { /* the instructions tile the module */
		uint32_t len = w[i] >> 16;
		if (!len || i + len > n) {
			r->why = "the module is cut short or malformed";
			return -1;
		}
		i += len;
	}
	struct pass p = {.w = w,
			 .n = n,
			 .bound = w[3],
			 .next = w[3],
			 .site_base = site_base,
			 .by_addr = !!(flags & LLCT_SPIRV_BY_ADDRESS),
			 .version = w[1]};
	struct layout l = {0};
	p.ids = calloc(p.bound + 1, sizeof(*p.ids));
	for (uint32_t k = 0; p.ids && k <= p.bound; k++)
		p.ids[k].set = p.ids[k].binding = -1;
	if (!p.ids || analyse(&p)) {
		free(p.ids);
		r->why = "out of memory";
		return -1;
	}
	if (!p.t_uint)
		p.t_uint = p.new_uint = p.next++;
	scan_declarations(&p, &l);
	p.sg = !!(flags & (p.fragment  ? LLCT_SPIRV_SUBGROUP_FRAGMENT
			   : p.compute ? LLCT_SPIRV_SUBGROUP_COMPUTE
			   : p.vertex  ? LLCT_SPIRV_SUBGROUP_VERTEX
				       : 0));
	p.coalesce = p.sg && (flags & LLCT_SPIRV_COALESCE);
	p.tile_shift = (int)((uint32_t)flags >> 8 & 63) - 1;
	uint32_t rw = (uint32_t)flags >> 16 & 63; /* runs: draws' modules */
	p.run_window = (p.graphics || p.compute) && rw && rw <= 16 ? 1u << (rw - 1) : 0;
	if ((r->why = plan_ids(&p)) || (r->why = find_parts(&p, &l))) {
		pass_free(&p);
		return -1;
	}
	rewrite_functions(&p, l.first_fn);
	capture_spv_sg_finish(&p);
	/* assemble: header, capabilities + ours, [extensions], ..., entry points (+ our variables),
	   annotations + ours, types + ours, the rewritten functions; room for all of it */
	size_t total = n + 12 + 3 * (size_t)l.n_entries + 34 + 4 + 3 + 5 + 16 + 4 * p.n_consts +
		       12 + 2 + 3 * (size_t)l.n_entries + 4 + 3 + 4 + 4 + 8 + 16 + 11 +
		       2 * (size_t)l.n_entries + 4 + 4 + 8 + 4 + 4 + p.n_out +
		       (p.by_addr ? 48 : 0) +
		       (p.sg ? 6 + 4 + 7 + 8 + 12 + 2 * (size_t)l.n_entries : 0) +
		       3 * p.n_nocontract + (p.t_slots ? 4 + 4 + 1 + 5 + 4 : 0);
	uint32_t *o = p.oom ? NULL : malloc(total * sizeof(*o));
	if (!o) {
		free(p.sites);
		pass_free(&p);
		r->why = "out of memory";
		return -1;
	}
	uint32_t k = emit_preamble(&p, &l, set, o);
	k += emit_types(&p, o + k);
	memcpy(o + k, p.out, p.n_out * 4), k += (uint32_t)p.n_out;
	o[3] = p.next;
	if (p.sg && o[1] < 0x10300) /* the subgroup operations are SPIR-V 1.3's */
		o[1] = 0x10300;
	r->words = o;
	r->n_words = k;
	r->sites = p.sites;
	r->n_sites = p.n_sites;
	r->skipped = p.skipped;
	r->tex_skipped = p.tex_skipped;
	r->record_words = p.rec_words;
	pass_free(&p);
	return 0;
}

void llct_spirv_instr_free(struct llct_spirv_instr *r)
{
	free(r->words);
	free(r->sites);
	memset(r, 0, sizeof(*r));
}
