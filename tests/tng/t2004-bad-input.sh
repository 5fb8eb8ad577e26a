#!/bin/sh
# Bad input: corrupt games are refused with one line naming the file and the
# offset, damaged ones mount but refuse to commit (unless -o force), assets
# that do not decode are shown raw with a warning, a decompression bomb reads
# as EIO; bad edits fail with EINVAL and leave the archive untouched;
# encrypted games mount read-only with only header.ini.
. "$top_srcdir/tests/lib.sh"
P="python3 $top_srcdir/tests/tng/tngpy.py"
cd "$T" || exit 1
$P write good.tng || fail "write"

expect_refusal() { # FILE REASON-REGEX
	mkdir -p m
	"$GAMEFS" -f "$1" m >out 2>err; rc=$?
	[ $rc -ge 128 ] && fail "$1: mount crashed (status $rc)"
	[ $rc -ne 0 ] || { fusermount3 -u m 2>/dev/null; fail "$1: mount accepted"; }
	[ "$(wc -l <err)" -eq 1 ] || fail "$1: want one line, got: $(cat err)"
	grep -Eq "^gamefs: (.*/)?$1: tng: at 0x[0-9a-f]+: $2" err || fail "$1: message: $(cat err)"
	"$GAMEFS" check "$1" >/dev/null 2>&1; rc=$?
	[ $rc -ne 0 ] && [ $rc -lt 128 ] || fail "$1: check exit status $rc"
}

for b in table assetoff seclen blocklen deflate; do $P write "bad-$b.tng" --bad $b || fail "write $b"; done
expect_refusal bad-table.tng "section table entry 1 \(type 1\): 50 bytes at [0-9]+, past the [0-9]+-byte block"
expect_refusal bad-assetoff.tng "asset 0 of section 5 \(type 4\): 304 bytes past the end of the file"
expect_refusal bad-seclen.tng "section 5 \(sounds, type 4\): length 45 is not a multiple of 16"
expect_refusal bad-blocklen.tng "section block of [0-9]+ bytes does not fit"
expect_refusal bad-deflate.tng "section block does not inflate"
head -c 40 good.tng >trunc-hdr.tng
expect_refusal trunc-hdr.tng "file of 40 bytes is shorter than the 64-byte header"
head -c 100 good.tng >trunc-block.tng
expect_refusal trunc-block.tng "section block of [0-9]+ bytes does not fit a 100-byte file"
head -c 20000 good.tng >trunc-assets.tng
expect_refusal trunc-assets.tng "asset 0 of section [0-9]+ \(type 11\): [0-9]+ bytes past the end of the file"
# every prefix and a few flipped bytes: no crash
python3 - good.tng <<'PY'
import sys
d = open(sys.argv[1], "rb").read()
for n in (0, 16, 63, 64, 67, 68, 69, 120, 400, 700, 5000, len(d) - 1):
    open("pre%05d.tng" % n, "wb").write(d[:n])
for i, p in enumerate((70, 90, 130, 300, 650)):
    b = bytearray(d); b[p] ^= 0xff; open("flip%d.tng" % i, "wb").write(b)
PY
for f in pre*.tng flip*.tng; do
	"$GAMEFS" ls "$f" >/dev/null 2>&1; rc=$?
	[ $rc -lt 128 ] || fail "$f: ls crashed ($rc)"
	"$GAMEFS" check "$f" >/dev/null 2>&1; rc=$?
	[ $rc -lt 128 ] || fail "$f: check crashed ($rc)"
done

# damaged CRCs: mount read-only, saying why; -o force allows writing
for b in hdrcrc seccrc; do
	$P write "bad-$b.tng" --bad $b || fail "write $b"
	cp "bad-$b.tng" "orig-$b.tng"
	"$GAMEFS" check "bad-$b.tng" >check.out 2>&1; check_eq 1 $? "$b: check status"
	grep -q BAD check.out || fail "$b: check says: $(cat check.out)"
	gfs_mount "bad-$b.tng" m || fail "$b: mount"
	check_eq EROFS "$(errno_of "f=open('m/sections/16-uielements.bin','wb'); f.write(b'x'); f.close()")" "$b: read-only"
	grep -q "mounted read-only: the archive is damaged" "$T/gamefs.log" || fail "$b: the mount did not say why"
	gfs_umount m
	cmp "bad-$b.tng" "orig-$b.tng" || fail "$b: damaged archive rewritten"
	gfs_mount "bad-$b.tng" m -o force || fail "$b: mount force"
	printf 'x' >m/sections/16-uielements.bin || fail "$b: forced edit"
	gfs_umount m || fail "$b: umount force"
	$P verify "bad-$b.tng" >/dev/null || fail "$b: CRCs after a forced commit"
done

# sprites and maps that do not decode: shown raw, with a warning
for b in rle frames; do
	$P write "bad-$b.tng" --bad $b || fail "write $b"
	"$GAMEFS" ls "bad-$b.tng" >ls.out 2>err || fail "$b: ls"
	grep -q "shown raw" err || fail "$b: no warning: $(cat err)"
	"$GAMEFS" check "bad-$b.tng" >/dev/null 2>&1; check_eq 1 $? "$b: check status"
