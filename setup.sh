#!/usr/bin/env bash
# setup.sh - installs the Debian packages llctrace needs (only the missing ones), builds it, and
# runs the demo or every test.
#
#   ./setup.sh build   install and build (build/llctrace)
#   ./setup.sh demo    install, build, and run the main job end to end on a default input
#   ./setup.sh full    install everything README.md's "Using it" lines need (RenderDoc and its
#                      Python module, numpy and pandas, Slurm, the validation layers, sqlite3,
#                      Chromium), and build
#   ./setup.sh test    install, build, and run every test: normal build (warnings are errors),
#                      AddressSanitizer+UndefinedBehaviorSanitizer build (all but cli_docs),
#                      ThreadSanitizer build (the capture tests and the thread pools), and the
#                      fuzzers briefly
set -euo pipefail
cd "$(dirname "$0")"
what=${1:-build}
case "$what" in build|demo|full|test) ;; *) echo "usage: ./setup.sh [build|demo|full|test]" >&2; exit 2 ;; esac

# Packages. Build and demo: compiler and build, the trace store's and the report's libraries
# (LZ4, SQLite, zlib), Vulkan (loader, headers and vk.xml, lavapipe, vkcube, glslang, SPIR-V
# tools), RenderDoc's in-application API header (the capture layer's --renderdoc link is built
# in), Xvfb for the demo's window. Tests add: clang for the fuzzers, the validation
# layers, the sqlite3 shell, more programs to capture (vkd3d-demos, glxgears, gfxreconstruct),
# Chromium for the report page, Slurm for batch replay, wine and MinGW for Direct3D 11, strace
# for fault injection, RenderDoc (its layer and Python module) for the --renderdoc link, zstd
# for a benchmark's comparison, Neverball for the real-game smoke test (bench/games.sh), numpy
# and pandas for the Python package (python/llctrace).
PKGS="build-essential cmake pkg-config python3 liblz4-dev libsqlite3-dev zlib1g-dev
      libinih-dev libvulkan-dev mesa-vulkan-drivers vulkan-tools glslang-tools spirv-tools
      spirv-headers librenderdoc-dev
      xvfb libxcb1-dev"
if [ "$what" = full ]; then
	PKGS="$PKGS sqlite3 vulkan-validationlayers librenderdoc python3-renderdoc python3-numpy
	      python3-pandas slurm-wlm chromium mesa-utils"
fi
if [ "$what" = test ]; then
	PKGS="$PKGS sqlite3 libzstd-dev clang libclang-rt-14-dev vulkan-validationlayers vkd3d-demos
	      mesa-utils gfxreconstruct chromium slurm-wlm strace wine64 gcc-mingw-w64-x86-64
	      librenderdoc python3-renderdoc neverball python3-numpy python3-pandas"
fi
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "setup: installing:$missing"
	SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
	$SUDO apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null
else
	echo "setup: all packages present"
fi

jobs=$(nproc)
build() { # build DIR CMAKE-ARGS...
	local dir=$1; shift
	cmake -S . -B "$dir" "$@" >/dev/null
	cmake --build "$dir" -j "$jobs" >/dev/null
}
build build -DLLCT_WERROR=ON
echo "setup: built build/llctrace ($(build/llctrace --version))"

case "$what" in
demo)
	exec bash scripts/demo.sh build/llctrace
	;;
test)
	echo "== tests (normal build)"
	(cd build && ctest --output-on-failure -j "$jobs")
	echo "== tests under AddressSanitizer + UndefinedBehaviorSanitizer"
	build build-asan -DLLCT_WERROR=ON -DLLCT_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug
	# all but cli_docs, whose README and RESULTS.md commands (replays of every policy) run
	# under the sanitizers in the unit and command tests already: 107 s of this stage's time
	(cd build-asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
		ctest --output-on-failure -j "$jobs" -E '^cli_docs$')
	echo "== capture and split miss-curve stacks under ThreadSanitizer"
	build build-tsan -DLLCT_WERROR=ON -DLLCT_SANITIZE=thread -DCMAKE_BUILD_TYPE=Debug
	(cd build-tsan && TSAN_OPTIONS="suppressions=$PWD/../tests/tsan.supp" \
		ctest --output-on-failure -j "$jobs" -R 'cli_threads|cli_tier2|cli_tier3|cli_capture|cli_wait|unit_mrc|unit_crew|unit_raster_pool|unit_raster_batch')
	echo "== fuzzers (libFuzzer, ${LLCT_FUZZ_SECONDS:-20}s each)"
	CC=clang build build-fuzz -DLLCT_FUZZ=ON -DCMAKE_BUILD_TYPE=Debug
	(cd build-fuzz && ctest --output-on-failure -L fuzz -j "$jobs")
	;;
esac
