/* settings.h - the capture layer's settings (LLCT_CAPTURE_* environment variables,
 * docs/CAPTURE.md) read into one struct by one parser with no Vulkan in it, so the fuzzer and
 * the tests drive the same code the layer runs. */
#ifndef LLCT_CAPTURE_SETTINGS_H
#define LLCT_CAPTURE_SETTINGS_H

#include "llct/trace.h"

#include <stddef.h>
#include <stdint.h>

struct capture_settings {
	int disabled;                   /* LLCT_CAPTURE_DISABLE */
	char output[1024];              /* LLCT_CAPTURE_OUTPUT; "" : llctrace-PID.llct */
	int all_frames;                 /* LLCT_CAPTURE_FRAMES unset, empty or "all" */
	struct llct_frame_range frames; /* else the range (release with capture_settings_release) */
	const char *frames_text;        /* as given, for the trace's settings */
	int bounded;                    /* the range has a last frame ... */
	uint32_t last_frame;            /* ... this one */
	int exit_after;                 /* LLCT_CAPTURE_EXIT_AFTER, with a bounded range */
	enum { BOUNDARY_AUTO, BOUNDARY_PRESENT, BOUNDARY_SUBMIT, BOUNDARY_LABEL } boundary;
	char label[64];        /* LLCT_CAPTURE_LABEL [frame] */
	uint32_t sms;          /* LLCT_CAPTURE_SMS [0: the default] */
	uint32_t tier;         /* LLCT_CAPTURE_TIER [2] */
	uint32_t xfb_guess;    /* LLCT_CAPTURE_XFB_GUESS [65536] */
	uint32_t records;      /* LLCT_CAPTURE_RECORDS: tier 3's room a dispatch [0: sized] */
	uint32_t draw_room;    /* LLCT_CAPTURE_DRAW_ROOM: the most records a command buffer's draws
				  get at tier 3 [32 Mi] */
	int draw_room_set;     /* given, not the default */
	uint32_t wait_seconds; /* LLCT_CAPTURE_WAIT_SECONDS: how long the layer waits for a
				  captured submission to finish before it takes the device for hung
				  and stops per-draw counts and positions [20] */
	uint32_t twin_lead;    /* LLCT_CAPTURE_TWIN_LEAD: tier 3's twins go into recordings at
				  most this many frames before a frame to capture [4];
				  UINT32_MAX ("all"): every recording until the range ends */
	uint32_t raster_threads; /* LLCT_CAPTURE_RASTER_THREADS: tiers 2 and 3 rasterize big
				    draws on this many threads [0: the CPUs online, at most 8] */
	uint32_t raster_mesh;    /* LLCT_CAPTURE_RASTER_MESH: a draw of this many primitives or
				    more goes to the rasterizer's threads however small they are
				    (0: none) [unset, UINT32_MAX: 64 with 4
				    threads or more, else 0] */
	uint32_t raster_spin_us; /* LLCT_CAPTURE_RASTER_SPIN_US: the rasterizer's threads spin this
				    long for the next draw before they sleep [unset, UINT32_MAX:
				    50 where the machine has a core more than them, else 0] */
	uint32_t expand_threads; /* LLCT_CAPTURE_EXPAND_THREADS: tier 3 works out draws' and
				    dispatches' records' accesses on this many threads [0: the
				    CPUs online but one] */
	uint32_t expand_spin_us; /* LLCT_CAPTURE_EXPAND_SPIN_US: tier 3's expansion threads spin
				    this long for the next draw's round (the layer's thread for a
				    round's last job) before they sleep [unset, UINT32_MAX: 50 where
				    the machine has a core more than them, else 0] */
	uint32_t split_min;      /* LLCT_CAPTURE_SPLIT_MIN: tier 3 hands a round's accesses to the
				    render caches split by SM over the expansion's threads from
				    this many [0: 16384] */
	uint32_t window;         /* LLCT_CAPTURE_WINDOW: records (prefixes counted) a thread of
				    tier 3's expansion takes at a time [0: 32768] */
	char dump_depth[512];    /* LLCT_CAPTURE_DUMP_DEPTH */
	int no_fragment_counts;  /* LLCT_CAPTURE_NO_FRAGMENT_COUNTS */
	int sync;                /* LLCT_CAPTURE_ASYNC=0: expand on the submitting thread */
	int no_bda; /* LLCT_CAPTURE_RECORDS_BY_ADDRESS=0: tier 3's record buffers bound as storage
		       buffers, not reached by their device address */
	int coalesce_stats; /* LLCT_CAPTURE_COALESCE_STATS=1: tier 3 counts what coalescing a
			       subgroup's sample records by their lines would drop */
	int batch;          /* LLCT_CAPTURE_BATCH_WORKERS=1: the layer's worker threads run under
			       SCHED_BATCH rather than the program's policy */
	int no_coalesce;    /* LLCT_CAPTURE_COALESCE=0: every buffer access of tier 3's shaders is
			       recorded, none coalesced with a lane before's */
	int no_runs;        /* LLCT_CAPTURE_RUNS=0: a draw's run of constant-offset loads of one
			       buffer sends a record for each load, not one for the run */
	int no_sg;          /* LLCT_CAPTURE_SUBGROUP_RESERVE=0: every recording invocation takes its
			       records' room with an atomic of its own, not one a subgroup */
	int log;            /* LLCT_CAPTURE_LOG */
	char renderdoc[1024]; /* LLCT_CAPTURE_RENDERDOC: .rdc path template, or "" */
	char times[1024];     /* LLCT_CAPTURE_TIMES: a file each frame's end time is added to */
};

/* Reads every setting through get(name, ud) (getenv for the layer). Returns 0, or -1 with
 * why naming the variable and its value: capture must then stay off. */
int capture_settings_read(struct capture_settings *s, const char *(*get)(const char *, void *),
			  void *ud, char *why, size_t why_size);
void capture_settings_release(struct capture_settings *s);

#endif