done
grep -q ' maps/meadow.bin$' "$T/ls.out" 2>/dev/null || "$GAMEFS" ls bad-rle.tng 2>/dev/null | grep -q ' maps/meadow.bin$' || fail "raw map"
"$GAMEFS" ls bad-frames.tng 2>/dev/null | grep -q ' sprites/ui/0001.bin$' || fail "raw sprite"

# a decompression bomb: EIO on read, bounded memory
$P write bomb.tng --bad bomb || fail "write bomb"
gfs_mount bomb.tng m || fail "bomb: mount"
# (listed, but open and read fail with EIO, as cat and check say)
r=$(python3 -c "
try:
    print(len(open('m/quests/0001.bin','rb').read()))
except OSError as e:
    print('EIO' if e.errno == 5 else e.errno)")
check_eq EIO "$r" "bomb read"
"$GAMEFS" cat bomb.tng quests/0001.bin >/dev/null 2>err && fail "bomb: cat succeeded"
grep -q "does not inflate" err || fail "bomb: cat says $(cat err)"
hwm=$(awk '/VmHWM/ {print $2}' /proc/"$GFS_PID"/status)
[ "$hwm" -lt 200000 ] || fail "bomb: daemon peak memory $hwm kB"
gfs_umount m || fail "bomb: umount"

# bad edits: EINVAL, the file reads back its last good content, archive untouched
cp good.tng orig.tng
gfs_mount good.tng m || fail "mount good"
bad_edit() { # FILE CONTENT WHAT
	before=$(md5sum <"m/$1")
	check_eq EINVAL "$(errno_of "f=open('m/$1','wb'); f.write($2); f.close()")" "$3"
	check_eq "$before" "$(md5sum <"m/$1")" "$3: reads back its last good content"
}
bad_edit maps/meadow/layer01.csv "b'x0\n1,2,3\n'" "CSV with too few values"
bad_edit maps/meadow/layer01.csv "(b'h\n' + b'1,1,1,1,1,1,1,70000\n' * 8)" "cell out of range"
bad_edit maps/meadow/layer01.csv "(b'h\n' + b'1,1,1,1,1,1,1,1\n' * 7)" "too few rows"
bad_edit lang/en/texts.txt "b'ok\n\xff\xfe\n'" "texts not UTF-8"
bad_edit lang/en/texts.txt "b'bad escape \\\\q\n'" "texts with a bad escape"
bad_edit atlases/0000.png "b'not a png at all, just some text here'" "PNG that is not a PNG"
bad_edit sounds/click.ogg "b'RIFF....WAVEfmt '" "sound that is not Ogg"
bad_edit header.ini "b'[header]\nfps = 300\n'" "header value out of range"
bad_edit header.ini "b'[header]\nmagic = hello\n'" "read-only magic"
bad_edit header.ini "b'[header]\nlayers = 5\n'" "layers with maps"
bad_edit sections/19-equipslots.ini "b'[slot 0]\nleft = 70000\n'" "slot position out of range"
bad_edit sections/19-equipslots.ini "b'[slot 5]\nleft = 1\n'" "a slot out of order"
bad_edit maps/meadow/map.ini "b'[map]\nneighbour0 = nosuchmap\n'" "unknown string"
bad_edit maps/meadow/map.ini "b'[map]\ndaylight = -4\n'" "daylight out of range"
bad_edit maps/meadow/map.ini "b'[path 0]\nid = 1\npoints = 1,2,3\n'" "a path point of three numbers"
bad_edit maps/meadow/map.ini "b'[path 0]\npoints = 1,70000\n'" "a path point out of range"
bad_edit maps/meadow/map.ini "b'[path 1]\nid = 1\n'" "a path out of order"
bad_edit maps/meadow/map.ini "b'[parallax 0]\nsprite = 1\n'" "a sprite without its index"
grep -q "map.ini: line 2: sprite: '1' is not a sprite category:index" "$T/gamefs.log" ||
	fail "the map.ini error names the line and the field"
bad_edit sprites/ui/0000.txt "b'[direction 0]\ndir = 0\nloop = 0\nwidth = 8\nheight = 8\n'" "sprite with no frames"
bad_edit sprites/ui/0000.txt "(b'[direction 0]\ndir = 0\nloop = 0\nwidth = 8\nheight = 8\n' + b'frame = 0 0 0 0 1 1 0 0\n' * 33)" "33 frames"
bad_edit sprites/ui/0000.txt "b'[direction 0]\ndir = 0\nloop = 0\nwidth = 8\nheight = 8\nframe = 0 9 0 0 1 1 0 0\n'" "bad operation"
gfs_umount m || fail "umount good"
cmp good.tng orig.tng || fail "bad edits changed the archive"

# encrypted: read-only, header.ini only
$P write enc.tng --encrypted || fail "write encrypted"
cp enc.tng orig-enc.tng
gfs_mount enc.tng m || fail "mount encrypted"
check_eq "header.ini" "$(ls m)" "encrypted tree"
grep -q "encrypted game" "$T/gamefs.log" || fail "no message for the encrypted game"
check_eq EROFS "$(errno_of "open('m/header.ini','r+b')" | sed 's/EACCES/EROFS/')" "encrypted read-only"
gfs_umount m
cmp enc.tng orig-enc.tng || fail "encrypted game changed"
echo ok
