#!/usr/bin/env bash
# check_layers.sh - capture/'s sub-modules stay in layers. Each sub-module is a folder NN-NAME of
# capture/, numbered in the order they sit over each other, and the order is taken from those
# numbers: 01-base (the loader's plumbing, settings, the SPIR-V passes) up to 13-device (set-up,
# which wires the rest together). Checked: no file outside those folders; every header under 300
# lines; each header and source file includes (compiled alone: the compiler's list of what it
# includes, directly or not) only headers of its own sub-module and those below it; a file
# touches only the states of its sub-module and those below (c->tr, c->out, ...); and, given the
# layer's object files, its calls: from the symbols each object defines and uses (nm), every call
# across sub-modules goes down, a tier's functions are called only by a tier above it and the
# device sub-module (everything else goes through the tier_ops table in tier.h), and every symbol
# the objects define is prefixed (capture_, a sub-module's prefix, llct_). Fails naming each file
# that breaks a rule and what it should not see or call. Each header also compiles on its own.
#
# usage: check_layers.sh SOURCE_DIR GENERATED_DIR [LAYER_OBJECT...]
set -u
SRC=${1:?usage: check_layers.sh SOURCE_DIR GENERATED_DIR [LAYER_OBJECT...]}
GEN=${2:?}
shift 2
# ctest hands the objects ($<TARGET_OBJECTS:...>) as one ';'-separated argument
IFS=';' read -r -a objs <<<"$(printf '%s;' "$@")"
set --
for o in "${objs[@]}"; do [ -n "$o" ] && set -- "$@" "$o"; done
CC=${CC:-cc}
cd "$SRC/capture" || exit 1
fails=0 checks=0
bad() { fails=$((fails + 1)); echo "FAIL: $*" >&2; }
# the sub-modules, lowest first: the numbered folders
MODS=()
for d in [0-9][0-9]-*/; do [ -d "$d" ] && MODS+=("${d%/}"); done
[ ${#MODS[@]} -gt 1 ] || { echo "FAIL: no numbered sub-module folders (NN-NAME) in capture/" >&2; exit 1; }
# a sub-module's rank (its folder's number) by its name ("tier3"); "" when there is none
module_rank() {
	local m
	for m in "${MODS[@]}"; do
		[ "${m#*-}" = "$1" ] && { echo $((10#${m%%-*})); return; }
	done
	echo ""
}
# a file's sub-module from its path ("10-tier3/instr.h": tier3); the generated dispatch,
# intercept and format tables (llct_*) are the base's
file_module() {
	case "$1" in
	llct_* | */llct_*) echo base ;;
	[0-9][0-9]-*/*) local d=${1%%/*}; echo "${d#*-}" ;;
	*) echo "" ;;
	esac
}
rank() {
	local m
	m=$(file_module "$1")
	[ -n "$m" ] && module_rank "$m"
}
# the capture/ headers a file includes, directly or not, as the compiler finds them (every
# sub-module's folder is on the include path, as the build has it)
INCS=()
for m in "${MODS[@]}"; do INCS+=("-I$m"); done
deps() {
	local p
	"$CC" -MM -MG "${INCS[@]}" -I"$SRC/include" -I"$GEN" -x c "$1" 2>/dev/null | tr ' \\' '\n\n' |
		grep -E '\.h$' | while read -r p; do
		case "$p" in
		"$GEN"/*) basename "$p" ;;
		*) realpath -m --relative-to=. "$p" ;;
		esac
	done | grep -E '^(([0-9][0-9]-[a-z0-9]+/)?[a-z0-9_]+|llct_[a-z_]+)\.h$' | sort -u
}
for f in *; do
	case "$f" in
	[0-9][0-9]-*) [ -d "$f" ] && continue ;;
	esac
	bad "capture/$f is not in a sub-module's folder (NN-NAME): move it into the one it belongs to"
done
for h in */*.h; do
	checks=$((checks + 1))
	n=$(wc -l <"$h")
	[ "$n" -le 300 ] || bad "capture/$h is $n lines (at most 300: split it by what uses it)"
	# it compiles on its own: what it needs, it includes
	echo "#include \"${h#*/}\"" | "$CC" -fsyntax-only "${INCS[@]}" -I"$SRC/include" -I"$GEN" \
		-x c - 2>/dev/null || bad "capture/$h does not compile on its own: include what it needs"
	r=$(rank "$h")
	for d in $(deps "$h"); do
		[ "$d" = "$h" ] && continue
		dr=$(rank "$d")
		[ -n "$dr" ] && [ "$dr" -le "$r" ] ||
			bad "capture/$h ($(file_module "$h")) includes $d ($(file_module "$d")): a header sees its own sub-module and those below it"
	done
done
for f in */*.c; do
	checks=$((checks + 1))
	r=$(rank "$f")
	for d in $(deps "$f"); do
		dr=$(rank "$d")
		[ -n "$dr" ] && [ "$dr" -le "$r" ] ||
			bad "capture/$f ($(file_module "$f")) includes $d ($(file_module "$d")): above its own sub-module"
	done
done

# ---- state: a file touches the device record's sub-module states (c->tr, c->out, ...) of its
# own sub-module and those below it only ----
# the sub-module whose header declares each state the device record points to
state_module() {
	case "$1" in
	tr | ps) echo state ;; as) echo async ;; out) echo output ;; rs) echo record ;;
	walk) echo expansion ;; t2) echo tier2 ;; t3) echo tier3 ;; sub) echo submission ;;
	esac
}
for f in */*.c; do
	m=$(file_module "$f")
	r=$(module_rank "$m")
	for st in $(grep -oE '\bc_?->(tr|ps|as|out|rs|walk|t2|t3|sub)\b' "$f" | sed 's/.*->//' | sort -u); do
		o=$(state_module "$st")
		[ "$(module_rank "$o")" -le "$r" ] ||
			bad "capture/$f ($m) touches c->$st, the state of $o above it"
	done
done

# ---- calls, from the objects ----
# an object's sub-module: its source's folder (found by the file's name); of the generated
# tables, the intercept table (which calls every cap_* intercept) is the device's, the dispatch
# and format tables the base's
call_module() {
	local f
	case "$1" in llct_intercepts) echo device; return ;; llct_*) echo base; return ;; esac
	for f in */"$1".c; do
		[ -e "$f" ] && { file_module "$f"; return; }
	done
	echo ""
}
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
		[ -n "$m" ] || { bad "capture/$f.c is in no sub-module's folder"; continue; }
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
