#!/bin/sh
# New numbered assets through the mount: a PNG copied to atlases/NNNN.png or
# backs/NNNN.png and a sprite map to sprites/<cat>/NNNN.txt, NNNN the next
# number, are a new atlas, background and sprite (its strips appear); any
# other number is EINVAL with the next one in the log.  The independent
# reader finds them with the bytes copied in, check is clean, a fresh mount
# shows the same.  rm removes the last of a kind when nothing draws from it
# (an atlas) or shows it (a sprite, a background: a script, a record, a
# map's tile); otherwise EBUSY names the referrer.  Refusals leave the
# archive byte-identical, and the game grown and shrunk back is the game
# it was.
. "$top_srcdir/tests/lib.sh"
P="python3 $top_srcdir/tests/tng/tngpy.py"
cd "$T" || exit 1

$P write g.tng --full || fail "write"
cp g.tng orig.tng
gfs_mount g.tng m || fail "mount"
cp m/atlases/0001.png atlas.png && cp m/backs/0000.png back.png || fail "copy images out"
# a portrait drawing its frames from the new atlas
sed 's/^frame = [0-9]* /frame = 2 /' m/sprites/portraits/0000.txt >spr.txt
cp atlas.png m/atlases/0002.png || fail "cp a new atlas"
cp back.png m/backs/0001.png || fail "cp a new background"
cp spr.txt m/sprites/portraits/0001.txt || fail "cp a new sprite"
cmp atlas.png m/atlases/0002.png && cmp back.png m/backs/0001.png && cmp spr.txt m/sprites/portraits/0001.txt ||
	fail "the new files read back"
[ -f m/sprites/portraits/0001-south.png ] || fail "the new sprite's strip"
cmp m/sprites/portraits/0000-south.png m/sprites/portraits/0001-south.png >/dev/null &&
	fail "the new sprite draws from atlas 2, not as the old one"

# refused: the archive stays byte-identical
cp g.tng snap.tng
check_eq EINVAL "$(errno_of "open('m/atlases/0005.png','wb').close()")" "an atlas not numbered next"
grep -q "atlases/0005.png refused: 0005.png: atlases are numbered: the next is 0003.png" gamefs.log ||
	fail "the next number in the log"
check_eq EINVAL "$(errno_of "open('m/sprites/tiles/0000.txt.new','w').close()")" "not NNNN.txt"
check_eq EINVAL "$(errno_of "f=open('m/atlases/0003.png','wb'); f.write(b'not a png'); f.close()")" \
	"an atlas that is not a PNG"
rm -f m/atlases/0003.png m/atlases/0003.png.rejected || fail "remove the refused atlas"
check_eq EINVAL "$(errno_of "f=open('m/sprites/portraits/0002.txt','w'); f.write('width = 3\n'); f.close()")" \
	"a sprite without a direction"
rm -f m/sprites/portraits/0002.txt m/sprites/portraits/0002.txt.rejected
check_eq EBUSY "$(errno_of "os.unlink('m/atlases/0001.png')")" "an atlas not the last"
grep -q "atlases/0001.png: atlases are numbered: only the last (0002) can be removed" gamefs.log ||
	fail "why not the last"
check_eq EBUSY "$(errno_of "os.unlink('m/atlases/0002.png')")" "an atlas a sprite draws from"
grep -q "atlases/0002.png: sprites/portraits/0001.txt draws from it" gamefs.log || fail "the sprite named"
check_eq EBUSY "$(errno_of "os.unlink('m/sprites/chars/0000.txt')")" "a sprite a script shows"
grep -q "sprites/chars/0000.txt: startup/0000.tngs (byte [0-9]*) shows it" gamefs.log || fail "the script named"
check_eq EBUSY "$(errno_of "os.unlink('m/sprites/ui/0000.txt')")" "a sprite a chooser shows"
grep -q "sprites/ui/0000.txt: choosers/class.ini shows it" gamefs.log || fail "the chooser named"
check_eq EPERM "$(errno_of "os.rename('m/atlases/0002.png', 'm/atlases/0003.png')")" "renumbering"
cmp snap.tng g.tng || fail "refused changes changed the game"
gfs_umount m || fail "umount"

