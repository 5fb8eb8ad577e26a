#!/bin/sh
# The issue's "done when" for TirNanoG: the README's demo game (./demo.sh,
# which makes Meadowbrook and mounts it) grown as a modder would, with
# ordinary tools on the mount: a map (cp -r of the village), a sprite (the
# elder's copied to the next number, flipped with sed), an NPC with a
# dialog (INIs copied, the NPC drawn with the new sprite, a script that
# opens the new dialog, renamed with mv, placed on the new map), and an
# item (the game has no objects: mkdir objects, then an INI written).
# Then `gamefs umount`, `gamefs check` (no warning), the independent reader
# (tngpy.py) finds every new thing by its name and number, and a fresh
# mount shows each as it was written.
. "$top_srcdir/tests/lib.sh"
P="python3 $top_srcdir/tests/tng/tngpy.py"
cd "$T" || exit 1

GAMEFS="$GAMEFS" DEMO_DIR="$T" sh "$top_srcdir/demo.sh" >demo.out 2>&1 || fail "demo.sh: $(cat demo.out)"
GFS_MOUNTS="$GFS_MOUNTS $T/mnt"
m=mnt
mountpoint -q $m || fail "demo.sh mounts the demo on mnt"

# a sprite: the elder's, the next number, facing the other way
cp $m/sprites/chars/0001.txt $m/sprites/chars/0002.txt || fail "a new sprite"
sed -i 's/^frame = 1 0 /frame = 1 2 /' $m/sprites/chars/0002.txt || fail "the new sprite flipped"
[ -s $m/sprites/chars/0002-south.png ] || fail "the new sprite's strip"
# a map: the village copied, a tree less on it
cp -r $m/maps/village $m/maps/forest || fail "a new map"
[ -f $m/maps/forest.tmx ] && [ -f $m/maps/forest.png ] || fail "the new map's TMX and PNG"
# an NPC with a dialog: copies, the new sprite, a script that opens the new dialog
cp $m/dialogs/welcome.ini $m/dialogs/smithy.ini || fail "a new dialog"
sed -i 's/^portrait_side = left$/portrait_side = right/' $m/dialogs/smithy.ini || fail "the dialog edited"
cp $m/npcs/elder.ini $m/npcs/smith.ini || fail "a new NPC"
sed -i 's|^sprite = chars/1$|sprite = chars/2|' $m/npcs/smith.ini || fail "the NPC drawn with the new sprite"
printf '\tPUSHDLG smithy\n\tPUSH16 0\n\tFNC2 dialog\n\tEND\n; end\n' >$m/npcs/smith.on_click.tngs ||
	fail "the NPC's script opens the new dialog"
mv $m/npcs/smith.ini $m/npcs/blacksmith.ini || fail "the NPC renamed"
[ -f $m/npcs/blacksmith.on_click.tngs ] || fail "the script follows the NPC's name"
# NPC 2 (the blacksmith) on layer 5 of the new map, at x 3, y 2
python3 - $m/maps/forest/layer05.csv <<'PY' || fail "the NPC placed on the new map"
import sys
rows = open(sys.argv[1]).read().splitlines()
cells = rows[3].split(",")
cells[3] = "2"
rows[3] = ",".join(cells)
open(sys.argv[1], "w").write("\n".join(rows) + "\n")
PY
# an item: the demo has no objects; the folder makes the section, an INI the first object
mkdir $m/objects || fail "mkdir objects: a new section"
[ -f $m/objects/index.csv ] || fail "the objects' index"
printf '[object]\ntitle = 2\ninventory_sprite = tiles/11\nprice = 12\nprice_unit = -1\nprojectile_sprite = -1\nammo = -1\n' \
	>$m/objects/0000.ini || fail "a new object"
grep -q '= #ui/0$' $m/objects/0000.ini && fail "a sprite the INI left out is ui/0, not none: $(grep '#ui/0' $m/objects/0000.ini)"
check_eq "projectile_sprite = -1" "$(grep '^projectile_sprite =' $m/objects/0000.ini)" "a sprite the INI set"
check_eq "price = 12" "$(grep '^price =' $m/objects/0000.ini)" "the object's price"
for f in sprites/chars/0002.txt maps/forest/layer05.csv dialogs/smithy.ini npcs/blacksmith.ini \
	npcs/blacksmith.on_click.tngs objects/0000.ini objects/index.csv; do
	mkdir -p "want/$(dirname "$f")" && cp "$m/$f" "want/$f" || fail "keep $f"
done
"$GAMEFS" umount $m || fail "gamefs umount"

"$GAMEFS" check demo.tng >check.out || fail "check: $(cat check.out)"
grep -q warning check.out && fail "warnings: $(cat check.out)"
$P verify demo.tng >verify.out || fail "the reader's CRCs: $(cat verify.out)"
grep -qx "maps-last ok" verify.out || fail "the maps stay the last assets"
python3 - "$top_srcdir/tests/tng" demo.tng <<'PY' || fail "the independent reader"
import struct, sys, zlib
sys.path.insert(0, sys.argv[1])
import tngpy
r = tngpy.Reader(open(sys.argv[2], "rb").read())
secs = {}
for t, d in r.secs:
    for p in range(0, len(d) - 15, 16):
        off, ln, nm = struct.unpack_from("<QII", d, p)
        body = zlib.decompress(r.d[r.base + off:r.base + off + ln]) if t > 6 and t != 11 and ln else b""
        secs.setdefault(t, []).append((nm, body))
name = lambda t: [r.string(nm) for nm, _ in secs[t]]
assert name(28) == ["elder", "wanderer", "blacksmith"], name(28)
assert name(30) == ["welcome", "smithy"], name(30)
assert name(34) == ["village", "forest"], name(34)
assert len(secs[9]) == 3, "three character sprites"
assert len(secs[31]) == 1 and secs[31][0][0] == 0, "one object, sprite index 0"
smithy = [nm for nm, _ in secs[30]][1]
assert bytes([48]) + smithy.to_bytes(3, "little") in secs[28][2][1], "the script pushes the new dialog"
assert secs[28][2][1][:3] == secs[28][0][1][:3], "the NPC's title is the elder's"
PY

gfs_mount demo.tng d || fail "a fresh mount"
for f in sprites/chars/0002.txt maps/forest/layer05.csv dialogs/smithy.ini npcs/blacksmith.ini \
	npcs/blacksmith.on_click.tngs objects/0000.ini objects/index.csv; do
	cmp "want/$f" "d/$f" || fail "$f after a fresh mount"
done
[ -s d/sprites/chars/0002-south.png ] && [ -s d/maps/forest.png ] && [ -f d/maps/forest.tmx ] ||
	fail "the new sprite's strip and the new map's PNG and TMX"
check_eq EBUSY "$(errno_of "os.unlink('d/npcs/blacksmith.ini')")" "an NPC the new map places"
check_eq EBUSY "$(errno_of "os.unlink('d/dialogs/smithy.ini')")" "a dialog the new NPC opens"
gfs_umount d || fail "umount"
echo ok
