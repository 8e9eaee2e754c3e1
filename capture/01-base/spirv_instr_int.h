/* spirv_instr_int.h - private to spirv_instr.c and spirv_instr_img.c: the pass's state over
 * one module and the helpers both halves use to emit code and records. */
#ifndef LLCT_CAPTURE_SPIRV_INSTR_INT_H
#define LLCT_CAPTURE_SPIRV_INSTR_INT_H

#include "spirv.h"

#include <stddef.h>
#include <stdint.h>

/* What the pass keeps per id of the input. */
struct id {
	uint16_t op;     /* defining instruction */
	uint8_t cls;     /* pointer type / variable: storage class + 1 */
	uint8_t flags;   /* 1 Block, 2 BufferBlock, 4 RowMajor seen on a member, 8 signed int */
	uint32_t type;   /* a variable's or a value's type; a pointer's pointee; an element type */
	uint32_t count;  /* vector/matrix: components/columns; int/float: width; array: length id;
			    constant: value; struct: member count */
	uint32_t at;     /* word index of the defining instruction */
	uint32_t stride; /* ArrayStride; a struct's first MatrixStride */
	int32_t set, binding;
	uint32_t chain; /* a tracked access chain: its index + 1 in the chain table */
	uint32_t def;   /* a value: the word index of the instruction that defines it */
};

struct chain {
	uint32_t var;     /* the buffer variable at its root */
	uint32_t off;     /* the id of its byte offset (a new id; a constant's when static) */
	uint32_t type;    /* the type it points to */
	uint32_t mstride; /* MatrixStride of the member it went through last, 0 */
	uint32_t elem;    /* the descriptor in an array of them (0 for a single one) */
	uint32_t elem_id; /* compute: the id of a descriptor index computed at run time, 0 */
	uint32_t koff;    /* the byte offset's value when it is a constant (konst set) */
	int konst;
};

