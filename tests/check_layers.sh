#!/usr/bin/env bash
# check_layers.sh - capture/'s sub-modules stay in layers: every header in capture/ under 300
# lines; each sub-module header sees only those below it (compiled alone, the compiler's list
# of what it includes); each source file sees no header above its own sub-module. Given the
# layer's object files, also its calls: from the symbols each object defines and uses (nm), no
# loop of calls between sub-modules, and a tier's functions called only by a tier above it and
# device.c (everything else goes through the tier_ops table in tier.h); and from the sources,
# that a file touches only the states of its sub-module and those below; and that every symbol
# the objects define is prefixed (capture_, a sub-module's prefix, llct_). Fails naming each file
# that breaks a rule and what it should not see or call.
#
# usage: check_layers.sh SOURCE_DIR GENERATED_DIR [LAYER_OBJECT...]
set -u
SRC=${1:?usage: check_layers.sh SOURCE_DIR GENERATED_DIR [LAYER_OBJECT...]}
GEN=${2:?}
shift 2
# ctest hands the objects ($<TARGET_OBJECTS:...>) as one ';'-separated argument
IFS=';' read -r -a objs <<<"$(printf '%s;' "$@")"
set -- "${objs[@]}"
CC=${CC:-cc}
cd "$SRC/capture" || exit 1
# the order, lowest first: leaf helpers that see no sub-module, then the sub-modules, each over
# the one before it (capture.h: the device record over all of them)
rank() {
	case "$1" in
	layer.h | settings.h | tier.h | async.h | spirv.h | spirv_instr_int.h | jtext.h) echo 0 ;;
	core.h) echo 1 ;; track.h) echo 2 ;; pipes.h) echo 3 ;; record.h) echo 4 ;;
	output.h) echo 5 ;; walk.h) echo 6 ;; submit.h) echo 7 ;; capture.h) echo 8 ;;
	tier2/tier2.h) echo 9 ;; tier3/instr.h) echo 10 ;; # the tiers' own, above the device record
	*) echo "" ;;
	esac
}
# a source file's sub-module: the loader and the SPIR-V passes see only the leaf helpers, the
# handle map only core.h, track.c's and pipes.c's lookups only their headers; the rest work on
# the device record; a tier's files see its header and those of the tiers below, and device.c,
# which sets the tiers up, sees everything
file_rank() {
	case "$1" in
	layer.c | loader.c | settings.c | spirv*.c | jtext.c) echo 0 ;;
	hmap.c) echo 1 ;;
	track.c) echo 2 ;;
	pipes.c) echo 3 ;;
	tier2/*) echo 9 ;;
	tier3/* | device.c) echo 10 ;;
	*) echo 8 ;;
	esac
}
fails=0 checks=0
bad() { fails=$((fails + 1)); echo "FAIL: $*" >&2; }
# the capture/ headers a file includes, directly or not, as the compiler finds them
deps() {
	local p
	"$CC" -MM -MG -I. -I"$SRC/include" -I"$GEN" -x c "$1" 2>/dev/null | tr ' \\' '\n\n' |
		grep -E '\.h$' | while read -r p; do
		realpath -m --relative-to=. "$p"
	done | grep -E '^([a-z0-9_]+/)?[a-z0-9_]+\.h$' | sort -u
}
for h in *.h */*.h; do
	checks=$((checks + 1))
	n=$(wc -l <"$h")
	[ "$n" -le 300 ] || bad "capture/$h is $n lines (at most 300: split it by what uses it)"
	r=$(rank "$h")
	[ -n "$r" ] || { bad "capture/$h has no place in check_layers.sh's order: give it one"; continue; }
	for d in $(deps "$h"); do
		[ "$d" = "$h" ] && continue
		dr=$(rank "$d")
		# below it; the leaf helpers may use each other
		if [ -z "$dr" ] || { [ "$dr" -ge "$r" ] && [ "$r$dr" != 00 ]; }; then
			bad "capture/$h (layer $r) includes $d (layer ${dr:-?}): a header sees only those below it"
		fi
	done
