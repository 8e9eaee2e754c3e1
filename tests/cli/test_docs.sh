#!/usr/bin/env bash
# test_docs.sh - the commands the docs show still work: README.md's "Using it" lines that need no
# display, GPU, Slurm or network run in order in a fresh folder (build/llctrace being the program
# under test), and every `llctrace sql results.db "..."` example of docs/RESULTS.md runs on a
# results database made the way its examples assume (a trace named cube.llct replayed with the
# policies, options and sizes they name); each must exit 0, and the SQL ones must print a table.
set -u
LLCTRACE=$(realpath "${1:?usage: test_docs.sh path/to/llctrace}")
SRC=$(cd "$(dirname "$0")/../.." && pwd)
T=$(mktemp -d /tmp/llct-cli-docs-XXXXXX)
trap 'rm -rf "$T"' EXIT
. "$(dirname "$0")/lib.sh"
cd "$T" || exit 1
mkdir -p build && ln -s "$LLCTRACE" build/llctrace

# README.md: the lines of "Using it" that run here and now
sed -n '/^## Using it/,/^Exit status/p' "$SRC/README.md" | grep '^build/llctrace ' |
	grep -v -e ' capture ' -e 'app.llct' -e '--slurm' -e '--open' -e 'help CMD' -e 'batch grid.ini' >readme.cmds
[ "$(wc -l <readme.cmds)" -ge 15 ] && ok || bad "README's Using it has only $(wc -l <readme.cmds) runnable lines"
while IFS= read -r line; do
	cmd=${line%%  #*} # the comment after the command
	bash -c "$cmd" >out 2>err && ok || bad "README: '$cmd' failed: $(head -c 300 err)"
done <readme.cmds

# docs/RESULTS.md's examples, on a results database they can all read: cube.llct (synthetic
# frames) with DRRIP, GSPC, Belady and Mockingjay per kernel (and flow) at 8 MiB, a size sweep,
# a one-pass curve, and a co-run with contention
"$LLCTRACE" synth -q -o cube.llct --count 2 --width 320 --height 192 --objects 40 || bad "synth"
"$LLCTRACE" replay cube.llct -p drrip,gspc,belady,mockingjay,nru --per-kernel -o results.db -q >/dev/null || bad "replay --per-kernel"
"$LLCTRACE" replay cube.llct -p lru,drrip --llc 2MiB,4MiB -o results.db -q >/dev/null || bad "replay sweep"
"$LLCTRACE" replay cube.llct --mrc 1MiB,2MiB,4MiB -o results.db -q >/dev/null || bad "replay --mrc"
"$LLCTRACE" synth -q -o vma.llct --kernel vma && "$LLCTRACE" synth -q -o agg1.llct --kernel agg1 || bad "synth kernels"
"$LLCTRACE" replay --corun vma.llct agg1.llct -p lru -o results.db -q >/dev/null || bad "replay --corun"
grep -h '^llctrace sql results.db "' "$SRC/docs/RESULTS.md" >results.cmds
[ "$(wc -l <results.cmds)" -ge 12 ] && ok || bad "RESULTS.md has only $(wc -l <results.cmds) sql examples"
while IFS= read -r line; do
	cmd=${line/#llctrace /\"$LLCTRACE\" }
	if bash -c "$cmd" >out 2>err && [ -s out ]; then ok; else bad "RESULTS.md: '$line' failed: $(head -c 300 err)"; fi
	# an example that names a trace finds rows of it (the examples are not empty by mistake)
	case "$line" in *cube.llct*) [ "$(wc -l <out)" -ge 3 ] && ok || bad "RESULTS.md: '$line' printed no row" ;; esac
done <results.cmds
finish docs
