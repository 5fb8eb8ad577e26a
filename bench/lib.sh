# bench/lib.sh - timing helpers shared by the bench scripts (sourced).
# Every figure is the median of BENCH_RUNS runs (default 5), so one slow run
# of a busy machine does not decide a ratio.
RUNS=${BENCH_RUNS:-5}
now() { date +%s.%N; }
# seconds between two now() stamps
secs() { echo "$2 - $1" | bc -l | awk '{printf "%.4f", $1}'; }
# A / B to three places
ratio() { echo "scale=3; $1 / $2" | bc -l | awk '{printf "%.3f", $1}'; }
# read speed of BYTES in SECS, as a fraction of ALLBYTES in ALLSECS (cat of the archive)
speed() { echo "scale=3; ($1 / $2) / ($3 / $4)" | bc -l | awk '{printf "%.3f", $1}'; }
# the median of the numbers on stdin, one a line; their min and max go to
# $BENCH_SPREAD for spread() (a figure's spread, printed beside it)
BENCH_SPREAD=${BENCH_SPREAD:-$(mktemp "${TMPDIR:-/var/tmp}/gamefs-spread.XXXXXX")}
export BENCH_SPREAD
median() {
	sort -n | awk -v f="$BENCH_SPREAD" '{v[NR] = $1}
		END {print v[int((NR + 1) / 2)]; print v[1], v[NR], NR > f}'
}
# "min..max (N)" of the last median
spread() { awk '{printf "%s..%s (%d)", $1, $2, $3}' "$BENCH_SPREAD"; }
# the 1, 5 and 15 minute load averages (2 cores shared: say what the figures were taken under)
loadavg() { cut -d' ' -f1-3 /proc/loadavg; }
# seconds one run of "$@" takes (its output must go elsewhere)
timed() { _t0=$(now); "$@"; _t1=$(now); secs "$_t0" "$_t1"; echo; }
# median of what RUNS runs of "$@" print (a figure the command times itself)
med_out() { _i=0; while [ "$_i" -lt "$RUNS" ]; do "$@"; _i=$((_i + 1)); done | median; }
# median seconds of RUNS runs of "$@"
med() { _i=0; while [ "$_i" -lt "$RUNS" ]; do timed "$@"; _i=$((_i + 1)); done | median; }

