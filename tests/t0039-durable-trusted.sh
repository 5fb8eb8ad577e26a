#!/bin/sh
# fsync() means durable in every commit mode: with -o commit=unmount an
# fsynced edit is in the archive when fsync returns, and survives a SIGKILL
# of the daemon (before, fsync returned 0 and wrote nothing).  A journal
# beside the archive is obeyed only for gamefs's temporaries of the
# archive's own files, ending with the archive: a planted journal that
# names a file in another directory, or any file but the archive's, moves
# nothing.  Readers racing a truncating writer (open O_TRUNC, four writes,
# close, again and again) almost never read a zero byte nobody wrote (before: a
# few in every thousand reads; see race_ok for the window left).
. "$top_srcdir/tests/lib.sh"
RPG="python3 $top_srcdir/tests/rpgtool.py"
cd "$T" || exit 1
$RPG make g.rpg A.TXT=hello B.TXT=world || fail "make"
cp g.rpg orig.rpg

gfs_mount g.rpg m -o commit=unmount || fail "mount"
check_eq OK "$(errno_of "f = open('m/A.TXT', 'w'); f.write('synced'); f.flush(); os.fsync(f.fileno()); f.close()")" "fsync"
check_eq synced "$($RPG get g.rpg A.TXT)" "the fsynced edit is in the archive when fsync returns"
printf 'later\n' >m/B.TXT || fail "an edit not fsynced"
check_eq world "$($RPG get g.rpg B.TXT)" "commit=unmount still writes the others at unmount"
kill -9 "$GFS_PID"; wait "$GFS_PID" 2>/dev/null
fusermount3 -u m 2>/dev/null || umount -l m 2>/dev/null
check_eq synced "$($RPG get g.rpg A.TXT)" "the fsynced edit survives a kill"

# a planted journal: a file in another directory
mkdir sub
echo victim >sub/victim
echo planted >sub/.victim.gamefs-AbCdEf
cp g.rpg .g.rpg.gamefs-Zz99Yy
printf '%s\0%s\0%s\0%s\0' "$T/sub/.victim.gamefs-AbCdEf" "$T/sub/victim" "$T/.g.rpg.gamefs-Zz99Yy" "$T/g.rpg" \
	>.g.rpg.gamefs-journal
gfs_mount g.rpg m || fail "mount with a planted journal"
check_eq victim "$(cat sub/victim)" "a journal renamed a file outside the archive's directory"
[ -e sub/.victim.gamefs-AbCdEf ] || fail "the planted file was moved"
[ -e .g.rpg.gamefs-journal ] && fail "the planted journal kept"
gfs_umount m || fail "unmount 2"
grep -q "is not a journal gamefs wrote" "$T/gamefs.log" || fail "the planted journal not reported"

# a planted journal: another file beside the archive, the archive not last
echo notes >notes.txt
echo planted >.notes.txt.gamefs-AbCdEf
printf '%s\0%s\0' "$T/.notes.txt.gamefs-AbCdEf" "$T/notes.txt" >.g.rpg.gamefs-journal
gfs_mount g.rpg m || fail "mount with a planted journal 2"
check_eq notes "$(cat notes.txt)" "a journal without the archive renamed a file beside it"
gfs_umount m || fail "unmount 3"

# readers racing a truncating writer: a lump, and a .lay view
race() {
	python3 - "$1" "$2" "${GAMEFS_RACE_SECONDS:-4}" <<'PY'
import os, sys, threading, time
path, data, secs = sys.argv[1], open(sys.argv[2], 'rb').read(), float(sys.argv[3])
stop, bad, reads, saves = [False], [0], [0], [0]
def reader():
    while not stop[0]:
        try:
            with open(path, 'rb') as f:
                b = f.read()
        except OSError:
            continue
        reads[0] += 1
        bad[0] += b'\0' in b
ts = [threading.Thread(target=reader) for _ in range(3)]
for t in ts:
    t.start()
try:
    end = time.time() + secs
    while time.time() < end:
        fd = os.open(path, os.O_WRONLY | os.O_TRUNC)
        step = (len(data) + 3) // 4
        for i in range(0, len(data), step):
            os.write(fd, data[i:i + step])
        os.close(fd)
        saves[0] += 1
finally:
    stop[0] = True
    for t in ts:
        t.join()
print(saves[0], reads[0], bad[0])
PY
}
# READS BAD: a reader whose handle was opened before the writer's open, with
# the kernel's page cache, could meet the kernel's zero fill of a short read
# (32 in 7,611 reads before i28a; 2 in 153,912 on e2abfaa in 100 s).  Since
# gfs_keep_was (src/core/handle.c) such a reader keeps the bytes it opened: 0 in
# 74,358 and 0 in 55,527 (100 s, load 10).  None is expected; the test
# fails past 1 in 2,000, so that a load we have not seen reports rather than
# breaks the run (a note names any).
race_ok() {
	[ "$2" -gt 100 ] || fail "$1: only $2 reads"
	[ $(($3 * 2000)) -le "$2" ] ||
		fail "readers of $1 read zero bytes nobody wrote ($3 of $2 reads)"
	[ "$3" = 0 ] || note "$1: $3 of $2 reads read a zero byte nobody wrote"
}
python3 -c "import sys; sys.stdout.write(''.join(chr(65 + i % 26) for i in range(20000)))" >letters
gfs_mount g.rpg m || fail "mount for the race"
set -- $(race m/A.TXT letters) || fail "race on a lump"
note "a lump: $1 saves, $2 reads, $3 with a zero byte"
race_ok "a lump" "$2" "$3"
gfs_umount m || fail "unmount after the race"
LAY="python3 $top_srcdir/tests/lay/mklay.py"
$LAY gen G_.lay --atlas G.png && $LAY atlas G.png 1024 1024 --seed 3 || fail "lay"
"$GAMEFS" cat G_.lay chunks.csv >chunks.csv || fail "chunks.csv"
gfs_mount G_.lay m || fail "mount the layout for the race"
set -- $(race m/chunks.csv chunks.csv) || fail "race on chunks.csv"
note "chunks.csv: $1 saves, $2 reads, $3 with a zero byte"
race_ok chunks.csv "$2" "$3"
gfs_umount m || fail "unmount the layout after the race"
echo ok
