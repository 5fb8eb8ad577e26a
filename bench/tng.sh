#!/bin/sh
# bench/tng.sh [SOUNDS] [MIB] - TirNanoG game benchmark (DESIGN.md section 6).
# Makes a game of about MIB MiB (default 1024) with SOUNDS sounds (default
# 10000) and one large movie with the tng test writer, then measures in one
# run: mount-to-listing time against a tiny game, a stat walk, sequential
# read of the movie through the mount against `cat` of the archive (first
# and repeated read), 2000 random 4 KiB reads of the movie against the same
# reads of the archive file, commit time of a 1 KiB edit against `cp` of the
# archive (each edit after a pause, see med_paced), replacing the movie
# with `cp` against the same edit on plain files plus `cp` + sync of the
# archive, and the daemon's peak memory (VmHWM).  Figures are medians of
# BENCH_RUNS runs with their spread (min..max), and the load average at the
# start and the end (see lib.sh); nothing is asserted.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
GAMEFS=${GAMEFS:-$here/_build/gamefs}
SOUNDS=${1:-10000}
MIB=${2:-1024}
W=$(mktemp -d "${TMPDIR:-/var/tmp}/gamefs-bench.XXXXXX")
trap 'fusermount3 -u "$W/m" 2>/dev/null || :; fusermount3 -u "$W/t" 2>/dev/null || :; rm -rf "$W" "$BENCH_SPREAD"' EXIT
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

load0=$(loadavg)
tiny=$(med_mount "$W/tiny.tng" "$W/t"); tiny_sp=$(spread)
mount=$(med_mount "$W/big.tng" "$W/m"); mount_sp=$(spread)

"$GAMEFS" "$W/big.tng" "$W/m"
entries=$(find "$W/m" | wc -l)
fusermount3 -u "$W/m"; sleep 0.3
walk=$(med_fresh "$W/big.tng" "$W/m" walk "$W/m"); walk_sp=$(spread)
du=$(med_fresh "$W/big.tng" "$W/m" duq "$W/m"); du_sp=$(spread)
"$GAMEFS" "$W/big.tng" "$W/m"
pid=$(pgrep -n -f "gamefs $W/big.tng")

read_figures "$W/big.tng" "$W/m/movies/intro.ogv"

cp=$(med_cp "$W/big.tng"); cp_sp=$(spread)
# a 1 KiB edit of a sound: same size, the close commits
edit1k() { { printf 'OggS'; head -c 1020 /dev/urandom; } | dd of="$W/m/sounds/snd00010.ogg" conv=notrunc 2>/dev/null; }
commit_vs_cp edit1k "$W/big.tng"	# against cp + sync of the archive the commits wrote
# replacing the movie with cp, against the same edit on plain files plus cp + sync of the archive
mkdir -p "$W/plain"
head -c "$movie" /dev/urandom >"$W/movie.ogv"; printf 'OggS' | dd of="$W/movie.ogv" conv=notrunc 2>/dev/null
replace() { cp "$W/movie.ogv" "$W/m/movies/intro.ogv"; }
plain() { cp "$W/movie.ogv" "$W/plain/intro.ogv"; cp "$W/big.tng" "$W/plain/big.tng"; sync -f "$W/plain/big.tng"; }
rplain=$(med_paced plain); rplain_sp=$(spread)
rep=$(med_paced replace); rep_sp=$(spread)
hwm=$(awk '/VmHWM/ {print $2}' "/proc/$pid/status")
fusermount3 -u "$W/m"
load1=$(loadavg)
"$GAMEFS" check "$W/big.tng" >/dev/null || echo "WARNING: gamefs check failed after the commits"

echo "gamefs TirNanoG benchmark: $SOUNDS sounds, $entries entries, $((size >> 20)) MiB, $(nproc) cores, $(uname -r)"
echo "load average (1, 5, 15 min): $load0 at the start, $load1 at the end; medians of $RUNS runs, spread min..max (runs)"
printf '%-46s %9s  %-22s %9s\n' "measure" "median" "spread" "ratio"
printf '%-46s %8ss  %-22s %9s\n' "mount + list root (tiny game)" "$tiny" "$tiny_sp" ""
printf '%-46s %8ss  %-22s %8sx\n' "mount + list root (large, vs tiny)" "$mount" "$mount_sp" "$(ratio "$mount" "$tiny")"
printf '%-46s %8ss  %-22s %9s\n' "stat walk: find -printf %s ($entries entries)" "$walk" "$walk_sp" ""
printf '%-46s %8ss  %-22s %9s\n' "du -s of the mount" "$du" "$du_sp" ""
printf '%-46s %8ss  %-22s %9s\n' "cat of the archive file" "$catall" "$catall_sp" ""
printf '%-46s %8ss  %-22s %8sx\n' "first read of a $((bigsize >> 20)) MiB movie (speed vs cat)" "$first" "$first_sp" "$rfirst"
printf '%-46s %8ss  %-22s %8sx\n' "repeated read (speed vs cat)" "$again" "$again_sp" "$ragain"
printf '%-46s %8ss  %-22s %9s\n' "2000 random 4 KiB reads of the archive" "$rnd_arch" "$rnd_arch_sp" ""
printf '%-46s %8ss  %-22s %8sx\n' "2000 random 4 KiB reads (time vs the archive)" "$rnd" "$rnd_sp" "$(ratio "$rnd" "$rnd_arch")"
printf '%-46s %8ss  %-22s %9s\n' "cp of the archive (+ sync)" "$cp" "$cp_sp" ""
printf '%-46s %8ss  %-22s %9s\n' "cp of the archive the commits wrote (+ sync)" "$cpnow" "$cpnow_sp" ""
printf '%-46s %8ss  %-22s %8sx\n' "commit of a 1 KiB edit (time vs that cp)" "$commit" "$commit_sp" "$(ratio "$commit" "$cpnow")"
printf '%-46s %8ss  %-22s %9s\n' "plain: cp movie + cp archive + sync" "$rplain" "$rplain_sp" ""
printf '%-46s %8ss  %-22s %8sx\n' "cp of a $((movie >> 20)) MiB movie into the mount (vs plain)" "$rep" "$rep_sp" "$(ratio "$rep" "$rplain")"
printf '%-46s %7sKiB  %-22s %9s\n' "daemon peak memory (VmHWM)" "$hwm" "" ""