# the independent reader: three atlases, two backgrounds, two portraits
$P verify g.tng >verify.out || fail "CRCs: $(cat verify.out)"
grep -qx "maps-last ok" verify.out || fail "the new assets are stored before the maps"
$P get g.tng atlases/0002 >got && cmp got atlas.png || fail "the reader's atlas 2"
$P get g.tng backs/0001 >got && cmp got back.png || fail "the reader's background 1"
python3 - "$top_srcdir/tests/tng" g.tng orig.tng <<'PY' || fail "the reader's sprite"
import struct, sys
sys.path.insert(0, sys.argv[1])
import tngpy
r, o = (tngpy.Reader(open(p, "rb").read()) for p in sys.argv[2:4])
new, old = dict(r.items()), dict(o.items())
assert sorted(set(new) - set(old)) == ["atlases/0002", "backs/0001", "portraits/0001"], set(new) - set(old)
a, b = old["portraits/0000"], new["portraits/0001"]
assert len(a) == len(b) and a[:6] == b[:6], "the same direction record"
for f in range(b[5]):
    p = 6 + 14 * f
    assert struct.unpack_from("<H", b, p)[0] & 0xfff == 2, "frame %d from atlas 2" % f
    assert a[p + 2:p + 14] == b[p + 2:p + 14] and a[p + 1] == b[p + 1]
d = [s for t, s in r.secs if t == 10][0]
assert len(d) == 32 and d[31] == 1 and d[15] == 1, "the sprite descriptor's direction count"
for k in old:
    assert k in ("strings",) or new[k] == old[k], k
PY
"$GAMEFS" check g.tng >check.out || fail "check: $(cat check.out)"
grep -q warning check.out && fail "warnings: $(cat check.out)"

# a fresh mount: the same files; then everything added removed again
gfs_mount g.tng m || fail "remount"
cmp atlas.png m/atlases/0002.png && cmp back.png m/backs/0001.png && cmp spr.txt m/sprites/portraits/0001.txt ||
	fail "the new files after a fresh mount"
check_eq "0000-south.png 0000.txt 0001-south.png 0001.txt" "$(ls m/sprites/portraits | tr '\n' ' ' | sed 's/ $//')" \
	"portraits after a fresh mount"
check_eq EBUSY "$(errno_of "os.unlink('m/atlases/0002.png')")" "still drawn from"
rm m/sprites/portraits/0001.txt || fail "rm the new sprite"
ls m/sprites/portraits | grep -q 0001 && fail "its strip stays"
rm m/atlases/0002.png m/backs/0001.png || fail "rm the new atlas and background"
# a new tile a map already places (tile 2 of meadow's layer 0) cannot be removed
cp m/sprites/tiles/0001.txt m/sprites/tiles/0002.txt || fail "a new tile"
check_eq EBUSY "$(errno_of "os.unlink('m/sprites/tiles/0002.txt')")" "a tile a map places"
grep -q "sprites/tiles/0002.txt: maps/meadow/layer00.csv (a tile) shows it" gamefs.log || fail "the map named"
# a new UI sprite a chooser option's area shows (its second sprite) cannot be removed
cp m/sprites/ui/0000.txt m/sprites/ui/0001.txt || fail "a new UI sprite"
sed -i 's|^area = ui/0 -1 -1$|area = -1 ui/1 -1|' m/choosers/class.ini || fail "a chooser shows it"
check_eq EBUSY "$(errno_of "os.unlink('m/sprites/ui/0001.txt')")" "a UI sprite a chooser shows"
grep -q "sprites/ui/0001.txt: choosers/class.ini shows it" gamefs.log || fail "the chooser named"
gfs_umount m || fail "umount 2"
$P verify g.tng >/dev/null || fail "CRCs 2"
"$GAMEFS" check g.tng >check.out || fail "check 2: $(cat check.out)"

# grown and shrunk back: the game it was, byte for byte
$P write h.tng --full || fail "write h"
gfs_mount h.tng n -o commit=unmount || fail "mount h"
cp atlas.png n/atlases/0002.png && cp back.png n/backs/0001.png && cp spr.txt n/sprites/portraits/0001.txt ||
	fail "grow h"
rm n/sprites/portraits/0001.txt n/atlases/0002.png n/backs/0001.png || fail "shrink h"
gfs_umount n || fail "umount h"
cmp h.tng orig.tng || fail "grown and shrunk back, not the game it was"
echo ok
