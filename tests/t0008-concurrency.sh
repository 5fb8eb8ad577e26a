#!/bin/sh
# Several readers (processes and threads) and a writer on one mount: content is
# always one consistent version, nothing deadlocks, the last edit is on disk.
. "$top_srcdir/tests/lib.sh"
RPG="python3 $top_srcdir/tests/rpgtool.py"
cd "$T" || exit 1
$RPG gen g.rpg 200 20000 || fail "gen"
printf 'version 0\n' >v
$RPG make s.rpg V.TXT=@v
python3 -c "
import sys
a = open('g.rpg','rb').read(); b = open('s.rpg','rb').read()
open('g.rpg','wb').write(a + b)"
$RPG extract g.rpg ref
gfs_mount g.rpg m || fail "mount"

cat >reader.py <<'PY'
import os, sys, threading, random, time
m, ref, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
names = [n for n in os.listdir(ref) if n != 'V.TXT']
errors = []
def read_v():
    # an open() racing the rename that replaces V.TXT opens the old or the new file
    return open(os.path.join(m, 'V.TXT'), 'rb').read()
def work(seed):
    rnd = random.Random(seed)
    try:
        for _ in range(rounds):
            n = rnd.choice(names)
            if open(os.path.join(m, n), 'rb').read() != open(os.path.join(ref, n), 'rb').read():
                errors.append(n)
            v = read_v()
            if not (v.startswith(b'version ') and v.endswith(b'\n') and v.count(b'\n') == 1):
                errors.append('V.TXT: %r' % v)
    except Exception as e:
        errors.append(repr(e))
threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
for t in threads: t.start()
for t in threads: t.join()
if errors:
    print(errors[:5])
sys.exit(1 if errors else 0)
PY
pids=""
for i in 1 2 3 4; do
	timeout 120 python3 reader.py m ref 150 &
	pids="$pids $!"
done
for i in $(seq 1 25); do
	printf 'version %d\n' "$i" >m/V.TXT.new || fail "write $i"
	mv m/V.TXT.new m/V.TXT || fail "replace $i"
	cat m/*.BIN >/dev/null
done
for p in $pids; do wait "$p" || fail "a reader saw inconsistent content or hung"; done
check_eq "version 25" "$(cat m/V.TXT)" "last version visible"
gfs_umount m || fail "unmount"
check_eq "version 25" "$($RPG get g.rpg V.TXT)" "last version on disk"
$RPG list g.rpg | grep -q "V.TXT.new" && fail "a temporary name stayed"
echo ok