done
for f in *.c */*.c; do
	checks=$((checks + 1))
	r=$(file_rank "$f")
	for d in $(deps "$f"); do
		dr=$(rank "$d")
		[ -n "$dr" ] && [ "$dr" -le "$r" ] ||
			bad "capture/$f (layer $r) includes $d (layer ${dr:-?}): above its own sub-module"
	done
done

# ---- state: a file touches the device record's sub-module states (c->tr, c->out, ...) of its
# own sub-module and those below it only ----
# the sub-module whose header declares each state the device record embeds
state_module() {
	case "$1" in
	tr | ps) echo state ;; as) echo async ;; out) echo output ;; rs) echo record ;;
	walk) echo expansion ;; t2) echo tier2 ;; t3) echo tier3 ;; sub) echo submission ;;
	esac
}
# the order of the sub-modules, lowest first (the order calls go down; checked below)
module_rank() {
	local i=0 m
	for m in base core state async output record expansion tier1 tier2 tier3 submission \
		tracking device; do
		[ "$m" = "$1" ] && { echo $i; return; }
		i=$((i + 1))
	done
	echo 99
}
# ---- calls, from the objects ----
# a source file's sub-module for calls, lowest first; a call loop inside one is allowed
call_module() {
	case "$1" in
	loader | settings | hmap | jtext | spirv* | llct_formats | llct_dispatch) echo base ;;
	core) echo core ;;               # handle -> device, logging, failure
	track | pipes) echo state ;;     # the tracked objects' lookups
	async) echo async ;;             # the expansion queue, turns, gates
	frames | renderdoc) echo output ;; # frames, kernels, sites, resources into the trace
	cmdbuf | record_* | queries) echo record ;;
	expand | describe | copies | index) echo expansion ;;
	tier1) echo tier1 ;;
	tier2 | geometry | shadow) echo tier2 ;;
	tier3 | instr | instr_draw | rooms) echo tier3 ;;
	submit | waits) echo submission ;;
	resources | pipelines | descriptors | passes | samplers | bda) echo tracking ;;
	device | features | layer | llct_intercepts) echo device ;; # wires it all together
	*) echo "" ;;
	esac
}
for f in *.c */*.c; do
	b=$(basename "$f" .c)
	m=$(call_module "$b")
	[ -n "$m" ] || continue
	r=$(module_rank "$m")
	for st in $(grep -oE '\bc_?->(tr|ps|as|out|rs|walk|t2|t3|sub)\b' "$f" | sed 's/.*->//' | sort -u); do
		o=$(state_module "$st")
		[ "$(module_rank "$o")" -le "$r" ] ||
			bad "capture/$f ($m) touches c->$st, the state of $o above it"
	done
done
if [ $# -gt 0 ]; then
	T=$(mktemp -d)
	trap 'rm -rf "$T"' EXIT
	: >"$T/defs"
	: >"$T/uses"
	for o in "$@"; do
		checks=$((checks + 1))
		f=$(basename "$o" .o)
		f=${f%.c}
		m=$(call_module "$f")
		[ -n "$m" ] || { bad "capture/$f.c has no sub-module in check_layers.sh's call_module: give it one"; continue; }
		nm "$o" | awk -v m="$m" -v f="$f" -v D="$T/defs" -v U="$T/uses" \
			'$2 ~ /^[TDBRC]$/ {print $3, m, f >>D} $1 == "U" {print $2, m, f >>U}'
	done
	[ -s "$T/defs" ] || bad "no symbols in the objects given ($*): nothing checked"
	# every external symbol prefixed, so a grep tells the layer's functions from libc's and
	# Vulkan's: llct_ (shared with the library), capture_ (the layer's own), cap_ (the generated
	# intercepts), vk (the loader's entry points), a sub-module's own (async_, instr_ for tier
	# 3's instrumentation, tier2_, rdc_ for RenderDoc, layer_ for the dispatch tables), and the
	# SPIR-V headers' one utility function, instantiated once in spirv_instr.c
	while read -r sym _ f; do
		case "$sym" in
		llct_* | capture_* | cap_* | vk* | async_* | instr_* | tier2_* | tier3_* | rdc_* | layer_*) ;;
		SpvHasResultAndType) ;;
		__*) ;; # the compiler's own (AddressSanitizer's __odr_asan.*)
		*) bad "capture/$f.c defines '$sym' without a prefix: name it capture_$sym (or its sub-module's prefix)" ;;
		esac
	done <"$T/defs"
	echo "check_layers: $(wc -l <"$T/defs") external symbols checked for a prefix"
	# caller-module callee-module caller-file callee-file symbol, across sub-modules
	awk 'NR == FNR {mod[$1] = $2; file[$1] = $3; next}
	     ($1 in mod) && mod[$1] != $2 {print $2, mod[$1], $3, file[$1], $1}' \
		"$T/defs" "$T/uses" | sort -u >"$T/edges"
	if ! cut -d' ' -f1,2 "$T/edges" | sort -u | tsort >/dev/null 2>"$T/loop"; then
		bad "a loop of calls between capture/'s sub-modules: $(grep -v 'input contains' "$T/loop" |
			sed 's/^tsort: //' | tr '\n' ' ')"
	fi
	while read -r from to ffile tfile sym; do
		[ "$(module_rank "$from")" -gt "$(module_rank "$to")" ] ||
			bad "capture/$ffile.c ($from) calls $sym of capture/$tfile.c ($to), above it"
		case "$to" in tier*) ;; *) continue ;; esac
		case "$from" in device | tier*) [ "$from" \> "$to" ] || [ "$from" = device ] && continue ;; esac
		bad "capture/$ffile.c ($from) calls $sym of capture/$tfile.c ($to): a tier is reached through tier_ops"
	done <"$T/edges"
	echo "check_layers: $(wc -l <"$T/edges") functions called across sub-modules," \
		"$(cut -d' ' -f1,2 "$T/edges" | sort -u | wc -l) pairs of sub-modules"
fi
echo "check_layers: $checks files, $fails failed"
[ "$fails" = 0 ]
