#!/bin/sh
# bench/hostile.sh [SCALE] - the reproducers of issue 28's hostile inputs:
# the CPU seconds (and peak memory) one gamefs spends on each input at size
# N and 2N, so a quadratic parser shows as a 4x step and a linear one as
# 2x.  GAMEFS picks the binary (compare two builds by running it twice).
# Inputs from tests/hostile.py; SCALE (default 1) multiplies every N.
#   reld   gamefs cat of a RELOAD document of N distinct names (render), and
#          the daemon parsing its document.txt written back (N = 20,000)
#   tngs   the daemon assembling a startup script of N labels (N = 10,000)
#   attrs  a TMX whose editor settings hold N elements of 256 attributes
#          written into maps/meadow.tmx: CPU and peak memory (N = 1,000)
#   kids   the same with N empty elements (N = 100,000)
#   bomb   an atlas PNG of 64x64 pixels inflating to N MiB of zeros (N = 256)
# Nothing is asserted (tests/t1016, t2017 assert what holds regardless of
# the machine); one run each, the figures vary with the load average.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
GAMEFS=${GAMEFS:-$here/_build/gamefs}
S=${1:-1}
H="python3 $here/tests/hostile.py"
W=$(mktemp -d "${TMPDIR:-/var/tmp}/gamefs-bench.XXXXXX")
trap 'fusermount3 -u "$W/m" 2>/dev/null || :; rm -rf "$W"' EXIT
cd "$W"
mkdir m
python3 "$here/tests/tng/tngpy.py" write g.tng

# mount ARCHIVE, run the rest of the line on the mount, print the daemon's
# CPU seconds and peak memory growth (KiB) for it
daemon_cost() {
	a=$1; shift
	"$GAMEFS" -f "$a" m 2>/dev/null & pid=$!
	while ! mountpoint -q m; do sleep 0.05; done
	c0=$($H pcpu $pid); m0=$($H pmem $pid)
	"$@" >/dev/null 2>&1 || :
	c1=$($H pcpu $pid); m1=$($H pmem $pid)
	fusermount3 -u m; wait $pid || :
	echo "$(echo "$c1 - $c0" | bc) s, +$((m1 - m0)) KiB"
}
tmx() { $H "$1" "$2" m/maps/meadow.tmx x.tmx && cp x.tmx m/maps/meadow.tmx; }

echo "# $GAMEFS, load $(cut -d' ' -f1-3 /proc/loadavg)"
for n in $((20000 * S)) $((40000 * S)); do
	$H reld-names $n r.reld; $H reld-text $n d.txt
	echo "reld  N=$n  render $($H cpu "$GAMEFS" cat r.reld document.txt | cut -d' ' -f1) s" \
	     " parse $(daemon_cost r.reld cp d.txt m/document.txt)"
done
for n in $((10000 * S)) $((20000 * S)); do
	python3 -c "import sys; n = int(sys.argv[1]); sys.stdout.write(''.join('\tJMP L%d\nL%d:\n' % (i, i) for i in range(1, n + 1)) + '\tEND\n; end\n')" $n >s.tngs
	cp g.tng t.tng
	echo "tngs  N=$n  $(daemon_cost t.tng cp s.tngs m/startup/0001.tngs)"
done
for n in $((1000 * S)) $((2000 * S)); do
	cp g.tng t.tng
	echo "attrs N=$n  $(daemon_cost t.tng tmx tmx-attrs $n)"
done
for n in $((100000 * S)) $((200000 * S)); do
	cp g.tng t.tng
	echo "kids  N=$n  $(daemon_cost t.tng tmx tmx-kids $n)"
done
for n in $((256 * S)) $((512 * S)); do
	$H png-bomb 64 64 $n b.png
	cp g.tng t.tng
	echo "bomb  N=${n}MiB  $(daemon_cost t.tng cp b.png m/atlases/0000.png)"
done
