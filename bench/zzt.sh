#!/bin/sh
# bench/zzt.sh [BOARDS] - a large ZZT world (up to 255 boards with busy grids,
# objects and code), made with the tests' independent writer: mount time
# against a 1-board world, a stat walk (which draws every view once), du -s,
# reading every board.png and every other view (against the same files
# extracted with cp -r; also mounted -o ro, and the extracted files served
# by bench/floor.c: what FUSE itself costs), commit of a one-tile edit
# against `cp` of the world, peak memory.  A ZZT world has no stored assets
# (every file is a view of the boards), so there is no read-against-cat row.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
GAMEFS=${GAMEFS:-$here/_build/gamefs}
BOARDS=${1:-250}
W=$(mktemp -d "${TMPDIR:-/var/tmp}/gamefs-zzt.XXXXXX")
trap 'fusermount3 -u "$W/m" 2>/dev/null || :; fusermount3 -u "$W/t" 2>/dev/null || :; rm -rf "$W" "$BENCH_SPREAD"' EXIT
. "$here/bench/lib.sh"

PYTHONPATH="$here/tests/zzt" python3 - "$W" "$BOARDS" <<'PY'
import sys, zztlib as z
w, n = sys.argv[1], int(sys.argv[2])
boards = []
for i in range(n):
    e, c = z.grid(i + 1)
    stats = [dict(x=1, y=1)] + [dict(x=2 + k, y=3, p1=1, cycle=3,
             code=b'@Obj%d\r#end\r:touch\r\'Hello %d\r#give gems 1\r' % (k, i)) for k in range(20)]
    boards.append(z.board_bytes(b'Board %d' % i, e, c, stats))
open(w + '/big.zzt', 'wb').write(z.header_bytes(n, name=b'BIG') + b''.join(boards))
e, c = z.grid(1)
open(w + '/tiny.zzt', 'wb').write(z.header_bytes(1, name=b'TINY') + z.board_bytes(b'One', e, c, [dict(x=1, y=1)]))
PY
mkdir -p "$W/m" "$W/t"
sync
load0=$(loadavg)
size=$(stat -c %s "$W/big.zzt")
tiny=$(med_mount "$W/tiny.zzt" "$W/t" boards)
mount=$(med_mount "$W/big.zzt" "$W/m" boards)
walk=$(med_fresh "$W/big.zzt" "$W/m" walk "$W/m")
du=$(med_fresh "$W/big.zzt" "$W/m" duq "$W/m")
"$GAMEFS" "$W/big.zzt" "$W/m"
pid=$(pgrep -n -f "gamefs $W/big.zzt")
n=$(find "$W/m" | wc -l)
t0=$(now); cat "$W"/m/boards/*/board.png >/dev/null; t1=$(now); png=$(secs "$t0" "$t1")
cp -r "$W/m" "$W/tree"
fusermount3 -u "$W/m"
# every view but board.png read on a fresh mount (each drawn the first time),
# read again on the same mount, and read from the same tree extracted
views() { find "$1" -type f ! -name board.png -exec cat {} + >/dev/null; }
xr() { echo "$1 / $2" | bc -l | awk '{printf "%.2fx", $1}'; }	# A / B as "1.23x"
views=$(med_fresh "$W/big.zzt" "$W/m" views "$W/m"); views_sp=$(spread)
"$GAMEFS" "$W/big.zzt" "$W/m"
views "$W/m"
again=$(med views "$W/m"); again_sp=$(spread)
tree=$(med views "$W/tree"); tree_sp=$(spread)
fusermount3 -u "$W/m"
sleep 0.3
# the same mounted -o ro (no OPEN, no RELEASE)
views_ro=$(MOUNT="$GAMEFS -o ro" med_fresh "$W/big.zzt" "$W/m" views "$W/m"); views_ro_sp=$(spread)
"$GAMEFS" -o ro "$W/big.zzt" "$W/m"
views "$W/m"
again_ro=$(med views "$W/m"); again_ro_sp=$(spread)
fusermount3 -u "$W/m"
# the extracted tree served by bench/floor.c: what FUSE itself costs here,
# with the opens a writable file system must see, and without them
floor=$(floor_build) || floor=
fl_rows=
for fm in ${floor:+open noopen}; do
	fo=; [ "$fm" = noopen ] && fo="-o noopen"
	$floor $fo "$W/tree" "$W/m"
	views "$W/m"
	fl=$(med views "$W/m"); fl_sp=$(spread)
	fusermount3 -u "$W/m"
	fl_rows="$fl_rows$(printf '%-46s %10s %8s  %s' "the same by bench/floor.c, $fm, again" "${fl}s" \
		"$(xr "$fl" "$tree")" "$fl_sp")
"
done
sleep 0.3
"$GAMEFS" "$W/big.zzt" "$W/m"
pid=$(pgrep -n -f "gamefs $W/big.zzt")
cp=$(cp_secs "$W/big.zzt")
b=$(ls "$W/m/boards" | sed -n "$((BOARDS / 2 + 1))p")
t0=$(now); sed -i '5s/^[0-9]*,/19,/' "$W/m/boards/$b/elements.csv"; t1=$(now); commit=$(secs "$t0" "$t1")
hwm=$(awk '/VmHWM/ {print $2}' "/proc/$pid/status")
echo "gamefs ZZT benchmark: $BOARDS boards, $size bytes, $n entries, $(nproc) cores; load $load0 at the start, $(loadavg) at the end; medians of $RUNS (min..max)"
printf '%-46s %10s\n' "mount + list boards (1-board world)" "${tiny}s"
printf '%-46s %10s %8s\n' "mount + list boards (large world)" "${mount}s" "$(xr "$mount" "$tiny")"
printf '%-46s %10s\n' "stat walk (find -printf %s)" "${walk}s"
printf '%-46s %10s\n' "du -s of the mount" "${du}s"
printf '%-46s %10s\n' "read every board.png (drawn by the walk)" "${png}s"
printf '%-46s %10s %8s  %s\n' "read every other view (fresh mount)" "${views}s" \
	"$(xr "$views" "$tree")" "$views_sp"
printf '%-46s %10s %8s  %s\n' "read every other view again (same mount)" "${again}s" \
	"$(xr "$again" "$tree")" "$again_sp"
printf '%-46s %10s %8s  %s\n' "read the same files extracted (cp -r)" "${tree}s" "1.00x" "$tree_sp"
printf '%-46s %10s %8s  %s\n' "read every other view, -o ro (fresh mount)" "${views_ro}s" \
	"$(xr "$views_ro" "$tree")" "$views_ro_sp"
printf '%-46s %10s %8s  %s\n' "read every other view, -o ro, again" "${again_ro}s" \
	"$(xr "$again_ro" "$tree")" "$again_ro_sp"
printf '%s' "$fl_rows"
printf '%-46s %10s %8s\n' "commit of a one-tile edit (sed -i; vs cp)" "${commit}s" "$(xr "$commit" "$cp")"
printf '%-46s %10s\n' "daemon peak memory (VmHWM)" "${hwm}KiB"
