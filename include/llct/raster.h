/* raster.h - capture tier 2's own rasterizer: the primitives a draw really produced (clip-space
 * positions from the driver) clipped, mapped through the viewport, snapped to 8 subpixel bits,
 * covered by the top-left rule at the standard sample positions, culled by facing, scissored,
 * depth- and stencil-tested against an emulated depth/stencil buffer, with HiZ tiles accepting
 * or rejecting whole blocks; the Z, HIZ, STC, RT, DISP and TEX traffic follows, a cache line at
 * a time, through the render caches (footprint.h). Vulkan-free: capture fills llct_draw with
 * positions and llct_pass with the emulated buffers. */
#ifndef LLCT_RASTER_H
#define LLCT_RASTER_H

#include "draw.h"

/* ---- the emulated depth/stencil of one image subresource (streams/zbuf.c) ---- */

/* depth_bits: 16 or 24 (UNORM: values are quantized as the format stores them) or 32 (float),
 * 0 for none; stencil_bits: 8 or 0. Contents start unknown (see llct_zbuf_known). NULL when
 * out of memory. */
struct llct_zbuf *llct_zbuf_create(uint32_t width, uint32_t height, uint32_t samples,
				   uint32_t depth_bits, uint32_t stencil_bits);
void llct_zbuf_destroy(struct llct_zbuf *z);
/* Sets depth (when do_depth) and stencil (when do_stencil) of the pixels [x0,x1) x [y0,y1). */
void llct_zbuf_clear(struct llct_zbuf *z, uint32_t x0, uint32_t y0, uint32_t x1, uint32_t y1,
		     int do_depth, float depth, int do_stencil, uint32_t stencil);
/* The contents became undefined (a DONT_CARE load): until written they are unknown. */
void llct_zbuf_forget(struct llct_zbuf *z);
/* Whether the contents are known (cleared or written since created or forgotten). The first
 * depth test on unknown contents takes them as cleared to what passes it (1.0 for LESS-like
 * tests, 0.0 for GREATER-like); unknown stencil is 0. */
int llct_zbuf_known(const struct llct_zbuf *z);
/* Depth of sample s of pixel (x, y), and stencil. */
float llct_zbuf_depth(const struct llct_zbuf *z, uint32_t x, uint32_t y, uint32_t s);
uint32_t llct_zbuf_stencil(const struct llct_zbuf *z, uint32_t x, uint32_t y, uint32_t s);
/* Writes the depth values (sample 0 of each pixel, rows top to bottom, 32-bit floats in host
 * order) to path; 0, or -1 with errno set. */
int llct_zbuf_save(const struct llct_zbuf *z, const char *path);

/* ---- the rasterizer (streams/raster.c) ---- */

struct llct_raster;
struct llct_raster *llct_raster_create(void);
void llct_raster_destroy(struct llct_raster *r);
/* Threads a big draw is rasterized on (1, the default: the caller's alone; at most 16). The
 * screen's tiles are split among them by SM, and the records come out in exactly the order,
 * and with exactly the contents, one thread gives. */
void llct_raster_set_threads(struct llct_raster *r, unsigned n);
/* A draw of n primitives or more goes to the threads too, however small its primitives (0,
 * the default: only draws of big primitives; see raster.c's big()). Every lane then reads only
 * the triangles that reach its tiles, but the lanes' set-up, marks and merge cost CPU: about a
 * fifth more than one thread on a mesh of ~150-pixel triangles. */
void llct_raster_set_mesh(struct llct_raster *r, uint32_t n);
/* How long, in microseconds, a thread of the rasterizer with nothing to do spins for the next
 * draw before it sleeps (its CPU counted apart: llct_raster_take_cpu's spin): waking a sleeping
 * thread costs a system call and an interrupt to its core, tens of microseconds in a virtual
 * machine, as much as a small mesh's rasterizing. Negative (the default): 50 where the machine
 * has a core more than the threads, else 0 (never). */
void llct_raster_set_spin(struct llct_raster *r, int32_t us);
/* With threads, the lanes' records of a draw (or of a queue's flush) are put in one thread's
 * order and copied into the model by the lanes together, a room of the model's sink at a time,
 * where the room takes n records or more (smaller ones, and all with n = 0, on the caller's
 * thread) [32,768: the copy of that many costs about what waking the threads does]. The records
 * are the same either way. */
