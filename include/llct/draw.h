/* draw.h - a Vulkan-free description of what a render pass, a draw and a dispatch touch, and
 * the stream models that turn it into LLC accesses through the render caches (footprint.h):
 * attachment load/store traffic (streams/pass.c), the tier-1 coverage of a draw and the
 * texture LOD it samples, what a bound resource of each kind costs (streams/draw.c), and the
 * HiZ buffer of depth attachments (streams/hiz.c). Capture fills these structures from the
 * API; tier 2's rasterizer (raster.h) reads the same ones. */
#ifndef LLCT_DRAW_H
#define LLCT_DRAW_H

#include "footprint.h"

#define LLCT_MAX_ATTACHMENTS 16

/* Load and store operations of an attachment (Vulkan's, with NONE for the extension's). */
enum llct_load_op { LLCT_LOAD_LOAD, LLCT_LOAD_CLEAR, LLCT_LOAD_DONT_CARE, LLCT_LOAD_NONE };
enum llct_store_op { LLCT_STORE_STORE, LLCT_STORE_DONT_CARE, LLCT_STORE_NONE };
/* How the subpass uses an attachment: draws touch color and depth/stencil ones; resolve
 * targets are written by the store at the end of the pass. */
enum llct_role { LLCT_ROLE_NONE, LLCT_ROLE_COLOR, LLCT_ROLE_DEPTH, LLCT_ROLE_RESOLVE };

struct llct_zbuf; /* tier 2's emulated depth/stencil of an image (raster.h) */

/* One attachment of a pass. */
struct llct_attachment {
	struct llct_surface s; /* the image */
	uint32_t mip, layer;   /* of its view */
	uint64_t id;           /* the image's `resources` row */
	int role, slot;        /* enum llct_role; a color attachment's index in the subpass (its
				  blend state and write mask) */
	int is_display;        /* presentable: its color is DISP, not RT */
	int has_depth, has_stencil;
	int load, stencil_load; /* enum llct_load_op */
	int store, stencil_store;
	struct llct_surface hiz; /* a depth image's HiZ buffer (hiz.c); hiz.bpp == 0: none */
	struct llct_zbuf *z;     /* tier 2: the emulated depth/stencil, or NULL */
	float clear_depth;       /* the values LLCT_LOAD_CLEAR writes (tier 2 emulates them) */
	uint32_t clear_stencil;
};

/* A render pass instance (or dynamic rendering): its area and attachments. */
struct llct_pass {
	uint32_t x0, y0, x1, y1; /* render area */
	uint32_t n;
	struct llct_attachment att[LLCT_MAX_ATTACHMENTS];
};

/* The stream an attachment's own traffic belongs to: DISP, RT, Z, or STC (a depth/stencil
 * image whose depth is not loaded but whose stencil is). */
int llct_attachment_stream(const struct llct_attachment *a);
/* Whether the pass loads (LOAD: reads) or stores (STORE: writes) any attachment. */
int llct_pass_loads(const struct llct_pass *p);
int llct_pass_stores(const struct llct_pass *p);
/* Load ops: LOAD reads every line of the render area of the attachment (and its HiZ); CLEAR
 * writes the HiZ of a depth attachment (a fast clear) and nothing else; DONT_CARE nothing. */
void llct_pass_load(struct llct_fp *fp, const struct llct_pass *p);
/* Store ops at the end of the pass: dirty render-cache lines of the attachments are dropped
 * (the store writes them, or DONT_CARE discards them), STORE writes every line of the render
 * area once, then the render caches are flushed. */
void llct_pass_store(struct llct_fp *fp, const struct llct_pass *p);

/* Comparison and stencil operations, numbered as Vulkan's VkCompareOp and VkStencilOp. */
enum llct_cmp {
	LLCT_CMP_NEVER,
	LLCT_CMP_LESS,
	LLCT_CMP_EQUAL,
	LLCT_CMP_LESS_OR_EQUAL,
	LLCT_CMP_GREATER,
	LLCT_CMP_NOT_EQUAL,
	LLCT_CMP_GREATER_OR_EQUAL,
	LLCT_CMP_ALWAYS
};
enum llct_stencil_op {
	LLCT_STENCIL_KEEP,
	LLCT_STENCIL_ZERO,
	LLCT_STENCIL_REPLACE,
	LLCT_STENCIL_INCR_CLAMP,
	LLCT_STENCIL_DECR_CLAMP,
	LLCT_STENCIL_INVERT,
	LLCT_STENCIL_INCR_WRAP,
	LLCT_STENCIL_DECR_WRAP
};
enum llct_prim { LLCT_PRIM_TRIANGLES, LLCT_PRIM_LINES, LLCT_PRIM_POINTS };
enum llct_cull { LLCT_CULL_FRONT = 1, LLCT_CULL_BACK = 2 };

