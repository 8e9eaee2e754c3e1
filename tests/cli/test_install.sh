#!/usr/bin/env bash
# test_install.sh - llctrace installed as the tools beside it are: `cmake --install` into a fresh
# prefix, then with no build folder on any path (a clean environment: PATH, XDG_DATA_DIRS and
# nothing else set) the Vulkan loader finds the layer from its manifest alone, and the installed
# program captures, replays and reports; the installed Python package imports from anywhere and
# loads the installed library, its version the program's; the manual page and bash completion
# come from the program's own help and tables; `pip install ./python` installs the package; and
# `cpack -G DEB` makes a .deb whose dependencies are stated and which, unpacked (dpkg -x, as a
# DESTDIR install: a fresh Debian 12 to install it into is bench/deb_check.sh's), captures too.
set -u
BUILD=$(realpath "${1:?usage: test_install.sh BUILD_DIR app_scene}")
APP=$(realpath "${2:?}")
SRC=$(cd "$(dirname "$0")/../.." && pwd)
T=$(mktemp -d /tmp/llct-install-XXXXXX)
trap 'rm -rf "$T"' EXIT
. "$(dirname "$0")/lib.sh"
cd "$T" || exit 1
P=$T/prefix
cmake --install "$BUILD" --prefix "$P" >install.log 2>&1 && ok || { bad "cmake --install: $(tail -3 install.log)"; finish install; exit 1; }
# a clean environment: only what a user's shell would have, the prefix on PATH and XDG_DATA_DIRS
clean() { env -i HOME="$T" PATH="$P/bin:/usr/bin:/bin" XDG_RUNTIME_DIR="$T" XDG_DATA_DIRS="$P/share:/usr/share" "$@"; }