struct pass {
	const uint32_t *w;
	size_t n;
	uint32_t bound, next;
	struct id *ids;
	struct chain *chains;
	size_t n_chains;
	uint32_t *mdec; /* member decorations: (struct, member, decoration, value) */
	size_t n_mdec;
	uint32_t t_uint, t_bool, new_uint, new_bool;
	uint32_t (*consts)[2]; /* (value, id) of the uint constants the code uses */
	size_t n_consts, cap_consts;
	uint32_t *out; /* the function bodies, rewritten */
	size_t n_out, cap_out;
	int oom;
	/* the record buffer's ids */
	uint32_t t_rarr, t_rec, t_prec, t_puint, v_rec;
	/* ... reached by its device address (by_addr): binding 0 {uvec2 address}, its pointer
	 * types, the PhysicalStorageBuffer pointers to the records and a word of them; whether
	 * the module already has the capability, extension and addressing model */
	int by_addr, has_psb_cap, has_psb_ext;
	uint32_t t_addr, t_paddr, t_psbv2, t_pprec, t_ppuint;
	/* compute: the workgroup ID (the module's, or a variable added), its type and pointer */
	int compute, new_wg, new_v3;
	uint32_t v_wg, t_v3uint, t_pv3;
	/* fragment: records have 5 words (site, a, b, c, pixel); FragCoord and float types */
	int fragment, new_fc, new_float, new_v4f, new_v2f, need_query;
	uint32_t rec_words, v_fc, t_float, t_v4f, t_v2f, t_pv4f;
	uint32_t t_v2u; /* uvec2 (the module's; gradient samples declare it if it has none) */
	int new_v2u;
	uint32_t t_v3f; /* vec3 (the module's; cube arrays' level query declares it if none) */
	int new_v3f;
	uint32_t t_rid, t_prid, v_id; /* draws: binding 1, {uint draw}: which draw records */
	/* vertex: records like a fragment's, the vertex index in place of the pixel */
	int vertex, graphics, new_vi, new_int;
	uint32_t v_vi, t_int, t_pint, site_base;
	struct llct_spirv_site *sites;
	size_t n_sites, cap_sites;
	uint32_t skipped, tex_skipped;
	uint32_t version; /* the module's SPIR-V version word */
	uint32_t at;      /* the word offset of the instruction being rewritten */
	/* subgroup reservation (spirv_instr_sg.c): one atomic takes room for a subgroup's records;
	 * uvec4 (ballots), HelperInvocation (helpers write nothing), and the block being copied */
	int sg, new_v4u, new_help, has_sg_cap[4];
	int demotes; /* the module may demote: helpers are asked with OpIsHelperInvocationEXT */
	uint32_t t_v4u, v_help, t_phelp;
	/* coalescing (LLCT_SPIRV_COALESCE): a buffer record whose words equal the previous lane's
	 * (and whose pixel is in the same SM tile) is not sent; SubgroupLtMask, the
	 * SM tile's log2 (fragments; -1: not known, no coalescing there), and the words the
	 * record being emitted compares (co_n of co_vals; its pixel, or 0) */
	int coalesce, new_lt, tile_shift;
	uint32_t v_lt, t_plt;      /* SubgroupLtMask (a uvec4 Input) and its pointer type */
	uint32_t t_slots, c_slots; /* binding 1's uint[LLCT_SPIRV_SLOT_SITES], its length */
	uint32_t n_co;             /* coalescing samples so far: the next one's slot word - 1 */
	const uint32_t *co_vals;
	uint32_t co_n, co_pixel, co_ok; /* co_ok: a bool id, this lane's record may be coalesced */
	uint32_t *nocontract; /* ids decorated NoContraction (the sample key's products) */
	size_t n_nocontract, cap_nocontract;
	uint32_t cur_label, blk_label; /* its label now (after splits), and its own */
	int no_split;                  /* it holds a loop's merge: records take a lane's atomic */
	struct sg_image {              /* its OpSampledImages, made again after a split */
		uint32_t type, orig, image, sampler, now;
	} * simg;
	size_t n_simg, cap_simg;
	uint32_t (*relabel)[2]; /* (a split block's label, its last part's) for the OpPhis */
	size_t n_relabel, cap_relabel;
	size_t *phis; /* the module's OpPhis in out (word offsets) */
	size_t n_phis, cap_phis;
	/* runs (spirv_instr_run.c): the window in bytes (0: none), and the open run: its lead's
	 * index in sites + 1 (0: none), its buffer variable and descriptor, its bytes [lo, hi) */
	uint32_t run_window, run_lead, run_var, run_elem, run_lo, run_hi;
};

void capture_spv_emit(struct pass *p, const uint32_t *words, size_t n);
void capture_spv_emit3(struct pass *p, uint32_t op, uint32_t a, uint32_t b);
void capture_spv_emit4(struct pass *p, uint32_t op, uint32_t a, uint32_t b, uint32_t c);
void capture_spv_emit5(struct pass *p, uint32_t op, uint32_t a, uint32_t b, uint32_t c, uint32_t d);
/* The id of uint constant v (declared with the new types). */
uint32_t capture_spv_konst(struct pass *p, uint32_t v);
/* A new site of variable var (its set and binding; element: which of an array of
 * descriptors): the id of its number as a constant, or 0 (out of memory). */
uint32_t capture_spv_site(struct pass *p, uint32_t var, uint32_t kind, uint32_t size,
			  uint32_t element);
/* site + 4096 x (the value of id x): a record's first word with a draw or an element in it. */
uint32_t capture_spv_site_plus(struct pass *p, uint32_t site, uint32_t x);
/* The record's first word: the site, and in fragment shaders + 4096 x the draw (binding 1). */
uint32_t capture_spv_site_word(struct pass *p, uint32_t site);
/* Appends a record of p->rec_words words, the values of the ids in vals, before the
 * instruction being copied. */
void capture_spv_record(struct pass *p, const uint32_t *vals);
/* The same for n words (a prefix and its record: 2 x p->rec_words, taken at once). */
void capture_spv_record_n(struct pass *p, const uint32_t *vals, uint32_t n);
/* spirv_instr_sg.c: whether the subgroup reservation is on for this module (the flag asked for
 * it, the stage has no demote); at a function body's instruction i: copies it, keeping the
 * blocks' bookkeeping (labels, sampled images renamed after a split, the module's OpPhis);
 * the word index a lane's n words take, reserved with one atomic for the subgroup (pc: the
 * cursor's pointer; *keep: a bool id, false where a coalesced lane writes nothing, or 0), or 0
 * where the block may not be split; after
 * the functions, the OpPhis' parents renamed to the split blocks' last parts. */
