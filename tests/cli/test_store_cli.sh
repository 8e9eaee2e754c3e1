#!/usr/bin/env bash
# test_store_cli.sh - whole-command tests of help, version, import, dump, info and pack.
set -u
LLCTRACE=${1:?usage: test_store_cli.sh path/to/llctrace}
T=$(mktemp -d /tmp/llct-cli-XXXXXX)
trap 'rm -rf "$T"' EXIT
. "$(dirname "$0")/lib.sh"

# help and version
expect_rc 0 "$LLCTRACE" --help; grep -q import "$T/out" && ok || bad "--help lacks import"
expect_rc 0 "$LLCTRACE" help dump; grep -q -- --frames "$T/out" && ok || bad "help dump"
expect_rc 0 "$LLCTRACE" dump --help; grep -q -- --csv "$T/out" && ok || bad "dump --help"
expect_rc 0 "$LLCTRACE" --version; grep -qE '^llctrace [0-9.]+ \(trace format [0-9]+\)$' "$T/out" && ok || bad "--version"
expect_rc 2 "$LLCTRACE"
expect_rc 2 "$LLCTRACE" frobnicate; expect_err "'frobnicate' is not an llctrace command"
[ "$(wc -l <"$T/err")" -eq 1 ] && ok || bad "unknown command message is not one line"
expect_rc 2 "$LLCTRACE" --bogus
expect_rc 2 "$LLCTRACE" dump --bogus x.llct; expect_err "unknown option '--bogus'"
expect_rc 2 "$LLCTRACE" import --csv; expect_err "needs a value"
expect_rc 2 "$LLCTRACE" import --csv a.csv
expect_rc 2 "$LLCTRACE" help nosuch
expect_rc 2 "$LLCTRACE" dump --frames 7-3 x.llct; expect_err "bad frame range"

# import -> dump is the identity on a canonical CSV (with random records)
awk 'BEGIN { srand(3); print "frame,addr,stream,op,sm,kernel,tenant";
  split("VTX HIZ Z STC RT TEX DISP CS OTHER", s, " ");
  for (f = 0; f < 4; f++) for (i = 0; i < 3000 + f * 7; i++)
    printf "%d,0x%x,%s,%s,%d,%d,%d\n", f * 3, int(rand() * 2^40), s[1 + int(rand() * 9)],
      (rand() < .5 ? "R" : "W"), int(rand() * 65536), int(rand() * 4294967295), int(rand() * 3) }' >"$T/in.csv"
printf '9,0xffffffffffffffff,DISP,W,65535,4294967295,65535\n' >>"$T/in.csv"
expect_rc 0 "$LLCTRACE" import --csv "$T/in.csv" -o "$T/a.llct"
expect_rc 0 "$LLCTRACE" dump --csv "$T/a.llct"
cmp -s "$T/out" "$T/in.csv" && ok || bad "import then dump --csv is not the identity"
# decimal addresses come back as hex with the same value
printf 'frame,addr,stream,op,sm,kernel,tenant\n1,4096,TEX,R,0,0,0\n' >"$T/dec.csv"
expect_rc 0 "$LLCTRACE" import --csv "$T/dec.csv" -o "$T/dec.llct"
expect_rc 0 "$LLCTRACE" dump --csv "$T/dec.llct"
grep -qx '1,0x1000,TEX,R,0,0,0' "$T/out" && ok || bad "decimal address not kept"
# frame selection
expect_rc 0 "$LLCTRACE" dump --csv --frames 3-6 "$T/a.llct"
[ "$(tail -n +2 "$T/out" | cut -d, -f1 | sort -u | tr '\n' ' ')" = "3 6 " ] && ok || bad "dump --frames"
# aligned text
expect_rc 0 "$LLCTRACE" dump --frames 9 "$T/a.llct"
grep -q '0xffffffffffffffff  DISP' "$T/out" && ok || bad "dump text"
# info
expect_rc 0 "$LLCTRACE" info "$T/a.llct"
grep -qE '^records +12043$' "$T/out" && ok || bad "info records: $(grep records "$T/out")"
grep -qE '^frames +4 \(0\.\.9\)' "$T/out" && ok || bad "info frames"
grep -qE '^DISP ' "$T/out" && ok || bad "info streams"
grep -q 'bytes/record' "$T/out" && ok || bad "info size"

