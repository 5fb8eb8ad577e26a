#!/bin/sh
# Records and maps renamed with mv: npcs/OLD.ini to npcs/NEW.ini renames the
# NPC (its descriptor names NEW in the strings section; its scripts' files
# follow; maps place it by number, so they still do); a dialog nothing names
# is renamed the same way, one a script names is not (EBUSY naming the
# script: it names the dialog by its name); a map's folder or TMX renamed
# renames the map, its TMX and PNG (one a neighbour or script leads to:
# EBUSY).  Bad names, other folders and objects (numbered) are EINVAL; every
# refusal leaves the archive as it was, its reason in the log.  check
# passes, the independent reader finds the new names, a fresh mount shows
# them with the same content.
. "$top_srcdir/tests/lib.sh"
P="python3 $top_srcdir/tests/tng/tngpy.py"
cd "$T" || exit 1

$P write g.tng --full || fail "write"
gfs_mount g.tng m || fail "mount"
cp m/npcs/guard.ini guard.ini && cp m/npcs/guard.on_click.tngs guard.on_click.tngs || fail "keep the NPC"
sed -i '2s/^-1/0/' m/maps/meadow/layer05.csv || fail "place the guard on the meadow"
cp m/dialogs/greet.ini m/dialogs/bye.ini || fail "a new dialog"
mkdir m/maps/forest || fail "a new map"
gfs_umount m || fail "umount"
gfs_mount g.tng m || fail "mount 2"

mv m/npcs/guard.ini m/npcs/watchman.ini || fail "mv renames an NPC"
check_eq "watchman.ini watchman.on_click.tngs watchman.on_timer.tngs" "$(ls m/npcs | tr '\n' ' ' | sed 's/ $//')" \
	"the NPC's files follow"
cmp guard.ini m/npcs/watchman.ini || fail "the renamed NPC's fields"
cmp guard.on_click.tngs m/npcs/watchman.on_click.tngs || fail "the renamed NPC's handler"
mv m/dialogs/bye.ini m/dialogs/farewell.ini || fail "mv renames a dialog nothing names"
mv m/maps/forest m/maps/woods || fail "mv renames a map"
check_eq "dungeon dungeon.png dungeon.tmx meadow meadow.png meadow.tmx tilesets woods woods.png woods.tmx" \
	"$(ls m/maps | tr '\n' ' ' | sed 's/ $//')" "the map's TMX and PNG follow"
mv m/maps/woods.tmx m/maps/glade.tmx || fail "mv of a map's TMX renames the map"
check_eq "dungeon dungeon.png dungeon.tmx glade glade.png glade.tmx meadow meadow.png meadow.tmx tilesets" \
	"$(ls m/maps | tr '\n' ' ' | sed 's/ $//')" "the map's folder and PNG follow its TMX"

# refused: the archive stays as it was, the reason in the log
cp g.tng snap.tng
check_eq EBUSY "$(errno_of "os.rename('m/dialogs/greet.ini', 'm/dialogs/hello.ini')")" "a dialog a script names"
grep -q "dialogs/greet.ini: cutscenes/intro_scene.script.tngs (byte [0-9]*) refers to it by its name" gamefs.log ||
	fail "the referrer in the log"
check_eq EBUSY "$(errno_of "os.rename('m/maps/dungeon', 'm/maps/cave')")" "a map a neighbour leads to"
grep -q "maps/dungeon: maps/meadow/map.ini (a neighbour) leads to it by its name" gamefs.log ||
	fail "the neighbour in the log"
check_eq EINVAL "$(errno_of "os.rename('m/npcs/watchman.ini', 'm/npcs/1234.ini')")" "an all-digit name"
check_eq EINVAL "$(errno_of "os.rename('m/npcs/watchman.ini', 'm/npcs/a b.ini')")" "a name with a blank"
check_eq EINVAL "$(errno_of "os.rename('m/npcs/watchman.ini', 'm/npcs/watchman.txt')")" "not an INI"
check_eq EINVAL "$(errno_of "os.rename('m/npcs/watchman.ini', 'm/dialogs/watchman.ini')")" "another kind's folder"
check_eq EINVAL "$(errno_of "os.rename('m/objects/0000.ini', 'm/objects/0001.ini')")" "an object"
grep -q "objects/0000.ini: objects have no names: they are numbered" gamefs.log || fail "why objects"
check_eq EINVAL "$(errno_of "os.rename('m/maps/glade', 'm/maps/a.b')")" "a map name with a dot"
check_eq EINVAL "$(errno_of "os.rename('m/maps/glade', 'm/npcs/glade')")" "a map out of maps/"
check_eq EPERM "$(errno_of "os.rename('m/maps/tilesets', 'm/maps/tiles')")" "the tilesets folder"
check_eq EPERM "$(errno_of "os.rename('m/header.ini', 'm/head.ini')")" "header.ini"
check_eq EPERM "$(errno_of "os.rename('m/npcs/watchman.on_click.tngs', 'm/npcs/watchman.on_touch.tngs')")" \
	"a handler's file"
cmp snap.tng g.tng || fail "refused renames changed the game"
gfs_umount m || fail "umount 2"

"$GAMEFS" check g.tng >check.out || fail "check: $(cat check.out)"
grep -q warning check.out && fail "warnings: $(cat check.out)"
$P verify g.tng >/dev/null || fail "CRCs"
python3 - "$top_srcdir/tests/tng" g.tng <<'PY' || fail "the reader's view"
import struct, sys
sys.path.insert(0, sys.argv[1])
import tngpy
r = tngpy.Reader(open(sys.argv[2], "rb").read())
names = {}
for t, d in r.secs:
    if t in (28, 30, 34):
        for p in range(0, len(d), 16):
            names.setdefault(t, []).append(r.string(struct.unpack_from("<I", d, p + 12)[0]))
assert names[28] == ["watchman"], names[28]
assert names[30] == ["greet", "farewell"], names[30]
assert "glade" in names[34] and "woods" not in names[34] and "forest" not in names[34], names[34]
PY
gfs_mount g.tng m || fail "fresh mount"
cmp guard.ini m/npcs/watchman.ini || fail "the NPC after a fresh mount"
cmp m/dialogs/greet.ini m/dialogs/farewell.ini || fail "the dialog after a fresh mount"
check_eq "0" "$(sed -n 2p m/maps/meadow/layer05.csv | cut -d, -f1)" "the meadow still places NPC 0"
[ -f m/maps/glade/map.ini ] && [ -f m/maps/glade.tmx ] || fail "the renamed map after a fresh mount"
gfs_umount m || fail "umount 3"
echo ok