int capture_spv_sg_plan(struct pass *p);
void capture_spv_sg_copy(struct pass *p, size_t i);
uint32_t capture_spv_sg_reserve(struct pass *p, uint32_t pc, uint32_t n, uint32_t *keep);
/* A buffer access's record, coalesced where the module coalesces (the n words of vals
 * compared with the previous lane's; pixel: its tile too, or 0). */
void capture_spv_record_co(struct pass *p, const uint32_t *vals, const uint32_t *cmp, uint32_t n,
			   uint32_t pixel);
/* spirv_instr_co.c: a 2D sample's, gather's or fetch's coalescing key (site: its word in the
 * draw's slot less 1, below LLCT_SPIRV_SLOT_SITES;
 * si, it: the sampled image and its image type; u, v, lod: the record's words) into key[3],
 * and the bool id that says the lane may be coalesced; 0 where the module does not coalesce.
 * Its record then goes through capture_spv_record_co with co_ok set. */
uint32_t capture_spv_sample_key(struct pass *p, uint32_t site, int fetch, uint32_t si, uint32_t it,
				uint32_t u, uint32_t v, uint32_t lod, uint32_t key[3]);
void capture_spv_record_sample(struct pass *p, const uint32_t *vals, const uint32_t *key,
			       uint32_t ok, uint32_t pixel);
void capture_spv_sg_finish(struct pass *p);
/* spirv_instr_run.c: whether the load being rewritten (through chain c of variable var, size
 * bytes, its site just made: the last) joins the open run, which then stands for it (1: send no
 * record); capture_spv_run_open makes that site a run's lead after its record; an instruction
 * after which no run goes on (a block's label, a call, a demote) ends it. */
int capture_spv_run_join(struct pass *p, const struct chain *c, uint32_t var, uint32_t size);
void capture_spv_run_open(struct pass *p, const struct chain *c, uint32_t var, uint32_t size);
void capture_spv_run_barrier(struct pass *p, uint32_t op);
void capture_spv_sg_free(struct pass *p);
/* Index id as a 32-bit uint id (converted if signed or of another width), or 0. */
uint32_t capture_spv_as_uint(struct pass *p, uint32_t idx);
/* spirv_instr_buf.c: whether pointer id leads to a buffer variable (0 and *c: its tracked
 * chain, NULL for the variable itself); an access chain at word i, tracked with its offset
 * code emitted; a load, store or atomic of a value of type vt through ptr, recorded. */
int capture_spv_buffer_pointer(const struct pass *p, uint32_t id, const struct chain **c);
void capture_spv_access_chain(struct pass *p, size_t i);
void capture_spv_buffer_record(struct pass *p, uint32_t ptr, uint32_t vt, uint8_t kind);
/* compute: the workgroup, x + 65536 y + 16777216 z, as a uint id (elsewhere the constant 0) */
uint32_t capture_spv_workgroup(struct pass *p);
/* compute and fragment: a storage image read, write or atomic (texel pointer) at word i */
void capture_spv_storage_image(struct pass *p, size_t i);
/* fragment (spirv_instr_img.c): finds or plans FragCoord and the float types the records
 * need; -1 when the module's FragCoord is not what it should be */
int capture_spv_fragment_setup(struct pass *p);
/* fragment: the pixel, x + 65536 y, as a uint id; vertex: the vertex index */
uint32_t capture_spv_pixel(struct pass *p);
/* vertex: finds or plans VertexIndex and its int type; -1 when it is not a 32-bit int */
int capture_spv_vertex_setup(struct pass *p);
/* fragment and compute: an image sample, fetch or gather at word i: its record, or counted as
 * skipped (compute: tex_skipped) */
void capture_spv_image(struct pass *p, size_t i);

#endif
