#!/bin/sh
# tests/repro-open-race.sh [SAVES] [READERS] - not part of make check: a
# reproducer of opens racing rename-saves.  READERS (default 4) processes
# open and read boards/*/elements.csv of a ZZT world in a loop while SAVES
# (default 200) `sed -i` edits of that file run back to back; prints how
# many opens failed, and with which error.  Run from a built tree:
#   top_srcdir=. top_builddir=_build sh tests/repro-open-race.sh
. "$top_srcdir/tests/lib.sh"
SAVES=${1:-200}
READERS=${2:-4}
cd "$T" || exit 1
python3 "$top_srcdir/tests/zzt/zztlib.py" mk w.zzt || fail "mk"
gfs_mount w.zzt m || fail "mount"
f=$(ls -d m/boards/* | head -1)/elements.csv
[ -f "$f" ] || fail "no $f"
i=0
while [ "$i" -lt "$READERS" ]; do
	python3 - "$f" "$T/stop" >"$T/r$i.out" <<'PY' &
import collections, errno, os, sys
path, stop = sys.argv[1], sys.argv[2]
n, errs = 0, collections.Counter()
while not os.path.exists(stop):
    n += 1
    try:
        with open(path, "rb") as fh:
            fh.read()
    except OSError as e:
        errs[errno.errorcode.get(e.errno, str(e.errno))] += 1
print(n, " ".join("%s=%d" % kv for kv in sorted(errs.items())))
PY
	rp="${rp:-} $!"
	i=$((i + 1))
done
s=0
while [ "$s" -lt "$SAVES" ]; do
	sed -i 's/,/,/' "$f" || echo "save $s failed"
	s=$((s + 1))
done
touch "$T/stop"
for p in $rp; do wait "$p"; done
opens=0; failed=""
for o in "$T"/r*.out; do
	read -r n e <"$o" || continue
	opens=$((opens + n)); failed="$failed $e"
done
gfs_umount m
echo "$SAVES saves, $READERS readers: $opens opens; failures:${failed:- none}"
