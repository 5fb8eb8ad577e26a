#!/bin/sh
# bench/rpg.sh [LUMPS] [MIB] - OHRRPGCE lumped file benchmark.
# Makes a large lumped file with the project's test writer, then measures, in
# one run: mount-to-listing time against a tiny file, a stat walk, sequential
# read of the largest lump through the mount against `cat` of the archive
# (first read and repeated read), 2000 random 4 KiB reads of that lump
# against the same reads of the archive file, commit time of a 1 KiB edit
# against `cp` of the archive, and the daemon's peak memory (VmHWM).
# Figures are printed as seconds and ratios (medians of BENCH_RUNS runs,
# see lib.sh); nothing is asserted.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
GAMEFS=${GAMEFS:-$here/_build/gamefs}
LUMPS=${1:-5000}
MIB=${2:-500}
W=$(mktemp -d "${TMPDIR:-/var/tmp}/gamefs-bench.XXXXXX")
trap 'fusermount3 -u "$W/m" 2>/dev/null || :; fusermount3 -u "$W/t" 2>/dev/null || :; rm -rf "$W"' EXIT
. "$here/bench/lib.sh"

python3 - "$W/big.rpg" "$LUMPS" "$MIB" <<'PY'
import os, struct, sys
path, n, mib = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
total = mib << 20
big = total // 4                      # one large lump (a "movie"), the rest small
small = (total - big) // (n - 1)
chunk = os.urandom(1 << 20)
def body(size):
    out = bytearray()
    while len(out) < size:
        out += chunk[: size - len(out)]
    return bytes(out)
with open(path, 'wb') as f:
    for i in range(n):
        size = big if i == n // 2 else small
        name = b'BIG.BIN' if i == n // 2 else b'LUMP%05d.BIN' % i
        f.write(name + b'\0' + struct.pack('<2H', size >> 16, size & 0xffff))
        f.write(body(size))
PY
python3 -c "import struct,sys; open(sys.argv[1],'wb').write(b'A.TXT\0'+struct.pack('<2H',0,2)+b'hi')" "$W/tiny.rpg"
mkdir -p "$W/m" "$W/t"
size=$(stat -c %s "$W/big.rpg")
sync; cat "$W/big.rpg" >/dev/null   # written back (no writeback during the runs), cache warm

tiny=$(med_mount "$W/tiny.rpg" "$W/t")
mount=$(med_mount "$W/big.rpg" "$W/m")
walk=$(med_fresh "$W/big.rpg" "$W/m" walk "$W/m")
du=$(med_fresh "$W/big.rpg" "$W/m" duq "$W/m")
"$GAMEFS" "$W/big.rpg" "$W/m"
pid=$(pgrep -n -f "gamefs $W/big.rpg")

read_figures "$W/big.rpg" "$W/m/BIG.BIN"

cp=$(cp_secs "$W/big.rpg")
t0=$(now); head -c 1024 /dev/urandom | dd of="$W/m/LUMP00010.BIN" conv=notrunc 2>/dev/null; t1=$(now)
commit=$(secs "$t0" "$t1")
hwm=$(awk '/VmHWM/ {print $2}' "/proc/$pid/status")
fusermount3 -u "$W/m"

echo "gamefs OHRRPGCE benchmark: $LUMPS lumps, $((size >> 20)) MiB, $(nproc) cores, $(uname -r)"
printf '%-44s %10s %10s\n' "measure" "value" "ratio"
printf '%-44s %9ss %10s\n' "mount + list root (tiny archive)" "$tiny" ""
printf '%-44s %9ss %9sx\n' "mount + list root (large, vs tiny)" "$mount" "$(ratio "$mount" "$tiny")"
printf '%-44s %9ss %10s\n' "stat walk: find -printf %s ($LUMPS entries)" "$walk" ""
printf '%-44s %9ss %10s\n' "du -s of the mount" "$du" ""
printf '%-44s %9ss %10s\n' "cat of the archive file" "$catall" ""
printf '%-44s %9ss %9sx\n' "first read of a $((bigsize >> 20)) MiB lump (speed vs cat)" "$first" "$rfirst"
printf '%-44s %9ss %9sx\n' "repeated read (speed vs cat)" "$again" "$ragain"
printf '%-44s %9ss %9sx\n' "2000 random 4 KiB reads (time vs the archive)" "$rnd" "$(ratio "$rnd" "$rnd_arch")"
printf '%-44s %9ss %10s\n' "cp of the archive (+ sync)" "$cp" ""
printf '%-44s %9ss %9sx\n' "commit of a 1 KiB edit (time vs cp)" "$commit" "$(ratio "$commit" "$cp")"
printf '%-44s %8sKiB %10s\n' "daemon peak memory (VmHWM)" "$hwm" ""
