/* kernels.h - synthetic compute-kernel traces (stream CS) with the memory behaviour of the
 * kernels of the GDC and FGPU papers, for contention, partitioning and co-run studies. */
#ifndef LLCT_KERNELS_H
#define LLCT_KERNELS_H

#include "synth.h"

enum llct_kernel_pattern { LLCT_PATTERN_DEFAULT, LLCT_PATTERN_SEQ, LLCT_PATTERN_RANDOM };

/* Knobs (docs/SYNTH.md, "Compute kernels"). Start from LLCT_KERNEL_PARAMS_INIT. */
struct llct_kernel_params {
	const char *name;    /* vma dadd ladd mm mt mmt va agg1 agg2 */
	double footprint;    /* bytes touched as a fraction of llc_bytes; 0: the kernel's own */
	double set_coverage; /* fraction of LLC sets touched; 0: the kernel's own */
	enum llct_kernel_pattern pattern;
	uint64_t llc_bytes; /* geometry the footprint and set coverage refer to */
	uint32_t ways, line;
	uint32_t n_sms;      /* workgroups go to SMs round robin */
	uint32_t iterations; /* passes over the data in one frame (one dispatch each) */
	uint64_t base;       /* first byte of the kernel's buffers */
	uint64_t seed;
};

#define LLCT_KERNEL_PARAMS_INIT                                                                    \
	{                                                                                          \
		.name = "vma", .footprint = 0, .set_coverage = 0, .pattern = LLCT_PATTERN_DEFAULT, \
		.llc_bytes = 8u << 20, .ways = 16, .line = 64, .n_sms = 16, .iterations = 4,       \
		.base = (uint64_t)1 << 36, .seed = 1                                               \
	}

/* Names of the kernels, NULL-terminated, and what each does (for --help). */
extern const char *const llct_kernel_names[];
const char *llct_kernel_describe(const char *name);

/* Checks the parameters; LLCT_ERR_INVALID with the reason in why. */
int llct_kernel_check(const struct llct_kernel_params *p, char *why, size_t why_size);
/* Generates frame `frame`: `iterations` dispatches (kernel ids from *next_kernel). */
int llct_kernel_frame(const struct llct_kernel_params *p, uint32_t frame, uint32_t *next_kernel,
		      llct_synth_emit_fn emit, llct_synth_kernel_fn kernel, void *ud);
/* Writes the parameters as settings, and one frame, into a writer. */
int llct_kernel_write_settings(const struct llct_kernel_params *p, uint32_t n_frames,
			       struct llct_writer *w);
int llct_kernel_write_frame(const struct llct_kernel_params *p, uint32_t frame,
			    uint32_t *next_kernel, struct llct_writer *w);

#endif
