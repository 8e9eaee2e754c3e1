/* spirv.h - what the capture layer reads from SPIR-V (which descriptor bindings a module uses;
 * a stage's kind and outputs) and the transform-feedback copy of a stage tier 2 builds, for the
 * layer and its unit test and fuzz target: no Vulkan, no allocation kept. */
#ifndef LLCT_CAPTURE_SPIRV_H
#define LLCT_CAPTURE_SPIRV_H

#include <stddef.h>
#include <stdint.h>

/* Sets bit b of used[s] for each binding b (< 64) of set s (< 8) that the module uses: a
 * variable decorated with Binding (and DescriptorSet, default 0) that an instruction inside a
 * function refers to. Anything that is not well-formed SPIR-V, or a module cut short, gives
 * every binding the module declares, or all ones when nothing can be read: counting too much,
 * never crashing. */
void llct_spirv_bindings(const uint32_t *words, size_t n_words, uint64_t used[8]);

/* Whether the module declares the built-in `builtin` (a SpvBuiltIn: a variable or a block
 * member decorated with it); a module that cannot be read counts as declaring it. */
int llct_spirv_has_builtin(const uint32_t *words, size_t n_words, uint32_t builtin);

/* What capture tier 2 needs to know of one entry point of a module (spirv_xfb.c). */
struct llct_spirv_info {
	int model;       /* its SpvExecutionModel */
	int output_prim; /* geometry or tessellation output: 0 triangles, 1 lines, 2 points;
			    -1: the draw's topology decides */
	int discards;    /* fragment: OpKill, OpTerminateInvocation or OpDemoteToHelperInvocation */
	int writes_depth; /* fragment: a FragDepth output */
	int has_xfb;      /* the module already uses transform feedback */
	int has_position; /* a Position output */
};

/* Fills *out for entry point `entry` (NULL: the first); 0, or -1 when the module is not
 * well-formed or has no such entry point. */
int llct_spirv_info(const uint32_t *words, size_t n_words, const char *entry,
		    struct llct_spirv_info *out);

/* A copy of the module in which entry point `entry` of a vertex, tessellation evaluation or
 * geometry stage captures its Position output by transform feedback: buffer 0, offset 0 (clip-
 * space x, y, z, w as 32-bit floats), so a pipeline built from it writes every primitive's
 * vertices there, as independent primitives in order; and the float outputs at the n_locs
 * Locations in locs (up to 4 components each) at offsets 16, 32, ...: the stride is
 * 16 * (1 + n_locs). *captured gets bit k for each of those found (an output of another
 * type, or none at that Location, leaves its 16 bytes unwritten). 0 with *out (malloc'd, the
 * caller frees it) and *out_n words; -1 with a reason in *why. */
int llct_spirv_xfb(const uint32_t *words, size_t n_words, const char *entry, const uint32_t *locs,
		   int n_locs, uint32_t *captured, uint32_t **out, size_t *out_n, const char **why);

/* A sampled image of a fragment shader: its (set, binding), and whether every sample of it is
 * taken straight at an interpolated input (`direct`): components c0 and c1 of the input at
 * `location`. */
struct llct_spirv_tex {
	uint32_t set, binding, location, c0, c1;
	int direct;
};
/* The sampled images of a fragment module (up to max): their count, or -1 when the module is
 * not well-formed. */
int llct_spirv_tex_inputs(const uint32_t *words, size_t n_words, struct llct_spirv_tex *out,
			  int max);

/* Capture tier 3 (spirv_instr.c): a copy of a module in which every load, store and atomic
 * through a storage or uniform buffer descriptor appends (site, byte offset) to the record
 * buffer at (set, binding 0); see spirv_instr.c for its layout. */
