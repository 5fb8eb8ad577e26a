#!/bin/sh
# bench/rpg.sh [LUMPS] [MIB] [MAPS] - OHRRPGCE lumped file benchmark.
# Makes a large lumped file with the project's test writer, then measures, in
# one run: mount-to-listing time against a tiny file, a stat walk, sequential
# read of the largest lump through the mount against `cat` of the archive
# (first read and repeated read), 2000 random 4 KiB reads of that lump
# against the same reads of the archive file, commit time of a 1 KiB edit
# against `cp` of the archive, and the daemon's peak memory (VmHWM).
# Then two generated games of MAPS maps (default 50; every map with its
# layers, NPCs, NPC types, doors, links and MAP record), the second with an
# NPC, a door link and a tile changed: a stat walk of a mounted game, and
# `diff -r` of the two mounted games against `diff -r` of their trees
# extracted to disk (DESIGN.md section 6: within 2x), on fresh mounts (every
# view drawn) and again on the same mounts (the views' pages cached), then
# the same mounted -o ro, and the extracted trees served by bench/floor.c
# (what FUSE itself costs, with and without opens).  `bench/rpg.sh maps
# [MAPS]` runs only that part.
# Figures are medians of BENCH_RUNS runs with their spread (min..max) and
# the load average at the start and the end (see lib.sh); nothing is
# asserted.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
GAMEFS=${GAMEFS:-$here/_build/gamefs}
ONLY_MAPS=
if [ "${1:-}" = maps ]; then ONLY_MAPS=1; MAPS=${2:-50}; else MAPS=${3:-50}; fi
LUMPS=${1:-5000}
MIB=${2:-500}
W=$(mktemp -d "${TMPDIR:-/var/tmp}/gamefs-bench.XXXXXX")
trap 'for d in m t ma mb; do fusermount3 -u "$W/$d" 2>/dev/null || :; done; rm -rf "$W" "$BENCH_SPREAD"' EXIT
. "$here/bench/lib.sh"

# two MAPS-map games, the second with an NPC moved, a door link and a tile changed
maps_bench() {
	python3 "$here/tests/rpgtool.py" mkgame "$W/a.rpg" new "$MAPS"
	python3 - "$here/tests" "$W/a.rpg" "$W/b.rpg" <<'PY'
import struct, sys
sys.path.insert(0, sys.argv[1])
import rpgtool as t
lumps = t.read_lumps(sys.argv[2])
out = []
for name, body in lumps:
    b = bytearray(body)
    if name == 'GAMEFS.L07':
        b[7:9] = struct.pack('<h', 9)          # slot 0 x
    elif name == 'GAMEFS.D20':
        b[7 + 1200:7 + 1202] = struct.pack('<h', 5)   # link 0 tag1
    elif name == 'GAMEFS.T33':
        b[11 + 45] ^= 1
    out.append(t.lump_bytes(name, bytes(b)))
open(sys.argv[3], 'wb').write(b''.join(out))
PY
	mkdir -p "$W/ma" "$W/mb"
	"$GAMEFS" "$W/a.rpg" "$W/ma"
	"$GAMEFS" "$W/b.rpg" "$W/mb"
	cp -r "$W/ma" "$W/ta"
	cp -r "$W/mb" "$W/tb"
	mentries=$(find "$W/ma" | wc -l)
	unmount "$W/ma"
	unmount "$W/mb"
	mload0=$(loadavg)
	mwalk=$(med_fresh "$W/a.rpg" "$W/ma" walk "$W/ma"); mwalk_sp=$(spread)
	difq() { diff -r "$1" "$2" >/dev/null || :; }
	dtree=$(med difq "$W/ta" "$W/tb"); dtree_sp=$(spread)
	dmnt=$(med_fresh2 "$W/a.rpg" "$W/ma" "$W/b.rpg" "$W/mb" difq "$W/ma" "$W/mb"); dmnt_sp=$(spread)
	# the same mounts again and again: the views' pages stay in the page cache
	dwarm=$(med_same2 "$W/a.rpg" "$W/ma" "$W/b.rpg" "$W/mb" difq "$W/ma" "$W/mb"); dwarm_sp=$(spread)
	# the same read-only (-o ro: no OPEN, no RELEASE)
	rmnt=$(MOUNT="$GAMEFS -o ro" med_fresh2 "$W/a.rpg" "$W/ma" "$W/b.rpg" "$W/mb" difq "$W/ma" "$W/mb"); rmnt_sp=$(spread)
	rwarm=$(MOUNT="$GAMEFS -o ro" med_same2 "$W/a.rpg" "$W/ma" "$W/b.rpg" "$W/mb" difq "$W/ma" "$W/mb"); rwarm_sp=$(spread)
	# the extracted trees served by bench/floor.c: what FUSE itself costs here,
	# with the opens a writable file system must see, and without them
	floor=$(floor_build) || floor=
	fl_rows=
	for fm in ${floor:+open noopen}; do
		fo=; [ "$fm" = noopen ] && fo="-o noopen"
		fl_fresh=$(MOUNT="$floor $fo" med_fresh2 "$W/ta" "$W/ma" "$W/tb" "$W/mb" difq "$W/ma" "$W/mb")
		fl_fresh_sp=$(spread)
		fl_again=$(MOUNT="$floor $fo" med_same2 "$W/ta" "$W/ma" "$W/tb" "$W/mb" difq "$W/ma" "$W/mb")
		fl_again_sp=$(spread)
		fl_rows="$fl_rows$(printf '%-44s %8ss  %-22s %8sx\n%-44s %8ss  %-22s %8sx' \
			"the extracted trees by bench/floor.c, $fm" "$fl_fresh" "$fl_fresh_sp" "$(ratio "$fl_fresh" "$dtree")" \
			"  the same again" "$fl_again" "$fl_again_sp" "$(ratio "$fl_again" "$dtree")")
"
	done
	mload1=$(loadavg)
	echo "two $MAPS-map games, $mentries entries each, $(nproc) cores; load average: $mload0 at the start, $mload1 at the end"
	printf '%-44s %9s  %-22s %9s\n' "measure" "median" "spread" "ratio"
	printf '%-44s %8ss  %-22s %9s\n' "stat walk of a mounted game (fresh mount)" "$mwalk" "$mwalk_sp" ""
	printf '%-44s %8ss  %-22s %9s\n' "diff -r of the extracted trees" "$dtree" "$dtree_sp" ""
	printf '%-44s %8ss  %-22s %8sx\n' "diff -r of the mounted games (fresh mounts)" "$dmnt" "$dmnt_sp" "$(ratio "$dmnt" "$dtree")"
	printf '%-44s %8ss  %-22s %8sx\n' "diff -r of the mounted games (again)" "$dwarm" "$dwarm_sp" "$(ratio "$dwarm" "$dtree")"
	printf '%-44s %8ss  %-22s %8sx\n' "the same mounted -o ro (fresh mounts)" "$rmnt" "$rmnt_sp" "$(ratio "$rmnt" "$dtree")"
	printf '%-44s %8ss  %-22s %8sx\n' "the same mounted -o ro (again)" "$rwarm" "$rwarm_sp" "$(ratio "$rwarm" "$dtree")"
	printf '%s' "$fl_rows"
}
if [ -n "$ONLY_MAPS" ]; then
	maps_bench
	exit 0
