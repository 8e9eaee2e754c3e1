#!/usr/bin/env bash
# test_game_smoke.sh - one real game through the suite, small: Neverball (OpenGL through Zink) at
# 640x480, two gameplay frames captured at tier 3 by bench/games.sh, then replayed. Checks that
# the frames are gameplay (hundreds of draws each, textures read), that every draw was exact and
# instrumented and no record was lost, that the game's own frame time and the capture's were
# measured, and that the trace replays. Skipped where Neverball is not installed (setup.sh test
# installs it).
set -u
LLCTRACE=${1:?usage: test_game_smoke.sh llctrace source-dir}
SRC=${2:?}
T=$(mktemp -d /tmp/llct-game-XXXXXX)
trap 'rm -rf "$T"' EXIT
. "$(dirname "$0")/lib.sh"
# the suite's own checks of its command line need no game
G=$SRC/bench/games.sh S=$SRC/bench/soak.sh
expect_rc 2 bash "$G" --tier 4 neverball; expect_err "games.sh: bad --tier '4' (1, 2 or 3)"
expect_rc 2 bash "$G" --bogus neverball; expect_err "games.sh: unknown option '--bogus'"
expect_rc 2 bash "$G" nosuchgame; expect_err "games.sh: no recipe 'nosuchgame' (bench/games/: 0ad minetest neverball"
expect_rc 2 bash "$G" --res 640 neverball; expect_err "games.sh: bad --res '640' (WxH)"
: >"$T/afile"
expect_rc 1 bash "$G" -o "$T/afile" neverball; expect_err "games.sh: cannot make the output folder '$T/afile'"
[ -f "$T/afile" ] && [ ! -s "$T/afile" ] && ok || bad "games.sh touched the file in its way"
expect_rc 2 bash "$S" --tier 5 neverball; expect_err "soak.sh: bad --tier '5' (1, 2 or 3)"
expect_rc 2 bash "$S" --minutes; expect_err "soak.sh: bad --minutes ''"
expect_rc 2 bash "$S" nosuchgame; expect_err "soak.sh: name one game of bench/games/ (0ad minetest"
expect_rc 1 bash "$S" -o "$T/afile" neverball; expect_err "soak.sh: cannot make the output folder"
if [ ! -x /usr/games/neverball ]; then
	echo "test_game_smoke: SKIPPING: no /usr/games/neverball (setup.sh test installs it)"
	echo "test_game_smoke: $((checks - fails)) passed, $fails failed, 1 skipped"
	[ "$fails" -eq 0 ]; exit
fi
# the suite itself, as a user runs it (its shader cache stays in $T: a cold start, as on CI),
# the expansion on one thread (so its CPU time is within its wall time)
LLCT_CAPTURE_EXPAND_THREADS=1 LLCTRACE=$LLCTRACE bash "$SRC/bench/games.sh" --tier 3 --res 640x480 --frames 2 --timeout 240 \
	--no-replay -o "$T/suite" neverball >"$T/suite.txt" 2>&1
rc=$?
[ "$rc" = 0 ] && ok || bad "games.sh exited $rc: $(tail -5 "$T/suite.txt")"
tr=$T/suite/neverball-t3.llct
row=$(awk '$1 == "neverball" && $2 == "t3"' "$T/suite/summary.txt" 2>/dev/null)
[ "$(awk '{ print $NF }' <<<"$row")" = ok ] && ok || bad "summary row: '$row'"
q() { sqlite3 -batch -noheader "$tr" "$1"; }
[ "$(q "SELECT count(*) FROM frames")" = 2 ] && ok || bad "frames: $(q "SELECT group_concat(frame) FROM frames")"
# gameplay: every captured frame draws the level (up to ~760 draws a submission at 640x480;
# Zink splits some frames over two submissions), not a loading screen (no draws)
[ "$(q "SELECT min(n) > 200 FROM (SELECT count(*) AS n FROM kernels WHERE kind = 'draw' GROUP BY frame)")" = 1 ] \
	&& ok || bad "draws a frame: $(q "SELECT frame, count(*) FROM kernels WHERE kind = 'draw' GROUP BY frame" | tr '\n' ' ')"
[ "$(q "SELECT count(*) FROM kernels WHERE kind = 'draw' AND (json_extract(params, '$.positions') <> 'xfb' OR coalesce(json_extract(params, '$.accesses'), '') <> 'instrumented')")" = 0 ] \
	&& ok || bad "draws not exact or not instrumented: $(q "SELECT params FROM kernels WHERE kind = 'draw' AND coalesce(json_extract(params, '$.accesses'), '') <> 'instrumented' LIMIT 2")"
[ "$(q "SELECT coalesce(max(json_extract(params, '$.lost')), 0) FROM kernels")" = 0 ] && ok || bad "records lost"
# frame times measured: the plain one and the captured one are numbers
[[ "$(awk '{ print $12 " " $13 }' <<<"$row")" =~ ^[0-9]+\ [0-9]+$ ]] && ok || bad "frame times not measured: '$row'"
# the layer's time a draw (us/draw): a number; its CPU time an LLC record (cpu/rec): a number
# above zero and, with one expansion thread, no more than its wall time (ns/rec)
[[ "$(awk '{ print $9 }' <<<"$row")" =~ ^[0-9]+\.[0-9]$ ]] && ok || bad "us/draw not measured: '$row'"
[ "$(awk '{ print ($7 ~ /^[0-9]+$/ && $7 > 0 && $7 <= $6 + 1) }' <<<"$row")" = 1 ] && ok || bad "cpu/rec not measured: '$row'"
# the trace was packed after capture: smaller a record than captured, and says so
[ "$(awk '{ print ($11 > 0 && $11 < $10) }' <<<"$row")" = 1 ] && ok || bad "not packed smaller: '$row'"
# every draw and dispatch counted once: instrumented (or none) with its own records, or in its
# multi-draw's first sub-draw ("in first"), against the trace's own rows
n_kern=$(q "SELECT count(*) FROM kernels WHERE kind IN ('draw', 'dispatch')")
[ "$(awk '{ split($18, a, "/"); print a[1] + $19 "/" a[2] }' <<<"$row")" = "$n_kern/$n_kern" ] \
	&& ok || bad "instr/kern and in first against $n_kern kernels: '$row'"
[ "$(q "SELECT value FROM settings WHERE key = 'pack.level'")" = 9 ] && ok || bad "pack.level"
expect_rc 0 "$LLCTRACE" info "$tr"
expect_out '^TEX +[1-9]'
expect_rc 0 "$LLCTRACE" replay "$tr" -p lru,drrip,gspc -q -o "$T/r.db"
[ "$(sqlite3 "$T/r.db" "SELECT count(*) FROM runs")" = 3 ] && ok || bad "runs"
[ "$(sqlite3 "$T/r.db" "SELECT count(*) FROM z_tex_totals")" = 3 ] && ok || bad "Z->TEX rows"
finish test_game_smoke
