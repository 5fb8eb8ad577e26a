#!/bin/sh
# diff -r of two mounted versions of a game: a changed map cell, a changed
# text and a replaced sound show as a one-line CSV diff (and the same line
# of the map's TMX, a changed map picture), a one-line text diff and a
# "Binary files differ" line; nothing else differs (header.ini has no CRC
# line, which changed at every commit; check prints the CRC).
. "$top_srcdir/tests/lib.sh"
P="python3 $top_srcdir/tests/tng/tngpy.py"
cd "$T" || exit 1
$P write a.tng || fail "write"
cp a.tng b.tng
gfs_mount b.tng mb || fail "mount b"
sed -i '5s/^\([^,]*\),[^,]*,/\1,77,/' mb/maps/meadow/layer02.csv || fail "edit cell"
sed -i 's/^Bye$/Farewell/' mb/lang/en/texts.txt || fail "edit text"
python3 -c "import sys; sys.stdout.buffer.write(b'OggS' + b'new sound' * 99)" >mb/sounds/step.ogg || fail "replace sound"
gfs_umount mb || fail "umount b"
gfs_mount a.tng ma || fail "mount a"
gfs_mount b.tng mb || fail "remount b"
diff -r ma mb >d.out; check_eq 1 $? "diff status"
gfs_umount ma; gfs_umount mb
grep -E '^(<|>|Binary)' d.out | sed 's/0x[0-9a-f]*/CRC/' >got
cat >want <<'W'
< Bye
> Farewell
< -1,0,-1,-1,4,-1,-1,3
> -1,77,-1,-1,4,-1,-1,3
Binary files ma/maps/meadow.png and mb/maps/meadow.png differ
< 0,1,0,0,5,0,0,4,
> 0,78,0,0,5,0,0,4,
Binary files ma/sounds/step.ogg and mb/sounds/step.ogg differ
W
diff -u want got || fail "diff -r output"
"$GAMEFS" check b.tng >out || fail "check"
crc=$(python3 -c "import struct; print('0x%08x' % struct.unpack_from('<I', open('b.tng', 'rb').read(), 56)[0])")
grep -q "^header CRC: $crc ok" out || fail "check prints the header CRC $crc: $(head -n 3 out)"
gfs_mount b.tng mb || fail "mount b again"
grep -q crc mb/header.ini && fail "header.ini shows a CRC"
check_eq EINVAL "$(errno_of "f = open('mb/header.ini', 'a'); f.write('crc = $crc\\n'); f.close()")" "a crc line in header.ini"
gfs_umount mb || fail "umount b"
echo ok
