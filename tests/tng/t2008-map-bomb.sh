#!/bin/sh
# Memory bounds: a game whose map asset inflates to 1 GiB is refused (shown
# raw, check says damaged) under a 1 GB address-space limit, without a crash;
# the mount serves everything else and the daemon stays small.
. "$top_srcdir/tests/lib.sh"
cd "$T" || exit 1
python3 "$top_srcdir/tests/tng/tngpy.py" write bomb.tng --bad mapbomb || fail "write"
[ "$(stat -c %s bomb.tng)" -lt 4000000 ] || fail "the bomb should be small on disk"
limit=""
# ASan reserves terabytes of address space: no limit in sanitizer builds
grep -q __asan_init "$GAMEFS" 2>/dev/null || limit="ulimit -v 1000000;"
sh -c "$limit \"$GAMEFS\" check bomb.tng" >out 2>err; rc=$?
[ $rc -ge 128 ] && fail "check crashed (status $rc)"
check_eq 1 $rc "check of the bomb"
grep -q "maps/abyss.bin" out || fail "check names the map: $(cat out)"
grep -q "does not inflate" err || fail "load warns: $(cat err)"
mkdir -p m
sh -c "$limit exec \"$GAMEFS\" -f bomb.tng m" >>"$T/gamefs.log" 2>&1 &
pid=$!
GFS_MOUNTS="$GFS_MOUNTS $T/m"
n=0; while ! mountpoint -q m; do n=$((n + 1)); [ $n -gt 100 ] && fail "mount"; kill -0 $pid || fail "daemon died"; sleep 0.05; done
[ -f m/maps/abyss.bin ] || fail "the bomb is shown raw"
r=$(python3 -c "
try:
    print(len(open('m/maps/abyss.bin','rb').read()))
except OSError as e:
    print('errno', e.errno)")
case "$r" in "errno 5"|0) ;; *) fail "reading the bomb gave $r" ;; esac
ls m/maps/meadow/layer00.csv >/dev/null || fail "other maps still served"
cat m/maps/meadow/layer00.csv >/dev/null || fail "other maps readable"
kill -0 $pid || fail "daemon died"
hwm=$(awk '/VmHWM/ {print $2}' /proc/$pid/status)
[ -z "$limit" ] || [ "$hwm" -lt 300000 ] || fail "daemon peak memory $hwm kB"
fusermount3 -u m; wait $pid || fail "daemon exit status"
echo "ok (peak ${hwm} kB)"
