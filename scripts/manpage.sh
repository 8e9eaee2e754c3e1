#!/usr/bin/env bash
# manpage.sh - writes llctrace's manual page (troff, man(7)) from the program's own help: the
# main help, then every command's `llctrace help COMMAND`, so the page cannot drift from it.
#   scripts/manpage.sh path/to/llctrace OUT.1
set -euo pipefail
LLCTRACE=${1:?usage: manpage.sh LLCTRACE OUT.1}
OUT=${2:?}
esc() { sed -e 's/\\/\\e/g' -e 's/^\./\\\&./' -e "s/^'/\\\\\\&'/"; }
version=$("$LLCTRACE" --version | awk '{ print $2 }')
{
	echo ".TH LLCTRACE 1 \"\" \"llctrace $version\" \"User Commands\""
	echo ".SH NAME"
	echo "llctrace \\- capture GPU frames' last-level-cache traffic and replay it through cache models"
	echo ".SH SYNOPSIS"
	echo ".B llctrace"
	echo "[\\-\\-version] [\\-\\-help] COMMAND [ARGS]"
	echo ".SH DESCRIPTION"
	echo ".nf"
	"$LLCTRACE" --help | esc
	echo ".fi"
	echo ".SH COMMANDS"
	for c in $("$LLCTRACE" __complete commands); do
		[ "$c" = help ] && continue
		echo ".SS $c"
		echo ".nf"
		"$LLCTRACE" help "$c" 2>&1 | esc
		echo ".fi"
	done
	echo ".SH EXIT STATUS"
	echo "0 success, 1 a problem with an input or output (the message names the file and the"
	echo "place), 2 a usage error."
	echo ".SH SEE ALSO"
	echo "The documents installed in share/doc/llctrace (README.md, CAPTURE.md, REPLAY.md,"
	echo "RESULTS.md, BATCH.md, INSTALL.md, ...)."
} >"$OUT.tmp"
mv "$OUT.tmp" "$OUT"
