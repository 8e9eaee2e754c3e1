/* raster_set.c - the rasterizer's object and how it is set to draw (include/llct/raster.h):
 * its threads, the meshes sent to them, their spin between draws, who copies their records, and
 * the CPU they took. */
#include "raster_int.h"

#include <stdlib.h>
#include <unistd.h>

struct llct_raster *llct_raster_create(void)
{
	struct llct_raster *r = calloc(1, sizeof(struct llct_raster));
	if (r)
		r->threads = 1, r->spin_us = -1, r->copy_min = RASTER_COPY_MIN;
	return r;
}

void llct_raster_set_threads(struct llct_raster *r, unsigned n)
{
	n = n < 1 ? 1 : n > RASTER_MAX_LANES ? RASTER_MAX_LANES : n;
	if (n != r->threads) {
		raster_pool_destroy(r->pool);
		r->pool = NULL;
	}
	r->threads = n;
}

double llct_raster_take_cpu(struct llct_raster *r, double *lanes, double *spin)
{
	return r->pool ? raster_pool_take_cpu(r->pool, lanes, spin) : 0;
}

void llct_raster_set_mesh(struct llct_raster *r, uint32_t n)
{
	r->mesh = n;
}

void llct_raster_set_spin(struct llct_raster *r, int32_t us)
{
	if (us != r->spin_us) { /* the threads read it as they run: a pool of its own */
		raster_pool_destroy(r->pool);
		r->pool = NULL;
	}
	r->spin_us = us;
}

void llct_raster_set_copy_min(struct llct_raster *r, uint32_t n)
{
	if (n != r->copy_min) { /* the pool's, set as it is made */
		raster_pool_destroy(r->pool);
		r->pool = NULL;
	}
	r->copy_min = n;
}

void llct_raster_set_batch(struct llct_raster *r, int on)
{
	if (!on != !r->batch) { /* a thread sets its policy as it starts: a pool of its own */
		raster_pool_destroy(r->pool);
		r->pool = NULL;
	}
	r->batch = !!on;
}

void llct_raster_describe(const struct llct_raster *r, unsigned *threads, uint32_t *mesh,
			  double *spin)
{
	*threads = r->threads, *mesh = r->mesh, *spin = raster_spin_s(r);
}

/* The threads' spin in seconds: spin_us, or where unset 50 µs (a small mesh's rasterizing,
 * about what waking a thread costs in a virtual machine) when the machine has a core more than
 * the threads (the caller's included) for the program and its device, else none: a spinning
 * thread would take a core they need (PERFORMANCE.md, "Spinning between draws"). */
double raster_spin_s(const struct llct_raster *r)
{
	if (r->spin_us >= 0)
		return r->spin_us * 1e-6;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	return cpus > 0 && (long)r->threads < cpus ? 50e-6 : 0;
}

void llct_raster_destroy(struct llct_raster *r)
{
	if (r) {
		raster_pool_destroy(r->pool);
		raster_queue_destroy(r->q);
	}
	free(r);
}
