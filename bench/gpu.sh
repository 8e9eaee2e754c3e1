#!/usr/bin/env bash
# gpu.sh - the check for a machine with a real Vulkan GPU: reports the driver and the features
# the capture layer relies on, captures the headless test programs at tiers 1, 2 and 3, checks
# that each trace's records (counts per frame, stream and op) equal lavapipe's where the program
# is deterministic, that each program's output is unchanged under the layer, and prints the
# plain run's time against the captured run's and the layer's own time account.
#
#   bench/gpu.sh --bundle DIR [BUILD]     copy what the check needs into DIR (the program, the
#                                         layer, the test programs, the probe, the libraries a
#                                         bare machine may lack, lavapipe's counts, this script)
#   bench/gpu.sh --reference FILE [BUILD] write lavapipe's counts (each capture made twice; a
#                                         program whose two traces differ is marked so)
#   DIR/gpu.sh [OUTDIR]                   run the check from a bundle (figures and traces in
#                                         OUTDIR, default a temporary folder)
#   bench/gpu.sh [OUTDIR]                 the same from the source tree, over build/
#
# On the GPU machine it needs only bash, coreutils, awk, the GPU's Vulkan driver and (if the
# machine has none) the loader, which the bundle carries with glvnd's dispatch libraries; it
# uses them only where ldconfig finds none of its own. It ends in a few minutes and prints
# what it could not do. Exit status: 0 all checks passed, 1 a check failed, 2 usage.
set -u
here=$(cd "$(dirname "$0")" && pwd)

# The runs: NAME FRAMES PROGRAM ARGS... (FRAMES: the range captured, "all" or a range of
# submissions; each program submits once a frame). ahead's first frames lose records by design
# (their room is too small until it grows), so only its later ones are compared.
RUNS=("clear_store all app_clear_store 3"
      "scene all app_scene 3"
      "gather all app_gather 3"
      "gather_bda all app_gather 2 bda"
      "gather_image all app_gather 2 image"
      "geometry all app_geometry 2"
      "features all app_features 2"
      "threads all app_threads 3"
      "deferred all app_deferred 3"
      "ahead 6-9 app_ahead 10"
      "words all app_words 2")

mode=run
case "${1:-}" in
--bundle|--reference) mode=${1#--}; shift ;;
-h|--help) sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
-*) echo "gpu.sh: unknown option '$1' (--bundle, --reference or an output folder)" >&2; exit 2 ;;
esac

# Where the pieces are: a bundle holds them side by side; the source tree has them in build/.
locate() { # locate [BUILD]
	if [ -x "$here/llctrace" ]; then
		LLCT=$here/llctrace; APPS=$here/apps; PROBE=$here/gpu_probe; REF=$here/gpu_ref.txt
	else
		local b=${1:-$here/../build}
		LLCT=$b/llctrace; APPS=$b/tests; PROBE=$b/bench/gpu_probe; REF=$here/gpu_ref.txt
	fi
	for f in "$LLCT" "$PROBE" "$APPS/app_scene"; do
		[ -x "$f" ] || { echo "gpu.sh: '$f' is missing (build first: cmake --build build)" >&2; exit 2; }
	done
}

