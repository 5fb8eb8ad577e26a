#!/bin/sh
# Nothing lost when a commit is refused because another program saved the
# archive while it was mounted (EBUSY), in every format: the other
# program's archive stays, the user's bytes are NAME.rejected, the view
# reads its last good content again (not the refused text), and at unmount
# `gamefs umount` exits non-zero naming ARCHIVE.unsaved, which holds them.
# (Before: the view kept showing the refused text as if saved, no
# NAME.rejected, and the edit vanished at unmount with exit status 0.)
. "$top_srcdir/tests/lib.sh"
cd "$T" || exit 1
RPG="python3 $top_srcdir/tests/rpgtool.py"
ZZT="python3 $top_srcdir/tests/zzt/zztlib.py"
TNG="python3 $top_srcdir/tests/tng/tngpy.py"
LAY="python3 $top_srcdir/tests/lay/mklay.py"

$RPG make g.rpg A.TXT=hello BROWSE.TXT=x || fail "rpg"
$ZZT mk w.zzt || fail "zzt"
$TNG write g.tng || fail "tng"
$LAY gen G_.lay --atlas G.png && $LAY atlas G.png 1024 1024 --seed 3 || fail "lay"

# edit ARCHIVE FILE: the edited file (in want), from the mount at m
edit() {
	case $2 in
	A.TXT) printf 'mine\n' ;;
	world.ini) sed 's/^ammo = .*/ammo = 42/' m/world.ini ;;
	lang/en/texts.txt) sed 's/^Hello there$/Hello, mine/' m/lang/en/texts.txt ;;
	chunks.csv) awk -F, 'BEGIN { OFS = "," } NR == 2 { $2 = -60 } { print }' m/chunks.csv ;;
	esac >want
	cmp -s want "m/$2" && fail "$1: the edit changes nothing"
}

n=0
for case in g.rpg:A.TXT w.zzt:world.ini g.tng:lang/en/texts.txt G_.lay:chunks.csv; do
	a=${case%%:*} f=${case#*:}
	n=$((n + 1))
	rm -rf "$a.unsaved"
	gfs_mount "$a" m || fail "$a: mount"
	cp "m/$f" before
	edit "$a" "$f"
	# another program saves the archive (a new file in its place)
	cp "$a" theirs && mv theirs "$a" && cp "$a" keep
	check_eq EBUSY "$(errno_of "f = open('m/$f', 'w'); f.write(open('want').read()); f.close()")" "$a: the commit over another program's save"
	cmp "$a" keep || fail "$a: the other program's archive was overwritten"
	cmp "m/$f.rejected" want || fail "$a: the refused bytes are not $f.rejected"
	cmp "m/$f" before || fail "$a: $f does not read its last good content after the refusal"
	grep -q "changed on disk since it was read" m/.gamefs.log || fail "$a: the log does not say why"
	"$GAMEFS" umount m 2>err && fail "$a: gamefs umount exit status 0 with an edit not saved"
	grep -q "$a.unsaved" err || fail "$a: gamefs umount does not name $a.unsaved: $(cat err)"
	cmp "$a.unsaved/$f.rejected" want || fail "$a: the edit is not kept in $a.unsaved"
	cmp "$a" keep || fail "$a: the other program's archive changed at unmount"
	note "$a: $f refused with EBUSY, kept as $f.rejected and in $a.unsaved"
done
check_eq 4 "$n" "formats tried"

# fixed, the kept file goes back in with mv NAME.rejected NAME; nothing is left over
rm -rf g.rpg.unsaved
gfs_mount g.rpg m || fail "mount 2"
cp g.rpg theirs && mv theirs g.rpg
check_eq EBUSY "$(errno_of "f = open('m/A.TXT', 'w'); f.write('again'); f.close()")" "a second refusal"
gfs_umount m && fail "unmount exit status 0 after a refusal"
check_eq again "$(cat g.rpg.unsaved/A.TXT.rejected)" "kept at unmount (fusermount3 -u too)"
gfs_mount g.rpg m || fail "mount 3"
cp g.rpg.unsaved/A.TXT.rejected m/A.TXT || fail "the kept edit saved after a new mount"
"$GAMEFS" umount m || fail "gamefs umount after a good save"
check_eq again "$($RPG get g.rpg A.TXT)" "the kept edit in the archive"
echo ok
