#!/bin/sh
# bench/tng.sh [SOUNDS] [MIB] - TirNanoG game benchmark (DESIGN.md section 6).
# Makes a game of about MIB MiB (default 1024) with SOUNDS sounds (default
# 10000) and one large movie with the tng test writer, then measures in one
# run: mount-to-listing time against a tiny game, a stat walk, sequential
# read of the movie through the mount against `cat` of the archive (first
# and repeated read), 2000 random 4 KiB reads of the movie against the same
# reads of the archive file, commit time of a 1 KiB edit against `cp` of the
# archive, and the daemon's peak memory (VmHWM).  Figures are printed as
# seconds and ratios (medians of BENCH_RUNS runs, see lib.sh); nothing is
# asserted.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
GAMEFS=${GAMEFS:-$here/_build/gamefs}
SOUNDS=${1:-10000}
MIB=${2:-1024}
W=$(mktemp -d "${TMPDIR:-/var/tmp}/gamefs-bench.XXXXXX")
trap 'fusermount3 -u "$W/m" 2>/dev/null || :; fusermount3 -u "$W/t" 2>/dev/null || :; rm -rf "$W"' EXIT
. "$here/bench/lib.sh"

total=$((MIB << 20))
movie=$((total * 3 / 8))
sound=$(((total - movie) / SOUNDS))
python3 "$here/tests/tng/tngpy.py" write "$W/big.tng" --sounds "$SOUNDS" --sound-size "$sound" \
	--movie-size "$movie"
python3 "$here/tests/tng/tngpy.py" write "$W/tiny.tng" --sounds 1 --sound-size 10 --movie-size 10
mkdir -p "$W/m" "$W/t"
size=$(stat -c %s "$W/big.tng")
sync; cat "$W/big.tng" >/dev/null   # written back (no writeback during the runs), cache warm

tiny=$(med_mount "$W/tiny.tng" "$W/t")
mount=$(med_mount "$W/big.tng" "$W/m")

"$GAMEFS" "$W/big.tng" "$W/m"
pid=$(pgrep -n -f "gamefs $W/big.tng")
entries=$(find "$W/m" | wc -l)
fusermount3 -u "$W/m"; sleep 0.3
walk=$(med_fresh "$W/big.tng" "$W/m" walk "$W/m")
du=$(med_fresh "$W/big.tng" "$W/m" duq "$W/m")
"$GAMEFS" "$W/big.tng" "$W/m"
pid=$(pgrep -n -f "gamefs $W/big.tng")

read_figures "$W/big.tng" "$W/m/movies/intro.ogv"

cp=$(cp_secs "$W/big.tng")
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
printf '%-46s %9ss %10s\n' "du -s of the mount" "$du" ""
printf '%-46s %9ss %10s\n' "cat of the archive file" "$catall" ""
printf '%-46s %9ss %9sx\n' "first read of a $((bigsize >> 20)) MiB movie (speed vs cat)" "$first" "$rfirst"
printf '%-46s %9ss %9sx\n' "repeated read (speed vs cat)" "$again" "$ragain"
printf '%-46s %9ss %9sx\n' "2000 random 4 KiB reads (time vs the archive)" "$rnd" "$(ratio "$rnd" "$rnd_arch")"
printf '%-46s %9ss %10s\n' "cp of the archive (+ sync)" "$cp" ""
printf '%-46s %9ss %9sx\n' "commit of a 1 KiB edit (time vs cp)" "$commit" "$(ratio "$commit" "$cp")"
printf '%-46s %8sKiB %10s\n' "daemon peak memory (VmHWM)" "$hwm" ""
