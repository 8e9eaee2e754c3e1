#!/usr/bin/env bash
# demo.sh - the main job end to end on a default input: make a frame trace, show what is in it.
set -euo pipefail
LLCTRACE=${1:-build/llctrace}
out=${LLCT_DEMO_DIR:-out}
mkdir -p "$out"
echo "== llctrace synth: 4 frames of the deferred-renderer model, 1280x720"
"$LLCTRACE" synth -o "$out/frame.llct" --frames 4
echo "== llctrace info"
"$LLCTRACE" info "$out/frame.llct"
echo "== first records (llctrace dump --csv --frames 0)"
"$LLCTRACE" dump --csv --frames 0 "$out/frame.llct" | head -n 8
