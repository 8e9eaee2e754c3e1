#!/usr/bin/env bash
# test_faults.sh - the faults a long capture or sweep meets: a full disk (a small tmpfs) during
# import, replay, batch, merge, report, pack and capture; several replays writing one results
# file at once; kill -9 while a replay writes its runs; traces whose index lies about their size.
# Each: a message naming the file, a non-zero exit, and everything committed before intact.
set -u
LLCTRACE=$(realpath "${1:?usage: test_faults.sh path/to/llctrace [APP_SCENE]}")
APP_SCENE=${2:+$(realpath "$2")}
HERE=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d /tmp/llct-cli-faults-XXXXXX)
FULL=$T/full
cleanup() {
	mountpoint -q "$FULL" 2>/dev/null && umount "$FULL"
	rm -rf "$T"
}
trap cleanup EXIT
. "$HERE/lib.sh"
cd "$T" || exit 1
sq() { sqlite3 -batch -noheader "$@"; }
SMALL="--width 256 --height 160 --objects 30 --texture-size 128 --shadow-size 256"
"$LLCTRACE" synth -q -o a.llct --count 3 $SMALL || bad "synth"
"$LLCTRACE" dump --csv a.llct >a.csv || bad "dump"

# whole runs only: every run has frames x 9 stream rows and its rt_tex rows
whole_runs() { # whole_runs DB FRAMES
	sq "$1" "SELECT count(*) FROM runs r WHERE (SELECT count(*) FROM stream_stats s WHERE s.run_id = r.id) <> $2 * 9 OR (SELECT count(*) FROM rt_tex t WHERE t.run_id = r.id) <> $2"
}

# ---- a full disk: a 1 MiB tmpfs
mkdir -p "$FULL"
if ! mount -t tmpfs -o size=1m tmpfs "$FULL" 2>/dev/null; then
	echo "test_faults: SKIPPING the full-disk checks: cannot mount a tmpfs here (needs root)"
