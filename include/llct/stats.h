/* stats.h - per-frame counters a replay produces and the results database stores. */
#ifndef LLCT_STATS_H
#define LLCT_STATS_H

#include "llct.h"

#include <stdint.h>

/* Counters of one stream in one frame (docs/REPLAY.md, "Counters"). */
struct llct_stream_stats {
	uint64_t reads, read_hits, writes, write_hits;
	uint64_t fills;         /* misses of this stream that allocated a line */
	uint64_t evictions;     /* lines last touched by this stream that were evicted */
	uint64_t writebacks;    /* of those, the dirty ones */
	uint64_t bypasses;      /* accesses that did not look up or allocate (UCD, bypass rules) */
	uint64_t bypass_writes; /* of those, the writes (DRAM traffic: a bypassed write writes) */
	/* sectored lines (--sector): accesses to a resident line whose sector was not there
	 * (a miss that fetched the sector, no line filled), and the dirty sectors written back */
	uint64_t sector_fills, writeback_sectors;
};

/* Contention between owners (tenants, SMs, kernels or streams) in one frame, docs/REPLAY.md
 * "Contention": a hash table of (victim, aggressor) pairs and a table of owners with their misses.
 */
struct llct_contention_pair {
	uint64_t victim, aggressor; /* owner ids; victim == LLCT_NO_OWNER marks an empty slot */
	uint64_t gdc;               /* demotions of victim's lines caused by aggressor's accesses */
	uint64_t plob;              /* evictions of victim's lines by aggressor's misses */
};
struct llct_contention_owner {
	uint64_t owner; /* LLCT_NO_OWNER: empty slot */
	uint64_t accesses, misses;
};
#define LLCT_NO_OWNER UINT64_MAX
struct llct_contention {
	int owner_by; /* enum llct_owner_by */
	struct llct_contention_pair *pairs;
	size_t n_pairs, cap_pairs;
	struct llct_contention_owner *owners;
	size_t n_owners, cap_owners;
};

/* Everything a replay reports for one frame. */
struct llct_frame_stats {
	uint32_t frame;
	struct llct_stream_stats s[LLCT_N_STREAMS];
	uint64_t rt_produced; /* lines that got the RT mark (it was clear) */
	uint64_t rt_consumed; /* TEX hits on RT-marked lines (each clears the mark) */
	/* Z-to-TEX: z_produced Z accesses on lines Z did not touch last (fills included: the
	 * same accesses as z_entered[0]); z_consumed TEX hits on lines whose last access was Z
	 * (a depth buffer read back as a texture: a shadow map) */
	uint64_t z_produced, z_consumed;
	/* Epochs, index 0: E0, 1: E1, 2: E>=2. entered[k] blocks entered epoch k in this frame;
	 * hits[k] hits on blocks that were in epoch k. tex_*: TEX stream, z_*: Z stream. */
	uint64_t tex_entered[3], tex_hits[3], z_entered[3], z_hits[3];
	struct llct_contention *cont; /* NULL unless contention is tracked */
};

/* One tenant in one co-run frame (the k-th selected frame of every trace). Times are modeled
 * cycles: the sum of (hit or miss latency) / MLP over the tenant's accesses. "alone" is the
 * tenant by itself with the whole LLC (Liang's single-program mode, for slowdown and STP);
 * "alone_part" is the tenant by itself inside its own partition (ways, colors), FGPU's
 * baseline for variation; without a tenant partition the two are the same run. */
struct llct_tenant_stats {
	uint64_t accesses, misses, misses_alone, misses_alone_part;
	double time_shared, time_alone, time_alone_part;
};

/* ---- what a replay hands back (replay.h makes them, results.h writes them) ---- */

struct llct_policy_ops;

/* One decision of a partitioning: class k has `ways` ways (mask) from access at_access on. */
struct llct_part_log {
	uint32_t interval;
	uint64_t at_access;
	uint32_t cls, ways;
	uint64_t mask;
};

/* A set-sampled replay's estimate of one quantity over the run, with the half-width of its
 * interval at `level` (NaN: none; the traffic reached too few sets), the groups of sampled sets
 * the stream's traffic reached, and the standard error of the group estimates' mean with its
 * degrees of freedom (the half-width is t(level, dof) x std_error, plus for all streams what a
 * stream the sampled sets do not carry could be). */
