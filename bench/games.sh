#!/usr/bin/env bash
# games.sh - the real-game suite: installs each game named (Debian packages), captures a run of its
# gameplay frames headless (Xvfb, lavapipe; OpenGL games through Zink) at the chosen tiers, times
# the game's own frames against captured ones, replays every trace with every policy at 2, 4, 8 and
# 16 MiB (llctrace batch), writes DIR/GAME-tN.llct (packed after capture: llctrace pack),
# DIR/results.db, DIR/report.html, and prints a summary table. docs/GAMES.md explains each
# recipe and records what the suite measured.
#
# usage: bench/games.sh [--tier N]... [--res WxH] [--frames N] [--start N] [--timeout S]
#                       [--validate] [--no-replay] [-o DIR] GAME...   (GAME: a file in bench/games/)
#   --tier N      a tier to capture, 1, 2 or 3; repeat for several [1, 2 and 3]
#   --res WxH     window size [the recipe's: 1280x720, or 640x480 where 720p is too slow]
#   --frames N    frames to capture [the recipe's, 3]
#   --start N     first frame to capture [the recipe's: its first gameplay frame]
#   --timeout S   seconds one capture may take before the game's process group is ended [3600]
#   --validate    also run the game under the Khronos validation layer, once alone and once at
#                 tier 3 with the validation layer below llctrace, and list the messages only the
#                 second run has (caused by llctrace) apart from the game's own
#   --no-replay   capture and time only
#   -o DIR        where traces, results and the report go [games-out]
#
# Tier 3 runs with LLCT_CAPTURE_DRAW_ROOM=104857600 (the most the layer allows: real games' draws
# make tens of millions of texture reads a submission) unless the environment sets it.
# A frame of a program that presents through Vulkan is a present; OpenGL games on Zink under Xvfb
# make no swapchain, so a frame there is a Zink queue submission (docs/GAMES.md says how many a
# game frame has). Each game runs in a private HOME under DIR/home/GAME, written afresh by its
# recipe, and keeps Mesa's shader cache in DIR/cache/GAME between runs (a game's first run compiles
# every shader through LLVM). Needs root or sudo for the packages.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
LLCTRACE=${LLCTRACE:-$ROOT/build/llctrace}
TIERS="" RES="" FRAMES="" START="" TIMEOUT=3600 REPLAY=1 VALIDATE=0 OUT=games-out GAMES=""
usage() { sed -n '8,20p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
while [ $# -gt 0 ]; do
	case "$1" in
	--tier) case "${2:-}" in 1|2|3) TIERS="$TIERS $2" ;; *) echo "games.sh: bad --tier '${2:-}' (1, 2 or 3)" >&2; exit 2 ;; esac; shift 2 ;;
	--res) [[ "${2:-}" =~ ^[0-9]+x[0-9]+$ ]] || { echo "games.sh: bad --res '${2:-}' (WxH)" >&2; exit 2; }; RES=$2; shift 2 ;;
	--frames) [[ "${2:-}" =~ ^[1-9][0-9]*$ ]] || { echo "games.sh: bad --frames '${2:-}'" >&2; exit 2; }; FRAMES=$2; shift 2 ;;
	--start) [[ "${2:-}" =~ ^[0-9]+$ ]] || { echo "games.sh: bad --start '${2:-}'" >&2; exit 2; }; START=$2; shift 2 ;;
	--timeout) [[ "${2:-}" =~ ^[1-9][0-9]*$ ]] || { echo "games.sh: bad --timeout '${2:-}'" >&2; exit 2; }; TIMEOUT=$2; shift 2 ;;
	--no-replay) REPLAY=0; shift ;;
	--validate) VALIDATE=1; shift ;;
	-o) [ -n "${2:-}" ] || usage; OUT=$2; shift 2 ;;
	-h|--help) usage ;;
	-*) echo "games.sh: unknown option '$1'" >&2; usage ;;
	*) [ -f "$HERE/games/$1.sh" ] || { echo "games.sh: no recipe '$1' (bench/games/: $(cd "$HERE/games" && ls *.sh | sed 's/\.sh$//' | tr '\n' ' '))" >&2; exit 2; }
	   GAMES="$GAMES $1"; shift ;;
	esac
