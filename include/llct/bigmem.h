/* bigmem.h - memory for big arrays: the replay engine's models and indexes, and the large buffers
 * a capture fills at once (the trace writer's rooms, the rasterizer's lanes and queue, emulated
 * depth), in 2 MiB pages where the kernel gives them (transparent huge pages on request).
 * A model's lookups go to random sets, and with 4 KiB pages an 8 MiB LLC's tags and state span
 * more pages than the first-level TLB holds; and each 4 KiB page costs a fault on first touch
 * (12 us on a virtual machine, docs/PERFORMANCE.md) where a 2 MiB page costs one. */
#ifndef LLCT_BIGMEM_H
#define LLCT_BIGMEM_H

#include <stddef.h>

/* bytes of memory, 64-byte aligned, not zeroed; from 1 MiB up in 2 MiB pages where the kernel
 * gives them. NULL when out of memory. Freed with free(). */
void *llct_big_alloc(size_t bytes);
/* A block of `bytes` holding p's first `used` bytes, p freed; NULL when out of memory (p then
 * kept). p may be NULL (used 0). Freed with free(). */
void *llct_big_grow(void *p, size_t used, size_t bytes);

#endif
