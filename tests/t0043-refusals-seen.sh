#!/bin/sh
# Refusals are seen where the user is (issue 28, item 6): .gamefs.log is
# listed at the mount's root (a dot file: ls -a, file managers and cat see
# it); `gamefs status MOUNTPOINT` prints the pending edits, the refusals
# with file, line and reason, and the last commit, and exits 1 once
# something was refused; and where the session bus has a notification
# service, a refusal becomes a notification, without the refused close
# waiting for it (a fake server that answers after 3 s, on a private bus).
. "$top_srcdir/tests/lib.sh"
RPG="python3 $top_srcdir/tests/rpgtool.py"
cd "$T" || exit 1
$RPG mkgame g.rpg new 3 >/dev/null || fail "make g.rpg"

gfs_mount g.rpg m || fail "mount"
ls m | grep -q gamefs && fail "ls lists a dot file: $(ls m)"
ls -a m | grep -qx .gamefs.log || fail ".gamefs.log not listed by ls -a: $(ls -a m)"
find m -maxdepth 1 -name .gamefs.log | grep -q . || fail "find does not see .gamefs.log"
cat m/.gamefs.log >/dev/null || fail "cat .gamefs.log"
"$GAMEFS" status m >st.txt; check_eq 0 $? "status of a fresh mount"
grep -q "^refusals: 0$" st.txt || fail "fresh status: $(cat st.txt)"
grep -q "^pending edits: 0$" st.txt || fail "fresh status: $(cat st.txt)"
grep -q "^last commit: none" st.txt || fail "fresh status: $(cat st.txt)"

# a good edit: the last commit
sed 's/\t.*/\tSword/' m/names/items.txt >items.ok
cp items.ok m/names/items.txt || fail "a good edit"
"$GAMEFS" status m >st.txt; check_eq 0 $? "status after a commit"
grep -q "^last commit: [0-9-]*T" st.txt || fail "no last commit: $(cat st.txt)"

# refused: a line too long (cp), a broken line saved the sed -i way (rename)
python3 -c "print('0\t' + 'x' * 300)" >items.bad
cp items.bad m/names/items.txt 2>cp.err && fail "a bad edit was taken"
sed -i 's/\t/ /' m/names/items.txt 2>sed.err && fail "sed -i's bad edit was taken"
"$GAMEFS" status m >st.txt; check_eq 1 $? "status exit after refusals"
sed 's/^/  status: /' st.txt
grep -q "^refusals: [1-9]" st.txt || fail "status: $(cat st.txt)"
grep -q "close names/items.txt: EINVAL: .*line" st.txt || fail "the close refusal: $(cat st.txt)"
grep -q "rename names/items.txt: EINVAL: .*line 1" st.txt || fail "the rename refusal: $(cat st.txt)"
grep -q "items.txt.*line 1" m/.gamefs.log || fail "the log: $(cat m/.gamefs.log)"
gfs_umount m || fail "unmount"

# commit=unmount: the pending edit is listed
gfs_mount g.rpg m -o commit=unmount || fail "mount commit=unmount"
sed 's/\t.*/\tAxe/' m/names/items.txt >items.ok
cp items.ok m/names/items.txt || fail "a good edit, commit=unmount"
"$GAMEFS" status m >st.txt; check_eq 0 $? "status with a pending edit"
grep -q "^pending edits: 1" st.txt || fail "pending: $(cat st.txt)"
grep -q "^  names/items.txt" st.txt || fail "pending file: $(cat st.txt)"
gfs_umount m || fail "unmount commit=unmount"
"$GAMEFS" status m >/dev/null 2>&1; check_eq 2 $? "status of a directory that is no mount"

# a notification for a refusal, on a private session bus
PY3=/usr/bin/python3
if ! command -v dbus-run-session >/dev/null || ! $PY3 -c 'from gi.repository import Gio' 2>/dev/null; then
	note "SKIP the notification part: no dbus-run-session or python3-gi"
	echo ok; exit 0
fi
cat >notify.sh <<EOS
set -u
cd "$T"
FAKE_NOTIFY_DELAY=3 $PY3 "$top_srcdir/tests/fake-notify.py" "$T/notes" & fp=\$!
i=0; while [ ! -f notes.ready ]; do i=\$((i + 1)); [ \$i -gt 100 ] && exit 3; sleep 0.05; done
"$GAMEFS" g.rpg m || exit 4
# a refused close returns at once, however slow the notification server
python3 - <<'PY' || { fusermount3 -u m; kill \$fp; exit 5; }
import time
for i in range(2):
    t0 = time.monotonic()
    try:
        f = open("m/names/items.txt", "w"); f.write("0\tbad line\n" * 9); f.close()
        raise SystemExit("a bad edit was taken")
    except OSError as e:
        pass
    dt = time.monotonic() - t0
    print("# refused close %d returned after %.2f s" % (i, dt))
    assert dt < 1.5, dt
PY
i=0; while ! grep -q "items.txt" notes 2>/dev/null; do i=\$((i + 1)); [ \$i -gt 100 ] && break; sleep 0.1; done
fusermount3 -u m
kill \$fp
EOS
dbus-run-session -- sh notify.sh; check_eq 0 $? "the notification run"
sed 's/^/  notice: /' notes
grep -q "^gamefs	gamefs: g.rpg: an edit was refused	.*names/items.txt.*EINVAL" notes || fail "no notification: $(cat notes 2>/dev/null)"
echo ok