enum {
	LLCT_SPIRV_LOAD,
	LLCT_SPIRV_STORE,
	LLCT_SPIRV_ATOMIC,
	LLCT_SPIRV_SAMPLE, /* fragment: record (site, u, v, lod, pixel): float bits; compute:
			      (LLCT_SPIRV_PREFIX_SITE, u, v) then (site, lod, workgroup) */
	LLCT_SPIRV_FETCH,  /* fragment: (site, x, y, lod, pixel): integers; compute likewise */
	LLCT_SPIRV_GATHER, /* fragment: (site, u, v, 0, pixel); compute likewise */
	/* storage images (2D): compute (site, x + 65536 y, workgroup); fragment (site, x, y, 0,
	   pixel) */
	LLCT_SPIRV_IMAGE_READ,
	LLCT_SPIRV_IMAGE_WRITE,
	LLCT_SPIRV_IMAGE_ATOMIC
};
struct llct_spirv_site {
	uint32_t set, binding; /* the descriptor accessed */
	uint32_t size;         /* bytes per access (0: the layout does not say) */
	uint32_t kind;         /* LLCT_SPIRV_LOAD, _STORE, _ATOMIC, _SAMPLE, _FETCH, _GATHER */
	uint32_t element;      /* the descriptor in an array of them (a constant index), 0;
				  LLCT_SPIRV_ELEMENT_IN_RECORD: computed at run time, in the record
				  (compute: its first word is site + 4096 x element; draws' buffer
				  records: its third word; draws' samples: the prefix's second) */
	/* samples, fetches and gathers: the image's dimension (LLCT_SPIRV_DIM_*), whether it
	   is arrayed, and whether each record comes after a prefix record (below) */
	uint8_t dim, arrayed, prefix;
	uint8_t bda;  /* a load, store or atomic through a buffer device address (set and binding
			 UINT32_MAX): draws (site, address low, high, 0, pixel); compute
			 (LLCT_SPIRV_PREFIX_SITE, address low, high) then (site, 0, workgroup) */
	uint8_t grad; /* a gradient sample: the level word holds rho^2 (float), the larger squared
			 length of the two gradients in texels: the level is log2(rho^2) / 2 */
	uint8_t coalesce; /* a fragment sample that sends no record where a lane before it
			     read the same lines (LLCT_SPIRV_COALESCE): the word of the draw's
			     slot it reads how the view lays out its lines from (1, 2, ...), else
			     0 */
	uint32_t word;    /* the instruction's word offset in the module given (its site in the
			     trace's `sites` table) */
	/* runs (LLCT_SPIRV_RUN_WINDOW): a shader's loads of one buffer at constant offsets, one
	   after the other in a block with nothing recorded between, send one record, the first's
	   (the run's lead): run is how many sites after the lead it stands for (lead + 1 ..
	   lead + run, each with follows set: none of their own records is ever sent), off each
	   one's constant byte offset */
	uint16_t run;
	uint8_t follows;
	uint32_t off;
};
#define LLCT_SPIRV_ELEMENT_IN_RECORD 0xffffffffu
enum {
	LLCT_SPIRV_DIM_1D = 1,
	LLCT_SPIRV_DIM_2D = 2,
	LLCT_SPIRV_DIM_3D = 3,
	LLCT_SPIRV_DIM_CUBE = 6
};
/* A draw's sample of an arrayed, cube or 3D image, or of an array of images indexed at run
 * time, takes two records, taken together (adjacent in the buffer): first a prefix (site
 * LLCT_SPIRV_PREFIX_SITE + 4096 x draw, the run-time element or 0, the coordinate after u and
 * v -- an array layer, a cube direction's z, a volume's w --, a cube array's layer or 0, the
 * pixel; coordinates as the shader had them: float bits, integers for a fetch), then the record
 * itself. Site numbers stay below it. */
