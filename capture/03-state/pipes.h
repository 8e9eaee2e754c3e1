/* pipes.h - private to capture/: the shader modules, pipelines, descriptor layouts, pipeline
 * layouts, update templates and descriptor sets the layer tracks (pipelines.c, descriptors.c),
 * and the SPIR-V and shadow pipelines made of them (pipelines.c, shadow.c). */
#ifndef LLCT_CAPTURE_PIPES_H
#define LLCT_CAPTURE_PIPES_H

#include "track.h"

/* Which (set, binding) pairs a shader module uses (statically), from its SPIR-V. */
struct shader {
	uint64_t used[8]; /* bit b of used[s]: binding b of set s (bindings < 64, sets < 8) */
	uint32_t *code;   /* its SPIR-V: tier 2 builds transform-feedback copies of stages */
	size_t n_words;
};

/* The parts of a graphics pipeline (VK_EXT_graphics_pipeline_library's four; a complete
 * pipeline has them all): which state a pipeline or library defines. */
enum { PART_VI = 1, PART_PR = 2, PART_FS = 4, PART_FO = 8, PART_ALL = 15 };

/* State a pipeline leaves to commands (bits of pipe.dyn). */
enum {
	DY_DEPTH_TEST = 1u << 0,
	DY_DEPTH_WRITE = 1u << 1,
	DY_STENCIL_TEST = 1u << 2,
	DY_BLEND = 1u << 3,        /* vkCmdSetColorBlendEnableEXT */
	DY_WRITE_MASK = 1u << 4,   /* vkCmdSetColorWriteMaskEXT */
	DY_WRITE_ENABLE = 1u << 5, /* vkCmdSetColorWriteEnableEXT */
	DY_STRIDE = 1u << 6,       /* vkCmdSetVertexInputEXT, vkCmdBindVertexBuffers2 */
	DY_TOPOLOGY = 1u << 7,
	DY_CULL = 1u << 8,
	DY_FRONT_FACE = 1u << 9,
	DY_DEPTH_COMPARE = 1u << 10,
	DY_STENCIL_OP = 1u << 11,
	DY_STENCIL_CMASK = 1u << 12,
	DY_STENCIL_WMASK = 1u << 13,
	DY_STENCIL_REF = 1u << 14,
	DY_DEPTH_BIAS = 1u << 15,
	DY_DEPTH_BIAS_ENABLE = 1u << 16,
	DY_LINE_WIDTH = 1u << 17,
	DY_RAST_DISCARD = 1u << 18,
	DY_POLYGON_MODE = 1u << 19,
	DY_SAMPLES = 1u << 20,
	DY_DEPTH_CLAMP = 1u << 21,
	DY_DEPTH_CLIP = 1u << 22, /* VK_EXT_depth_clip_enable's, as dynamic state */
	DY_CLIP_NEG = 1u << 23    /* VK_EXT_depth_clip_control's negativeOneToOne */
};

