#!/bin/sh
# tests/t0023-open-race.sh [SAVES] [READERS]: opens racing rename-saves never
# fail.  READERS (default 4) processes open and read a file in a loop while
# SAVES (default 150) `sed -i` edits replace it back to back, toggling one
# value: every open succeeds and every read is the old or the new content,
# whole.  Run for a ZZT board's board.ini (a rendered view) and for an
# .rpg lump (a stored span).  Run by hand with more, from a built tree:
#   top_srcdir=$PWD top_builddir=$PWD/_build sh tests/t0023-open-race.sh 400 6
. "$top_srcdir/tests/lib.sh"
SAVES=${1:-150}
READERS=${2:-4}
cd "$T" || exit 1

# race FILE A B: readers of FILE while sed toggles A and B in it
race() {
	f=$1 a=$2 b=$3
	cp "$f" want.a && sed "s/$a/$b/" want.a >want.b || fail "versions of $f"
	cmp -s want.a want.b && fail "the toggle changes nothing in $f (test is void)"
	rm -f stop
	rp=""
	i=0
	while [ "$i" -lt "$READERS" ]; do
		python3 - "$f" stop want.a want.b >"r$i.out" <<'PY' &
import collections, errno, os, sys
path, stop, a, b = sys.argv[1:]
ok = {open(a, "rb").read(), open(b, "rb").read()}
n, errs = 0, collections.Counter()
while not os.path.exists(stop):
    n += 1
    try:
        with open(path, "rb") as fh:
            d = fh.read()
            if d not in ok:
                errs["content"] += 1
                if errs["content"] <= 2:
                    sys.stderr.write("bad read (%d bytes): %r\n" % (len(d), d[-80:]))
    except OSError as e:
        errs[errno.errorcode.get(e.errno, str(e.errno))] += 1
print(n, " ".join("%s=%d" % kv for kv in sorted(errs.items())))
PY
		rp="$rp $!"
		i=$((i + 1))
	done
	s=0
	while [ "$s" -lt "$SAVES" ]; do
		if [ $((s % 2)) = 0 ]; then sed -i "s/$a/$b/" "$f"; else sed -i "s/$b/$a/" "$f"; fi ||
			fail "save $s of $f"
		s=$((s + 1))
	done
	touch stop
	for p in $rp; do wait "$p"; done
	opens=0 failed=""
	for o in r*.out; do
		read -r n e <"$o" || continue
		opens=$((opens + n))
		failed="$failed$e"
	done
	note "$f: $SAVES saves, $READERS readers, $opens opens${failed:+; failures: $failed}"
	[ "$opens" -gt "$READERS" ] || fail "$f: the readers did not run"
	[ -z "$failed" ] || fail "$f: opens or reads failed while saves ran: $failed"
}

python3 "$top_srcdir/tests/zzt/zztlib.py" mk w.zzt || fail "mk"
gfs_mount w.zzt m || fail "mount zzt"
race "$(ls -d m/boards/* | head -1)/board.ini" 'max_shots = 255' 'max_shots = 7'
gfs_umount m || fail "unmount zzt"

printf 'version one\n' >v
python3 "$top_srcdir/tests/rpgtool.py" make g.rpg V.TXT=@v || fail "make rpg"
gfs_mount g.rpg m || fail "mount rpg"
race m/V.TXT one two
gfs_umount m || fail "unmount rpg"
echo ok
