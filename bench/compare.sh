#!/bin/bash
# bench/compare.sh [ENTRIES] [MIB] - gamefs against fuse-zip, archivemount
# and squashfuse, side by side, on the same files: packed as an OHRRPGCE
# lumped file for gamefs, as a stored (uncompressed) zip for fuse-zip and
# archivemount, and as an uncompressed squashfs image for squashfuse (read
# only: no commit).  Needs root (drop-in mounts); installs the three peers
# from Debian's packages when they are missing (here, never in CI).
# Every figure is measured in this one run; ratios are against `cat` or `cp`
# of the archive file.  The page cache is warm (the archive was just read).
# Timings are medians of BENCH_RUNS runs (lib.sh); a read that takes a tool
# over 5 s is not repeated.  BENCH_TOOLS="gamefs squashfuse" runs only those.
# The last row, floor, is the same files served from the extracted tree by
# bench/floor.c (read-only, every kernel cache on): what FUSE itself costs.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
GAMEFS=${GAMEFS:-$here/_build/gamefs}
N=${1:-10000}
TOOLS=${BENCH_TOOLS:-gamefs fuse-zip archivemount squashfuse floor}
want() { case " $TOOLS " in *" $1 "*) return 0;; esac; return 1; }
MIB=${2:-1024}
W=$(mktemp -d "${TMPDIR:-/var/tmp}/gamefs-cmp.XXXXXX")
cleanup() { for m in "$W"/m-*; do mountpoint -q "$m" && umount "$m" 2>/dev/null; done; rm -rf "$W" "$BENCH_SPREAD"; }
trap cleanup EXIT
. "$here/bench/lib.sh"
missing=""
for t in fuse-zip:fuse-zip archivemount:archivemount squashfuse:squashfuse mksquashfs:squashfs-tools; do
	command -v "${t%%:*}" >/dev/null || missing="$missing ${t#*:}"
done
if [ -n "$missing" ]; then
	echo "installing:$missing"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null 2>&1 ||
		{ apt-get update -qq >/dev/null 2>&1; DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null 2>&1; } ||
		echo "could not install:$missing (those columns are left out)"
fi
BENCH_TIMEOUT=300   # a read that takes a tool longer is cut off (shown as its time)
dt() { secs "$@"; }
lsq() { ls "$1/" >/dev/null; }
div() { echo "$1 / $2" | bc -l | awk '{printf "%.2f", $1}'; }

python3 - "$W" "$N" "$MIB" <<'PY'
import os, struct, sys, zipfile
w, n, mib = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
big = (mib << 20) // 4
small = ((mib << 20) - big) // (n - 1)
blob = os.urandom(1 << 20)
def body(size, i):
    out = bytearray(); k = i
    while len(out) < size:
        out += blob[k % 4096 * 64:][: size - len(out)]; k += 7
    return bytes(out[:size])
names = ['F%05d.BIN' % i for i in range(n - 1)] + ['BIG.BIN']
os.makedirs(w + '/tree', exist_ok=True)
os.makedirs(w + '/tinytree', exist_ok=True)
open(w + '/tinytree/A.BIN', 'wb').write(b'hi')
with open(w + '/game.rpg', 'wb') as r, zipfile.ZipFile(w + '/game.zip', 'w', zipfile.ZIP_STORED, allowZip64=True) as z:
    for i, name in enumerate(names):
        data = body(big if name == 'BIG.BIN' else small, i)
        open(w + '/tree/' + name, 'wb').write(data)
        r.write(name.encode() + b'\0' + struct.pack('<2H', len(data) >> 16, len(data) & 0xffff) + data)
        zi = zipfile.ZipInfo(name, (2020, 1, 1, 0, 0, 0))
        zi.create_system = 3                 # unix, so that the mode below is read
        zi.external_attr = 0o100644 << 16
        z.writestr(zi, data)
open(w + '/tiny.rpg', 'wb').write(b'A.BIN\0' + struct.pack('<2H', 0, 2) + b'hi')
with zipfile.ZipFile(w + '/tiny.zip', 'w') as z:
    zi = zipfile.ZipInfo('A.BIN', (2020, 1, 1, 0, 0, 0)); zi.create_system = 3; zi.external_attr = 0o100644 << 16
    z.writestr(zi, b'hi')
PY

daemon_pid() { pgrep -n -f "$1" ; }
wait_gone() { local i=0; while kill -0 "$1" 2>/dev/null; do sleep 0.02; i=$((i+1)); [ $i -gt 6000 ] && break; done; }