struct pipe {
	uint64_t id;
	int compute;
	uint32_t parts;   /* PART_*: what it defines, itself or through its libraries */
	uint32_t dyn;     /* DY_*: state set by commands instead */
	uint64_t used[8]; /* bindings its stages use (union over them); all ones when unknown */
	struct {          /* vertex input */
		uint32_t stride[16];
		VkPrimitiveTopology topology;
	} vi;
	struct { /* pre-rasterization */
		int has_viewport, has_scissor;
		VkViewport viewport;
		VkRect2D scissor;
		VkCullModeFlags cull;
		VkFrontFace front_face;
		VkPolygonMode polygon_mode;
		int depth_clamp, rast_discard, bias_enable;
		int depth_clip; /* VkPipelineRasterizationDepthClipStateCreateInfoEXT's, -1: the
				   default (clipping unless depth clamp is on) */
		int clip_neg;   /* clip-space z from -w (VK_EXT_depth_clip_control) */
		float bias_c, bias_clamp, bias_s, line_width;
		int out_prim;          /* a geometry or tessellation stage's output (LLCT_PRIM_*);
					  -1: the topology's */
		int expands;           /* geometry or tessellation: a draw's count bounds nothing */
		VkPipeline shadow;     /* tier 2: this pipeline (library) writing Position by
					  transform feedback with rasterizer discard; not copied
					  from libraries (the linked one has its own) */
		uint32_t xfb_floats;   /* floats a vertex its shadow writes: Position, then the
					  inputs fs.tex takes texture coordinates from */
		const char *no_shadow; /* why there is no shadow */
	} pr;
	struct { /* fragment shader */
		int has_fs, discards, writes_depth;
		int depth_test, depth_write, stencil_test;
		int stencil_write; /* the stencil test can write: a write mask and an op that
				      writes (assumed when either is dynamic state) */
		VkCompareOp depth_compare;
		VkStencilOpState front, back;
		uint32_t samples;
		uint32_t n_tex; /* tier 2: images sampled straight at an interpolated input the
				   shadow captures: (set, binding), its slot after Position in the
				   shadow's vertices, the components */
		struct {
			uint32_t set, binding, slot, c0, c1;
		} tex[4];
	} fs;
	struct { /* tier 3: the instrumented twin (instr.c: compute, or the fragment shader of a
		    graphics pipeline), or why there is none */
		VkPipeline twin;
		VkPipelineLayout layout; /* the twin's (its playout's ext) */
		uint32_t set, local;     /* the layer's set number; invocations a workgroup */
		uint32_t need;           /* records a dispatch of it once had no room for */
		struct llct_spirv_site *sites;
		size_t n_sites;
		const char *why;
		uint32_t words;        /* a record's words: 3 (compute), 5 (draws) */
		uint32_t n_frag_sites; /* draws: sites below are the fragment shader's, the rest
					  the vertex shader's */
		int all_stages;  /* draws: every stage that can touch buffers is instrumented */
		int tex_partial; /* compute: some samples were not followed, so the sampled
				    images keep their footprint (and their records are not used) */
		int nothing;     /* draws: its shaders make no access the layer records, so it
				    needs no twin (its rows say "accesses":"none") */
		int draw_index;  /* draws: a stage reads DrawIndex, so a multi-draw's sub-draws
				    cannot go down one at a time (instr_draw_split) */
	} tw;
	struct {                /* fragment output */
		uint32_t blend; /* color attachments (by slot) with blending on */
		uint32_t
		    write_mask; /* color attachments (by slot) with a colorWriteMask that is
				   not 0, and not disabled by VkPipelineColorWriteCreateInfoEXT */
	} fo;
};

struct slot {
	VkDescriptorType type;
	uint64_t handle;  /* image view or buffer */
	uint64_t sampler; /* a combined image sampler's sampler */
	uint64_t offset, range;
};

struct dlayout {
	uint32_t n;
	struct {
		uint32_t binding, count;
		VkDescriptorType type;
	} * b;
};

/* A pipeline layout: a copy of each set's layout, for push descriptors. */
struct playout {
	uint32_t n;
	struct dlayout set[8];
	VkPipelineLayout ext; /* tier 3: the same layout with the layer's set after (instr.c) */
	uint32_t ext_set;     /* that set's number */
};

/* A descriptor update template: where each entry's descriptors lie in the program's data. */
struct dtempl {
	uint32_t n;
	VkDescriptorUpdateTemplateEntry *e;
	VkPipelineBindPoint point; /* of a push-descriptor template */
};

struct dset {
	uint64_t pool;     /* the descriptor pool it came from (0: pushed) */
	uint32_t n;        /* slots */
	struct slot *slot; /* flattened: binding order, then array element */
	uint32_t *first;   /* per layout binding: its first slot */
	uint32_t *binding; /* per layout binding: the binding number */
	uint32_t *count;
	uint32_t n_bindings;
	/* Its binding numbers below 64, a bit each; ascending: all its bindings are below 64 and
	 * in ascending order, so has's bits in turn are its bindings in slot order. */
	uint64_t has;
	int ascending;
};

/* What the layer tracks of a device's shader modules, pipelines, descriptor set layouts,
 * pipeline layouts, update templates and descriptor sets, by handle: the pipes sub-module's own
 * state (the device record embeds it as `ps`); pipes.c's lookups need only it. Guarded by the
 * device lock. */
struct pipes_state {
	struct hmap pipes, layouts, sets, shaders, playouts, templs;
	uint64_t next_push; /* pushed sets live in the set map under keys no handle has */
};

/* ---- descriptors.c ---- */

struct slot *capture_find_slot(struct dset *s, uint32_t binding, uint32_t element);

/* ---- pipelines.c, shadow.c ---- */

/* The SPIR-V of a pipeline stage (its module's, or inline in its pNext): 0, or -1 when not
 * known. With the lock held (the words belong to the module record). */
int capture_stage_code(const struct pipes_state *ps, const VkPipelineShaderStageCreateInfo *st,
		       const uint32_t **code, size_t *n);

/* An empty descriptor set with l's bindings (none where l is NULL: an unknown layout), or NULL
 * out of memory (pipes.c). */
struct dset *capture_new_dset(const struct dlayout *l);
/* Free a tracked descriptor set, set layout, pipeline layout or update template (pipes.c;
 * capture_hmap_free_all's shape). */
void capture_free_dset(void *p);
void capture_free_layout(void *p);
void capture_free_playout(void *p);
void capture_free_templ(void *p);

#endif
