#!/bin/sh
# Names, browse.txt and text boxes of generated games (old layout: no
# BINSIZE, legacy record sizes, garbage after names; new: BINSIZE sizes)
# edited with sed: exactly the intended bytes change; a name or line too
# long, a bad escape, a line added: EINVAL and nothing changes on disk.
. "$top_srcdir/tests/lib.sh"
RPG="python3 $top_srcdir/tests/rpgtool.py"
cd "$T" || exit 1

for layout in old new; do
	$RPG mkgame g.rpg $layout
	cp g.rpg orig.rpg
	gfs_mount g.rpg m || fail "mount $layout"
	printf '0\tTest Game\n1\tAbout Baby\n' | cmp - m/browse.txt || fail "$layout: browse.txt"
	printf '0\tSword\n1\t\\x9dCure\n2\t\n' | cmp - m/names/items.txt || fail "$layout: items.txt"
	printf '0\tTown\n1\tCave\n' | cmp - m/names/maps.txt || fail "$layout: maps.txt"
	printf 'Hello, traveller.\nThe ${V2} bridge is out.\n\nBack\\\\slash\n\n\n\n\nchoice: Yes\nchoice: No\n' |
		cmp - m/textboxes/0000.txt || fail "$layout: text box 0"
	check_eq "0000.txt 0001.txt" "$(ls m/textboxes | tr '\n' ' ' | sed 's/ $//')" "$layout: one file per box"

	sed -i 's/About Baby/About Big Bob/' m/browse.txt || fail "$layout: sed browse"
	sed -i 's/^0\tSword$/0\tSabre/' m/names/items.txt || fail "$layout: sed items"
	sed -i 's/^1\tCave$/1\tDeep Cave/' m/names/maps.txt || fail "$layout: sed maps"
	sed -i -e 's/bridge is out/bridge is fixed/' -e 's/^choice: No$/choice: \\x9dNo/' m/textboxes/0000.txt || fail "$layout: sed box"
	# refused: nothing changes on disk
	cp g.rpg good.rpg
	check_eq EINVAL "$(errno_of "f=open('m/names/items.txt','w'); f.write('0\tNineChars\n1\t\\\\x9dCure\n2\t\n'); f.close()")" "$layout: name too long"
	check_eq EINVAL "$(errno_of "f=open('m/names/items.txt','w'); f.write('0\tSabre\n1\t\\\\x9dCure\n'); f.close()")" "$layout: a record missing"
	check_eq EINVAL "$(errno_of "f=open('m/names/items.txt','w'); f.write('0\tSabre\n2\t\\\\x9dCure\n1\t\n'); f.close()")" "$layout: records moved"
	check_eq EINVAL "$(errno_of "f=open('m/names/maps.txt','w'); f.write('0\tTown\\\\q\n1\tDeep Cave\n'); f.close()")" "$layout: bad escape"
	check_eq EINVAL "$(errno_of "f=open('m/textboxes/0001.txt','a'); f.write('one line too many\n'); f.close()")" "$layout: eleven lines"
	check_eq EINVAL "$(errno_of "f=open('m/textboxes/0001.txt','w'); f.write('x' * 39 + '\n' * 8 + 'choice:\nchoice:\n'); f.close()")" "$layout: a line of 39"
	check_eq EINVAL "$(errno_of "f=open('m/textboxes/0001.txt','w'); f.write('\n' * 8 + 'choice: sixteen chars...\nchoice:\n'); f.close()")" "$layout: a choice of 16"
	check_eq EINVAL "$(errno_of "f=open('m/browse.txt','w'); f.write('0\tT\u00e9st\n1\tx\n'); f.close()")" "$layout: raw UTF-8"
	grep -q "items.txt: line 1: longer than 8 characters" m/.gamefs.log || fail "$layout: log: $(cat m/.gamefs.log)"
	cmp g.rpg good.rpg || fail "$layout: refused edits changed the archive"
	gfs_umount m || fail "unmount $layout"

	# exactly the intended bytes, computed by the independent writer
	python3 - "$top_srcdir/tests" orig.rpg g.rpg $layout <<'PY' || fail "$layout: bytes after the edits"
import sys
sys.path.insert(0, sys.argv[1])
import rpgtool as t
old = sys.argv[4] == 'old'
a, b = dict(t.read_lumps(sys.argv[2])), dict(t.read_lumps(sys.argv[3]))
isz, ssz = t.ITEM_SIZE[old], t.SAY_SIZE[old]
want = dict(a)
# BROWSE.TXT record 1 rewritten engine-style (zeros after the text), record 0 as it was
want['BROWSE.TXT'] = a['BROWSE.TXT'][:40] + t.binstring(b'About Big Bob', 38, 0)
# item 0: the name field rewritten (length + 8 words, zero padded), the rest of the record kept
itm = bytearray(a['GAMEFS.ITM'])
itm[0:18] = t.bad_binstring(b'Sabre', 8, 0)
want['GAMEFS.ITM'] = bytes(itm)
mn = bytearray(a['GAMEFS.MN'])
mn[80:120] = bytes([9]) + b'Deep Cave' + bytes(30)
want['GAMEFS.MN'] = bytes(mn)
say = bytearray(a['GAMEFS.SAY'])
say[38:76] = b'The ${V2} bridge is fixed.'.ljust(38, b'\0')
say[367:382] = b'\x9dNo'.ljust(15, b'\0')
want['GAMEFS.SAY'] = bytes(say)
assert list(a) == list(b), 'lump order'
for k in a:
    assert b[k] == want[k], (k, b[k][:64], want[k][:64])
PY
	"$GAMEFS" check g.rpg >/dev/null || fail "$layout: check"
	rm -f g.rpg orig.rpg good.rpg
done
echo ok