# a bad CSV line: message with file and line, exit 1, no output left behind
sed '1500s/.*/0,0x10,TXE,R,1,1,0/' "$T/in.csv" >"$T/bad.csv"
expect_rc 1 "$LLCTRACE" import --csv "$T/bad.csv" -o "$T/bad.llct"
expect_err "bad.csv': line 1500"
[ ! -e "$T/bad.llct" ] && ok || bad "bad import left a file"
[ -z "$(ls "$T" | grep tmp-)" ] && ok || bad "bad import left a temporary file"
# an existing output survives a failed import
cp "$T/a.llct" "$T/keep.llct"
expect_rc 1 "$LLCTRACE" import --csv "$T/bad.csv" -o "$T/keep.llct"
cmp -s "$T/a.llct" "$T/keep.llct" && ok || bad "failed import damaged the existing output"
expect_rc 1 "$LLCTRACE" import --csv "$T/none.csv" -o "$T/x.llct"; expect_err "none.csv"

# corrupt, foreign and missing traces
echo "just text" >"$T/text.llct"
expect_rc 1 "$LLCTRACE" info "$T/text.llct"; expect_err "text.llct': not an llctrace trace"
expect_rc 1 "$LLCTRACE" dump "$T/missing.llct"; expect_err "missing.llct"
if command -v sqlite3 >/dev/null; then
	cp "$T/a.llct" "$T/flip.llct"
	sqlite3 "$T/flip.llct" "UPDATE chunks SET data = substr(data,1,30) || x'00' || substr(data,32) WHERE frame = 6"
	expect_rc 1 "$LLCTRACE" dump --csv "$T/flip.llct"; expect_err "flip.llct': frame 6 chunk"
	# frames before the bad one were already printed
	grep -q '^3,' "$T/out" && ok || bad "frames before the corrupt chunk not printed"
fi
# pack: the same records in fewer bytes, the trace's id and a setting saying so; level 0 gives
# back the blobs the writer made
bytes() { sqlite3 "$1" "SELECT sum(length(data)) FROM chunks"; }
cp "$T/a.llct" "$T/p.llct"
expect_rc 0 "$LLCTRACE" pack "$T/p.llct"; expect_err "p.llct' at level 9"
expect_rc 0 "$LLCTRACE" dump --csv "$T/p.llct"
cmp -s "$T/out" "$T/in.csv" && ok || bad "pack changed the records"
[ "$(bytes "$T/p.llct")" -lt "$(bytes "$T/a.llct")" ] && ok || bad "pack did not shrink the chunks"
[ "$(sqlite3 "$T/p.llct" "SELECT value FROM settings WHERE key IN ('pack.level', 'trace_id') ORDER BY key" | tr '\n' ' ')" = \
	"9 $(sqlite3 "$T/a.llct" "SELECT value FROM settings WHERE key = 'trace_id'") " ] && ok || bad "pack.level or trace_id"
[ "$(stat -c %s "$T/p.llct")" -le "$(stat -c %s "$T/a.llct")" ] && ok || bad "pack left the file larger"
expect_rc 0 "$LLCTRACE" pack -q --level 0 "$T/p.llct"
[ ! -s "$T/err" ] && ok || bad "pack -q printed: $(cat "$T/err")"
[ "$(sqlite3 "$T/p.llct" "SELECT hex(group_concat(data, '')) FROM chunks ORDER BY id" | sha1sum)" = \
	"$(sqlite3 "$T/a.llct" "SELECT hex(group_concat(data, '')) FROM chunks ORDER BY id" | sha1sum)" ] && ok || bad "level 0 is not the writer's encoding"
expect_rc 2 "$LLCTRACE" pack --level 13 "$T/p.llct"; expect_err "0..12"
expect_rc 2 "$LLCTRACE" pack
# not a trace, or missing: named, exit 1, and the other traces are still packed
cp "$T/text.llct" "$T/text2.llct"
expect_rc 1 "$LLCTRACE" pack "$T/text2.llct" "$T/missing.llct" "$T/p.llct"
expect_err "text2.llct"; expect_err "missing.llct"; expect_err "p.llct' at level 9"
cmp -s "$T/text.llct" "$T/text2.llct" && ok || bad "pack changed a file that is not a trace"
if command -v sqlite3 >/dev/null; then
	# a corrupt chunk: named with its frame, exit 1, the trace as it was
	cp "$T/flip.llct" "$T/flip2.llct"
	expect_rc 1 "$LLCTRACE" pack "$T/flip2.llct"; expect_err "flip2.llct': chunk"; expect_err "(frame 6)"
	cmp -s "$T/flip.llct" "$T/flip2.llct" && ok || bad "a failed pack changed the trace"
fi

# a full disk: writing to /dev/full fails with a message
if [ -w /dev/full ]; then
	expect_rc 1 sh -c "\"$LLCTRACE\" dump --csv \"$T/a.llct\" >/dev/full"
	expect_err "cannot write"
fi

finish "cli store"
