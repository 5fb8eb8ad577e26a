#!/bin/sh
# bench/tng-logic.sh [COPIES] - the decoded views of TirNanoG games
# (DESIGN.md section 6: a stat walk of the views, every view cheap to open
# and read, `diff -r` of two mounted games within 2x of `diff -r` of their
# extracted trees).  Writes the tng test writer's full game (every record
# kind, scripts, maps, sprites) COPIES times (default 1) under one folder
# of mounts, and a second set with one dialog changed, then measures in one
# run: the stat walk of all the mounts (fresh mounts), `diff -r` of the two
# sets mounted against `diff -r` of the same trees extracted, and the
# slowest first open+read of any single view on a fresh mount (inside one
# process, median over BENCH_RUNS mounts).  Medians of BENCH_RUNS runs with
# their spread and the load average (see lib.sh); nothing is asserted.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
GAMEFS=${GAMEFS:-$here/_build/gamefs}
COPIES=${1:-1}
W=$(mktemp -d "${TMPDIR:-/var/tmp}/gamefs-bench.XXXXXX")
umount_all() { for m in "$W"/a/m* "$W"/b/m*; do fusermount3 -u "$m" 2>/dev/null || :; done; }
trap 'umount_all; rm -rf "$W" "$BENCH_SPREAD"' EXIT
. "$here/bench/lib.sh"

mkdir -p "$W/a" "$W/b" "$W/xa" "$W/xb"
python3 "$here/tests/tng/tngpy.py" write "$W/game.tng" --full
i=0
while [ "$i" -lt "$COPIES" ]; do
	cp "$W/game.tng" "$W/a/g$i.tng"; cp "$W/game.tng" "$W/b/g$i.tng"
	mkdir -p "$W/a/m$i" "$W/b/m$i"
	i=$((i + 1))
done
# the second set differs in one text: diff -r reads every file and finds one
"$GAMEFS" "$W/b/g0.tng" "$W/b/m0"
f=$(grep -rl . "$W/b/m0/lang" | head -n 1)
sed -i '1s/$/!/' "$f"
fusermount3 -u "$W/b/m0"
mount_set() { for j in $(seq 0 $((COPIES - 1))); do "$GAMEFS" "$1/g$j.tng" "$1/m$j"; done; }
unmount_set() { for j in $(seq 0 $((COPIES - 1))); do fusermount3 -u "$1/m$j"; done; }
mount_set "$W/a"; mount_set "$W/b"
for j in $(seq 0 $((COPIES - 1))); do cp -r "$W/a/m$j" "$W/xa/m$j"; cp -r "$W/b/m$j" "$W/xb/m$j"; done
entries=$(find "$W"/a/m* | wc -l)
views=$(find "$W"/a/m* -type f | wc -l)
unmount_set "$W/a"; unmount_set "$W/b"; sleep 0.3

load0=$(loadavg)
walk_set() { find "$W"/a/m* -printf '%s\n' >/dev/null; }
walk=$(
	_i=0
	while [ "$_i" -lt "$RUNS" ]; do
		mount_set "$W/a"; timed walk_set; unmount_set "$W/a"; sleep 0.3
		_i=$((_i + 1))
	done | median
); walk_sp=$(spread)
walkx_set() { find "$W"/xa/m* -printf '%s\n' >/dev/null; }
walkx=$(med walkx_set); walkx_sp=$(spread)
differ() { diff -r "$1" "$2" >/dev/null || :; }
mount_set "$W/a"; mount_set "$W/b"
dm=$(med differ "$W/a" "$W/b"); dm_sp=$(spread)
dx=$(med differ "$W/xa" "$W/xb"); dx_sp=$(spread)
# the slowest single view: its first open and read on a fresh mount, timed
# inside one process (no cat started per file); the median over RUNS fresh
# mounts of each view's time, the slowest of those medians
unmount_set "$W/a"; sleep 0.3
slow=$(
	_i=0
	while [ "$_i" -lt "$RUNS" ]; do
		"$GAMEFS" "$W/a/g0.tng" "$W/a/m0"
		python3 - "$W/a/m0" <<'PY'
import os, sys, time
for root, dirs, files in os.walk(sys.argv[1]):
    for f in files:
        p = os.path.join(root, f)
        t = time.perf_counter()
        with open(p, 'rb') as fh:
            while fh.read(1 << 20):
                pass
        print('%s %.4f' % (p, time.perf_counter() - t))
PY
		fusermount3 -u "$W/a/m0"; sleep 0.3
		_i=$((_i + 1))
	done | python3 -c "
import sys, collections
t = collections.defaultdict(list)
for line in sys.stdin:
    p, s = line.rsplit(' ', 1); t[p].append(float(s))
print('%.4f %s' % max((sorted(v)[len(v) // 2], p) for p, v in t.items()))"
)
mount_set "$W/a"
unmount_set "$W/a"; unmount_set "$W/b"
load1=$(loadavg)

echo "gamefs TirNanoG views benchmark: $COPIES full game(s) a side, $entries entries, $views views, $(nproc) cores, $(uname -r)"
echo "load average (1, 5, 15 min): $load0 at the start, $load1 at the end; medians of $RUNS runs, spread min..max (runs)"
printf '%-46s %9s  %-22s %9s\n' "measure" "median" "spread" "ratio"
printf '%-46s %8ss  %-22s %9s\n' "stat walk of the mounts (fresh mounts)" "$walk" "$walk_sp" ""
printf '%-46s %8ss  %-22s %9s\n' "stat walk of the extracted trees" "$walkx" "$walkx_sp" ""
printf '%-46s %8ss  %-22s %9s\n' "diff -r of the extracted trees" "$dx" "$dx_sp" ""
printf '%-46s %8ss  %-22s %8sx\n' "diff -r of the mounted games (vs extracted)" "$dm" "$dm_sp" "$(ratio "$dm" "$dx")"
slowv=${slow#* }
printf '%-46s %8ss  %s\n' "slowest first open+read of one view (fresh mount)" "${slow%% *}" "${slowv#"$W/a/m0/"}"
