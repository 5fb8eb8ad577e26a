#!/bin/sh
# gamefs pack DIR ARCHIVE: extract then pack of an untouched tree leaves
# every archive byte-identical and unwritten (same inode and mtime), for a
# generated file of every format and every corpus file; an edit through
# pack gives the archive the same edit through a real mount gives; a bad
# edit is refused with file and line and nothing is written; new files
# follow the format's creation rules; read-only views (0444) in the tree
# are never a failure, also for a user who cannot write them.
. "$top_srcdir/tests/lib.sh"
cd "$T" || exit 1
nfail=0
check() { if eval "$2"; then echo "ok - $1"; else echo "not ok - $1"; nfail=$((nfail + 1)); fi; }
stamp() { stat -c '%i %Y.%y' "$1"; }

mkdir gen
python3 "$top_srcdir/tests/tng/tngpy.py" write gen/game.tng --full || fail "tngpy"
python3 "$top_srcdir/tests/tngsave/tngsave.py" mk gen/save.sav || fail "tngsave"
python3 "$top_srcdir/tests/rpgtool.py" mkgame gen/game.rpg new 2 || fail "rpgtool mkgame"
python3 "$top_srcdir/tests/rpgtool.py" reld-make gen/doc.reld || fail "rpgtool reld-make"
"$top_builddir/gamefs-mkdemo" gen/lumped.rpg || fail "mkdemo"
python3 "$top_srcdir/tests/zzt/zztlib.py" mk gen/world.zzt || fail "zztlib"
python3 "$top_srcdir/tests/lay/mklay.py" gen gen/sprite_.lay --atlas gen/sprite.png || fail "mklay"

# copy ARCHIVE (and a .lay's atlas) into DIR
copy() {
	cp "$1" "$2/" || return 1
	case $1 in *.lay)
		a=${1%.lay}; a=${a%_}.png
		[ -f "$a" ] && cp "$a" "$2/"
	esac
	return 0
}

# extract then pack, untouched: same bytes, same inode and mtime
roundtrip() {	# ARCHIVE
	src=$1 b=$(basename "$1")
	rm -rf rt && mkdir rt && copy "$1" rt || return 1
	"$GAMEFS" extract "rt/$b" rt.x 2>/dev/null || { rm -rf rt.x; echo "# $b: not extractable, skipped"; return 0; }
	s1=$(stamp "rt/$b")
	"$GAMEFS" pack rt.x "rt/$b" 2>rt.err; rc=$?
	check "$b: untouched pack exits 0 $(head -c 300 rt.err)" '[ $rc = 0 ]'
	check "$b: untouched pack: the same bytes" 'cmp -s "$src" "rt/$b"'
	check "$b: untouched pack: not rewritten (inode, mtime)" '[ "$s1" = "$(stamp "rt/$b")" ]'
	rm -rf rt.x
}
for f in gen/*; do
	case $f in *.png) continue ;; esac
	roundtrip "$f"
done
check "the extracted tree has read-only views" '"$GAMEFS" extract gen/game.tng ro.x && [ "$(stat -c %a ro.x/strings.txt)" = 444 ]'
cdir="$top_srcdir/../shared/corpus"
if [ -d "$cdir" ]; then
	for f in "$cdir"/*/*; do
		case $f in *.md | *.png) continue ;; esac
		roundtrip "$f"
	done
else
	echo "# corpus absent: only generated files"
fi

# the same edit through pack and through a mount gives the same archive
same_edit() {	# ARCHIVE VIEW SED [CMD]: CMD runs in the tree (pack's or the mount) after the sed
	src=$1 b=$(basename "$1")
	rm -rf p m.d pk && mkdir p m.d && copy "$1" p && copy "$1" m.d || return 1
	"$GAMEFS" extract "p/$b" pk 2>/dev/null || return 1
	sed -i "$3" "pk/$2"
	[ -n "${4:-}" ] && (cd pk && eval "$4")
	"$GAMEFS" pack pk "p/$b" 2>pk.err; rc=$?
	gfs_mount "m.d/$b" mnt || return 1
	sed -i "$3" "mnt/$2"
	[ -n "${4:-}" ] && (cd mnt && eval "$4")
	gfs_umount mnt || fail "umount"
	check "$b: $2: pack exits 0 $(grep -v 'RELOAD document not shown' pk.err | head -c 300)" '[ $rc = 0 ]'
	check "$b: $2: edited" '! cmp -s "$src" "p/$b"'
	check "$b: $2: pack and a mount give the same archive" 'cmp -s "p/$b" "m.d/$b"'
	case $b in *.lay)
		a=${b%.lay}; a=${a%_}.png
		check "$b: the atlas is the mount's too" 'cmp -s "p/$a" "m.d/$a"'
	esac
}
same_edit gen/game.tng lang/en/texts.txt 's/^Hello there$/Hello, traveller/'
same_edit gen/game.tng maps/meadow/layer00.csv '2s/^[0-9]*,/4,/'
same_edit gen/save.sav preview.ini 's/^time_played = .*/time_played = 4000/'
same_edit gen/game.rpg textboxes/0000.txt 's/bridge is out/bridge is mended/'
same_edit gen/doc.reld document.txt 's/buttonnames/buttonNames/'
same_edit gen/lumped.rpg README.TXT 's/^/# /'
same_edit gen/world.zzt boards/00-title-screen/code/bob.oop "s/^'Hello there/'Good morning/"
same_edit gen/sprite_.lay chunks.csv 's/^1,-37,-87,/1,-36,-87,/'
# a new file where the format creates one: a sound of a TirNanoG game
same_edit gen/game.tng header.ini 's/^fps = 30$/fps = 25/' 'cp sounds/click.ogg sounds/bell.ogg'
check "pack made the new sound" '"$GAMEFS" cat p/game.tng sounds/bell.ogg | cmp -s - pk/sounds/click.ogg'

