#!/bin/sh
# Real tools save into every format's mount through their temporary files:
# rsync without --inplace, a write-temp-and-rename, sed -i over a file that
# another process holds open, vim.  The file keeps its name and place (an
# .rpg's lump order), no temporary or dotfile enters the archive, and no
# .fuse_hidden file is left listed.
. "$top_srcdir/tests/lib.sh"
command -v rsync >/dev/null || { echo "SKIP: rsync not installed"; exit 77; }
command -v vim >/dev/null || { echo "SKIP: vim not installed"; exit 77; }
RPG="python3 $top_srcdir/tests/rpgtool.py"
cd "$T" || exit 1

# hold FILE open (read) in the background while a tool replaces it
hold() { sleep 30 <"$1" & HOLD=$!; }
unhold() { kill "$HOLD" 2>/dev/null; wait "$HOLD" 2>/dev/null; }
no_hidden() { ! find "$1" -name '.fuse_hidden*' | grep -q . || fail "a .fuse_hidden file is listed"; }

# ---- .rpg: lump order survives every way of saving BROWSE.TXT
printf 'browse\n' >b && printf 'one\n' >o && printf 'two\n' >t
$RPG make g.rpg BROWSE.TXT=@b ONE.TXT=@o GONE.TXT=gone TWO.TXT=@t
gfs_mount g.rpg m || fail "mount rpg"
printf 'by rename\n' >m/BROWSE.TXT.new && mv m/BROWSE.TXT.new m/BROWSE.TXT || fail "temp + rename"
hold m/BROWSE.TXT
sed -i 's/by rename/by sed/' m/BROWSE.TXT || fail "sed -i over a file held open"
check_eq "by sed" "$(cat m/BROWSE.TXT)" "sed -i content"
no_hidden m
unhold
touch m/.directory || fail "a file manager's .directory"
# rm of a file held open: unlisted at once, readable through the descriptor,
# out of the archive after the last close
python3 - m/GONE.TXT <<'PY' || fail "rm of a file held open"
import os, sys
f = open(sys.argv[1], 'rb')
os.unlink(sys.argv[1])
assert not os.path.exists(sys.argv[1])
assert 'GONE.TXT' not in os.listdir(os.path.dirname(sys.argv[1]))
assert f.read() == b'gone'
f.close()
PY
no_hidden m
mkdir -p src && printf 'rsynced\n' >src/ONE.TXT && printf 'two\n' >src/TWO.TXT
rsync -r src/ m/ || fail "rsync -r without --inplace"
vim -Es -u NONE -c '%s/two/vim/' -c 'wq' m/TWO.TXT || fail "vim"
ls -a m | grep -E '^\.(ONE|TWO)' && fail "rsync temporary left listed"
gfs_umount m || fail "unmount rpg"
check_eq "BROWSE.TXT ONE.TXT TWO.TXT" "$($RPG list g.rpg | cut -f1 | tr '\n' ' ' | sed 's/ $//')" "lump order"
check_eq "by sed" "$($RPG get g.rpg BROWSE.TXT)" "BROWSE.TXT on disk"
check_eq "rsynced" "$($RPG get g.rpg ONE.TXT)" "ONE.TXT on disk"
check_eq "vim" "$($RPG get g.rpg TWO.TXT)" "TWO.TXT on disk"

# ---- every other format: rsync, and sed -i while the file is held open
ZZT="python3 $top_srcdir/tests/zzt/zztlib.py"
TNG="python3 $top_srcdir/tests/tng/tngpy.py"
TSV="python3 $top_srcdir/tests/tngsave/tngsave.py"
LAY="python3 $top_srcdir/tests/lay/mklay.py"
$ZZT mk w.zzt
$TNG write g.tng
$TSV mk s.sav --kind server --crc compressed
$LAY gen G_.lay --atlas G.png --tail 5
for spec in "w.zzt world.ini ^ammo.=.* ammo_=_42" \
	    "g.tng maps/meadow/map.ini ^title.=.* title_=_1" \
	    "s.sav users/alice/user.ini ^x.=.* x_=_4242" \
	    "G_.lay chunks.csv ^0,-67,-87, 0,-97,-87,"; do
	# shellcheck disable=SC2086
	set -- $spec
	a=$1 f=$2 re=$3 to=$(echo "$4" | tr _ ' ')
	rm -rf m v && gfs_mount "$a" m || fail "mount $a"
	grep -q "$re" "m/$f" || fail "$a: $f has no line $re"
	hold "m/$f"
	sed -i "s/$re/$to/" "m/$f" || fail "$a: sed -i over $f held open"
	unhold
	grep -qx "$to" "m/$f" || grep -q "^$to" "m/$f" || fail "$a: edit not visible"
	no_hidden m
	mkdir -p v/"$(dirname "$f")" && cp "m/$f" "v/$f" && sed -i "s/^$to/$to/" "v/$f"
	rsync -r v/ m/ || fail "$a: rsync -r without --inplace"
	cp "m/$f" want
	gfs_umount m || fail "unmount $a"
	gfs_mount "$a" m -o ro || fail "remount $a"
	cmp want "m/$f" || fail "$a: $f after remount"
	find m -name '.*' ! -name .gamefs.log | grep . && fail "$a: a dotfile entered the archive"
	gfs_umount m || fail "unmount $a"
done
$TSV dump s.sav | grep -q 4242 || fail "tngsave: the USER chunk lost its edit"
echo ok