else
	fill() { # fill BYTES_LEFT: a filler file so that about that much space is left
		rm -f "$FULL/filler"
		local avail
		avail=$(df --output=avail -B1 "$FULL" | tail -1)
		head -c $((avail - $1)) /dev/zero >"$FULL/filler" 2>/dev/null
	}
	# import: the message names the output, nothing is left behind
	fill 60000
	expect_rc 1 "$LLCTRACE" import --csv a.csv -o "$FULL/x.llct" -q
	expect_err "$FULL/x.llct"
	[ "$(ls "$FULL")" = filler ] && ok || bad "a failed import left: $(ls "$FULL")"
	# replay: the first replay fits, the next finds the disk full; the first's runs are intact
	rm -f "$FULL/filler"
	expect_rc 0 "$LLCTRACE" replay a.llct -o "$FULL/r.db" --policy lru -q
	fill 4000
	expect_rc 1 "$LLCTRACE" replay a.llct -o "$FULL/r.db" --policy all -q
	expect_err "$FULL/r.db"
	expect_err "full"
	[ "$(sq "$FULL/r.db" "PRAGMA integrity_check")" = ok ] && [ "$(sq "$FULL/r.db" "SELECT count(*) FROM runs")" = 1 ] && [ "$(whole_runs "$FULL/r.db" 3)" = 0 ] && ok || bad "results after a full disk: $(sq "$FULL/r.db" "SELECT count(*) FROM runs")"
	# batch, merge and report on the full disk: named, non-zero, nothing half-done
	printf '[grid g]\ntraces = %s/a.llct\npolicies = all\nsizes = 128KiB, 256KiB\n' "$T" >g.ini
	expect_rc 1 "$LLCTRACE" batch g.ini -o "$FULL/r.db" -q
	expect_err "$FULL/r.db"
	[ "$(sq "$FULL/r.db" "PRAGMA integrity_check")" = ok ] && [ "$(whole_runs "$FULL/r.db" 3)" = 0 ] && ok || bad "results after a failed batch"
	"$LLCTRACE" replay a.llct -o shard.db --policy all -q
	expect_rc 1 "$LLCTRACE" merge shard.db -o "$FULL/r.db" -q
	expect_err "shard.db"
	[ "$(sq "$FULL/r.db" "SELECT count(*) FROM runs")" = 1 ] && ok || bad "a failed merge added runs"
	expect_rc 1 "$LLCTRACE" report shard.db -o "$FULL/page.html" -q
	expect_err "$FULL/page.html"
	[ -z "$(ls "$FULL" | grep -v '^r.db$\|^filler$')" ] && ok || bad "a failed report left: $(ls "$FULL")"
	# pack: a full disk stops it, naming the file; the trace reads as it did
	rm -f "$FULL"/*
	cp a.llct "$FULL/p.llct"
	fill 4000
	expect_rc 1 "$LLCTRACE" pack "$FULL/p.llct"
	expect_err "'$FULL/p.llct': cannot store a chunk: database or disk is full"
	"$LLCTRACE" dump --csv "$FULL/p.llct" | cmp -s - a.csv && ok || bad "a pack stopped by a full disk changed the records"
	# capture: frames written before the disk filled are still there
	if [ -n "$APP_SCENE" ]; then
		rm -f "$FULL"/*
		fill 150000
		LLCT_CAPTURE_TIER=1 expect_rc 1 "$LLCTRACE" capture -q -b submit -o "$FULL/cap.llct" -- "$APP_SCENE" 40
		expect_err "capture failed: '$FULL/cap.llct': cannot write: database or disk is full"
		expect_err "keeps every frame completed before"
		n=$(sq "$FULL/cap.llct" "SELECT count(*) FROM frames" 2>/dev/null || echo 0)
		[ "$n" -ge 1 ] && "$LLCTRACE" info "$FULL/cap.llct" >/dev/null && ok || bad "capture on a full disk kept $n frames"
	fi
	umount "$FULL"
fi

# ---- concurrent writers: all runs land (busy timeout, creation under the write lock)
for i in 1 2 3 4 5 6; do
	"$LLCTRACE" replay a.llct -o c.db --policy lru,srrip --llc ${i}28KiB:16:64 -q >"c$i.out" 2>&1 &
done
wait
[ "$(sq c.db "SELECT count(*) FROM runs")" = 12 ] && [ "$(whole_runs c.db 3)" = 0 ] && ok || bad "concurrent writers: $(sq c.db "SELECT count(*) FROM runs") runs; $(cat c*.out)"

# ---- kill -9 while results are written: the file opens, is sound, holds whole runs
if command -v strace >/dev/null; then
	"$LLCTRACE" replay a.llct -o k.db --policy lru -q
	for i in 1 2 3 4 5 6; do
		# every write to the database file slowed, so the kill lands while it writes
		strace -f -qq -o /dev/null -e trace=pwrite64 -e inject=pwrite64:delay_enter=40000 \
			"$LLCTRACE" replay a.llct -o k.db --policy all -q 2>/dev/null &
		pid=$!
		sleep "0.$((1 + i))"
		pkill -9 -P $pid 2>/dev/null
		kill -9 $pid 2>/dev/null
		wait $pid 2>/dev/null
	done 2>/dev/null
	[ "$(sq k.db "PRAGMA integrity_check")" = ok ] && [ "$(whole_runs k.db 3)" = 0 ] && ok || bad "after kill -9: $(sq k.db "PRAGMA integrity_check" 2>&1 | head -3)"
	expect_rc 0 "$LLCTRACE" replay a.llct -o k.db --policy lru -q # still writable
else
	echo "test_faults: SKIPPING kill -9 while writing: no strace (setup.sh test installs it)"
fi

# ---- hostile traces: an index that lies about sizes is refused at open, named
cp a.llct h1.llct && sq h1.llct "UPDATE frames SET n_records = 1099511627776, n_chunks = 16777216 WHERE frame = 1"
expect_rc 1 "$LLCTRACE" replay h1.llct -o h.db --policy belady -q
expect_err "h1.llct': frame 1: the index says 16777216 chunks, the file holds"
cp a.llct h2.llct && sq h2.llct "WITH RECURSIVE n(i) AS (SELECT 100 UNION ALL SELECT i + 1 FROM n WHERE i < 200000) INSERT INTO frames(frame, n_chunks, n_records) SELECT i, 1, 65536 FROM n"
expect_rc 1 "$LLCTRACE" info h2.llct
expect_err "h2.llct': frame 100: the index says 1 chunks, the file holds 0"
cp a.llct h3.llct && sq h3.llct "UPDATE chunks SET n_records = 65536 WHERE frame = 0"
expect_rc 1 "$LLCTRACE" replay h3.llct -o h.db -q
expect_err "h3.llct': frame 0"
[ ! -e h.db ] || [ "$(sq h.db "SELECT count(*) FROM runs")" = 0 ] && ok || bad "a hostile trace left runs"
finish test_faults
