#!/bin/sh
# bench/tng.sh [SOUNDS] [MIB] - TirNanoG game benchmark (DESIGN.md section 6).
# Makes a game of about MIB MiB (default 1024) with SOUNDS sounds (default
# 10000) and one large movie with the tng test writer, then measures in one
# run: mount-to-listing time against a tiny game, a stat walk, sequential
# read of the movie through the mount against `cat` of the archive (first
# and repeated read), commit time of a 1 KiB edit against `cp` of the
# archive, and the daemon's peak memory (VmHWM).  Figures are printed as
# seconds and ratios; nothing is asserted.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
GAMEFS=${GAMEFS:-$here/_build/gamefs}
SOUNDS=${1:-10000}
MIB=${2:-1024}
W=$(mktemp -d "${TMPDIR:-/var/tmp}/gamefs-bench.XXXXXX")
trap 'fusermount3 -u "$W/m" 2>/dev/null; fusermount3 -u "$W/t" 2>/dev/null; rm -rf "$W"' EXIT
. "$here/bench/lib.sh"

total=$((MIB << 20))
movie=$((total * 3 / 8))
sound=$(((total - movie) / SOUNDS))
python3 "$here/tests/tng/tngpy.py" write "$W/big.tng" --sounds "$SOUNDS" --sound-size "$sound" \
	--movie-size "$movie"
python3 "$here/tests/tng/tngpy.py" write "$W/tiny.tng" --sounds 1 --sound-size 10 --movie-size 10
mkdir -p "$W/m" "$W/t"
size=$(stat -c %s "$W/big.tng")
cat "$W/big.tng" >/dev/null   # warm the page cache

t0=$(now); "$GAMEFS" "$W/tiny.tng" "$W/t"; ls "$W/t" >/dev/null; t1=$(now)
tiny=$(secs "$t0" "$t1")
t0=$(now); "$GAMEFS" "$W/big.tng" "$W/m"; ls "$W/m" >/dev/null; t1=$(now)
mount=$(secs "$t0" "$t1")
fusermount3 -u "$W/t"
pid=$(pgrep -f "gamefs $W/big.tng" | head -n 1)

entries=$(find "$W/m" | wc -l)
fusermount3 -u "$W/m"; sleep 0.2
"$GAMEFS" "$W/big.tng" "$W/m"
pid=$(pgrep -f "gamefs $W/big.tng" | head -n 1)
t0=$(now); find "$W/m" -printf '%s\n' | wc -l >/dev/null; t1=$(now)
walk=$(secs "$t0" "$t1")

t0=$(now); cat "$W/big.tng" >/dev/null; t1=$(now); catall=$(secs "$t0" "$t1")
bigsize=$(stat -c %s "$W/m/movies/intro.ogv")
t0=$(now); cat "$W/m/movies/intro.ogv" >/dev/null; t1=$(now); first=$(secs "$t0" "$t1")
t0=$(now); cat "$W/m/movies/intro.ogv" >/dev/null; t1=$(now); again=$(secs "$t0" "$t1")
rfirst=$(speed "$bigsize" "$first" "$size" "$catall")
ragain=$(speed "$bigsize" "$again" "$size" "$catall")

t0=$(now); cp "$W/big.tng" "$W/copy.tng"; sync -f "$W/copy.tng"; t1=$(now); cp=$(secs "$t0" "$t1")
rm -f "$W/copy.tng"
# a 1 KiB edit of a sound: same size, the close commits
t0=$(now)
{ printf 'OggS'; head -c 1020 /dev/urandom; } | dd of="$W/m/sounds/snd00010.ogg" conv=notrunc 2>/dev/null
t1=$(now)
commit=$(secs "$t0" "$t1")
hwm=$(awk '/VmHWM/ {print $2}' "/proc/$pid/status")
fusermount3 -u "$W/m"
"$GAMEFS" check "$W/big.tng" >/dev/null || echo "WARNING: gamefs check failed after the commit"

echo "gamefs TirNanoG benchmark: $SOUNDS sounds, $entries entries, $((size >> 20)) MiB, $(nproc) cores, $(uname -r)"
printf '%-46s %10s %10s\n' "measure" "value" "ratio"
printf '%-46s %9ss %10s\n' "mount + list root (tiny game)" "$tiny" ""
printf '%-46s %9ss %9sx\n' "mount + list root (large, vs tiny)" "$mount" "$(ratio "$mount" "$tiny")"
printf '%-46s %9ss %10s\n' "stat walk: find -printf %s ($entries entries)" "$walk" ""
printf '%-46s %9ss %10s\n' "cat of the archive file" "$catall" ""
printf '%-46s %9ss %9sx\n' "first read of a $((bigsize >> 20)) MiB movie (speed vs cat)" "$first" "$rfirst"
printf '%-46s %9ss %9sx\n' "repeated read (speed vs cat)" "$again" "$ragain"
printf '%-46s %9ss %10s\n' "cp of the archive (+ sync)" "$cp" ""
printf '%-46s %9ss %9sx\n' "commit of a 1 KiB edit (time vs cp)" "$commit" "$(ratio "$commit" "$cp")"
printf '%-46s %8sKiB %10s\n' "daemon peak memory (VmHWM)" "$hwm" ""
