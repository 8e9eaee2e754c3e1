#!/usr/bin/env bash
# check_functions.sh - no C function in the tree longer than 150 lines unless the comment just
# above it says why ("Long because ..."). A function is counted from its opening brace at the
# start of a line to its closing one (the layout clang-format gives every file here). Fails
# naming each function over the limit without a reason.
#
# usage: check_functions.sh SOURCE_DIR
set -u
cd "${1:?usage: check_functions.sh SOURCE_DIR}" || exit 1
LIMIT=150
fails=0
n=0
while IFS= read -r f; do
	n=$((n + 1))
	out=$(awk -v L=$LIMIT -v F="$f" '
		# the comment block just above a function: what it says, joined
		/^\/\*/ { cmt = ""; in_c = 1 }
		in_c { cmt = cmt " " $0; if ($0 ~ /\*\//) in_c = 0; next }
		/^[a-zA-Z_].*\(/ && !in_c { sig = $0; sig_cmt = cmt; if ($0 !~ /;[ \t]*$/) sigline = NR }
		/^\{/ { start = NR; name = sig; why = sig_cmt }
		/^\}/ && start { len = NR - start + 1
			if (len > L && why !~ /Long because/) {
				sub(/\(.*/, "", name); k = split(name, w, /[ *]+/)
				printf "%s: %s is %d lines (at most %d, or say why above it: \"Long because ...\")\n", F, w[k], len, L
			}
			start = 0; cmt = "" }
		/^$/ { if (!start) cmt = "" }' "$f")
	if [ -n "$out" ]; then
		echo "FAIL: $out" >&2
		fails=$((fails + $(printf '%s\n' "$out" | wc -l)))
	fi
done < <(git ls-files '*.c' 2>/dev/null || find . -name '*.c' -not -path './build*')
echo "check_functions: $n files, $fails functions over $LIMIT lines without a reason"
[ "$fails" = 0 ]
