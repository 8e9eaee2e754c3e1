#!/usr/bin/env bash
# check_layers.sh - capture/'s sub-modules stay in layers: every header in capture/ under 300
# lines; each sub-module header sees only those below it (compiled alone, the compiler's list
# of what it includes); each source file sees no header above its own sub-module. Fails on the
# first file that breaks a rule, naming it and the header it should not see.
#
# usage: check_layers.sh SOURCE_DIR GENERATED_DIR
set -u
SRC=${1:?usage: check_layers.sh SOURCE_DIR GENERATED_DIR}
GEN=${2:?}
CC=${CC:-cc}
cd "$SRC/capture" || exit 1
# the order, lowest first: leaf helpers that see no sub-module, then the sub-modules, each over
# the one before it (capture.h: the device record over all of them)
rank() {
	case "$1" in
	layer.h | settings.h | tier.h | async.h | spirv.h | spirv_instr_int.h) echo 0 ;;
	core.h) echo 1 ;; track.h) echo 2 ;; pipes.h) echo 3 ;; record.h) echo 4 ;;
	output.h) echo 5 ;; walk.h) echo 6 ;; instr.h) echo 7 ;; capture.h) echo 8 ;;
	*) echo "" ;;
	esac
}
# a source file's sub-module: the loader and the SPIR-V passes see only the leaf helpers, the
# handle map only core.h, track.c's and pipes.c's lookups only their headers; the rest work on
# the device record
file_rank() {
	case "$1" in
	layer.c | settings.c | spirv*.c) echo 0 ;;
	hmap.c) echo 1 ;;
	track.c) echo 2 ;;
	pipes.c) echo 3 ;;
	*) echo 8 ;;
	esac
}
fails=0 checks=0
bad() { fails=$((fails + 1)); echo "FAIL: $*" >&2; }
# the capture/ headers a file includes, directly or not, as the compiler finds them
deps() {
	"$CC" -MM -MG -I. -I"$SRC/include" -I"$GEN" -x c "$1" 2>/dev/null | tr ' \\' '\n\n' |
		grep -E '^[a-z_]+\.h$' | sort -u
}
for h in *.h; do
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
for f in *.c; do
	checks=$((checks + 1))
	r=$(file_rank "$f")
	for d in $(deps "$f"); do
		dr=$(rank "$d")
		[ -n "$dr" ] && [ "$dr" -le "$r" ] ||
			bad "capture/$f (layer $r) includes $d (layer ${dr:-?}): above its own sub-module"
	done
done
echo "check_layers: $checks files, $fails failed"
[ "$fails" = 0 ]
