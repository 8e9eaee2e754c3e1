#!/usr/bin/env bash
# expand_account.sh - the layer's expansion account of tier-3 traces, a line a trace, in ns an
# LLC record: its wall time (capture.seconds.expanding), its CPU time (expanding_cpu), the part
# spread over the expansion's threads (tier3_lanes: records' lines; tier3_split: the serial steps
# split over them, 0 with one thread; both by the wall clock; "shared": the CPU time of both
# where the crew ran them, tier3_shared_cpu), the rasterizer's draws split over its threads
# (raster_shared_cpu, their CPU summed), the helper threads spinning for the next draw (the
# rasterizer's, raster_spin_cpu, and tier 3's crew's, expand_spin_cpu: CPU, but neither work nor
# the expansion's own), the rest (the expansion
# thread's own: CPU less both shared CPUs and the spin, or with one expansion thread less lanes),
# and the rest plus the shared parts over 16 -- the expansion on a 16-thread machine with the
# device elsewhere, as far as these parts go.
#
# usage: bench/expand_account.sh TRACE...   (e.g. bench/games.sh --tier 3 -o DIR's DIR/*-t3.llct)
set -u
[ $# -ge 1 ] || { echo "usage: bench/expand_account.sh TRACE..." >&2; exit 2; }
q() { sqlite3 -batch -noheader "$1" "$2"; }
v() { q "$1" "SELECT coalesce((SELECT value FROM settings WHERE key = '$2'), 0)"; }
printf '%-32s %8s %12s %6s %6s %6s %6s %6s %6s %6s %6s %6s\n' trace threads "LLC records" wall cpu lanes split shared raster spin rest "16 th"
for f in "$@"; do
	[ -r "$f" ] || { echo "expand_account.sh: cannot read '$f'" >&2; exit 1; }
	llc=$(q "$f" "SELECT coalesce(sum(n_records), 0) FROM frames" 2>&1) ||
		{ echo "expand_account.sh: '$f' is not a readable llctrace trace ($llc)" >&2; exit 1; }
	awk -v f="$(basename "$f")" -v th="$(v "$f" capture.expand_threads)" -v n="$llc" \
		-v e="$(v "$f" capture.seconds.expanding)" -v c="$(v "$f" capture.seconds.expanding_cpu)" \
		-v l="$(v "$f" capture.seconds.tier3_lanes)" -v s="$(v "$f" capture.seconds.tier3_split)" \
		-v h="$(v "$f" capture.seconds.tier3_shared_cpu)" \
		-v g="$(v "$f" capture.seconds.raster_shared_cpu)" \
		-v p="$(v "$f" capture.seconds.raster_spin_cpu)" \
		-v q="$(v "$f" capture.seconds.expand_spin_cpu)" \
		'BEGIN { if (n == 0) { printf "%-32s no LLC records\n", f; exit }
			k = 1e9 / n; p += q; sh = (h > 0 ? h : l + s) + g; r = c - sh - p
			printf "%-32s %8s %12d %6.0f %6.0f %6.0f %6.0f %6.0f %6.0f %6.0f %6.0f %6.0f\n", f, th, n, e * k, c * k, l * k, s * k, h * k, g * k, p * k, r * k, (r + sh / 16) * k }'
done