struct llct_stencil_face {
	uint8_t fail, pass, depth_fail, compare; /* enum llct_stencil_op, enum llct_cmp */
	uint32_t compare_mask, write_mask, reference;
};

/* The state of a draw that decides its traffic. */
struct llct_draw_state {
	float vp_x, vp_y, vp_w, vp_h, vp_min, vp_max; /* viewport (vp_h < 0: flipped) */
	int has_viewport;
	int32_t sc_x, sc_y; /* scissor */
	uint32_t sc_w, sc_h;
	int has_scissor;
	int depth_test, depth_write, depth_compare; /* enum llct_cmp */
	int stencil_test, stencil_write;            /* stencil_write: its ops can write */
	struct llct_stencil_face front, back;
	uint32_t blend;      /* color slots with blending on */
	uint32_t write_mask; /* color slots whose color is written */
	/* rasterization (tier 2) */
	int topology;      /* enum llct_prim: what the last pre-rasterization stage emits */
	int polygon_fill;  /* polygons are filled (not drawn as lines or points) */
	int cull;          /* enum llct_cull bits */
	int front_ccw;     /* counter-clockwise triangles (in framebuffer y-down space) are front */
	int depth_clamp;   /* depth clamped to the viewport's range */
	int no_depth_clip; /* primitives are not clipped at the near and far planes
			      (depthClipEnable off; without the extension: depth clamp on) */
	int z_neg_one;     /* clip-space z runs from -w to w (OpenGL's convention, as Zink asks
			      for with VK_EXT_depth_clip_control), not 0 to w */
	int depth_bias;    /* depth bias on, with its factors */
	float bias_constant, bias_slope, bias_clamp;
	float line_width, point_size;
	uint32_t samples; /* rasterization samples */
	int discards;     /* the fragment shader may discard: coverage is an upper bound */
	int writes_depth; /* the fragment shader writes depth: depth results are estimates */
	int no_raster;    /* rasterizer discard: no fragments at all */
};

/* What a bound resource is, for the traffic it makes. */
enum llct_binding {
	LLCT_BIND_UNIFORM,       /* uniform buffer */
	LLCT_BIND_UNIFORM_TEXEL, /* uniform texel buffer: read through the texture units */
	LLCT_BIND_STORAGE,       /* storage buffer */
	LLCT_BIND_STORAGE_TEXEL, /* storage texel buffer */
	LLCT_BIND_SAMPLED_IMAGE, /* sampled image (or combined image sampler) */
	LLCT_BIND_STORAGE_IMAGE, /* storage image */
	LLCT_BIND_INPUT_ATTACHMENT,
	LLCT_BIND_OTHER /* samplers, inline uniform blocks, acceleration structures */
};

/* The accesses a resource bound for a draw (compute 0) or a dispatch (compute 1) makes in
 * tier 1: not counted at all (storage resources of draws: tier 1 cannot tell which part a draw
 * touches; samplers), or reads and/or writes in a stream, through the render cache or not. */
struct llct_binding_traffic {
	int counted, stream, reads, writes, cached;
};
void llct_binding_traffic(int binding, int compute, struct llct_binding_traffic *out);

/* One resource a draw or dispatch uses, in the order it is used. */
enum llct_use_kind { LLCT_USE_RANGE, LLCT_USE_IMAGE };
struct llct_use {
	int kind;               /* enum llct_use_kind */
	int binding;            /* enum llct_binding (ranges of vertex and index data: -1) */
	int stream, op, cached; /* a range's accesses */
	uint64_t addr, size;    /* LLCT_USE_RANGE: bytes */
	struct llct_surface s;  /* LLCT_USE_IMAGE: the image, at its view's mip and layer */
	uint32_t mip, layer;
	uint32_t layers; /* the layers its view shows from `layer` (0: one); a footprint takes
			    them all (tier 2's rasterized texture reads take `layer`) */
	int slot;        /* tier 2, a sampled image: -1, its texels come from the screen
			    (the viewport mapped onto it); else its coordinates are
			    components c0, c1 of the vertices' attribute slot `slot`
			    (after the position), interpolated per pixel */
	uint8_t c0, c1;
};

