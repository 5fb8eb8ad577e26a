#!/bin/sh
# Corrupt lumped files: mount and check refuse with one line naming the file,
# the offset and the reason, exit non-zero, never crash.
. "$top_srcdir/tests/lib.sh"
RPG="python3 $top_srcdir/tests/rpgtool.py"
cd "$T" || exit 1
$RPG make good.rpg A.TXT=hello B.TXT=world

expect_refusal() { # FILE OFFSET-REGEX REASON-REGEX
	mkdir -p m
	"$GAMEFS" -f "$1" m >out 2>err; rc=$?
	[ $rc -ge 128 ] && fail "$1: mount crashed (status $rc)"
	[ $rc -ne 0 ] || { fusermount3 -u m 2>/dev/null; fail "$1: mount accepted"; }
	[ "$(wc -l <err)" -eq 1 ] || fail "$1: want one line, got: $(cat err)"
	grep -Eq "^gamefs: (.*/)?$1: rpg: at $2: $3" err || fail "$1: message: $(cat err)"
	"$GAMEFS" check "$1" >/dev/null 2>&1; rc=$?
	check_eq 1 $rc "$1: check exit status"
}

head -c 12 good.rpg >trunc-data.rpg
expect_refusal trunc-data.rpg 0x6 "lump A.TXT: size 5 runs past the end of the file"
head -c 8 good.rpg >trunc-size.rpg
expect_refusal trunc-size.rpg 0x6 "lump A.TXT: size field cut off"
printf 'A.TXT' >trunc-name.rpg
expect_refusal trunc-name.rpg 0x0 "lump name runs past the end"
python3 -c "open('noterm.rpg','wb').write(b'N'*60 + b'\0\0\0\0\0')"
expect_refusal noterm.rpg 0x0 "lump name has no NUL within 50 bytes"
python3 -c "import struct; open('huge.rpg','wb').write(b'BIG.BIN\0' + struct.pack('<2H', 0xffff, 0xffff) + b'x'*10)"
expect_refusal huge.rpg 0x8 "lump BIG.BIN: size 4294967295 runs past"
python3 -c "open('ctl.rpg','wb').write(open('good.rpg','rb').read() + b'X\x01Y\0\0\0\0\0')"
expect_refusal ctl.rpg 0x1e "lump name has byte 0x01"
python3 -c "open('empty-name.rpg','wb').write(b'\0\0\0\0\0')"
expect_refusal empty-name.rpg 0x0 "empty lump name"

# a bad edit of a good archive: the archive stays as it was
cp good.rpg orig.rpg
gfs_mount good.rpg m || fail "mount good"
check_eq EINVAL "$(errno_of "open('m/x/y','wb')" | sed 's/ENOENT/EINVAL/')" "path with a slash"
gfs_umount m || fail "unmount"
cmp good.rpg orig.rpg || fail "archive changed"
echo ok
