/* stats.h - per-frame counters a replay produces and the results database stores. */
#ifndef LLCT_STATS_H
#define LLCT_STATS_H

#include "llct.h"

#include <stdint.h>

/* Counters of one stream in one frame (DESIGN.md section 5, "Metrics"). */
struct llct_stream_stats {
	uint64_t reads, read_hits, writes, write_hits;
	uint64_t fills;      /* misses of this stream that allocated a line */
	uint64_t evictions;  /* lines last touched by this stream that were evicted */
	uint64_t writebacks; /* of those, the dirty ones */
	uint64_t bypasses;   /* accesses that did not look up or allocate (UCD, bypass rules) */
};

/* Everything a replay reports for one frame. */
struct llct_frame_stats {
	uint32_t frame;
	struct llct_stream_stats s[LLCT_N_STREAMS];
	uint64_t rt_produced; /* lines that got the RT mark (it was clear) */
	uint64_t rt_consumed; /* TEX hits on RT-marked lines (each clears the mark) */
	/* Epochs, index 0: E0, 1: E1, 2: E>=2. entered[k] blocks entered epoch k in this frame;
	 * hits[k] hits on blocks that were in epoch k. tex_*: TEX stream, z_*: Z stream. */
	uint64_t tex_entered[3], tex_hits[3], z_entered[3], z_hits[3];
};

#endif
