#!/bin/sh
# A game's RELOAD lumps as lossless text in reload/: generated games (new
# and old layout) edited with sed, written back unchanged, edited raw in
# lumps/, and refused bad edits; then every RELOAD lump of the corpus
# written back through its text gives the same archive.
. "$top_srcdir/tests/lib.sh"
RPG="python3 $top_srcdir/tests/rpgtool.py"
cd "$T" || exit 1

for layout in new old; do
	$RPG mkgame g.rpg $layout
	cp g.rpg orig.rpg
	$RPG game g.rpg || fail "rpgtool: not a game"
	gfs_mount g.rpg m || fail "mount $layout"
	check_eq "browse.txt game items lumps maps names palettes reload textboxes tilesets" "$(ls m | tr '\n' ' ' | sed 's/ $//')" "$layout: root"
	check_eq "general.txt" "$(ls -U m/reload | tr '\n' ' ' | sed 's/ $//')" \
		"$layout: reload/ holds the valid documents only"
	check_eq "$($RPG list g.rpg | cut -f1 | tr '\n' ' ')" "$(ls -U m/lumps | tr '\n' ' ')" "$layout: lump order"
	$RPG extract g.rpg ref
	diff -r ref m/lumps >/dev/null || fail "$layout: lumps/ bytes"
	rm -rf ref
	cat >want.txt <<'X'
RELOAD 1
names
  1 buttonnames
  2 general_data
  3 code
  4 player
  5 title
  6 ratio
  7 big
  8 blob
  9 "odd name"
  10 neg
  11 deep
  12 wide
tree
general_data
  buttonnames
    code = 0
    code = 1000
    code = 70000
  title = "Baby Bob \x01 \"quoted\"\\"
  ratio = float:0.1
  big = 1099511627776
  neg = -1
  wide = 5:i32
X
	head -n 25 m/reload/general.txt | diff -u want.txt - || fail "$layout: golden text"
	# written back unchanged: nothing changes
	cat m/reload/general.txt >same.txt
	cp same.txt m/reload/general.txt || fail "$layout: write back unchanged"
	cmp g.rpg orig.rpg || fail "$layout: unchanged text changed the archive"
	$RPG reld-dump g.rpg GENERAL.RELD >before.dump
	# sed: a double, a string with an escape, a new node (its name is appended to the table)
	sed -i -e 's/^  ratio = float:0.1$/  ratio = float:2.5/' \
		-e 's/^  title = "Baby Bob /  title = "Big Bob /' \
		-e '/^  neg = -1$/a\  newnode = 7' m/reload/general.txt || fail "$layout: sed -i"
	grep -q '^  13 newnode$' m/reload/general.txt || fail "$layout: after the commit the view is re-rendered, the new name at the end of the table"
	gfs_umount m || fail "unmount $layout"
	$RPG reld-dump g.rpg GENERAL.RELD >after.dump
	sed -e 's/^1 ratio 5 0.1$/1 ratio 5 2.5/' \
	    -e 's/^1 title 6 42616279/1 title 6 426967/' \
	    -e '/^1 neg 1 -1$/a 1 newnode 1 7' before.dump >want.dump
	diff -u want.dump after.dump || fail "$layout: edited document"
	$RPG list orig.rpg | grep -v GENERAL.RELD >a
	$RPG list g.rpg | grep -v GENERAL.RELD >b
	diff -u a b || fail "$layout: other lumps changed"
	gfs_mount g.rpg m || fail "remount $layout"
	grep -q '^  13 newnode$' m/reload/general.txt || fail "$layout: new name appended to the table"
	# bad edits: EINVAL, the archive stays
	cp g.rpg good.rpg
	check_eq EINVAL "$(errno_insert m/reload/general.txt '  x = 300:i8')" "$layout: value too wide"
	check_eq EINVAL "$(errno_insert m/reload/general.txt '  x = what')" "$layout: bad value"
	check_eq EINVAL "$(errno_insert m/reload/general.txt 'second_root')" "$layout: second root"
	check_eq EINVAL "$(errno_of "f=open('m/reload/general.txt','a'); f.write('  x = 1\n'); f.close()")" "$layout: a node after the end line"
	grep -q 'general.txt: line [0-9]*: text after the "end" line' m/.gamefs.log || fail "$layout: message of a node after the end line"
	check_eq EINVAL "$(errno_of "f=open('m/maps/00-town/zones.txt','w'); f.write('RELOAD 1\nnames\ntree\n'); f.close()")" "$layout: empty tree"
	grep -q 'general.txt: line 3[0-9]: 300 does not fit 8 bits' m/.gamefs.log || fail "$layout: log names the line: $(cat m/.gamefs.log)"
	cmp g.rpg good.rpg || fail "$layout: bad edits changed the archive"
	# a raw lump written re-renders its view
	$RPG get g.rpg GAMEFS.Z00 >z00
	cp z00 m/lumps/GENERAL.RELD || fail "$layout: cp raw lump"
	check_eq "zonemap" "$(sed -n 's/^  1 //p' m/reload/general.txt)" "$layout: view of the raw edit"
	gfs_umount m || fail "unmount 2 $layout"
	$RPG get g.rpg GENERAL.RELD | cmp - z00 || fail "$layout: raw lump written"
	"$GAMEFS" check g.rpg >/dev/null || fail "$layout: check"
	rm -f g.rpg orig.rpg good.rpg
