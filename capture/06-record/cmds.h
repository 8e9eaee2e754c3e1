/* cmds.h - private to capture/: the commands of a shadow command list (struct cmd): what each
 * recorded Vulkan command keeps for the expansion, its dynamic state and copy kinds. */
#ifndef LLCT_CAPTURE_CMDS_H
#define LLCT_CAPTURE_CMDS_H

#include "track.h"

#include <stdint.h>
#include <vulkan/vulkan.h>

enum cmd_op {
	C_BEGIN_RP,
	C_BEGIN_RENDERING,
	C_END_RP,
	C_BIND_PIPELINE,
	C_BIND_SET,
	C_BIND_VB,
	C_BIND_IB,
	C_VIEWPORT,
	C_SCISSOR,
	C_DRAW,
	C_DISPATCH,
	C_COPY,
	C_CLEAR_IMAGE,
	C_CLEAR_ATT,
	C_EXECUTE,
	C_LABEL_BEGIN,
	C_LABEL_END,
	C_DYN_STATE,
	C_VB_STRIDE,
};

/* Dynamic state commands (C_DYN_STATE): the masks of color attachments for D_BLEND,
 * D_WRITE_MASK, D_WRITE_ENABLE (cmd.u.dyn.att: the attachment, u[0]: on); flags and enums in
 * u[0]; stencil state with the faces in u[0]; floats in f[]. */
enum dyn_kind {
	D_DEPTH_TEST,
	D_DEPTH_WRITE,
	D_STENCIL_TEST,
	D_BLEND,
	D_WRITE_MASK,
	D_WRITE_ENABLE,
	D_TOPOLOGY,
	D_CULL,
	D_FRONT_FACE,
	D_DEPTH_COMPARE,
	D_STENCIL_OP, /* faces, fail, pass, depth fail; att: the compare op */
	D_STENCIL_CMASK,
	D_STENCIL_WMASK,
	D_STENCIL_REF,
	D_DEPTH_BIAS, /* f: constant, clamp, slope */
	D_DEPTH_BIAS_ENABLE,
	D_LINE_WIDTH,
	D_RAST_DISCARD,
	D_POLYGON_MODE,
	D_SAMPLES,
	D_DEPTH_CLAMP,
	D_DEPTH_CLIP,
	D_CLIP_NEG
};

/* Dynamic state as the expansion meets it in a command buffer. */
struct dyn {
	int depth_test, depth_write, stencil_test;
	uint32_t blend, write_mask, write_enable; /* color attachment masks */
	VkPrimitiveTopology topology;
	VkCullModeFlags cull;
	VkFrontFace front_face;
	VkCompareOp depth_compare;
	VkStencilOpState front, back;
	int bias_enable, rast_discard, depth_clamp, depth_clip, clip_neg;
	float bias_c, bias_clamp, bias_s, line_width;
	VkPolygonMode polygon_mode;
	uint32_t samples;
};

enum copy_kind { K_BUF_BUF, K_BUF_IMG, K_IMG_BUF, K_IMG_IMG, K_BLIT, K_RESOLVE, K_FILL };

/* What a render pass's begin records (vkCmdBeginRenderPass or vkCmdBeginRendering), in its
 * command list's passes (capture_record_pass). */
struct cmd_pass {
	union {
		struct {
			uint64_t rp, fb;
			VkRect2D area;
			uint32_t n_views; /* an imageless framebuffer's views, given at begin */
			uint64_t view[MAX_ATT];
			float clear_depth[MAX_ATT]; /* pClearValues' depth and stencil */
			uint32_t clear_stencil[MAX_ATT];
		} rp;
		struct { /* dynamic rendering */
			uint32_t n;
			uint64_t view[MAX_ATT];
			struct att_desc att[MAX_ATT];
			VkRect2D area;
		} dr;
	};
};

struct cmd {
	enum cmd_op op;
	union {
		uint32_t pass; /* C_BEGIN_RP, C_BEGIN_RENDERING: its begin's place in the command
				  list's passes (struct cmd_pass; kept apart: a command is a
				  tenth of its size without them) */
		struct {
			int compute;
			uint64_t pipe;
		} bind;
		struct {
			int compute;
			uint32_t index;
			uint64_t set;
			uint32_t dyn_offset;
		} set;
		struct {
			uint32_t binding;
			uint64_t buf, offset;
		} vb;
		struct {
			uint32_t binding, stride;
		} stride; /* a vertex stride set by a command (dynamic state) */
		struct {
			uint64_t buf, offset;
			uint32_t index_size;
		} ib;
		VkViewport viewport;
		VkRect2D scissor;
		struct {
			int indexed;
			uint32_t count, instances, first, vertex_offset;
			uint32_t query; /* 1 + the layer's query around it, 0: not measured */
			uint32_t geom;  /* 1 + its record in the command buffer's geometry (tier 2:
					   where its shadow draw wrote its positions), 0: none */
			uint32_t rec;   /* tier 3: 1 + its draw number (fragment records), 0 */
			uint32_t sub;   /* a multi-draw's sub-draw number (0: first or single) */
		} draw;
		struct {
			uint32_t x, y, z;
			uint32_t rec; /* tier 3: 1 + its record buffer in the command buffer, 0 */
		} dispatch;
		struct {
			enum copy_kind kind;
			uint64_t src, dst;                /* handles */
			uint64_t src_off, dst_off, bytes; /* buffers */
			VkOffset3D so, dof;
			VkExtent3D ext, dext;
			uint32_t smip, dmip, slayer, dlayer;
		} copy;
		struct {
			uint64_t image;
			int ds; /* a depth/stencil clear, to these values */
			float depth;
			uint32_t stencil;
			VkImageAspectFlags aspects; /* of its first range */
		} clear;
		struct {
			uint32_t n_rects;
			VkRect2D rect;
			uint32_t color_mask; /* which color attachments; bit 31: depth/stencil */
			VkImageAspectFlags ds_aspects; /* of the depth/stencil clear */
			float depth;
			uint32_t stencil;
		} catt;
		struct {
			uint64_t cb;
		} exec;
		char label[64];
		struct {
			enum dyn_kind kind;
			uint32_t att;
			uint32_t u[4];
			float f[3];
		} dyn;
	} u;
};

#endif
