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
static uint32_t put4(uint32_t *o, uint32_t op, uint32_t a, uint32_t b, uint32_t c)
{
	o[0] = 4u << 16 | op, o[1] = a, o[2] = b, o[3] = c;
	return 4;
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

int llct_spirv_instrument_ex(const uint32_t *w, size_t n, uint32_t set, uint32_t site_base,
			     int by_address, struct llct_spirv_instr *r)
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
			 .by_addr = by_address};
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
	/* compute modules (every entry point GLCompute) record their workgroup */
	int n_entries = 0, all_compute = 1, all_fragment = 1, all_vertex = 1, has_query = 0,
	    early = 0, late = 0;
	for (size_t i = 5; i < n; i += w[i] >> 16) {
		uint32_t op = w[i] & 0xffff, len = w[i] >> 16;
		if (op == SpvOpEntryPoint && len >= 3) {
			n_entries++;
			all_compute &= w[i + 1] == SpvExecutionModelGLCompute;
			all_fragment &= w[i + 1] == SpvExecutionModelFragment;
			all_vertex &= w[i + 1] == SpvExecutionModelVertex;
		} else if (op == SpvOpCapability && len >= 2 &&
			   w[i + 1] == SpvCapabilityImageQuery) {
			has_query = 1;
		} else if (op == SpvOpCapability && len >= 2 &&
			   w[i + 1] == SpvCapabilityPhysicalStorageBufferAddresses) {
			p.has_psb_cap = 1;
		} else if (op == SpvOpExtension && len >= 2 &&
			   !strncmp((const char *)(w + i + 1), "SPV_KHR_physical_storage_buffer",
				    (len - 1) * 4)) {
			p.has_psb_ext = 1;
		} else if (op == SpvOpExecutionMode && len >= 3 &&
			   w[i + 2] == SpvExecutionModeEarlyFragmentTests) {
			early = 1;
		} else if (op == SpvOpKill || op == SpvOpTerminateInvocation ||
			   op == SpvOpDemoteToHelperInvocation ||
			   (op == SpvOpDecorate && len >= 4 && w[i + 2] == SpvDecorationBuiltIn &&
			    w[i + 3] == SpvBuiltInFragDepth)) {
			late = 1; /* the depth test must wait for the shader */
		} else if (op == SpvOpDecorate && len >= 4 && w[i + 2] == SpvDecorationBuiltIn &&
			   w[i + 3] == SpvBuiltInFragCoord && w[i + 1] < p.bound &&
			   p.ids[w[i + 1]].op == SpvOpVariable) {
			p.v_fc = w[i + 1];
		} else if (op == SpvOpTypeFloat && len >= 3 && w[i + 2] == 32 && !p.t_float) {
			p.t_float = w[i + 1];
		} else if (op == SpvOpDecorate && len >= 4 && w[i + 2] == SpvDecorationBuiltIn &&
			   w[i + 3] == SpvBuiltInWorkgroupId && w[i + 1] < p.bound &&
			   p.ids[w[i + 1]].op == SpvOpVariable) {
			p.v_wg = w[i + 1];
		} else if (op == SpvOpTypeVector && len >= 4 && w[i + 2] == p.t_uint &&
			   w[i + 3] == 3 && !p.t_v3uint) {
			p.t_v3uint = w[i + 1];
		} else if (op == SpvOpTypeVector && len >= 4 && w[i + 2] == p.t_uint &&
			   w[i + 3] == 2 && !p.t_v2u) {
			p.t_v2u = w[i + 1];
		}
	}
	p.compute = n_entries && all_compute;
	p.fragment = n_entries && all_fragment;
	p.vertex = n_entries && all_vertex;
	p.graphics = p.fragment || p.vertex;
	p.rec_words = p.graphics ? 5 : 3;
	if (p.vertex && capture_spv_vertex_setup(&p)) {
		free(p.ids);
		free(p.mdec);
		r->why = "the vertex shader's VertexIndex is not a 32-bit integer";
		return -1;
	}
	if (p.fragment && capture_spv_fragment_setup(&p)) {
		free(p.ids);
		free(p.mdec);
		r->why = "the fragment shader's FragCoord is not a vec4 of 32-bit floats";
		return -1;
	}
	if (p.compute && p.v_wg) { /* the module's own: a pointer to a uvec3 of our uint */
		uint32_t pt = p.ids[p.v_wg].type, v = pt < p.bound ? p.ids[pt].type : p.bound;
		p.compute = v < p.bound && v == p.t_v3uint;
	} else if (p.compute) {
		p.new_wg = 1, p.v_wg = p.next++, p.t_pv3 = p.next++;
		if (!p.t_v3uint)
			p.new_v3 = 1, p.t_v3uint = p.next++;
	}
	if (!p.t_bool)
		p.t_bool = p.new_bool = p.next++;
	p.t_rarr = p.next++, p.t_rec = p.next++, p.t_prec = p.next++, p.t_puint = p.next++;
	p.v_rec = p.next++;
	if (p.by_addr) {
		p.t_addr = p.next++, p.t_paddr = p.next++, p.t_psbv2 = p.next++;
		p.t_pprec = p.next++, p.t_ppuint = p.next++;
		if (!p.t_v2u)
			p.t_v2u = p.next++, p.new_v2u = 1;
	}
	if (p.graphics)
		p.t_rid = p.next++, p.t_prid = p.next++, p.v_id = p.next++;
	/* the function bodies, with the offsets and records */
	size_t first_fn = 0, at_types = 0, at_annot_end = 0, at_cap = 0, at_entry = 0, at_modes = 0;
	uint32_t version = w[1];
	p.version = version;
	int has_sb_ext = 0;
	for (size_t i = 5; i < n; i += w[i] >> 16) {
		uint32_t op = w[i] & 0xffff, len = w[i] >> 16;
		if (op == SpvOpCapability)
			at_cap = i + len;
		if (op == SpvOpExtension && len >= 2 &&
		    !strncmp((const char *)(w + i + 1), "SPV_KHR_storage_buffer_storage_class",
			     (len - 1) * 4))
			has_sb_ext = 1;
		if (op == SpvOpEntryPoint && !at_entry)
			at_entry = i;
		if (op == SpvOpEntryPoint)
			at_modes = i + len;
		if (is_annotation(op))
			at_annot_end = i + len;
		if (!at_types && ((op >= SpvOpTypeVoid && op <= SpvOpTypeForwardPointer) ||
				  (op >= SpvOpConstantTrue && op <= SpvOpSpecConstantOp) ||
				  op == SpvOpVariable || op == SpvOpUndef))
			at_types = i;
		if (op == SpvOpFunction) {
			first_fn = i;
			break;
		}
	}
	if (!first_fn || !at_types || !at_cap || !at_entry) {
		free(p.ids);
		free(p.mdec);
		r->why = "the module has no function, types, capability or entry point";
		return -1;
	}
	if (!at_annot_end || at_annot_end > at_types)
		at_annot_end = at_types;
	for (size_t i = first_fn; i < n && !p.oom; i += w[i] >> 16) {
		uint32_t op = w[i] & 0xffff, len = w[i] >> 16;
		p.at = (uint32_t)i; /* the sites made here are this instruction's */
		if (op == SpvOpLoad && len >= 4)
			capture_spv_buffer_record(&p, w[i + 3], w[i + 1], LLCT_SPIRV_LOAD);
		else if (op == SpvOpStore && len >= 3)
			capture_spv_buffer_record(
			    &p, w[i + 1], w[i + 2] < p.bound ? p.ids[w[i + 2]].type : p.bound,
			    LLCT_SPIRV_STORE);
		else if (op == SpvOpAtomicStore && len >= 5)
			capture_spv_buffer_record(
			    &p, w[i + 1], w[i + 4] < p.bound ? p.ids[w[i + 4]].type : p.bound,
			    LLCT_SPIRV_ATOMIC);
		else if (is_atomic(op) && len >= 4)
			capture_spv_buffer_record(&p, w[i + 3], w[i + 1], LLCT_SPIRV_ATOMIC);
		else if ((op == SpvOpCopyMemory || op == SpvOpCopyMemorySized ||
			  op == SpvOpPtrAccessChain) &&
			 len >= 3) {
			const struct chain *c;
			if (!capture_spv_buffer_pointer(&p, w[i + 1], &c) ||
			    !capture_spv_buffer_pointer(&p, w[i + 2], &c) ||
			    (len >= 4 && !capture_spv_buffer_pointer(&p, w[i + 3], &c)))
				p.skipped++;
		} else if ((op == SpvOpImageRead || op == SpvOpImageWrite ||
			    op == SpvOpImageTexelPointer) &&
			   (p.compute || p.fragment)) {
			capture_spv_storage_image(&p, i);
		} else if (p.vertex && op == SpvOpImageRead) {
			p.skipped++; /* a vertex shader's storage image reads: not recorded */
		} else if (p.fragment || p.compute || p.vertex) {
			capture_spv_image(&p, i);
		}
		capture_spv_emit(&p, w + i, len);
		if ((op == SpvOpAccessChain || op == SpvOpInBoundsAccessChain) && len >= 4)
			capture_spv_access_chain(&p, i);
	}
	if (p.oom) {
		free(p.ids), free(p.mdec), free(p.chains), free(p.out), free(p.sites),
		    free(p.consts);
		r->why = "out of memory";
		return -1;
	}
	/* assemble: header, capabilities, [extension], ..., entry point (+ our variable from 1.4),
	   annotations + ours, types + ours, the rewritten functions */
	uint32_t ext[12] = {0};
	size_t n_ext = 0;
	if (version < 0x10300 && !has_sb_ext) {
		static const char name[] = "SPV_KHR_storage_buffer_storage_class";
		n_ext = 1 + (sizeof(name) + 3) / 4;
		ext[0] = (uint32_t)n_ext << 16 | SpvOpExtension;
		memcpy(ext + 1, name, sizeof(name));
	}
	uint32_t annot[] = {3u << 16 | SpvOpDecorate,
			    p.t_rec,
			    SpvDecorationBlock,
			    5u << 16 | SpvOpMemberDecorate,
			    p.t_rec,
			    0,
			    SpvDecorationOffset,
			    0,
			    5u << 16 | SpvOpMemberDecorate,
			    p.t_rec,
			    1,
			    SpvDecorationOffset,
			    4,
			    5u << 16 | SpvOpMemberDecorate,
			    p.t_rec,
			    2,
			    SpvDecorationOffset,
			    8,
			    4u << 16 | SpvOpDecorate,
			    p.t_rarr,
			    SpvDecorationArrayStride,
			    4,
			    4u << 16 | SpvOpDecorate,
			    p.v_rec,
			    SpvDecorationDescriptorSet,
			    set,
			    4u << 16 | SpvOpDecorate,
			    p.v_rec,
			    SpvDecorationBinding,
			    0};
	size_t n_types =
	    3 + 5 + 4 + 4 + 4 + (p.new_uint ? 4 : 0) + (p.new_bool ? 2 : 0) + 4 * p.n_consts;
	size_t total = n + n_ext + 3 * (size_t)n_entries + sizeof(annot) / 4 + 4 + n_types + 12 +
		       2 + 3 * (size_t)n_entries + 4 + 3 + 4 + 4 + 8 + 16 + 11 +
		       2 * (size_t)n_entries + 4 + 4 + 8 + 4 + 4 + p.n_out + (p.by_addr ? 48 : 0);
	int add_early = p.fragment && !early && !late; /* only fragments that pass record */
	uint32_t *o = malloc(total * sizeof(*o)), k = 0;
	if (!o) {
		free(p.ids), free(p.mdec), free(p.chains), free(p.out), free(p.sites),
		    free(p.consts);
		r->why = "out of memory";
		return -1;
	}
	memcpy(o, w, 5 * 4), k = 5;
	for (size_t i = 5; i < first_fn; i += w[i] >> 16) { /* instruction by instruction */
		uint32_t len = w[i] >> 16;
		if (i == at_cap) {
			if (p.fragment && !has_query) {
				o[k++] = 2u << 16 | SpvOpCapability;
				o[k++] = SpvCapabilityImageQuery;
			}
			if (p.by_addr && !p.has_psb_cap) {
				o[k++] = 2u << 16 | SpvOpCapability;
				o[k++] = SpvCapabilityPhysicalStorageBufferAddresses;
			}
			memcpy(o + k, ext, n_ext * 4);
			k += (uint32_t)n_ext;
			if (p.by_addr && !p.has_psb_ext && version < 0x10500) {
				static const char name[] = "SPV_KHR_physical_storage_buffer";
				uint32_t el = 1 + (sizeof(name) + 3) / 4;
				o[k] = el << 16 | SpvOpExtension;
				memset(o + k + 1, 0, (el - 1) * 4);
				memcpy(o + k + 1, name, sizeof(name));
				k += el;
			}
		}
		if ((w[i] & 0xffff) == SpvOpMemoryModel && (w[i] >> 16) >= 3 && p.by_addr) {
			/* pointers made of addresses need the physical storage buffer addressing */
			o[k++] = w[i];
			o[k++] = SpvAddressingModelPhysicalStorageBuffer64;
			memcpy(o + k, w + i + 2, ((w[i] >> 16) - 2) * 4);
			k += (w[i] >> 16) - 2;
			continue;
		}
		if (i == at_modes && add_early) /* after the entry points, with the modes */
			for (size_t e = 5; e < at_modes; e += w[e] >> 16)
				if ((w[e] & 0xffff) == SpvOpEntryPoint && (w[e] >> 16) >= 3) {
					o[k++] = 3u << 16 | SpvOpExecutionMode;
					o[k++] = w[e + 2];
					o[k++] = SpvExecutionModeEarlyFragmentTests;
				}
		if (i == at_annot_end) {
			memcpy(o + k, annot, sizeof(annot));
			k += sizeof(annot) / 4;
			if (p.by_addr) { /* binding 0 is the block of the records' address */
				uint32_t d[8] = {3u << 16 | SpvOpDecorate,
						 p.t_addr,
						 SpvDecorationBlock,
						 5u << 16 | SpvOpMemberDecorate,
						 p.t_addr,
						 0,
						 SpvDecorationOffset,
						 0};
				memcpy(o + k, d, sizeof(d)), k += 8;
			}
			if (p.new_wg) {
				uint32_t d[4] = {4u << 16 | SpvOpDecorate, p.v_wg,
						 SpvDecorationBuiltIn, SpvBuiltInWorkgroupId};
				memcpy(o + k, d, sizeof(d)), k += 4;
			}
			if (p.new_fc) {
				uint32_t d[4] = {4u << 16 | SpvOpDecorate, p.v_fc,
						 SpvDecorationBuiltIn, SpvBuiltInFragCoord};
				memcpy(o + k, d, sizeof(d)), k += 4;
			}
			if (p.new_vi) {
				uint32_t d[4] = {4u << 16 | SpvOpDecorate, p.v_vi,
						 SpvDecorationBuiltIn, SpvBuiltInVertexIndex};
				memcpy(o + k, d, sizeof(d)), k += 4;
			}
			if (p.graphics) { /* binding 1: the draw */
				uint32_t d[16] = {3u << 16 | SpvOpDecorate,
						  p.t_rid,
						  SpvDecorationBlock,
						  5u << 16 | SpvOpMemberDecorate,
						  p.t_rid,
						  0,
						  SpvDecorationOffset,
						  0,
						  4u << 16 | SpvOpDecorate,
						  p.v_id,
						  SpvDecorationDescriptorSet,
						  set,
						  4u << 16 | SpvOpDecorate,
						  p.v_id,
						  SpvDecorationBinding,
						  1};
				memcpy(o + k, d, sizeof(d)), k += 16;
			}
		}
		if ((w[i] & 0xffff) == SpvOpEntryPoint &&
		    (version >= 0x10400 || p.new_wg || p.new_fc || p.new_vi)) {
			/* the interface lists the variables added: from SPIR-V 1.4 every global
			   one, before it the Input ones */
			uint32_t extra = (version >= 0x10400) * (1 + !!p.graphics) + !!p.new_wg +
					 !!p.new_fc + !!p.new_vi;
			o[k++] = (len + extra) << 16 | SpvOpEntryPoint;
			memcpy(o + k, w + i + 1, (len - 1) * 4);
			k += len - 1;
			if (version >= 0x10400)
				o[k++] = p.v_rec;
			if (version >= 0x10400 && p.graphics)
				o[k++] = p.v_id;
			if (p.new_vi)
				o[k++] = p.v_vi;
			if (p.new_wg)
				o[k++] = p.v_wg;
			if (p.new_fc)
				o[k++] = p.v_fc;
			continue;
		}
		memcpy(o + k, w + i, len * 4);
		k += len;
	}
	/* the types and built-in variables planned: each where the module had none */
	if (p.new_uint)
		k += put4(o + k, SpvOpTypeInt, p.new_uint, 32, 0);
	if (p.new_bool) {
		uint32_t t[2] = {2u << 16 | SpvOpTypeBool, p.new_bool};
		memcpy(o + k, t, sizeof(t)), k += 2;
	}
	if (p.new_float) {
		uint32_t t[3] = {3u << 16 | SpvOpTypeFloat, p.t_float, 32};
		memcpy(o + k, t, sizeof(t)), k += 3;
	}
	if (p.new_v4f)
		k += put4(o + k, SpvOpTypeVector, p.t_v4f, p.t_float, 4);
	if (p.new_v2f)
		k += put4(o + k, SpvOpTypeVector, p.t_v2f, p.t_float, 2);
	if (p.new_v3f)
		k += put4(o + k, SpvOpTypeVector, p.t_v3f, p.t_float, 3);
	if (p.new_v2u)
		k += put4(o + k, SpvOpTypeVector, p.t_v2u, p.t_uint, 2);
	if (p.new_fc)
		k += input_var(o + k, p.t_pv4f, p.t_v4f, p.v_fc);
	if (p.new_int)
		k += put4(o + k, SpvOpTypeInt, p.t_int, 32, 1);
	if (p.new_vi)
		k += input_var(o + k, p.t_pint, p.t_int, p.v_vi);
	if (p.new_v3)
		k += put4(o + k, SpvOpTypeVector, p.t_v3uint, p.t_uint, 3);
	if (p.new_wg)
		k += input_var(o + k, p.t_pv3, p.t_v3uint, p.v_wg);
	uint32_t types[] = {3u << 16 | SpvOpTypeRuntimeArray,
			    p.t_rarr,
			    p.t_uint,
			    5u << 16 | SpvOpTypeStruct,
			    p.t_rec,
			    p.t_uint,
			    p.t_uint,
			    p.t_rarr,
			    4u << 16 | SpvOpTypePointer,
			    p.t_prec,
			    SpvStorageClassStorageBuffer,
			    p.t_rec,
			    4u << 16 | SpvOpTypePointer,
			    p.t_puint,
			    SpvStorageClassStorageBuffer,
			    p.t_uint};
	memcpy(o + k, types, sizeof(types)), k += sizeof(types) / 4;
	if (p.by_addr) { /* {uvec2 address}, and the pointers to it and through it */
		uint32_t t[19] = {3u << 16 | SpvOpTypeStruct,
				  p.t_addr,
				  p.t_v2u,
				  4u << 16 | SpvOpTypePointer,
				  p.t_paddr,
				  SpvStorageClassStorageBuffer,
				  p.t_addr,
				  4u << 16 | SpvOpTypePointer,
				  p.t_psbv2,
				  SpvStorageClassStorageBuffer,
				  p.t_v2u,
				  4u << 16 | SpvOpTypePointer,
				  p.t_pprec,
				  SpvStorageClassPhysicalStorageBuffer,
				  p.t_rec,
				  4u << 16 | SpvOpTypePointer,
				  p.t_ppuint,
				  SpvStorageClassPhysicalStorageBuffer,
				  p.t_uint};
		memcpy(o + k, t, sizeof(t)), k += 19;
	}
	uint32_t var[4] = {4u << 16 | SpvOpVariable, p.by_addr ? p.t_paddr : p.t_prec, p.v_rec,
			   SpvStorageClassStorageBuffer};
	memcpy(o + k, var, sizeof(var)), k += 4;
	if (p.graphics) {
		uint32_t t[11] = {3u << 16 | SpvOpTypeStruct,
				  p.t_rid,
				  p.t_uint,
				  4u << 16 | SpvOpTypePointer,
				  p.t_prid,
				  SpvStorageClassStorageBuffer,
				  p.t_rid,
				  4u << 16 | SpvOpVariable,
				  p.t_prid,
				  p.v_id,
				  SpvStorageClassStorageBuffer};
		memcpy(o + k, t, sizeof(t)), k += 11;
	}
	for (size_t c = 0; c < p.n_consts; c++) {
		uint32_t t[4] = {4u << 16 | SpvOpConstant, p.t_uint, p.consts[c][1],
				 p.consts[c][0]};
		memcpy(o + k, t, sizeof(t)), k += 4;
	}
	memcpy(o + k, p.out, p.n_out * 4), k += (uint32_t)p.n_out;
	o[3] = p.next;
	r->words = o;
	r->n_words = k;
	r->sites = p.sites;
	r->n_sites = p.n_sites;
	r->skipped = p.skipped;
	r->tex_skipped = p.tex_skipped;
	r->record_words = p.rec_words;
	free(p.ids), free(p.mdec), free(p.chains), free(p.out), free(p.consts);
	return 0;
}

void llct_spirv_instr_free(struct llct_spirv_instr *r)
{
	free(r->words);
	free(r->sites);
	memset(r, 0, sizeof(*r));
}