done

# deleting a lump deletes its views; a view open at that moment stays readable
$RPG mkgame g.rpg
gfs_mount g.rpg m || fail "mount for rm"
python3 - m <<'PY' || fail "rm of a lump under an open view"
import os, sys
m = sys.argv[1]
v = open(m + '/reload/general.txt', 'rb')
w = open(m + '/lumps/GAMEFS.ITM', 'rb')
os.unlink(m + '/lumps/GENERAL.RELD')
os.unlink(m + '/lumps/GAMEFS.ITM')
assert v.read().startswith(b'RELOAD 1\n'), 'open view after rm'
assert len(w.read()) > 0, 'open lump after rm'
v.close(); w.close()
assert not os.path.exists(m + '/reload/general.txt')
assert not os.path.exists(m + '/names/items.txt')
PY
check_eq EPERM "$(errno_of "os.unlink('m/textboxes/0000.txt')")" "rm of a view"
check_eq EPERM "$(errno_of "open('m/names/new.txt','w')")" "new file in a view folder"
gfs_umount m || fail "unmount after rm"
$RPG list g.rpg | cut -f1 | grep -qx 'GENERAL.RELD\|GAMEFS.ITM' && fail "lumps not deleted"
rm -f g.rpg

# the corpus: every decoded view (RELOAD text, names, browse.txt, text
# boxes, records; not the read-only ones: game/, scripts/) written back unchanged
# gives the same archive, byte for byte
dir=$(corpus rpg) || exit 77
n=0 nr=0
for f in "$dir"/*.rpg; do
	b=$(basename "$f")
	cp "$f" "$b" && chmod 644 "$b"
	gfs_mount "$b" m -o commit=unmount || fail "mount $b"
	for v in $(cd m && find . -type f ! -path './lumps/*' -perm -200 | sort); do
		cat "m/$v" >view.txt
		cp view.txt "m/$v" || fail "$b: write back $v"
		n=$((n + 1))
		case $v in ./reload/*|*/zones.txt) nr=$((nr + 1)) ;; esac
	done
	gfs_umount m || fail "unmount $b"
	cmp "$f" "$b" || fail "$b: a view written back unchanged changed the archive"
	rm -f "$b"
done
check_eq 43 $nr "RELOAD lumps in the corpus games"
echo "ok: $n corpus views ($nr RELOAD documents) round-trip"