# cat to nowhere (under `timeout BENCH_TIMEOUT` when that is set)
catq() { ${BENCH_TIMEOUT:+timeout -s KILL "$BENCH_TIMEOUT"} cat "$@" >/dev/null; }
# drop one file's pages from the page cache (a FUSE file's too: fadvise)
uncache() { dd if="$1" iflag=nocache count=0 2>/dev/null; }
# median seconds of a first (uncached) read of FILE through the mount
med_cold_cat() {
	_i=0
	while [ "$_i" -lt "$RUNS" ]; do uncache "$1"; timed catq "$1"; _i=$((_i + 1)); done | median
}
# mount ARCHIVE on MNT (with MOUNT, default gamefs) and list PATH under it:
# the time a user waits
mount_ls() { ${MOUNT:-"$GAMEFS"} "$1" "$2" && ls "$2/${3:-}" >/dev/null; }
unmount() { fusermount3 -u "$1" 2>/dev/null || umount "$1"; }
# median seconds of mount_ls over RUNS mounts, each unmounted after
med_mount() {
	_i=0
	while [ "$_i" -lt "$RUNS" ]; do
		timed mount_ls "$@"
		unmount "$2"
		sleep 0.3
		_i=$((_i + 1))
	done | median
}
# median seconds of "$@" run on a fresh mount of ARCHIVE on MNT, RUNS times
med_fresh() {
	_a=$1 _m=$2
	shift 2
	_i=0
	while [ "$_i" -lt "$RUNS" ]; do
		${MOUNT:-"$GAMEFS"} "$_a" "$_m"
		timed "$@"
		unmount "$_m"
		sleep 0.3
		_i=$((_i + 1))
	done | median
}
# med_fresh with two archives on two mount points: "$@" runs with both mounted
med_fresh2() {
	_a=$1 _m=$2 _b=$3 _n=$4
	shift 4
	_i=0
	while [ "$_i" -lt "$RUNS" ]; do
		${MOUNT:-"$GAMEFS"} "$_a" "$_m"
		${MOUNT:-"$GAMEFS"} "$_b" "$_n"
		timed "$@"
		unmount "$_m"
		unmount "$_n"
		sleep 0.3
		_i=$((_i + 1))
	done | median
}
# median seconds of RUNS runs of "$@" with two archives mounted once on two
# mount points (with MOUNT, default gamefs): the same mounts read again
med_same2() {
	_a=$1 _m=$2 _b=$3 _n=$4
	shift 4
	${MOUNT:-"$GAMEFS"} "$_a" "$_m"
	${MOUNT:-"$GAMEFS"} "$_b" "$_n"
	med "$@"
	unmount "$_m"
	unmount "$_n"
}
# bench/floor.c built as $W/floor, its path printed: the least a FUSE file
# system costs on this machine (see floor.c); fails when it cannot be built
floor_build() {
	cc -O2 -o "$W/floor" "$here/bench/floor.c" $(pkg-config --cflags --libs fuse3) 2>/dev/null &&
		echo "$W/floor"
}
# list every entry with its size (a file manager's first look), or count it all
walk() { find "$1" -printf '%s\n' >/dev/null; }
duq() { du -s "$1" >/dev/null; }
# seconds for 2000 random 4 KiB preads of FILE (timed inside python, without its start-up)
randread() {
	python3 - "$1" <<'PY'
import os, random, sys, time
fd = os.open(sys.argv[1], os.O_RDONLY); size = os.fstat(fd).st_size
rnd = random.Random(1)
offs = [rnd.randrange(0, size - 4096) for _ in range(2000)]
t = time.perf_counter()
for o in offs:
    os.pread(fd, 4096, o)
print('%.4f' % (time.perf_counter() - t))
PY
}
# like med, but a first run over 5 s is the figure (slow tools are not rerun)
med_capped() {
	_f=$(timed "$@")
	if [ "$(echo "$_f > 5" | bc -l)" = 1 ] || [ "$RUNS" -le 1 ]; then
		echo "$_f"
		echo "$_f $_f 1" >"$BENCH_SPREAD"
	else
		med "$@"
	fi
}
# med_cold_cat, but a first read over 5 s is the figure
med_cold_capped() {
	uncache "$1"
	_f=$(timed catq "$1")
	if [ "$(echo "$_f > 5" | bc -l)" = 1 ] || [ "$RUNS" -le 1 ]; then
		echo "$_f"
		echo "$_f $_f 1" >"$BENCH_SPREAD"
	else
		med_cold_cat "$1"
	fi
}
# Reads of ASSET (a file in a mount) against ARCHIVE: sets catall, bigsize,
# first, again, rfirst and ragain (speeds against cat of the archive), and
# rnd_arch and rnd (2000 random 4 KiB reads of the archive, of the asset)
read_figures() {
	catall=$(med catq "$1")
	catall_sp=$(spread)
	bigsize=$(stat -c %s "$2")
	first=$(med_cold_cat "$2")
	first_sp=$(spread)
	catq "$2"
	again=$(med catq "$2")
	again_sp=$(spread)
	rfirst=$(speed "$bigsize" "$first" "$(stat -c %s "$1")" "$catall")
	ragain=$(speed "$bigsize" "$again" "$(stat -c %s "$1")" "$catall")
	rnd_arch=$(med_out randread "$1")
	rnd_arch_sp=$(spread)
	uncache "$2"
	rnd=$(med_out randread "$2")
	rnd_sp=$(spread)
}
# seconds of cp ARCHIVE and sync of the copy: what a commit is measured against
cp_secs() {
	_t0=$(now); cp "$1" "$1.copy"; sync -f "$1.copy"; _t1=$(now)
	rm -f "$1.copy"
	secs "$_t0" "$_t1"
}
# median of RUNS cp_secs
med_cp() {
	_i=0
	while [ "$_i" -lt "$RUNS" ]; do cp_secs "$1"; echo; _i=$((_i + 1)); done | median
}
# EDIT (a command whose close commits) against cp + sync of ARCHIVE as it is
# then, alternated RUNS times, each after BENCH_PAUSE seconds (default 3) of
# rest.  After the first commit the archive is the file the commit wrote,
# and on these machines a file just written copies up to 3x slower than one
# long settled (`cp` of a fresh copy: 1.4-2.5 s against 0.8 s for 1 GiB), so
# the same file is what `cp` copies.  Sets commit, commit_sp, cpnow, cpnow_sp.
commit_vs_cp() {
	_cf=$(mktemp) _pf=$(mktemp) _i=0
	while [ "$_i" -lt "$RUNS" ]; do
		sleep "${BENCH_PAUSE:-3}"; timed "$1" >>"$_cf"
		sleep "${BENCH_PAUSE:-3}"; cp_secs "$2" >>"$_pf"; echo >>"$_pf"
		_i=$((_i + 1))
	done
	commit=$(median <"$_cf"); commit_sp=$(spread)
	cpnow=$(median <"$_pf"); cpnow_sp=$(spread)
	rm -f "$_cf" "$_pf"
}
# median seconds of RUNS runs of "$@", each after BENCH_PAUSE seconds (default
# 3) of rest: edits a person makes seconds apart, so that the background CRC
# pass a TirNanoG commit starts over the new file is not what is timed
med_paced() {
	_i=0
	while [ "$_i" -lt "$RUNS" ]; do sleep "${BENCH_PAUSE:-3}"; timed "$@"; _i=$((_i + 1)); done | median
}