if [ "$mode" = bundle ]; then
	dir=${1:?usage: gpu.sh --bundle DIR [BUILD]}
	locate "${2:-}"
	mkdir -p "$dir/apps" "$dir/layer" "$dir/lib" "$dir/loader" || exit 1
	cp "$LLCT" "$PROBE" "$0" "$dir/" && cp "$(dirname "$LLCT")"/layer/* "$dir/layer/" || exit 1
	cp "$here/gpu_ab.sh" "$dir/ab.sh" 2>/dev/null # the read-back memory A/B, beside it
	[ -f "$REF" ] && cp "$REF" "$dir/"
	for r in "${RUNS[@]}"; do set -- $r; cp "$APPS/$3" "$dir/apps/"; done
	# libraries the program and the layer link that a machine without Debian's may lack
	for lib in $(ldd "$LLCT" "$(dirname "$LLCT")"/layer/*.so | awk '/=> \//{print $3}' | sort -u); do
		case "$(basename "$lib")" in libc.so*|libm.so*|libpthread*|libdl*|librt*|ld-linux*) continue ;; esac
		cp -L "$lib" "$dir/lib/"
	done
	# the loader and glvnd's dispatch (NVIDIA's Vulkan driver lives in libGLX_nvidia)
	for lib in libvulkan.so.1 libGLdispatch.so.0 libGLX.so.0 libEGL.so.1; do
		p=$(ldconfig -p | awk -v l="$lib" '$1 == l && /x86-64/ {print $NF; exit}')
		[ -n "$p" ] && cp -L "$p" "$dir/loader/"
	done
	echo "gpu.sh: bundle in $dir ($(du -sh "$dir" | cut -f1)); run $dir/gpu.sh there"
	exit 0
fi

locate "${2:-}"
out=${1:-}
[ "$mode" = reference ] && out=""
[ -n "$out" ] || out=$(mktemp -d /tmp/llct-gpu-XXXXXX)
mkdir -p "$out" || exit 1
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-$out}
could_not=()

# Vulkan on a bare machine: the bundled loader only where the system has none, and NVIDIA's
# manifest where the loader's own folders hold no driver.
if [ "$mode" = run ] && [ -d "$here/loader" ]; then
	mkdir -p "$out/loader"
	for f in "$here"/loader/*; do
		[ -e "$f" ] || continue
		ldconfig -p 2>/dev/null | grep -q "^[[:space:]]*$(basename "$f") " ||
			{ ln -sf "$f" "$out/loader/"; echo "using the bundled $(basename "$f")"; }
	done
	export LD_LIBRARY_PATH="$here/lib:$out/loader${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
if [ -z "${VK_DRIVER_FILES:-}${VK_ICD_FILENAMES:-}" ] &&
	! grep -qil nvidia /usr/share/vulkan/icd.d/*.json /etc/vulkan/icd.d/*.json 2>/dev/null; then
	for j in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/local/nvidia/icd.d/nvidia_icd.json; do
		[ -f "$j" ] && { export VK_DRIVER_FILES=$j; echo "driver manifest: $j"; break; }
	done
fi

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }

# counts NAME TIER TRACE: "NAME TIER FRAME STREAM OP RECORDS" for every frame, stream and op
counts() {
	"$LLCT" dump --csv "$3" | awk -F, -v n="$1" -v t="$2" \
		'NR > 1 { c[$1 " " $3 " " $4]++ } END { for (k in c) print n, t, k, c[k]; if (NR < 2) print n, t, "- none - 0" }' |
		sort -k3,3n -k4,5
}

# compare TOL REF COUNTS: how many rows differ (a key in one only, or counts further apart than
# TOL of lavapipe's and 4 records), and the largest difference of a row, in percent
compare() {
	awk -v tol="$1" 'FNR == NR { r[$1 " " $2 " " $3 " " $4 " " $5] = $6; next }
		{ k = $1 " " $2 " " $3 " " $4 " " $5; seen[k] = 1
		  if (!(k in r)) d++; else { x = $6 - r[k]; if (x < 0) x = -x; if (x > tol * r[k] + (tol > 0) * 4) d++
		  if (r[k] > 0 && x / r[k] > m) m = x / r[k] } }
		END { for (k in r) if (!(k in seen)) d++; printf "%d %.1f%%\n", d, 100 * m }' "$2" "$3"
}

# capture NAME TIER FRAMES PROGRAM ARGS...: one capture into $out/NAME-tTIER.llct; prints its
# counts
capture() {
	local name=$1 tier=$2 frames=$3 prog=$APPS/$4; shift 4
	local range=(); [ "$frames" = all ] || range=(-f "$frames")
	timeout -k 5 120 "$LLCT" capture -q -t "$tier" "${range[@]}" -o "$out/$name-t$tier.llct" -- "$prog" "$@" \
		>"$out/$name-t$tier.out" 2>"$out/$name-t$tier.err" || return 1
	counts "$name" "$tier" "$out/$name-t$tier.llct"
}

if [ "$mode" = reference ]; then
	file=${1:?usage: gpu.sh --reference FILE [BUILD]}
	{
		echo "# lavapipe's records per frame, stream and op of bench/gpu.sh's captures"
		echo "# (NAME TIER FRAME STREAM OP RECORDS); made by: bench/gpu.sh --reference FILE"
		echo "# on $("$PROBE" | awk '/^driver /{sub(/^driver /, ""); print; exit}'), $(date -u +%Y-%m-%d)"
		for r in "${RUNS[@]}"; do
			set -- $r
			for tier in 1 2 3; do
				a=$(capture "$1" "$tier" "${@:2}") || { echo "# failed $1 $tier"; continue; }
				b=$(capture "$1" "$tier" "${@:2}") || { echo "# failed $1 $tier"; continue; }
				c=$(capture "$1" "$tier" "${@:2}") || { echo "# failed $1 $tier"; continue; }
				# runs that differ (tier 3's per-SM caches see records in the order the
				# device's threads appended them) are kept with a mark: compared within
				# a tolerance
				if [ "$a" = "$b" ] && [ "$a" = "$c" ]; then echo "$a"; else sed 's/^/~/' <<<"$a"; fi
			done
		done
	} >"$file.tmp" && mv "$file.tmp" "$file"
	echo "gpu.sh: wrote $file ($(grep -vc '^#' "$file") rows; $(grep '^~' "$file" | cut -d' ' -f1,2 | sort -u | wc -l) captures differ between runs)"
	rm -rf "$out"
	exit 0
fi

echo "== device ($(date -u +%Y-%m-%dT%H:%MZ), $(uname -m), $(nproc) cores)"
"$PROBE" | tee "$out/probe.txt" || { echo "gpu.sh: no Vulkan device; nothing else can run"; exit 1; }
grep -q "^transform_feedback yes" "$out/probe.txt" || could_not+=("tier 2 (no transform feedback: the layer falls back to tier 1)")
grep -q "^buffer_device_address yes" "$out/probe.txt" || could_not+=("tier 3 records by address (bufferDeviceAddress)")
grep -q "^fragment_stores yes" "$out/probe.txt" || could_not+=("tier 3 fragment records (fragmentStoresAndAtomics)")
[ -f "$REF" ] || could_not+=("comparison with lavapipe ($REF missing)")
echo "== captures (each program plain, then at tiers 1, 2, 3; seconds are whole runs, start included)"
printf '%-13s %4s %8s %8s %6s %10s %10s %9s %9s %8s  %s\n' run tier plain captured ratio records raw expanding waiting instr lavapipe
fails=0
for r in "${RUNS[@]}"; do
	set -- $r
	name=$1; frames=$2; prog=$3; shift 3
	t0=$(now)
	timeout -k 5 60 "$APPS/$prog" "$@" >"$out/$name.plain" 2>"$out/$name.plain.err" ||
		{ echo "$name: the program fails without the layer: $(head -c 200 "$out/$name.plain.err")"; fails=$((fails + 1)); continue; }
	plain=$(secs "$t0" "$(now)")
	for tier in 1 2 3; do
		t0=$(now)
		if ! capture "$name" "$tier" "$frames" "$prog" "$@" >"$out/$name-t$tier.counts"; then
			echo "$name tier $tier: capture failed: $(tail -c 300 "$out/$name-t$tier.err")"
			fails=$((fails + 1)); continue
		fi
		took=$(secs "$t0" "$(now)")
		info=$("$LLCT" info --kernels "$out/$name-t$tier.llct")
		recs=$(awk '/^records/{print $2; exit}' <<<"$info")
		raw=$(awk '$2 == "capture.raw.shader_records" { r = $3 } $2 == "capture.raw.xfb_vertices" { v = $3 } END { print r + v }' <<<"$info")
		expd=$(awk '$2 == "capture.seconds.expanding" {print $3}' <<<"$info")
		wait=$(awk '$2 == "capture.seconds.waiting_for_counts" {print $3}' <<<"$info")
		instr="-"
		[ "$tier" = 3 ] && instr="$(grep -cE '"accesses":"(instrumented|none)"' <<<"$info")/$(grep -cE '^[0-9]+ +[0-9]+ +(draw|dispatch) ' <<<"$info")"
		same="-"
		if [ -f "$REF" ]; then
			grep -E "^~?$name $tier " "$REF" | sed 's/^~//' >"$out/$name-t$tier.ref"
			# tier 3's per-SM caches see a draw's records in the order the device's
			# threads appended them, which varies run to run (lavapipe's own runs differ,
			# those marked ~ in the reference; an H200's 32-lane subgroups order them
			# otherwise again: up to 2.4% on gather's writes): compared within 5%
			tol=0; [ "$tier" = 3 ] && tol=0.05
			if [ ! -s "$out/$name-t$tier.ref" ]; then same="no reference"
			else
				read -r nd big < <(compare "$tol" "$out/$name-t$tier.ref" "$out/$name-t$tier.counts")
				if [ "$nd" = 0 ]; then
					same=same; [ "$tol" = 0 ] || same="same within 5%+4 (largest $big)"
				else same="DIFFERS ($nd rows, largest $big)"; fails=$((fails + 1)); fi
			fi
		fi
		if ! cmp -s "$out/$name.plain" "$out/$name-t$tier.out"; then
			same="$same; OUTPUT CHANGED"; fails=$((fails + 1))
		fi
		printf '%-13s %4s %8s %8s %6s %10s %10s %9s %9s %8s  %s\n' "$name" "$tier" "$plain" "$took" \
			"$(awk -v a="$took" -v b="$plain" 'BEGIN { printf "%.1fx", a / (b > 0 ? b : 1e-9) }')" \
			"$recs" "$raw" "${expd:--}" "${wait:--}" "$instr" "$same"
	done
done
# a frame's time apart from start-up: (a 40-frame run - a 10-frame run) / 30 captured (every
# frame), (310 - 10) / 300 plain, on the texture-heavy program (1.3 M texture samples a frame)
echo "== a frame's time (ahead: a 40-frame run less a 10-frame run, over 30; plain: 310 less 10 over 300; ms)"
printf '%-8s %9s %9s %9s %11s\n' tier frame ratio expanding "LLC records"
timed() { # timed FRAMES [TIER]: seconds of a run (plain without TIER); the trace as $out/ft.llct
	local t0; t0=$(now)
	if [ -z "${2:-}" ]; then timeout -k 5 120 "$APPS/app_ahead" "$1" >/dev/null 2>&1 || return 1
	else timeout -k 5 120 "$LLCT" capture -q -t "$2" -o "$out/ft$1.llct" -- "$APPS/app_ahead" "$1" >/dev/null 2>&1 || return 1; fi
	secs "$t0" "$(now)"
}
setting() { "$LLCT" info "$1" | awk -v k="$2" '$2 == k {print $3}'; }
if a=$(timed 10) && b=$(timed 310); then # a GPU's frame is well under a millisecond: 300 of them
	pf=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3f", (b - a) / 300 * 1000 }')
	printf '%-8s %9s\n' plain "$pf"
	for tier in 1 2 3; do
		if a=$(timed 10 $tier) && b=$(timed 40 $tier); then
			ea=$(setting "$out/ft10.llct" capture.seconds.expanding); eb=$(setting "$out/ft40.llct" capture.seconds.expanding)
			ra=$(awk '/^records/{print $2}' <<<"$("$LLCT" info "$out/ft10.llct")"); rb=$(awk '/^records/{print $2}' <<<"$("$LLCT" info "$out/ft40.llct")")
			awk -v a="$a" -v b="$b" -v pf="$pf" -v ea="${ea:-0}" -v eb="${eb:-0}" -v ra="$ra" -v rb="$rb" -v t="$tier" 'BEGIN {
				f = (b - a) / 30 * 1000; printf "%-8s %9.3f %8.1fx %9.3f %11d\n", "tier " t, f, f / (pf > 0 ? pf : 1e-9), (eb - ea) / 30 * 1000, (rb - ra) / 30 }'
		else echo "tier $tier: a capture of ahead failed"; fails=$((fails + 1)); fi
	done
else echo "ahead: the plain runs failed"; fails=$((fails + 1)); fi

# offon SETTING TAG FRAMES PROGRAM ARGS...: tier 3 with SETTING=0, then =1: the raw records the
# device wrote, its wait, the expansion and the LLC records per stream (the same within 5%: the
# order the device's threads append records moves per-SM cache hits)
offon() {
	local var=$1 tag=$2 frames=$3; shift 3
	printf '%-9s %10s %9s %9s %9s  %s\n' "$tag" raw seconds waiting expanding "LLC counts"
	for v in 0 1; do
		local t0 took same="-" n=$tag$v; t0=$(now)
		if (export "$var=$v"; capture "$n" 3 "$frames" "$@") >"$out/$n.named"; then
			sed "s/^$n /$tag /" "$out/$n.named" >"$out/$n.counts" # only the numbers compared
			took=$(secs "$t0" "$(now)")
			[ "$v" = 1 ] && { read -r nd big < <(compare 0.05 "$out/${tag}0.counts" "$out/${tag}1.counts"); [ "$nd" = 0 ] && same="same within 5%+4 (largest $big)" || { same="DIFFERS ($nd rows, largest $big)"; fails=$((fails + 1)); }; }
			printf '%-9s %10s %9s %9s %9s  %s\n' "$v" "$(setting "$out/$n-t3.llct" capture.raw.shader_records)" "$took" \
				"$(setting "$out/$n-t3.llct" capture.seconds.waiting_for_counts)" "$(setting "$out/$n-t3.llct" capture.seconds.expanding)" "$same"
		else echo "$tag $v: the capture failed"; fails=$((fails + 1)); fi
	done
}
# tier 3's records sent one a sample against coalesced in the subgroup (LLCT_CAPTURE_COALESCE)
echo "== fewer records (ahead, frames 10-11 of 12, tier 3: coalescing off, on)"
offon LLCT_CAPTURE_COALESCE coalesce 10-11 app_ahead 12
grep -q "^coalesce yes" "$out/probe.txt" || could_not+=("tier 3 coalescing (subgroup ballot, arithmetic and shuffle)")
# runs (LLCT_CAPTURE_RUNS): a record a load against one a run of constant-offset loads, on the
# program that reads its uniforms a component at a time as Zink's shaders do (vertex shaders
# too where the device runs subgroup operations there)
echo "== runs (words, 2 frames, tier 3: runs off, on)"
offon LLCT_CAPTURE_RUNS runs all app_words 2

for f in "$out"/*-t*.counts; do
	ref=${f%.counts}.ref
	[ -f "$ref" ] && [ "$(compare 0.05 "$ref" "$f" | cut -d' ' -f1)" != 0 ] && { echo "-- $(basename "${f%.counts}"): lavapipe (<) against this device (>), first rows"; diff "$ref" "$f" | grep '^[<>]' | head -8; }
done
echo "== could not"
[ ${#could_not[@]} -eq 0 ] && echo "nothing left out"
for c in "${could_not[@]}"; do echo "$c"; done
echo "== traces, counts and logs in $out"
echo "gpu.sh: $fails checks failed"
[ "$fails" -eq 0 ]
