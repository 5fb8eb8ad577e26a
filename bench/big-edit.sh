#!/bin/sh
# bench/big-edit.sh [MIB] - big edits (issue 18, DESIGN.md section 6).
# Makes a TirNanoG game of about MIB MiB (default 1024) with 40 sounds and
# a movie of 3/8 of it, then measures: replacing the movie with `cp` into
# the mount (the close commits) against the same edit on plain files plus
# `cp` + sync of the archive; a 1 KiB edit of a sound against `cp` + sync;
# and the daemon's peak memory (VmHWM) over all of it.  Medians of
# BENCH_RUNS runs (default 5) with their spread; nothing is asserted.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
GAMEFS=${GAMEFS:-$here/_build/gamefs}
MIB=${1:-1024}
W=$(mktemp -d "${TMPDIR:-/var/tmp}/gamefs-bench.XXXXXX")
trap 'fusermount3 -u "$W/m" 2>/dev/null || :; rm -rf "$W" "$BENCH_SPREAD"' EXIT
. "$here/bench/lib.sh"

total=$((MIB << 20))
movie=$((total * 3 / 8))
sound=$(((total - movie) / 40))
python3 "$here/tests/tng/tngpy.py" write "$W/big.tng" --sounds 40 --sound-size "$sound" \
	--movie-size "$movie"
mkdir -p "$W/m" "$W/plain"
size=$(stat -c %s "$W/big.tng")
head -c "$movie" /dev/urandom >"$W/movie.ogv"; printf 'OggS' | dd of="$W/movie.ogv" conv=notrunc 2>/dev/null
sync; cat "$W/big.tng" "$W/movie.ogv" >/dev/null   # written back, cache warm

load0=$(loadavg)
"$GAMEFS" "$W/big.tng" "$W/m"
pid=$(pgrep -n -f "gamefs $W/big.tng")
ls "$W/m/movies" >/dev/null
cp=$(med_cp "$W/big.tng"); cp_sp=$(spread)
edit1k() { { printf 'OggS'; head -c 1020 /dev/urandom; } | dd of="$W/m/sounds/snd00010.ogg" conv=notrunc 2>/dev/null; }
commit_vs_cp edit1k "$W/big.tng"	# against cp + sync of the archive the commits wrote
hwm1k=$(awk '/VmHWM/ {print $2}' "/proc/$pid/status")
# each run copies in a different movie (the same one again would be an unchanged write-back)
nrep=0
replace() {
	nrep=$((nrep + 1))
	printf '%08d' "$nrep" | dd of="$W/movie.ogv" bs=1 seek=4 conv=notrunc 2>/dev/null
	cp "$W/movie.ogv" "$W/m/movies/intro.ogv"
}
plain() { cp "$W/movie.ogv" "$W/plain/intro.ogv"; cp "$W/big.tng" "$W/plain/big.tng"; sync -f "$W/plain/big.tng"; }
rplain=$(med_paced plain); rplain_sp=$(spread)
rm -rf "$W/plain"
rep=$(med_paced replace); rep_sp=$(spread)
hwm=$(awk '/VmHWM/ {print $2}' "/proc/$pid/status")
fusermount3 -u "$W/m"
load1=$(loadavg)
"$GAMEFS" cat "$W/big.tng" movies/intro.ogv | cmp -s - "$W/movie.ogv" ||
	echo "WARNING: the movie in the archive is not the one copied in"
"$GAMEFS" check "$W/big.tng" >/dev/null || echo "WARNING: gamefs check failed after the commits"

echo "gamefs big edits: $((size >> 20)) MiB TirNanoG game, $((movie >> 20)) MiB movie, $(nproc) cores, $(uname -r)"
echo "load average (1, 5, 15 min): $load0 at the start, $load1 at the end; medians of $RUNS runs, spread min..max (runs)"
printf '%-50s %9s  %-22s %9s\n' "measure" "median" "spread" "ratio"
printf '%-50s %8ss  %-22s %9s\n' "cp of the archive (+ sync)" "$cp" "$cp_sp" ""
printf '%-50s %8ss  %-22s %9s\n' "cp of the archive the commits wrote (+ sync)" "$cpnow" "$cpnow_sp" ""
printf '%-50s %8ss  %-22s %8sx\n' "commit of a 1 KiB edit (time vs that cp)" "$commit" "$commit_sp" "$(ratio "$commit" "$cpnow")"
printf '%-50s %7sKiB  %-22s %9s\n' "daemon peak memory after the 1 KiB edits (VmHWM)" "$hwm1k" "" ""
printf '%-50s %8ss  %-22s %9s\n' "plain: cp movie + cp archive + sync" "$rplain" "$rplain_sp" ""
printf '%-50s %8ss  %-22s %8sx\n' "cp of the movie into the mount (vs plain)" "$rep" "$rep_sp" "$(ratio "$rep" "$rplain")"
printf '%-50s %7sKiB  %-22s %9s\n' "daemon peak memory (VmHWM)" "$hwm" "" ""
