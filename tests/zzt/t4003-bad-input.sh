#!/bin/sh
# Damaged worlds never crash.  Header damage is refused with one line naming
# the file, offset and reason.  A board running past the file mounts
# read-only with the boards before it (as KevEdit does) and says which board;
# a board whose inside is broken (RLE past 1500 tiles, stat count or code
# length past the board, a bind to a missing stat) is shown raw and the
# world mounts read-only.  check exits 1 for all of them.
. "$top_srcdir/tests/lib.sh"
ZZT="python3 $top_srcdir/tests/zzt/zztlib.py"
cd "$T" || exit 1

refused() { # KIND MESSAGE-REGEX
	$ZZT bad "$1.zzt" "$1"
	mkdir -p m
	"$GAMEFS" -f "$1.zzt" m >out 2>err; rc=$?
	[ $rc -ge 128 ] && fail "$1: mount crashed (status $rc)"
	[ $rc -ne 0 ] || { fusermount3 -u m 2>/dev/null; fail "$1: mount accepted"; }
	[ "$(wc -l <err)" -eq 1 ] || fail "$1: want one line, got: $(cat err)"
	grep -Eq "^gamefs: (.*/)?$1.zzt: zzt: at $2" err || fail "$1: message: $(cat err)"
	"$GAMEFS" check "$1.zzt" >/dev/null 2>&1; rc=$?
	[ $rc -ne 0 ] && [ $rc -lt 128 ] || fail "$1: check exit status $rc"
}
refused not-zzt "0x0: first word is 0, not -1"
refused short-header "0x64: world header truncated"
refused negative-count "0x2: board count -3 is negative"

readonly_world() { # KIND BOARDS-SHOWN MESSAGE-REGEX
	$ZZT bad "$1.zzt" "$1"
	cp "$1.zzt" "$1.orig"
	"$GAMEFS" check "$1.zzt" >check.out 2>&1; rc=$?
	check_eq 1 $rc "$1: check exit status"
	grep -Eq "$3" check.out || fail "$1: check output: $(cat check.out)"
	gfs_mount "$1.zzt" m || fail "$1: mount"
	check_eq "$2" "$(ls m/boards | tr '\n' ' ')" "$1: boards shown"
	check_eq EROFS "$(errno_of "open('m/world.ini','w').write('x')")" "$1: write"
	gfs_umount m || fail "$1: unmount"
	grep -Eq "$3" "$T/gamefs.log" || fail "$1: mount log"
	cmp "$1.zzt" "$1.orig" || fail "$1: changed"
}
# a ZZT world relabelled Super ZZT (first word -2): its boards do not fit Super ZZT's
readonly_world super-zzt "00-damaged 01-damaged 02-damaged " "board 0 at 0x402: board name runs past the board end"
readonly_world size-past-end "00-title-screen 01-wide-runs " "board 2 at 0x42f: size 260 runs past the end of the file"
"$GAMEFS" cat size-past-end.zzt damaged.bin 2>/dev/null | cmp - "$(tail -c +$((0x42f + 1)) size-past-end.zzt >tail.bin; echo tail.bin)" ||
	fail "damaged.bin is not the rest of the file"
readonly_world missing-board "00-title-screen 01-wide-runs 02-third " "board 3 at 0x533: the file ends before it"
readonly_world rle-overrun "00-title-screen 01-wide-runs-damaged 02-third " "board 1 at 0x3b6: RLE runs past 1500 tiles"
"$GAMEFS" ls rle-overrun.zzt boards/01-wide-runs-damaged 2>/dev/null | grep -q 'r--r--r-- .* boards/01-wide-runs-damaged/board.bin' ||
	fail "damaged board not shown raw"
readonly_world stat-overrun "00-title-screen 01-wide-runs-damaged 02-third " "board 1 at 0x40c: stat count 500 overruns the board"
readonly_world code-past-board "00-title-screen 01-wide-runs 02-third-damaged " "board 2 at 0x51b: code length 3000 of stat 1 runs past the board end"
readonly_world bad-bind "00-title-screen 01-wide-runs 02-third-damaged " "board 2 at 0x[0-9a-f]+: stat 1 binds to stat 9, which does not exist"

# every truncation of a good world: no crash, and never "ok" unless whole
$ZZT mk good.zzt
size=$(stat -c %s good.zzt)
for n in 0 1 2 50 511 512 513 600 1000 1200 $((size - 1)); do
	head -c $n good.zzt >cut.zzt
	"$GAMEFS" check cut.zzt >/dev/null 2>&1; rc=$?
	[ $rc -ge 1 ] && [ $rc -lt 128 ] || fail "truncated to $n: check exit status $rc"
done
echo ok