void llct_raster_set_copy_min(struct llct_raster *r, uint32_t n);
/* Whether r's threads (not the caller) run under SCHED_BATCH (llct_thread_batch): 1, or 0,
 * the default (the policy of the thread that made them). */
void llct_raster_set_batch(struct llct_raster *r, int on);
/* How r draws: its threads, the least primitives of a mesh sent to them (0: none), and the
 * seconds its threads spin before they sleep (the default worked out), for a trace to say. */
void llct_raster_describe(const struct llct_raster *r, unsigned *threads, uint32_t *mesh,
			  double *spin_s);
/* The CPU seconds the rasterizer's own threads (not the caller) spent since last taken, on
 * draws (their wakes included) and spinning for the next (llct_raster_set_spin), to add to the
 * caller's own clock; every thread's draws, the caller's share included, added to *lanes (the
 * work the threads shared), and the spinning to *spin. A thread of the rasterizer counts its
 * CPU as it goes to sleep, not around each draw (its clock is a system call): a draw or a spin
 * it has not slept since is in a later take. */
double llct_raster_take_cpu(struct llct_raster *r, double *lanes, double *spin);

/* Rasterizes d's primitives (d->pos, d->n_vertices, d->st.topology) into pass p: the depth
 * attachment's emulated buffer (p->att[i].z; NULL: no depth or stencil test is emulated) is
 * tested and updated, and the records go to fp, after those of d's uses (buffers first, as a
 * vertex fetch precedes rasterization; sampled images per block, mapped from screen space onto
 * the viewport). r gets covered and passed samples (an occlusion query's count) and the
 * primitives drawn. Returns 0, or -1 when out of memory (nothing was drawn). */
int llct_raster_draw(struct llct_raster *r, struct llct_fp *fp, const struct llct_pass *p,
		     const struct llct_draw *d, struct llct_draw_result *res);

/* ---- small draws together (streams/raster_batch.c) ---- */

/* With threads (llct_raster_set_threads above 1), a draw of fewer than 64 primitives (big or
 * small), or a mesh the threads take (llct_raster_set_mesh) of fewer than 1,024, may be queued, and
 * the queued draws rasterized together on the threads at the next flush: the threads first set up a
 * share of the queue's triangles each, then each takes its SMs' share of every queued draw in turn
 * (buffers, then pixels), and the records reach fp in exactly the order, and with exactly the
 * contents and results, that llct_raster_draw of each in turn on one thread gives; its records
 * carry `kernel` (llct_fp_set_kernel), whatever fp's kernel is at the flush. d's positions, uses
 * and state are copied, and its context is set up (the pass's emulated depth taken as cleared on
 * first use, as llct_raster_draw does) as it is queued; p is copied with the first, and nothing
 * else may use fp or the pass's emulated buffers until the flush. Returns 1 queued, 0 not (without
 * threads; a draw with no positions, not to be rasterized, of 64 primitives or more and not a mesh,
 * or of 1,024 or more, or in another pass or model than those queued, or the queue full: flush,
 * then draw it), -1 out of memory (not queued; the same). */
#define LLCT_RASTER_QUEUE_MAX 1024 /* draws a queue holds at most */
int llct_raster_queue(struct llct_raster *r, struct llct_fp *fp, const struct llct_pass *p,
		      const struct llct_draw *d, uint32_t kernel);
/* Draws queued and not yet flushed. */
size_t llct_raster_queued(const struct llct_raster *r);
/* Rasterizes the queued draws, then calls done (NULL: none) with each one's result in the order
 * they were queued (fell_back set for every one when memory ran out on the threads: each then
 * gets tier 1's rectangle, in order). Returns 0, or -1 when memory ran out. */
typedef void (*llct_raster_done_fn)(void *ud, size_t i, const struct llct_draw_result *res);
int llct_raster_flush(struct llct_raster *r, llct_raster_done_fn done, void *ud);
/* Draws queued so far, and the flushes that ran them on the threads (a flush whose threads could
 * not start, or ran out of memory, does its draws on the caller's thread and is not counted). */
void llct_raster_queue_counts(const struct llct_raster *r, uint64_t *draws, uint64_t *batches);

#endif
