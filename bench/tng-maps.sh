#!/bin/sh
# bench/tng-maps.sh [GAME...] - the Tiled views of TirNanoG games (DESIGN.md
# section 6: a stat walk draws nothing, opening and reading any one view
# takes under 20 ms).  For each GAME (default: the tng test writer's full
# game and the corpus games in ../shared/corpus/tng) measures: the stat walk
# of maps/ on a fresh mount, the first open+read of each map PNG, map TMX
# and tileset PNG (cold: each on a fresh mount of its own), a repeated
# read of it (same mount, its render cached), and for the first read the
# daemon's CPU time and minor page faults (a busy machine stretches the
# wall time; these two it does not).  Open+read is timed inside python
# (128 KiB reads, as cat does), without its start-up.  Medians of
# BENCH_RUNS runs with their spread and the load average (see lib.sh);
# nothing is asserted.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
GAMEFS=${GAMEFS:-$here/_build/gamefs}
W=$(mktemp -d "${TMPDIR:-/var/tmp}/gamefs-bench.XXXXXX")
trap 'fusermount3 -u "$W/m" 2>/dev/null || :; rm -rf "$W" "$BENCH_SPREAD"' EXIT
. "$here/bench/lib.sh"

if [ $# = 0 ]; then
	python3 "$here/tests/tng/tngpy.py" write "$W/full.tng" --full
	set -- "$W/full.tng"
	for g in "$here/../shared/corpus/tng"/*.tng; do [ -f "$g" ] && set -- "$@" "$g"; done
fi
mkdir -p "$W/m"

# seconds to open FILE and read it to the end
openread() {
	python3 - "$1" <<'PY'
import os, sys, time
t = time.perf_counter()
fd = os.open(sys.argv[1], os.O_RDONLY)
while os.read(fd, 131072):
    pass
os.close(fd)
print('%.4f' % (time.perf_counter() - t))
PY
}
# the daemon's minor faults and CPU seconds (all its threads) so far
daemon() {
	awk '{printf "%s ", $10}' "/proc/$1/stat"
	cat /proc/"$1"/task/*/schedstat | awk '{s += $1} END {printf "%.4f\n", s / 1e9}'
}
# mount GAME on $W/m, wait for it, and print the daemon's pid
mountgame() {
	"$GAMEFS" "$1" "$W/m" >/dev/null 2>&1
	pgrep -n -f -- "$1 $W/m"
}
# gamefs, quiet (a read-only corpus file says so at every mount)
MOUNT=quietmount
quietmount() { "$GAMEFS" "$@" 2>/dev/null; }
# median of RUNS first reads of VIEW (a path under the mount) of GAME, each
# on a fresh mount; its CPU seconds and faults go to $W/cpu and $W/flt
cold() {
	: >"$W/cpu"; : >"$W/flt"
	_i=0
	while [ "$_i" -lt "$RUNS" ]; do
		_pid=$(mountgame "$1")
		_d0=$(daemon "$_pid")
		openread "$W/m/$2"
		_d1=$(daemon "$_pid")
		echo "$_d0 $_d1" | awk '{print $4 - $2}' >>"$W/cpu"
		echo "$_d0 $_d1" | awk '{print $3 - $1}' >>"$W/flt"
		unmount "$W/m"; sleep 0.3
		_i=$((_i + 1))
	done | median
}
walkmaps() { find "$W/m/maps" -printf '%s\n' >/dev/null; }

load0=$(loadavg)
for game in "$@"; do
	pid=$(mountgame "$game")
	entries=$(find "$W/m/maps" | wc -l)
	views=$(cd "$W/m" && ls maps/*.png maps/*.tmx maps/tilesets/*.png 2>/dev/null || :)
	unmount "$W/m"; sleep 0.3
	echo "$(basename "$game"): maps/ has $entries entries"
	printf '  %-44s %9s  %-24s %9s  %-20s %7s\n' "measure" "median" "spread" "cpu" "spread" "faults"
	walk=$(med_fresh "$game" "$W/m" walkmaps); walk_sp=$(spread)
	printf '  %-44s %8ss  %-24s\n' "stat walk of maps/ (fresh mount)" "$walk" "$walk_sp"
	for v in $views; do
		first=$(cold "$game" "$v"); first_sp=$(spread)
		cpu=$(median <"$W/cpu"); cpu_sp=$(spread)
		flt=$(median <"$W/flt")
		printf '  %-44s %8ss  %-24s %8ss  %-20s %7s\n' "first open+read $v" "$first" "$first_sp" \
			"$cpu" "$cpu_sp" "$flt"
	done
	mountgame "$game" >/dev/null
	for v in $views; do
		openread "$W/m/$v" >/dev/null
		again=$(med_out openread "$W/m/$v"); again_sp=$(spread)
		printf '  %-44s %8ss  %-24s\n' "repeated open+read $v" "$again" "$again_sp"
	done
	unmount "$W/m"; sleep 0.3
done
load1=$(loadavg)
echo "gamefs TirNanoG map views benchmark: $# game(s), $(nproc) cores, $(uname -r)"
echo "load average (1, 5, 15 min): $load0 at the start, $load1 at the end; medians of $RUNS runs, spread min..max (runs)"
echo "cpu: the daemon's CPU time for the first open+read (median of the same runs); faults: its minor page faults"
