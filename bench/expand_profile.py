#!/usr/bin/env python3
"""expand_profile.py - splits the layer's expansion thread's samples (perf script output of a
frame-pointer build, `perf script -F comm,tid,ip,sym --comms llct-expand`) into the parts of its
work, and prints each part's share of the thread and, given the trace's CPU seconds of expansion
and LLC records, its CPU ns an LLC record.

usage: expand_profile.py PERF_SCRIPT_OUTPUT [EXPANDING_CPU_S LLC_RECORDS]

A sample goes to the first part below whose rule matches: the costs that cut across the work
(thread wakes, CPU clock reads, page faults: by the frames of the stack, wherever they were
called from; with frame pointers a libc function's own caller is not seen, its caller's is),
then by the first of the layer's functions named in a part's rule found anywhere in the stack.
"""
import collections
import sys

# (part, functions): the first part with a function in the sample's stack takes the sample
CROSS = [
    ("thread wakes (futex system calls to wake a helper)", ("pthread_cond_signal@@GLIBC_2.3.2",
                                                            "pthread_cond_broadcast@@GLIBC_2.3.2",
                                                            "futex_wake")),
    ("CPU clock reads (the time account)", ("posix_cpu_clock_get", "task_sched_runtime")),
    ("page faults (first touch of new memory)", ("asm_exc_page_fault", "exc_page_fault")),
    ("SQLite (kernel rows, chunks, settings)", ("sqlite3_step", "sqlite3VdbeExec")),
    ("text formatting (printf: kernel rows' JSON, frame times)", (
        "__vfprintf_internal", "__vsnprintf_internal", "_IO_default_xsputn", "__strchrnul_evex",
        "__GI___printf_fp_l", "_IO_str_init_static_internal", "_IO_no_init")),
    ("file writes (the trace's pages, in the kernel)", ("vfs_write", "ksys_write",
                                                        "__x64_sys_pwrite64")),
    ("waits (futex: for a helper, or a lock)", ("__futex_abstimed_wait_common",
                                                 "futex_wait")),
    ("the scheduler (the thread switched out and back)", ("finish_task_switch.isra.0",
                                                          "schedule")),
]
PARTS = [
    ("draws on the rasterizer's lanes: the caller's share", ("raster_pool_run", "lanes_tiles",
                                                             "lanes_setup")),
    ("tier 3: records' lines on the crew: the caller's share", ("instr_crew_finish", "lane_job")),
    ("tier 3: the render caches' step", ("instr_model_touches", "llct_fp_touch_batch")),
    ("tier 3: the records' sort", ("instr_sort_records",)),
    ("tier 3: a draw's set-up and the rest", ("instr_draw_records_begin", "instr_draw_records",
                                              "instr_draw_peek")),
    ("small draws rasterized on the expansion thread", ("llct_raster_draw",)),
    ("kernel rows (JSON params, SQLite insert)", ("capture_kernel_row", "capture_kernel_row_of",
                                                  "capture_rows_write")),
    ("tier 2: a small draw queued (copy, set-up, row)", (
        "llct_raster_queue", "capture_rows_add")),
    ("a draw's buffers' traffic", ("llct_draw_footprint",)),
    ("a draw's positions", ("capture_geom_positions",)),
    ("a draw's description, the rest", ("capture_do_draw",)),
    ("dispatches", ("capture_do_dispatch",)),
    ("passes' loads and stores", ("llct_pass_load", "llct_pass_store")),
    ("the trace writer (chunks, SQLite)", ("llct_writer_end_frame", "flush_chunk",
                                          "llct_writer_append", "capture_frame_end")),
    ("the expansion's walk of a submission", ("capture_expand", "capture_expand.localalias")),
]


def samples(path):
    """Each sample's stack, leaf first."""
    cur = None
    with open(path, errors="replace") as f:
        for line in f:
            if not line.strip():
                if cur:
                    yield cur
                cur = None
            elif not line[0].isspace():
                cur = []
            elif cur is not None:
                parts = line.split()
                cur.append(parts[1] if len(parts) > 1 else "?")
    if cur:
        yield cur


def main():
    if len(sys.argv) not in (2, 4):
        sys.exit(__doc__.split("\n\n")[1])
    got = collections.Counter()
    other = collections.Counter()
    n = 0
    for st in samples(sys.argv[1]):
        n += 1
        frames = set(st)
        for part, fns in CROSS + PARTS:
            if frames.intersection(fns):
                got[part] += 1
                break
        else:
            got["other"] += 1
            other[st[0] if st else "?"] += 1
    if not n:
        sys.exit(f"expand_profile.py: no samples of llct-expand in '{sys.argv[1]}'")
    per = None
    if len(sys.argv) == 4:
        cpu, llc = float(sys.argv[2]), float(sys.argv[3])
        per = cpu * 1e9 / llc if llc > 0 else None
    print(f"{'part of the expansion thread':55s} {'samples':>8s} {'share':>7s} {'CPU ns/LLC':>10s}")
    for part, _ in CROSS + PARTS + [("other", ())]:
        if got[part]:
            ns = f"{got[part] / n * per:10.1f}" if per else f"{'-':>10s}"
            print(f"{part:55s} {got[part]:8d} {100 * got[part] / n:6.1f}% {ns}")
    print(f"{'all':55s} {n:8d} {100.0:6.1f}% " + (f"{per:10.1f}" if per else f"{'-':>10s}"))
    print("other, by the function sampled: " +
          ", ".join(f"{k} {v}" for k, v in other.most_common(12)))


main()
