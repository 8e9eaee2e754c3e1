/* synth.h - deterministic synthetic frame traces modeled on a deferred renderer's LLC traffic. */
#ifndef LLCT_SYNTH_H
#define LLCT_SYNTH_H

#include "trace.h"

/* Knobs of the model (docs/SYNTH.md explains each). Start from LLCT_SYNTH_PARAMS_INIT. */
struct llct_synth_params {
	uint32_t width, height; /* render resolution in pixels */
	uint32_t n_objects;     /* opaque objects drawn in the depth pre-pass and G-buffer pass */
	uint32_t n_materials;   /* distinct material textures (each with a full mip chain) */
	uint32_t texture_size;  /* material texture edge in texels (power of two) */
	uint32_t shadow_size;   /* shadow map edge in texels */
	uint32_t n_gbuffers;    /* G-buffer color targets, 1..4 */
	uint32_t n_post;        /* post-processing passes after lighting (bloom, blur, tone map) */
	uint32_t n_ui;          /* alpha-blended UI quads drawn onto the displayable image */
	uint32_t n_particles;   /* alpha-blended particle quads drawn onto the HDR target */
	uint32_t n_sms;         /* shader cores; pixel tiles map to SMs round robin */
	uint32_t tile;          /* screen tile edge in pixels for SM mapping and traversal order */
	uint32_t motion;        /* camera motion in pixels per frame */
	uint64_t seed;          /* everything random derives from this */
};

#define LLCT_SYNTH_PARAMS_INIT                                                                     \
	{                                                                                          \
		.width = 1280, .height = 720, .n_objects = 160, .n_materials = 24,                 \
		.texture_size = 1024, .shadow_size = 1024, .n_gbuffers = 3, .n_post = 3,           \
		.n_ui = 12, .n_particles = 40, .n_sms = 16, .tile = 16, .motion = 4, .seed = 1     \
	}

/* Receives generated records in order; returns non-zero to stop generation. */
typedef int (*llct_synth_emit_fn)(void *ud, const struct llct_record *recs, size_t n);
/* Receives each kernel (pass draw) as it starts; may be NULL. */
typedef int (*llct_synth_kernel_fn)(void *ud, const struct llct_kernel *k);

/* Checks the parameters; returns LLCT_ERR_INVALID with a reason in why. */
int llct_synth_check(const struct llct_synth_params *p, char *why, size_t why_size);

/* Generates frame number `frame` (0-based; the camera moves with it). *next_kernel is the
 * kernel id to start from and is advanced. Returns LLCT_OK or the first non-zero emit result. */
int llct_synth_frame(const struct llct_synth_params *p, uint32_t frame, uint32_t *next_kernel,
		     llct_synth_emit_fn emit, llct_synth_kernel_fn kernel, void *ud);

/* Stores the parameters (and n_frames) as settings of an open writer. */
int llct_synth_write_settings(const struct llct_synth_params *p, uint32_t n_frames,
			      struct llct_writer *w);
/* Writes frame `frame` (its records and kernels) as one writer frame. */
int llct_synth_write_frame(const struct llct_synth_params *p, uint32_t frame, uint32_t *next_kernel,
			   struct llct_writer *w);

#endif