fi

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

load0=$(loadavg)
tiny=$(med_mount "$W/tiny.rpg" "$W/t"); tiny_sp=$(spread)
mount=$(med_mount "$W/big.rpg" "$W/m"); mount_sp=$(spread)
walk=$(med_fresh "$W/big.rpg" "$W/m" walk "$W/m"); walk_sp=$(spread)
du=$(med_fresh "$W/big.rpg" "$W/m" duq "$W/m"); du_sp=$(spread)
"$GAMEFS" "$W/big.rpg" "$W/m"
pid=$(pgrep -n -f "gamefs $W/big.rpg")

read_figures "$W/big.rpg" "$W/m/BIG.BIN"

edit1k() { head -c 1024 /dev/urandom | dd of="$W/m/LUMP00010.BIN" conv=notrunc 2>/dev/null; }
commit_vs_cp edit1k "$W/big.rpg"
cp=$cpnow cp_sp=$cpnow_sp
hwm=$(awk '/VmHWM/ {print $2}' "/proc/$pid/status")
fusermount3 -u "$W/m"
load1=$(loadavg)

echo "gamefs OHRRPGCE benchmark: $LUMPS lumps, $((size >> 20)) MiB, $(nproc) cores, $(uname -r)"
echo "load average (1, 5, 15 min): $load0 at the start, $load1 at the end; medians of $RUNS runs, spread min..max (runs)"
printf '%-44s %9s  %-22s %9s\n' "measure" "median" "spread" "ratio"
printf '%-44s %8ss  %-22s %9s\n' "mount + list root (tiny archive)" "$tiny" "$tiny_sp" ""
printf '%-44s %8ss  %-22s %8sx\n' "mount + list root (large, vs tiny)" "$mount" "$mount_sp" "$(ratio "$mount" "$tiny")"
printf '%-44s %8ss  %-22s %9s\n' "stat walk: find -printf %s ($LUMPS entries)" "$walk" "$walk_sp" ""
printf '%-44s %8ss  %-22s %9s\n' "du -s of the mount" "$du" "$du_sp" ""
printf '%-44s %8ss  %-22s %9s\n' "cat of the archive file" "$catall" "$catall_sp" ""
printf '%-44s %8ss  %-22s %8sx\n' "first read of a $((bigsize >> 20)) MiB lump (speed vs cat)" "$first" "$first_sp" "$rfirst"
printf '%-44s %8ss  %-22s %8sx\n' "repeated read (speed vs cat)" "$again" "$again_sp" "$ragain"
printf '%-44s %8ss  %-22s %9s\n' "2000 random 4 KiB reads of the archive" "$rnd_arch" "$rnd_arch_sp" ""
printf '%-44s %8ss  %-22s %8sx\n' "2000 random 4 KiB reads (time vs the archive)" "$rnd" "$rnd_sp" "$(ratio "$rnd" "$rnd_arch")"
printf '%-44s %8ss  %-22s %9s\n' "cp of the archive the commits wrote (+ sync)" "$cp" "$cp_sp" ""
printf '%-44s %8ss  %-22s %8sx\n' "commit of a 1 KiB edit (time vs cp)" "$commit" "$commit_sp" "$(ratio "$commit" "$cp")"
printf '%-44s %7sKiB  %-22s %9s\n' "daemon peak memory (VmHWM)" "$hwm" "" ""
echo
maps_bench
