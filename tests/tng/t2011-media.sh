#!/bin/sh
# Media made, renamed and removed through the mount: a new sound is a new
# asset with a new name, mv renames it (across directories as copy and
# remove), rm drops it; what a script or a map plays cannot be removed or
# renamed (EBUSY, the referrer named in the log); a new file whose content
# is refused (it stays empty in the mount, its bytes in NAME.rejected), or
# with the wrong extension, leaves the game as it was.
. "$top_srcdir/tests/lib.sh"
P="python3 $top_srcdir/tests/tng/tngpy.py"
cd "$T" || exit 1

$P write g.tng --full || fail "write"
python3 -c "import sys; sys.stdout.buffer.write(b'OggS' + bytes(range(256)) * 3)" >gong.ogg
gfs_mount g.tng m || fail "mount"
cp gong.ogg m/sounds/gong.ogg || fail "new sound"
cmp gong.ogg m/sounds/gong.ogg || fail "the new sound reads back"
mv m/sounds/click.ogg m/sounds/klick.ogg || fail "rename a sound"
rm m/sounds/step.ogg || fail "remove a sound"
check_eq EBUSY "$(errno_of "os.unlink('m/sounds/door.ogg')")" "a sound scripts play"
grep -q "unlink /sounds/door.ogg refused: door.ogg: .*\.tngs (byte [0-9]*) refers to it" gamefs.log || fail "the referrer in the log"
check_eq EBUSY "$(errno_of "os.rename('m/music/theme.ogg', 'm/music/t2.ogg')")" "music a script and the maps play"
mv m/sounds/gong.ogg m/music/gong.ogg || fail "a sound moved to music"
rm m/movies/intro.ogv || fail "remove a movie"
rm m/lang/de/speech/voice_hello.ogg || fail "speech another language still has"
check_eq EBUSY "$(errno_of "os.unlink('m/lang/en/speech/voice_hello.ogg')")" "the last speech of that name"
cp gong.ogg m/lang/de/speech/neu.ogg || fail "new speech"
cp g.tng snap.tng
check_eq EINVAL "$(errno_of "f=open('m/sounds/bad.ogg','wb'); f.write(b'not ogg'); f.close()")" "not an Ogg file"
check_eq EINVAL "$(errno_of "open('m/sounds/x.txt','w').close()")" "wrong extension"
check_eq EINVAL "$(errno_of "open('m/atlases/0009.png','w').close()")" "an atlas not numbered next"
cmp snap.tng g.tng || fail "refused new files changed the game"
check_eq "gong.ogg theme.ogg" "$(ls m/music | tr '\n' ' ' | sed 's/ $//')" "music"
check_eq "bad.ogg bad.ogg.rejected door.ogg klick.ogg" "$(ls m/sounds | tr '\n' ' ' | sed 's/ $//')" "sounds"
check_eq "0 not ogg" "$(stat -c %s m/sounds/bad.ogg) $(cat m/sounds/bad.ogg.rejected)" "the refused file is empty, its bytes kept"
gfs_umount m || fail "umount"
$P verify g.tng >/dev/null || fail "CRCs"
$P dump g.tng | cut -d' ' -f1 | grep -E '^(music|sounds|movies|lang/../speech)/' | sort | tr '\n' ' ' >got
check_eq "lang/de/speech/neu lang/de/speech/voice_bye lang/en/speech/voice_bye lang/en/speech/voice_hello music/gong music/theme sounds/door sounds/klick " \
	"$(cat got)" "media in the archive"
$P get g.tng music/gong >want && cmp want gong.ogg || fail "the moved sound's bytes"
$P get g.tng lang/de/speech/neu >want && cmp want gong.ogg || fail "the new speech's bytes"
"$GAMEFS" check g.tng >check.out || fail "check: $(cat check.out)"
grep -q warning check.out && fail "warnings: $(cat check.out)"
# the removed movie's bytes are gone, not kept as bytes nobody refers to
"$GAMEFS" ls g.tng | grep -q unreferenced && fail "removed bytes kept"
gfs_mount g.tng m || fail "remount"
check_eq "door.ogg klick.ogg" "$(ls m/sounds | tr '\n' ' ' | sed 's/ $//')" "sounds after remount"
[ -z "$(ls m/movies)" ] || fail "movies after remount"
gfs_umount m || fail "umount 2"
echo ok