run() { # NAME ARCHIVE-EXT MOUNT-COMMAND-PREFIX
	local name=$1 ext=$2; shift 2
	local a="$W/game.$ext" m="$W/m-$name" t="$W/m-$name-tiny" pid
	mkdir -p "$m" "$t"
	[ -f "$a" ] && cat "$a" >/dev/null
	local t0 t1 tiny mount ls walk du r1 r2 mount_sp ls_sp walk_sp
	tiny=$(MOUNT="$*" med_mount "$W/tiny.$ext" "$t")
	mount=$(MOUNT="$*" med_mount "$a" "$m"); mount_sp=$(spread)
	ls=$(MOUNT="$*" med_fresh "$a" "$m" lsq "$m"); ls_sp=$(spread)
	walk=$(MOUNT="$*" med_fresh "$a" "$m" walk "$m"); walk_sp=$(spread)
	du=$(MOUNT="$*" med_fresh "$a" "$m" duq "$m")
	"$@" "$a" "$m"
	pid=$(daemon_pid "$a $m")
	local r1_sp r2_sp rnd_sp
	r1=$(med_cold_capped "$m/BIG.BIN"); r1_sp=$(spread)
	r2=$(med_capped catq "$m/BIG.BIN"); r2_sp=$(spread)
	uncache "$m/BIG.BIN"
	local rnd rc
	rnd=$(timeout 120 sh -c '. "$1/bench/lib.sh"; med_out randread "$2"' _ "$here" "$m/BIG.BIN")
	rc=$?
	rnd_sp=$(spread)
	[ $rc -eq 124 ] && rnd=">120"
	[ $rc -ne 0 ] && [ $rc -ne 124 ] && rnd="error"
	local hwm; hwm=$(awk '/VmHWM/ {print $2}' "/proc/$pid/status" 2>/dev/null)
	# commit: until the edit is in the archive on disk.  gamefs has written it
	# when close() returns; the others write it when the daemon exits after unmount.
	local commit="-" commit_sp="-"
	if [ "$name" = squashfuse ] || [ "$name" = floor ]; then
		umount "$m"; wait_gone "$pid"
	elif [ "$name" = gamefs ]; then
		# close() commits: RUNS edits seconds apart, each against cp + sync
		# of the archive as the commit left it (lib.sh commit_vs_cp)
		edit1k() { head -c 1024 /dev/urandom | dd of="$m/F00100.BIN" conv=notrunc 2>/dev/null; }
		commit_vs_cp edit1k "$a"
		umount "$m"; wait_gone "$pid"
		cp_paced="$cpnow ($cpnow_sp)"
		commit="$(div "$commit" "$cpnow")x"
	else
		t0=$(now)
		head -c 1024 /dev/urandom | dd of="$m/F00100.BIN" conv=notrunc 2>/dev/null
		[ "$name" = gamefs ] || { umount "$m"; wait_gone "$pid"; }
		t1=$(now); commit=$(dt "$t0" "$t1")
		commit="$(div "$commit" "$cp")x"
	fi
	local bigsize; bigsize=$(python3 -c "print($MIB * 1048576 // 4)")
	printf '%-13s %8s %8s %8s %8s %8s %8s %8s %8s %8s %8s\n' "$name" "$tiny" "$mount" "$ls" "$walk" "$du" \
		"$(echo "($bigsize / $r1) / ($size / $cat)" | bc -l | awk '{printf "%.2fx", $1}')" \
		"$(echo "($bigsize / $r2) / ($size / $cat)" | bc -l | awk '{printf "%.2fx", $1}')" \
		"$rnd" "$commit" "$((hwm / 1024))M"
	spreads="$spreads$(printf '%-13s mount %s; ls %s; find %s; read1 %s; read2 %s; 4K*2000 %s; commit %s' "$name" "$mount_sp" "$ls_sp" "$walk_sp" "$r1_sp" "$r2_sp" "$rnd_sp" "$commit_sp")
"
}
spreads=""

command -v mksquashfs >/dev/null &&
	mksquashfs "$W/tree" "$W/game.sqfs" -noappend -noI -noD -noF -noX -no-progress >/dev/null 2>&1 &&
	mksquashfs "$W/tinytree" "$W/tiny.sqfs" -noappend -no-progress >/dev/null 2>&1
if want floor; then
	ln -s tree "$W/game.floor"
	ln -s tinytree "$W/tiny.floor"
else
	rm -rf "$W/tree"
fi
sync   # the generated files written back: no writeback during the runs
size=$(stat -c %s "$W/game.rpg")
cat "$W/game.rpg" >/dev/null
cat=$(med catq "$W/game.rpg")
cp=$(med_cp "$W/game.rpg")
cp_paced=
load0=$(loadavg)
echo "gamefs vs fuse-zip vs archivemount vs squashfuse: $N entries, $((size >> 20)) MiB, $(nproc) cores, $(free -g | awk '/Mem/ {print $2}') GiB, $(uname -r)"
echo "cat of the archive: ${cat}s, cp + sync: ${cp}s"
printf '%-13s %8s %8s %8s %8s %8s %8s %8s %8s %8s %8s\n' tool "tiny(s)" "mount(s)" "ls(s)" "find(s)" "du(s)" "read1" "read2" "4K*2000" "commit" "VmHWM"
want gamefs && run gamefs rpg "$GAMEFS"
want fuse-zip && command -v fuse-zip >/dev/null && run fuse-zip zip fuse-zip
want archivemount && command -v archivemount >/dev/null && run archivemount zip archivemount
want squashfuse && [ -f "$W/game.sqfs" ] && command -v squashfuse >/dev/null && run squashfuse sqfs squashfuse
want floor && floor=$(floor_build) && run floor floor "$floor"
echo "load average (1, 5, 15 min): $load0 at the start, $(loadavg) at the end; medians of $RUNS runs"
[ -n "$cp_paced" ] && echo "gamefs's commits against cp + sync of the archive the commits wrote: ${cp_paced}s"
printf 'spread (min..max (runs)):\n%s' "$spreads"
echo "mount: mount + ls of the root; ls: ls of the root alone, on a fresh mount (floor's mount reads every file under 64 KiB); read1/read2: first/repeated read of a $((MIB / 4)) MiB entry, speed vs cat;"
echo "4K*2000: 2000 random 4 KiB preads (s); commit: 1 KiB edit until the archive on disk holds it (gamefs: close()"
echo "returns, median of edits seconds apart, each against cp + sync of that archive; the others write at unmount: one edit +"
echo "unmount until the daemon exits), time vs cp + sync;"
echo "squashfuse and floor (bench/floor.c) are read-only (no commit)"