/* A draw: its state, the resources it uses, and what capture measured of it. */
struct llct_draw {
	struct llct_draw_state st;
	const struct llct_use *uses; /* bound resources, then the index range, then vertex ranges */
	uint32_t n_uses;
	uint64_t samples_passed; /* samples that passed the depth/stencil tests, from a precise
				    occlusion query; UINT64_MAX: not measured */
	/* tier 2: clip-space positions (x, y, z, w) of the vertices of the primitives the last
	   pre-rasterization stage emitted, as independent primitives (lists) in order */
	const float *pos;
	uint32_t n_vertices;
	uint32_t stride; /* floats a vertex (4: position only; then 4 a captured attribute) */
};

/* What the stream model made of a draw (for its kernel row). */
struct llct_draw_result {
	uint64_t covered;        /* samples covered (tier 1: the rectangle's pixels x samples) */
	uint64_t passed;         /* samples that passed the depth and stencil tests */
	uint32_t rect_w, rect_h; /* tier 1: the covered rectangle */
	uint32_t primitives;     /* tier 2: primitives rasterized */
	uint32_t tex_interpolated, tex_screen; /* tier 2: sampled images of each kind */
	uint32_t fell_back; /* tier 2: out of memory rasterizing; tier 1's rectangle stood in */
};

/* The mip of a sampled image whose size best matches a covered area of cw x ch pixels: the
 * largest mip (from `mip`, the view's base) not smaller than the area in both dimensions. */
uint32_t llct_texture_lod(const struct llct_surface *s, uint32_t mip, uint32_t cw, uint32_t ch);

/* The rectangle a draw can touch: render area n viewport n scissor (empty: w or h is 0). */
void llct_draw_rect(const struct llct_pass *p, const struct llct_draw_state *st, uint32_t *x0,
		    uint32_t *y0, uint32_t *x1, uint32_t *y1);

/* Tier 1: a draw's traffic. Coverage is its rectangle, shrunk when samples_passed is known to a
 * centred rectangle of that many pixels (same shape); over it the depth test reads Z (and HiZ),
 * depth writes write Z (and HiZ), the stencil test reads STC and writes it if its ops can,
 * each color attachment is written if its write mask allows and read first if it blends, all
 * through the render caches. Bound buffers are read in their streams, sampled images at the
 * LOD of the covered area, vertex and index ranges as VTX. */
void llct_draw_footprint(struct llct_fp *fp, const struct llct_pass *p, const struct llct_draw *d,
			 struct llct_draw_result *r);

/* The resources of a dispatch: buffers in their streams (storage ones read and written as
 * CS), whole view mips of images (sampled TEX, storage CS read and written); then the render
 * caches are flushed. */
void llct_dispatch_footprint(struct llct_fp *fp, const struct llct_use *uses, uint32_t n);

/* The stream an image's traffic is in when a copy, blit, resolve or clear writes it. */
int llct_image_write_stream(int is_display, int has_depth, int has_stencil, int is_color_attachment,
			    int is_sampled);

/* HiZ (streams/hiz.c): a depth image's hierarchical-Z buffer holds 4 bytes (the depth range)
 * per 8x8-pixel tile of each mip and layer, laid out like a tiled 4-byte surface, so a line
 * covers 4x4 tiles (32x32 pixels). */
#define LLCT_HIZ_TILE 8
/* The HiZ surface of depth surface d, at address base (its size: llct_surface_size). */
void llct_hiz_surface(const struct llct_surface *d, uint64_t base, struct llct_surface *hiz);
/* Touches the HiZ entries of the pixels [x0,x1) x [y0,y1) of mip/layer. */
void llct_hiz_rect(struct llct_fp *fp, const struct llct_surface *hiz, uint32_t mip, uint32_t layer,
		   uint32_t x0, uint32_t y0, uint32_t x1, uint32_t y1, int op, int cached);

#endif