# what went where
man=$P/share/vulkan/explicit_layer.d/VkLayer_llctrace_capture.json
[ -x "$P/bin/llctrace" ] && [ -f "$man" ] && ok || bad "installed files: $(cd "$P" && find . -type f | head -20)"
lib=$(sed -n 's/.*"library_path": "\(.*\)".*/\1/p' "$man")
case "$lib" in /*) bad "the manifest's library path is absolute: $lib" ;; *) [ -f "$(dirname "$man")/$lib" ] && ok || bad "the manifest's library '$lib' is not there" ;; esac
for f in share/man/man1/llctrace.1 share/bash-completion/completions/llctrace share/doc/llctrace/README.md \
	share/doc/llctrace/REPLAY.md share/llctrace/rdc_events.py lib/python3/dist-packages/llctrace/__init__.py; do
	[ -f "$P/$f" ] && ok || bad "not installed: $f"
done

# the loader alone finds the layer (no VK_LAYER_PATH, VK_ADD_LAYER_PATH or LLCT_LAYER_DIR)
clean VK_INSTANCE_LAYERS=VK_LAYER_LLCTRACE_capture LLCT_CAPTURE_OUTPUT="$T/l.llct" "$APP" 2 >l.out 2>l.err
clean llctrace info l.llct 2>&1 | grep -q "^frames     2 " && ok || bad "VK_INSTANCE_LAYERS alone: $(tail -2 l.err) $(clean llctrace info l.llct 2>&1 | head -3)"
# the installed program finds the installed layer, replays and reports
clean llctrace capture -q -o c.llct -- "$APP" 2 >/dev/null 2>c.err && ok || bad "installed capture: $(cat c.err)"
clean llctrace replay c.llct -p lru,gspc --flow -o r.db -q >/dev/null 2>r.err && ok || bad "installed replay: $(cat r.err)"
clean llctrace report r.db -o r.html -q >/dev/null 2>p.err && [ -s r.html ] && ok || bad "installed report: $(cat p.err)"
[ "$(clean llctrace sql --csv r.db "SELECT count(*) FROM runs" | tail -1)" = 2 ] && ok || bad "installed sql"

# the Python package: imports from any folder, loads the installed library, the program's version
v=$(clean llctrace --version | awk '{ print $2 }')
got=$(cd / && clean PYTHONPATH="$P/lib/python3/dist-packages" /usr/bin/python3 -c "
import llctrace; t = llctrace.open('$T/c.llct')
print(llctrace.__version__, llctrace.library_path().startswith('$P/'), len(t.records(t.frames[0])) > 0)" 2>&1)
[ "$got" = "$v True True" ] && ok || bad "installed Python package: '$got' (llctrace $v)"
[ "$(grep -c '^__version__ = "'"$v"'"' "$SRC/python/llctrace/_version.py")" = 1 ] && ok || bad "python/llctrace/_version.py is not $v"
grep -q "project(llctrace VERSION $v " "$SRC/CMakeLists.txt" && ok || bad "CMakeLists.txt's version is not $v"

# the manual page: every command, with options the help has
for c in $(clean llctrace __complete commands); do
	[ "$c" = help ] || grep -q "^\.SS $c\$" "$P/share/man/man1/llctrace.1" || bad "the manual page lacks $c"
done
grep -q -- '--flow' "$P/share/man/man1/llctrace.1" && ok || bad "the manual page lacks replay's --flow"
# bash completion: commands, options from a command's option table, policy names from the registry
comp() { bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _llctrace; echo "${COMPREPLY[*]}"' _ \
	"$P/share/bash-completion/completions/llctrace" "$@"; }
[ "$(PATH="$P/bin:$PATH" comp llctrace re)" = "replay report" ] && ok || bad "completing 're': $(PATH="$P/bin:$PATH" comp llctrace re)"
[ "$(PATH="$P/bin:$PATH" comp llctrace replay --fl)" = --flow ] && ok || bad "completing 'replay --fl': $(PATH="$P/bin:$PATH" comp llctrace replay --fl)"
[ "$(PATH="$P/bin:$PATH" comp llctrace import -)" = "-c --csv -o --output --force -q --quiet --help" ] && ok || bad "completing 'import -': $(PATH="$P/bin:$PATH" comp llctrace import -)"
[ "$(PATH="$P/bin:$PATH" comp llctrace replay -p lru,gspz)" = "lru,gspztc lru,gspztc-tse" ] && ok || bad "completing '-p lru,gspz': $(PATH="$P/bin:$PATH" comp llctrace replay -p lru,gspz)"

# pip install ./python (into a virtual environment; Debian's own setuptools, no download)
cp -r "$SRC/python" py
if /usr/bin/python3 -m venv --system-site-packages venv >/dev/null 2>&1; then
	venv/bin/pip install -q --no-build-isolation --no-deps ./py >pip.log 2>&1 && ok || bad "pip install ./python: $(tail -3 pip.log)"
	got=$(cd / && LLCT_LIB="$(ls "$P"/lib*/libllctrace.so "$P"/lib/*/libllctrace.so 2>/dev/null | head -1)" "$T/venv/bin/python" -c "import llctrace; print(llctrace.__version__, len(llctrace.open('$T/c.llct').frames))" 2>&1)
	[ "$got" = "$v 2" ] && ok || bad "the pip-installed package: '$got'"
else
	echo "test_install: SKIPPING pip install: no python3-venv"
fi

# the Debian package: dependencies stated, the layer's manifest where the loader looks; unpacked,
# it captures
if command -v dpkg-deb >/dev/null; then
	(cd "$BUILD" && cpack -G DEB -B "$T/deb" >"$T/cpack.log" 2>&1) && ok || bad "cpack -G DEB: $(tail -3 "$T/cpack.log")"
	deb=$(ls "$T"/deb/llctrace_*.deb 2>/dev/null | head -1)
	if [ -n "$deb" ]; then
		dep=$(dpkg-deb -f "$deb" Depends) rec=$(dpkg-deb -f "$deb" Recommends)
		for p in libvulkan1 liblz4-1 libsqlite3-0; do grep -q "$p" <<<"$dep" && ok || bad "Depends lacks $p: $dep"; done
		for p in python3-numpy python3-pandas python3-renderdoc; do grep -q "$p" <<<"$rec" && ok || bad "Recommends lacks $p: $rec"; done
		dpkg-deb -c "$deb" | grep -q "./usr/share/vulkan/explicit_layer.d/VkLayer_llctrace_capture.json" && ok || bad "the .deb lacks the manifest"
		dpkg -x "$deb" root
		env -i HOME="$T" PATH="$T/root/usr/bin:/usr/bin:/bin" XDG_RUNTIME_DIR="$T" LD_LIBRARY_PATH="$T/root/usr/lib" \
			llctrace capture -q -o d.llct -- "$APP" 2 >/dev/null 2>d.err && ok || bad "the unpacked .deb's capture: $(cat d.err)"
	fi
else
	echo "test_install: SKIPPING the Debian package: no dpkg-deb"
fi
finish install
