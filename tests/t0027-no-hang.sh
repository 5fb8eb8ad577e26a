#!/bin/sh
# tests/t0027-no-hang.sh [SECONDS]: no request of the daemon waits for a
# cache invalidation (issue 28, item 0).  Four readers walk a TirNanoG mount
# (cat of every file, as a file manager making thumbnails does) while one
# writer adds, renames and removes sounds and another saves texts.txt the
# sed -i way.  Before the notifier thread the daemon's request threads both
# ended inside invalidations, each waiting for a page lock held by a reader
# that waited for a READ only they could answer: every process on the
# mount hung for good.  Every job must end within SECONDS (default 25) plus
# a margin; else the connection is aborted (so nothing stays stuck) and the
# test fails.
. "$top_srcdir/tests/lib.sh"
P="python3 $top_srcdir/tests/tng/tngpy.py"
S=${1:-25}
cd "$T" || exit 1
$P write g.tng --full || fail "write"
# the connection's abort file, to end a hang
mountpoint -q /sys/fs/fuse/connections 2>/dev/null ||
	mount -t fusectl none /sys/fs/fuse/connections 2>/dev/null
gfs_mount g.tng m || fail "mount"
M=$T/m
hung=0
python3 - "$M" "$S" <<'PY' || hung=1
import os, subprocess, sys, time
m, secs = sys.argv[1], float(sys.argv[2])
end = time.time() + secs
reader = f'end=$(( $(date +%s) + {int(secs)} )); while [ $(date +%s) -lt $end ]; do find {m} -type f ! -name ".*" -exec cat {{}} + >/dev/null 2>&1; done'
sounds = f'''end=$(( $(date +%s) + {int(secs)} )); i=0; while [ $(date +%s) -lt $end ]; do i=$((i+1));
  {{ printf OggS; head -c 3000 /dev/urandom; }} >{m}/sounds/x$i.ogg 2>/dev/null; mv {m}/sounds/x$i.ogg {m}/sounds/y$i.ogg 2>/dev/null;
  rm -f {m}/sounds/y$i.ogg; done'''
texts = f'end=$(( $(date +%s) + {int(secs)} )); v=0; while [ $(date +%s) -lt $end ]; do v=$((v+1)); sed -i "1s/.*/Hello $v/" {m}/lang/en/texts.txt 2>/dev/null; done'
jobs = [subprocess.Popen(["sh", "-c", c]) for c in [reader] * 4 + [sounds, texts]]
deadline = time.time() + secs + 30
for j in jobs:
    try:
        j.wait(timeout=max(1, deadline - time.time()))
    except subprocess.TimeoutExpired:
        print(f"# still running {secs + 30:.0f} s after the start", file=sys.stderr)
        sys.exit(1)
PY
if [ "$hung" = 1 ]; then
	# abort this mount's connection only, so that nothing stays stuck
	dev=$(grep " $M " /proc/self/mountinfo | awk '{print $3}' | cut -d: -f2)
	[ -n "$dev" ] && echo 1 >"/sys/fs/fuse/connections/$dev/abort" 2>/dev/null
	pkill -f "$T/m" 2>/dev/null
	fail "a process on the mount hung"
fi
ls m/sounds >/dev/null || fail "listing after the trial"
gfs_umount m || fail "unmount"
$P verify g.tng >/dev/null || fail "CRCs"
echo ok