#define LLCT_SPIRV_PREFIX_SITE 4095u
/* Whether a buffer or storage image site reads, writes (atomics both). */
static inline int llct_spirv_site_reads(uint32_t kind)
{
	return kind == LLCT_SPIRV_LOAD || kind == LLCT_SPIRV_ATOMIC ||
	       kind == LLCT_SPIRV_IMAGE_READ || kind == LLCT_SPIRV_IMAGE_ATOMIC;
}
static inline int llct_spirv_site_writes(uint32_t kind)
{
	return kind == LLCT_SPIRV_STORE || kind == LLCT_SPIRV_ATOMIC ||
	       kind == LLCT_SPIRV_IMAGE_WRITE || kind == LLCT_SPIRV_IMAGE_ATOMIC;
}
static inline int llct_spirv_site_image(uint32_t kind)
{
	return kind >= LLCT_SPIRV_IMAGE_READ;
}
struct llct_spirv_instr {
	uint32_t *words; /* the instrumented module (malloc'd) */
	size_t n_words;
	struct llct_spirv_site *sites; /* record word 0 indexes this (malloc'd) */
	size_t n_sites;
	uint32_t skipped;      /* accesses the pass could not follow (not recorded) */
	uint32_t tex_skipped;  /* compute: samples it could not follow (the others recorded) */
	uint32_t record_words; /* 3: (site, offset, workgroup or 0); fragment modules 5: (site,
				  a, b, c, pixel), buffer accesses (site, offset, 0, 0, pixel) */
	const char *why;       /* on failure */
};
/* 0 and *r (free with llct_spirv_instr_free), or -1 with r->why. */
int llct_spirv_instrument(const uint32_t *words, size_t n_words, uint32_t set, uint32_t site_base,
			  struct llct_spirv_instr *r);
/* The same, the record buffer reached by its device address with LLCT_SPIRV_BY_ADDRESS: binding 0
 * then holds that address (a uvec2, low word first) and the records go through a
 * PhysicalStorageBuffer pointer (SPV_KHR_physical_storage_buffer; the device needs
 * bufferDeviceAddress), so a record buffer may pass the device's maxStorageBufferRange. */
#define LLCT_SPIRV_BY_ADDRESS 1 /* flags of llct_spirv_instrument_ex */
/* Fragment (compute) modules take the room for a subgroup's records with one atomic
 * (spirv_instr_sg.c; the module becomes SPIR-V 1.3 at least): the device runs subgroup
 * ballot and arithmetic operations in that stage. */
#define LLCT_SPIRV_SUBGROUP_FRAGMENT 2
#define LLCT_SPIRV_SUBGROUP_COMPUTE 4
#define LLCT_SPIRV_SUBGROUP_VERTEX 16 /* vertex modules too (GPUs; not lavapipe) */
/* With the subgroup reservation, a buffer access's record is not sent where one of the three
 * nearest recording lanes below it in the subgroup records the same bytes (fragments: in the same
 * SM tile, whose log2 + 1 is flags >> 8 & 63; 0: fragments do not coalesce; vertices: in the same
 * 32-vertex warp); the device runs Shuffle there too. */
#define LLCT_SPIRV_COALESCE 8
/* Coalescing samples read the draw's slot (binding 1): its number, then a word for each of up
 * to LLCT_SPIRV_SLOT_SITES coalescing samples saying how the view there lays out its lines. */
#define LLCT_SPIRV_SLOT_SITES 31
#define LLCT_SPIRV_TILE_SHIFT(s) ((int)((s) + 1) << 8)
/* Vertex, fragment and compute modules send one record for a run of loads of one buffer (the same
 * descriptor) at constant offsets, all within 2^s bytes, one after the other in a block with
 * no other record, call or demote between them (struct llct_spirv_site's run): each lane that
 * runs the first runs them all. flags >> 16 & 63 is s + 1 (0: no runs). */
#define LLCT_SPIRV_RUN_WINDOW(s) ((int)((s) + 1) << 16)
int llct_spirv_instrument_ex(const uint32_t *words, size_t n_words, uint32_t set,
			     uint32_t site_base, int flags, struct llct_spirv_instr *r);
void llct_spirv_instr_free(struct llct_spirv_instr *r);

#endif