enum llct_est_metric {
	LLCT_EST_READS,
	LLCT_EST_READ_HITS,
	LLCT_EST_MISSES,
	LLCT_EST_READ_HIT_RATE
};
struct llct_estimate {
	uint8_t stream; /* enum llct_stream, or LLCT_N_STREAMS: all streams */
	uint8_t metric; /* enum llct_est_metric */
	double value, half_width;
	unsigned groups;
	double std_error; /* NaN with half_width */
	unsigned dof;
	double level; /* two-sided: 0.99 is 99% */
};

/* One policy's replay of one trace. */
struct llct_replay_result {
	const struct llct_policy_ops *policy;
	struct llct_frame_stats *frames; /* one per replayed frame, in order */
	size_t n_frames;
	uint64_t accesses;          /* records replayed */
	double busy_s;              /* time spent in this model */
	uint64_t peak_state;        /* bytes of cache and policy state */
	struct llct_part_log *plog; /* dynamic partitioning decisions, or NULL */
	size_t n_plog;
	/* set-sampled replays: 1/sample_sets of the sets (0: all); frames hold estimates */
	uint32_t sample_sets, sample_groups;
	struct llct_estimate *est;
	size_t n_est;
	/* --per-kernel: by frame, kernel and stream, sorted so; NULL otherwise */
	struct llct_kernel_stats *kstats;
	size_t n_kstats;
	/* --flow (and --per-kernel): pass-to-pass reads, sorted by frame, consumer, producer */
	struct llct_flow_row *flow;
	size_t n_flow;
	unsigned set_shards; /* its sets were split over this many threads (0 or 1: not split) */
};

/* One kernel's accesses of one stream in one frame (--per-kernel). Reads and writes count every
 * access, bypassed ones too (bypass_*); hits, fills and what the fills evicted follow the
 * per-frame counters' rules, but an eviction is counted against the kernel whose fill caused it
 * (evicted[s]: lines last touched by stream s; writebacks: the dirty ones among them). */
struct llct_kernel_stats {
	uint32_t frame, kernel;
	uint8_t stream;
	uint64_t reads, read_hits, writes, write_hits, fills, bypass_reads, bypass_writes;
	uint64_t writebacks;
	/* sectored lines (--sector): accesses that fetched a sector of a resident line (counted
	 * as misses, not hits), and the dirty sectors the kernel's fills and write-evicts wrote
	 * back */
	uint64_t sector_fills, writeback_sectors;
	uint64_t evicted[LLCT_N_STREAMS];
};

/* Pass-to-pass reuse (--flow): in `frame`, the reads by kernel `consumer` as stream to_stream
 * (TEX or CS) of lines whose last write was kernel `producer`'s, as stream from_stream (a
 * kernel's reads of its own writes are not counted); reads are the same under every policy,
 * hits are the model's (bypassed reads never hit). */
struct llct_flow_row {
	uint32_t frame, producer, consumer;
	uint8_t from_stream, to_stream;
	uint64_t reads, hits;
};

/* One policy's co-run of several traces. */
struct llct_corun_result {
	const struct llct_policy_ops *policy;
	size_t n_frames;                   /* co-run frames */
	struct llct_frame_stats *frames;   /* the shared run, frame k at [k] (.frame = k) */
	struct llct_tenant_stats *tenants; /* [k * n_tenants + t] */
	uint64_t accesses;
	double busy_s;
	uint64_t peak_state;
	struct llct_part_log *plog; /* the shared run's dynamic partitioning decisions */
	size_t n_plog;
};

/* Owner ids: tenants, streams as they are; SMs and kernels as tenant << 32 | number. */
enum llct_owner_by { LLCT_OWNER_TENANT, LLCT_OWNER_SM, LLCT_OWNER_KERNEL, LLCT_OWNER_STREAM };
/* "tenant", "sm", "kernel", "stream"; and the owner as text ("TEX", "3", "1:7"). */
const char *llct_owner_by_name(int by);
void llct_owner_text(int by, uint64_t owner, char *buf, size_t size);
/* Creates, looks up (creating) and frees contention tables. NULL when out of memory. */
struct llct_contention *llct_contention_create(int owner_by);
struct llct_contention_pair *llct_contention_pair(struct llct_contention *c, uint64_t victim,
						  uint64_t aggressor);
struct llct_contention_owner *llct_contention_owner(struct llct_contention *c, uint64_t owner);
void llct_contention_free(struct llct_contention *c);

#endif