done
[ -n "$GAMES" ] || { echo "games.sh: name at least one game" >&2; usage; }
TIERS=${TIERS:-1 2 3}
[ -x "$LLCTRACE" ] || { echo "games.sh: no $LLCTRACE (./setup.sh build first)" >&2; exit 2; }
mkdir -p "$OUT" 2>/dev/null && OUT=$(cd "$OUT" && pwd) ||
	{ echo "games.sh: cannot make the output folder '$OUT' (a file is in the way, or no permission)" >&2; exit 1; }
. "$ROOT/scripts/xvfb.sh"
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
xvfb=""; PG=""
cleanup() {
	[ -n "$PG" ] && kill -KILL -- "-$PG" 2>/dev/null
	[ -n "$xvfb" ] && kill "$xvfb" 2>/dev/null
}
trap cleanup EXIT
trap 'exit 130' INT TERM

install() { # PACKAGES: the missing ones, from Debian
	local p missing=""
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
	done
	[ -z "$missing" ] && return 0
	echo "games: installing:$missing"
	$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null
}

# run_capture LOG TIMES ARGS...: llctrace capture ARGS in a process group of its own, ended as a
# whole (the game with it) after TIMEOUT seconds; returns capture's status (124: timed out).
run_capture() {
	local log=$1 times=$2 t=0 rc a out="" args=()
	shift 2
	rm -f "$times"
	# a game that will not run as root runs as nobody (setpriv in its command): the layer in it
	# writes the trace and the times into STAGE, which nobody owns, and they are moved back
	for a in "$@"; do
		if [ -n "$STAGE" ] && [ "${#args[@]}" -gt 0 ] && [ "${args[-1]}" = -o ]; then
			out=$a; a=$STAGE/${a##*/}
		fi
		args+=("$a")
	done
	local ctimes=$times
	[ -n "$STAGE" ] && ctimes=$STAGE/${times##*/}
	LLCT_CAPTURE_TIMES=$ctimes setsid "$LLCTRACE" capture "${args[@]}" >"$log" 2>&1 &
	PG=$!
	while kill -0 "$PG" 2>/dev/null; do
		sleep 1
		t=$((t + 1))
		if [ "$t" -ge "$TIMEOUT" ]; then
			kill -TERM -- "-$PG" 2>/dev/null; sleep 10; kill -KILL -- "-$PG" 2>/dev/null
			wait "$PG" 2>/dev/null; PG=""
			echo "games: timed out after ${TIMEOUT}s" >>"$log"
			return 124
		fi
	done
	wait "$PG"; rc=$?
	kill -KILL -- "-$PG" 2>/dev/null # whatever the game left behind
	PG=""
	if [ -n "$STAGE" ]; then
		[ -e "$ctimes" ] && mv -f "$ctimes" "$times"
		[ -n "$out" ] && [ -e "$STAGE/${out##*/}" ] && mv -f "$STAGE/${out##*/}" "$out"
	fi
	return $rc
}
STAGE=""

# layer_ms TIMES FIRST LAST COLUMN: mean milliseconds a frame the layer spent over frames
# FIRST+1..LAST, from LLCT_CAPTURE_TIMES's running totals (column 4: waiting for the device's
# counts, 5: expanding commands into records)
layer_ms() {
	awk -v a="$2" -v b="$3" -v k="$4" '$1 == a { t0 = $k } $1 == b { t1 = $k }
		END { if (t0 != "" && t1 != "" && b > a) printf "%.0f", (t1 - t0) * 1000 / (b - a); else printf "-" }' "$1"
}

# ms_per_frame TIMES FIRST LAST CAPTURED: mean milliseconds a frame over frames FIRST+1..LAST
# (each frame's end less the one before), of those with the captured flag CAPTURED.
ms_per_frame() {
	awk -v a="$2" -v b="$3" -v c="$4" '$1 == a { t0 = $2 } $1 > a && $1 <= b && $3 == c { n++; t1 = $2 }
		END { if (n && t0 != "") printf "%.0f", (t1 - t0) * 1000 / n; else printf "-" }' "$1"
}

export LLCT_CAPTURE_DRAW_ROOM=${LLCT_CAPTURE_DRAW_ROOM:-104857600}
SUMMARY=$OUT/summary.txt
: >"$SUMMARY.new"
rm -f "$OUT/validation.txt"
for game in $GAMES; do
	(
	# the recipe: GAME_PKGS, GAME_RES, GAME_START, GAME_FRAMES, GAME_API (gl or vk), game_setup
	# (writes the private HOME's config), game_cmd (the command line, a word a line)
	GAME_RES=1280x720 GAME_FRAMES=3 GAME_API=gl GAME_ENV=""
	. "$HERE/games/$game.sh"
	res=${RES:-$GAME_RES}; W=${res%x*}; H=${res#*x}
	start=${START:-$GAME_START}; n=${FRAMES:-$GAME_FRAMES}; last=$((start + n - 1))
	install $GAME_PKGS || { echo "games: $game: cannot install $GAME_PKGS" >&2; exit 1; }
	home=$OUT/home/$game
	rm -rf "$home"; mkdir -p "$home" "$OUT/cache/$game" "$OUT/log"
	export HOME=$home XDG_RUNTIME_DIR=$home/run MESA_SHADER_CACHE_DIR=$OUT/cache/$game
	export XDG_CONFIG_HOME=$home/.config XDG_DATA_HOME=$home/.local/share XDG_CACHE_HOME=$home/.cache
	mkdir -p -m 700 "$XDG_RUNTIME_DIR"
	game_setup "$W" "$H" || exit 1
	if [ "$GAME_API" = gl ]; then export LIBGL_ALWAYS_SOFTWARE=1 GALLIUM_DRIVER=zink; fi
	for kv in $GAME_ENV; do export "$kv"; done
	start_xvfb "${W}x${H}x24" || exit 1
	export DISPLAY=$display
	mapfile -t cmd < <(game_cmd "$W" "$H")
	if [ "${GAME_NOROOT:-0}" = 1 ] && [ "$(id -u)" = 0 ]; then
		STAGE=$OUT/stage-$game
		mkdir -p "$STAGE"
		chown -R nobody "$home" "$OUT/cache/$game" "$STAGE"
		cmd=(setpriv --reuid=nobody --regid=nogroup --clear-groups -- "${cmd[@]}")
	fi
	log=$OUT/log/$game
	# the game's own frame time: a hundred frames from start run through the layer uncaptured
	# (tier 1, so only state is tracked), the frame after them captured so -x ends the game
	# there; a hundred, as a program on lavapipe may queue several frames ahead of the device
	echo "games: $game: ${W}x$H, frames $start-$last, plain run" >&2
	run_capture "$log-plain.txt" "$log-plain.times" -t 1 -q -x -f $((start + 101)) \
		-o "$OUT/$game-plain.llct" -- "${cmd[@]}"
	plain=$(ms_per_frame "$log-plain.times" "$start" $((start + 100)) 0)
	rm -f "$OUT/$game-plain.llct"
	for t in $TIERS; do
		echo "games: $game: tier $t, frames $start-$last" >&2
		t0=$(date +%s)
		run_capture "$log-t$t.txt" "$log-t$t.times" -t "$t" -q -x -f "$start-$last" \
			-o "$OUT/$game-t$t.llct" -- "${cmd[@]}"
		rc=$?
		cap=$(ms_per_frame "$log-t$t.times" "$((start - 1))" "$last" 1)
		[ "$start" -eq 0 ] && cap=$(ms_per_frame "$log-t$t.times" 0 "$last" 1)
		# of a captured frame, the layer's waits for the device's counts and its expansion
		wait_ms=$(layer_ms "$log-t$t.times" "$((start - 1))" "$last" 4)
		exp_ms=$(layer_ms "$log-t$t.times" "$((start - 1))" "$last" 5)
		# and the expansion's CPU time (its thread's and tier 3's expansion threads')
		cpu_ms=$(layer_ms "$log-t$t.times" "$((start - 1))" "$last" 6)
		info=$("$LLCTRACE" info "$OUT/$game-t$t.llct" 2>/dev/null)
		frames=$(awk '/^frames/ { print $2 }' <<<"$info")
		recs=$(awk '/^records/ { print $2 }' <<<"$info")
		bpr=$(awk '/^compressed/ { print $4 }' <<<"$info")
		# what the device wrote for the layer (tier 3's shader records, tier 2's transform-
		# feedback vertices) and the layer's expansion per LLC record and per raw record
		raw=$(awk '$2 == "capture.raw.shader_records" { r = $3 } $2 == "capture.raw.xfb_vertices" { v = $3 } END { print r + v }' <<<"$info")
		nsrec=$(awk -v e="$exp_ms" -v r="$recs" -v f="$frames" 'BEGIN { if (e != "-" && r > 0 && f > 0) printf "%.0f", e * 1e6 * f / r; else printf "-" }')
		cpurec=$(awk -v e="$cpu_ms" -v r="$recs" -v f="$frames" 'BEGIN { if (e != "-" && r > 0 && f > 0) printf "%.0f", e * 1e6 * f / r; else printf "-" }')
		nsraw=$(awk -v e="$exp_ms" -v r="$raw" -v f="$frames" 'BEGIN { if (e != "-" && r > 0 && f > 0) printf "%.1f", e * 1e6 * f / r; else printf "-" }')
		# and per draw (the layer's expansion of a frame over the frame's draws, in µs)
		ndraws=$(sqlite3 "$OUT/$game-t$t.llct" "SELECT count(*) FROM kernels WHERE kind = 'draw'" 2>/dev/null)
		usdraw=$(awk -v e="$exp_ms" -v d="${ndraws:-0}" -v f="$frames" 'BEGIN { if (e != "-" && d > 0 && f > 0) printf "%.1f", e * 1e3 * f / d; else printf "-" }')
		# the trace packed afterwards (LZ4 high compression, off the capture's clock): the
		# same records in fewer bytes; pack's line says how many a record (it has decoded
		# every chunk it wrote, so no second info is needed)
		pbpr=- packed=
		[ -n "$frames" ] && packed=$("$LLCTRACE" pack "$OUT/$game-t$t.llct" 2>&1) &&
			pbpr=$(sed -n 's/.* -> \([0-9.]*\) bytes\/record.*/\1/p' <<<"$packed")
		echo "$packed" >>"$log-t$t.txt"
		# draws with exact positions, and (tier 3) draws and dispatches instrumented
		q() { sqlite3 "$OUT/$game-t$t.llct" "$1" 2>/dev/null; }
		draws=$(q "SELECT count(*) FROM kernels WHERE kind = 'draw'")
		exact=$(q "SELECT count(*) FROM kernels WHERE kind = 'draw' AND json_extract(params, '$.positions') = 'xfb'")
		# only what rows state: instrumented with records of its own, or nothing to instrument
		# (a depth-only pass); a row with no status, or one left to the model, is not counted;
		# a multi-draw's later sub-draws, whose records are on their first sub-draw's row
		# ("with"), are counted apart ("in first")
		instr=$(q "SELECT count(*) FROM kernels WHERE kind IN ('draw', 'dispatch') AND json_extract(params, '$.accesses') IN ('instrumented', 'none') AND json_extract(params, '$.with') IS NULL")
		infirst=$(q "SELECT count(*) FROM kernels WHERE kind = 'draw' AND json_extract(params, '$.accesses') = 'instrumented' AND json_extract(params, '$.with') IS NOT NULL")
		disp=$(q "SELECT count(*) FROM kernels WHERE kind = 'dispatch'")
		# a draw's row gives its command buffer's losses: the most a frame, summed
		lost=$(q "SELECT coalesce(sum(l), 0) FROM (SELECT max(json_extract(params, '$.lost')) AS l FROM kernels GROUP BY frame)")
		printf '%-14s %4s %6s %10s %11s %7s %7s %7s %7s %8s %8s %9s %9s %7s %8s %8s %13s %13s %8s %6s %s\n' "$game" "t$t" "${frames:--}" \
			"$([ -n "$frames" ] && [ "$frames" -gt 0 ] && echo $((recs / frames)) || echo -)" \
			"$([ -n "$frames" ] && [ "$frames" -gt 0 ] && echo $((raw / frames)) || echo -)" "$nsrec" "$cpurec" "$nsraw" "$usdraw" \
			"${bpr:--}" "${pbpr:--}" \
			"$plain" "$cap" "$([ "$plain" != - ] && [ "$cap" != - ] && awk -v a="$cap" -v b="$plain" 'BEGIN { printf "%.1fx", a / b }' || echo -)" \
			"$wait_ms" "$exp_ms" "${exact:-0}/${draws:-0}" "$([ "$t" = 3 ] && echo "${instr:-0}/$((${draws:-0} + ${disp:-0}))" || echo -)" \
			"$([ "$t" = 3 ] && echo "${infirst:-0}" || echo -)" "${lost:-0}" "$([ "$rc" = 0 ] && echo ok || echo "exit $rc")" >>"$SUMMARY.new"
	done
	if [ "$VALIDATE" = 1 ]; then
		# the game alone under validation, for as long as the plain run took to pass the
		# last frame, then tier 3 with validation below llctrace; messages by their VUID
		install vulkan-validationlayers || exit 1
		secs=$(awk -v f=$((last + 1)) '$1 == f { printf "%d", $2 + 15 }' "$log-plain.times")
		VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation setsid "${cmd[@]}" >"$log-val-game.txt" 2>&1 &
		PG=$!
		sleep "${secs:-120}"; kill -TERM -- "-$PG" 2>/dev/null; sleep 5; kill -KILL -- "-$PG" 2>/dev/null
		wait "$PG" 2>/dev/null; PG=""
		# with the layer's default record rooms (reached by device address where the device
		# has it, as lavapipe does, so they are bound by no storage-buffer range either way)
		LLCT_CAPTURE_DRAW_ROOM= VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation run_capture "$log-val-t3.txt" "$log-val-t3.times" \
			-t 3 -x -f "$start-$last" -o "$OUT/$game-val.llct" -- "${cmd[@]}"
		rm -f "$OUT/$game-val.llct"
		vuids() { grep -o 'Validation Error: \[ [A-Za-z0-9_:-]* \]' "$1" | sort | uniq -c | sort -rn; }
		vuids "$log-val-game.txt" >"$log-val-game.vuids"
		vuids "$log-val-t3.txt" >"$log-val-t3.vuids"
		ours=$(awk '{ print $5 }' "$log-val-t3.vuids" | sort -u | comm -23 - <(awk '{ print $5 }' "$log-val-game.vuids" | sort -u))
		printf '%s: validation: %d kinds of message from the game alone (%s), %d only with llctrace%s\n' \
			"$game" "$(grep -c . "$log-val-game.vuids")" "$log-val-game.vuids" "$(grep -c . <<<"$ours")" \
			"$([ -n "$ours" ] && echo ": $(tr '\n' ' ' <<<"$ours")")" >>"$OUT/validation.txt"
	fi
	kill "$xvfb" 2>/dev/null
	)
done
[ -s "$OUT/validation.txt" ] && cat "$OUT/validation.txt"

{
	printf '%-14s %4s %6s %10s %11s %7s %7s %7s %7s %8s %8s %9s %9s %7s %8s %8s %13s %13s %8s %6s %s\n' game tier frames rec/frame raw/frame ns/rec cpu/rec ns/raw us/draw B/rec packed \
		"plain ms" "capt ms" ratio "wait ms" "exp ms" "exact/draws" "instr/kern" "in first" lost status
	cat "$SUMMARY.new"
} >"$SUMMARY"
rm -f "$SUMMARY.new"
cat "$SUMMARY"

[ "$REPLAY" = 1 ] || exit 0
traces=$(cd "$OUT" && ls ./*-t[123].llct 2>/dev/null | tr '\n' ',' | sed 's/,$//')
[ -n "$traces" ] || { echo "games: no trace to replay" >&2; exit 1; }
cat >"$OUT/grid.ini" <<EOF
; written by bench/games.sh: every game trace, every policy, four LLC sizes, with pass-to-pass
; reuse (kernel_flow); and the GSPC talk's own LLCs: 8 and 16 MB, 16 ways, 64-byte lines, 2 MB a
; bank, uncached displayable colour, with the talk's policies (docs/REPLAY.md)
[grid games]
traces   = $traces
policies = all
sizes    = 2MiB, 4MiB, 8MiB, 16MiB
flow     = yes

[grid talk8]
traces   = $traces
policies = belady, drrip, nru, gspztc, gspztc-tse, gspc
sizes    = 8MiB
banks    = 4
ucd      = on
flow     = yes

[grid talk16]
traces   = $traces
policies = belady, drrip, nru, gspztc, gspztc-tse, gspc
sizes    = 16MiB
banks    = 8
ucd      = on
flow     = yes
EOF
"$LLCTRACE" batch "$OUT/grid.ini" -o "$OUT/results.db" || exit 1
"$LLCTRACE" report "$OUT/results.db" -o "$OUT/report.html" -q || exit 1
echo "== read hit rate at 8 MiB, RT->TEX and Z->TEX consumed, misses saved against DRRIP"
"$LLCTRACE" sql "$OUT/results.db" "SELECT replace(r.trace, '$OUT/', '') AS trace, r.policy,
	round(100.0 * sum(s.read_hits) / nullif(sum(s.reads), 0), 1) AS read_hit_pct,
	round(100 * (SELECT consumed_fraction FROM rt_tex_totals WHERE run_id = r.id), 1) AS rt_tex_pct,
	round(100 * (SELECT consumed_fraction FROM z_tex_totals WHERE run_id = r.id), 1) AS z_tex_pct,
	round(100 * (SELECT miss_saving FROM miss_savings_vs_drrip WHERE run_id = r.id), 1) AS vs_drrip_pct
	FROM runs r JOIN configs c ON c.run_id = r.id JOIN stream_stats s ON s.run_id = r.id
	WHERE r.llc_bytes = 8388608 AND c.config = '8MiB:16:64' AND c.latest GROUP BY r.id ORDER BY r.trace, r.policy"
echo "== policies from fewest misses to most at 8 MiB, tier by tier (where the tiers disagree)"
# (policies with the same misses are one step: "a = b")
"$LLCTRACE" sql "$OUT/results.db" "SELECT replace(trace, '$OUT/', '') AS trace, group_concat(tied, ' < ') AS ranking
	FROM (SELECT trace, misses, group_concat(policy, ' = ') AS tied FROM (SELECT r.trace, r.policy, r.misses
	FROM run_misses r JOIN configs c ON c.run_id = r.id WHERE r.llc_bytes = 8388608 AND c.config = '8MiB:16:64'
	AND c.latest ORDER BY r.trace, r.misses, r.policy) GROUP BY trace, misses ORDER BY trace, misses)
	GROUP BY trace ORDER BY trace"
echo "== pass to pass at 8 MiB: reads of another kernel's output, and the share that hit (flow_trace)"
"$LLCTRACE" sql "$OUT/results.db" "SELECT replace(t.trace, '$OUT/', '') AS trace, t.from_stream || '>' || t.to_stream AS flow,
	max(t.reads) AS reads, group_concat(t.policy || ' ' || round(100 * t.hit_rate, 1), ', ') AS hit_pct
	FROM (SELECT * FROM flow_trace WHERE llc_bytes = 8388608 AND latest AND config = '8MiB:16:64'
	AND policy IN ('belady', 'drrip', 'gspc', 'gspztc-tse', 'lru') ORDER BY policy) t
	GROUP BY t.trace, flow HAVING max(t.reads) >= 1000 ORDER BY t.trace, max(t.reads) DESC"
echo "games: traces, results.db and report.html in $OUT"