# after a pack the tree shows the new archive: packing it again writes nothing
rm -rf tw tw.x && mkdir tw && cp gen/game.tng tw/
"$GAMEFS" extract tw/game.tng tw.x 2>/dev/null
sed -i '2s/^[0-9]*,/4,/' tw.x/maps/meadow/layer00.csv
"$GAMEFS" pack tw.x tw/game.tng 2>tw.err
check "the map's TMX in the tree is drawn anew after the pack ($(cat tw.err | tr '\n' ' '))" \
	'"$GAMEFS" cat tw/game.tng maps/meadow.tmx | cmp -s - tw.x/maps/meadow.tmx'
s1=$(stamp tw/game.tng)
"$GAMEFS" pack tw.x tw/game.tng 2>/dev/null; rc=$?
check "a second pack of the same tree writes nothing" '[ $rc = 0 ] && [ "$s1" = "$(stamp tw/game.tng)" ]'
"$GAMEFS" extract tw/game.tng tw.y 2>/dev/null
check "the tree after pack is the new archive's extract" 'diff -r tw.x tw.y >/dev/null'

# refusals: file and line, exit 1, nothing written
refused() {	# WHAT ARCHIVE-COPY TREE WANT-IN-MESSAGE
	arc=$2 want=$4
	s1=$(stamp "$2"); cp "$2" before
	"$GAMEFS" pack "$3" "$2" 2>ref.err; rc=$?
	check "$1: exit 1" '[ $rc = 1 ]'
	check "$1: says $4 ($(head -1 ref.err))" 'grep -q -- "$want" ref.err'
	check "$1: archive unchanged, not rewritten" 'cmp -s before "$arc" && [ "$s1" = "$(stamp "$arc")" ]'
}
rm -rf bad bad.x && mkdir bad && cp gen/game.tng bad/
"$GAMEFS" extract bad/game.tng bad.x 2>/dev/null
sed -i 's/^Hello there$/Good edit/' bad.x/lang/en/texts.txt
sed -i 's/^title = .*/title = Edited/' bad.x/maps/meadow/map.ini
refused "a bad map.ini beside a good edit" bad/game.tng bad.x "maps/meadow/map.ini: refused: map.ini: line 4: title"
echo "1,2" >>bad.x/maps/meadow/layer01.csv
refused "two bad files" bad/game.tng bad.x "maps/meadow/layer01.csv: refused: layer01.csv: line 10"
check "two bad files: both named" 'grep -q "maps/meadow/map.ini" ref.err && grep -q "2 files refused" ref.err'

rm -rf z z.x && mkdir z && cp gen/world.zzt z/
"$GAMEFS" extract z/world.zzt z.x 2>/dev/null
echo hello >z.x/notes.txt
refused "a new file the format cannot create" z/world.zzt z.x "notes.txt: cannot be created (not supported yet)"
rm z.x/notes.txt
: >z.x/world.ini~; : >z.x/.world.ini.swp
s1=$(stamp z/world.zzt)
"$GAMEFS" pack z.x z/world.zzt 2>/dev/null; rc=$?
check "editor leftovers in the tree are not files of the archive" '[ $rc = 0 ] && [ "$s1" = "$(stamp z/world.zzt)" ]'
chmod 0644 z.x/boards/00-title-screen/board.png
printf 'x' >>z.x/boards/00-title-screen/board.png
"$GAMEFS" pack z.x z/world.zzt 2>ro.err; rc=$?
check "a changed read-only view is reported, not applied ($(cat ro.err))" \
	'[ $rc = 0 ] && grep -q "board.png: differs from its read-only view" ro.err && [ "$s1" = "$(stamp z/world.zzt)" ]'

# one writer: a tree is not packed into an archive mounted for writing
rm -rf w w.x && mkdir w && cp gen/world.zzt w/ && "$GAMEFS" extract w/world.zzt w.x 2>/dev/null
sed -i "s/^'Hello there/'Busy/" w.x/boards/00-title-screen/code/bob.oop
gfs_mount w/world.zzt wm || fail "mount"
refused "an archive mounted for writing" w/world.zzt w.x "mounted"
gfs_umount wm || fail "umount"

# a user who may write the archive and the tree but not its 0444 views
if command -v setpriv >/dev/null; then
	rm -rf u u.x && mkdir u && cp gen/game.tng u/ && "$GAMEFS" extract u/game.tng u.x 2>/dev/null
	sed -i 's/^Hello there$/Hello, stranger/' u.x/lang/en/texts.txt
	chown -R 65534:65534 u u.x && chmod 0755 "$T"
	setpriv --reuid=65534 --regid=65534 --clear-groups "$GAMEFS" pack u.x u/game.tng 2>u.err; rc=$?
	check "not root: pack with 0444 views in the tree exits 0 ($(head -c 300 u.err))" '[ $rc = 0 ]'
	check "not root: the edit is in" '"$GAMEFS" cat u/game.tng lang/en/texts.txt | grep -q "^Hello, stranger$"'
	check "not root: read-only views are still 0444" '[ "$(stat -c %a u.x/strings.txt)" = 444 ]'
fi

"$GAMEFS" pack only-one >/dev/null 2>&1; rc=$?
check "pack with one argument: usage, exit 2" '[ $rc = 2 ]'
"$GAMEFS" pack gen gen/nothing.tng >/dev/null 2>&1; rc=$?
check "pack into a missing archive: exit 2" '[ $rc = 2 ]'
[ $nfail = 0 ] || fail "$nfail checks failed"
echo "all ok"
