#!/bin/sh
# Crash safety: the daemon is killed with SIGKILL at random moments while it
# commits an edit of a large archive.  Every time, the archive on disk must be
# exactly the old or the new version, and the next mount removes any
# temporary file the dead commit left.
. "$top_srcdir/tests/lib.sh"
RPG="python3 $top_srcdir/tests/rpgtool.py"
cd "$T" || exit 1
TRIALS=${GAMEFS_KILL_TRIALS:-12}
$RPG gen g.rpg 300 1000000 || fail "gen"		# ~300 MB
old=$(sha256sum <g.rpg)
off=$(python3 -c "
import struct
d = open('g.rpg','rb')
pos = 0
while True:
    d.seek(pos); h = d.read(64); n = h.index(b'\0'); name = h[:n]
    hi, lo = struct.unpack('<2H', h[n+1:n+5]); size = lo | hi << 16
    if name == b'LUMP00150.BIN': print(pos + n + 5); break
    pos += n + 5 + size")
passed=0 old_seen=0 new_seen=0
for i in $(seq 1 "$TRIALS"); do
	head -c 1024 /dev/urandom >edit
	python3 - "$off" <<'PY'
import sys, shutil
off = int(sys.argv[1])
shutil.copyfile('g.rpg', 'want.rpg')
with open('want.rpg', 'r+b') as f:
    f.seek(off); f.write(open('edit', 'rb').read())
PY
	new=$(sha256sum <want.rpg)
	mkdir -p m
	"$GAMEFS" -f g.rpg m >>"$T/gamefs.log" 2>&1 &
	pid=$!
	n=0; while ! mountpoint -q m; do n=$((n + 1)); [ $n -gt 200 ] && fail "mount $i"; sleep 0.05; done
	dd if=edit of=m/LUMP00150.BIN conv=notrunc bs=1024 count=1 2>/dev/null &
	writer=$!
	sleep "0.$(shuf -i 0-40 -n 1 | xargs printf '%02d')"
	kill -9 $pid
	wait $pid 2>/dev/null
	wait $writer 2>/dev/null
	fusermount3 -u m 2>/dev/null || umount -l m 2>/dev/null
	now=$(sha256sum <g.rpg)
	if [ "$now" = "$old" ]; then old_seen=$((old_seen + 1))
	elif [ "$now" = "$new" ]; then new_seen=$((new_seen + 1)); old=$new
	else fail "trial $i: archive is neither the old nor the new version"; fi
	$RPG list g.rpg >/dev/null || fail "trial $i: archive does not parse"
	# the next mount cleans up what the killed commit left
	gfs_mount g.rpg m || fail "remount $i"
	ls -a | grep -q '\.g\.rpg\.gamefs-' && fail "trial $i: temporary file left after the next mount"
	gfs_umount m || fail "unmount $i"
	passed=$((passed + 1))
done
echo "ok: $passed kill trials ($old_seen left the old archive, $new_seen the new one)"
