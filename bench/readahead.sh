#!/bin/sh
# bench/readahead.sh [MIB] - does gamefs's raise of the mount's read-ahead
# (read_ahead_kb 128 -> 1024 in /sys/class/bdi, as root, at mount) make a
# sequential read faster?  One OHRRPGCE lumped file with a lump of MIB MiB
# (default 256) of random bytes, its archive's pages warm; the lump read
# with cat through the mount, its FUSE pages dropped before each run, at
# read_ahead_kb 128 (the kernel's default for a FUSE mount) and 1024 (what
# gamefs sets), and the archive itself with cat (the floor a read of these
# bytes costs).  Medians of BENCH_RUNS runs (default 5) with their spread;
# nothing is asserted.  Needs root (it writes /sys).
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
GAMEFS=${GAMEFS:-$here/_build/gamefs}
MIB=${1:-256}
W=$(mktemp -d "${TMPDIR:-/var/tmp}/gamefs-bench.XXXXXX")
trap 'fusermount3 -u "$W/m" 2>/dev/null || :; rm -rf "$W" "$BENCH_SPREAD"' EXIT
. "$here/bench/lib.sh"

head -c $((MIB << 20)) /dev/urandom >"$W/big.bin"
python3 "$here/tests/rpgtool.py" make "$W/big.rpg" BIG.BIN=@"$W/big.bin"
rm -f "$W/big.bin"
mkdir -p "$W/m"
cat "$W/big.rpg" >/dev/null
load0=$(loadavg)
"$GAMEFS" "$W/big.rpg" "$W/m"
dev=$(awk -v m="$W/m" '$5 == m {print $3}' /proc/self/mountinfo | tail -n 1)
ra=/sys/class/bdi/$dev/read_ahead_kb
echo "mount $dev: read_ahead_kb $(cat "$ra") after gamefs's mount"
for kb in 128 1024; do
	echo "$kb" >"$ra"
	t=$(med_cold_cat "$W/m/BIG.BIN")
	echo "read_ahead_kb $kb: cat of the ${MIB} MiB lump $t s $(spread)"
done
t=$(med catq "$W/big.rpg")
echo "cat of the archive (page cache): $t s $(spread)"
echo "load: $load0 -> $(loadavg)"
