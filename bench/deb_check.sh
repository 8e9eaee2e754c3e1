#!/usr/bin/env bash
# deb_check.sh - installs llctrace's Debian package on a fresh Debian 12 and captures there: makes
# the .deb (cpack -G DEB), a minimal Debian 12 with debootstrap in DIR, installs the .deb in it with
# apt (its dependencies and recommends from Debian's archive, lavapipe beside them), and in the
# chroot captures a headless test program with no layer path set, replays and imports the Python
# package. Needs root, debootstrap and Debian's archive; takes several minutes. Not part of CI
# (the test command checks the package unpacked, cli_install).
#   bench/deb_check.sh [BUILD [DIR]]      (default build, /tmp/llct-debian12)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(realpath "${1:-$ROOT/build}")
DIR=${2:-/tmp/llct-debian12}
[ "$(id -u)" = 0 ] || { echo "deb_check: needs root (debootstrap, chroot)" >&2; exit 2; }
command -v debootstrap >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
rm -rf "$BUILD/deb-check"
(cd "$BUILD" && cpack -G DEB -B "$BUILD/deb-check" >/dev/null)
deb=$(ls "$BUILD"/deb-check/llctrace_*.deb)
echo "deb_check: $(basename "$deb"): $(dpkg-deb -f "$deb" Depends)"
if [ ! -x "$DIR/usr/bin/apt-get" ]; then
	echo "deb_check: debootstrap bookworm into $DIR"
	debootstrap --variant=minbase bookworm "$DIR" http://deb.debian.org/debian >"$DIR.log" 2>&1 ||
		{ echo "deb_check: debootstrap failed: $(tail -3 "$DIR.log")" >&2; exit 1; }
fi
cleanup() { umount "$DIR/proc" 2>/dev/null || true; }
trap cleanup EXIT
mount -t proc proc "$DIR/proc"
cp "$deb" "$DIR/tmp/llctrace.deb"
cp "$BUILD/tests/app_scene" "$DIR/tmp/app_scene"
t0=$(date +%s)
chroot "$DIR" /bin/sh -c 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq /tmp/llctrace.deb mesa-vulkan-drivers >/tmp/apt.log 2>&1' ||
	{ echo "deb_check: apt could not install the package: $(tail -5 "$DIR/tmp/apt.log")" >&2; exit 1; }
echo "deb_check: installed with its dependencies in $(($(date +%s) - t0)) s"
chroot "$DIR" /bin/sh -c 'dpkg -s llctrace | sed -n "s/^\(Version\|Depends\|Recommends\): /  \1: /p"'
chroot "$DIR" /bin/sh -c 'cd /tmp && export XDG_RUNTIME_DIR=/tmp &&
	ls /usr/share/vulkan/explicit_layer.d/ &&
	VK_INSTANCE_LAYERS=VK_LAYER_LLCTRACE_capture LLCT_CAPTURE_OUTPUT=/tmp/l.llct ./app_scene 2 &&
	llctrace info /tmp/l.llct | sed -n "/^frames/p;/^records/p;/capture   device/p" &&
	llctrace capture -q -o /tmp/c.llct -- ./app_scene 2 &&
	llctrace replay /tmp/c.llct -p lru,gspc -o /tmp/r.db -q &&
	llctrace sql /tmp/r.db "SELECT policy, round(100.0 * sum(read_hits) / sum(reads), 1) AS read_hit_pct FROM stream_totals GROUP BY run_id" &&
	python3 -c "import llctrace; t = llctrace.open(\"/tmp/c.llct\"); print(\"python:\", llctrace.__version__, llctrace.library_path(), len(t.records(t.frames[0])), \"records\")" &&
	man -w llctrace 2>/dev/null || ls /usr/share/man/man1/llctrace.1*' ||
	{ echo "deb_check: FAILED in the chroot" >&2; exit 1; }
echo "deb_check: the Debian package installs and captures on a fresh Debian 12 ($(cat "$DIR/etc/debian_version"))"
