#!/bin/sh
# A new map through the mount: mkdir maps/NAME makes an empty map named NAME
# (its TMX and PNG at once), and the files copied into its folder (cp -r,
# which creates them exclusively, or one by one) become its map.ini and
# layers.  The independent reader finds the new map with the bytes of the
# one it was copied from, stored after every other asset; check is clean,
# and a fresh mount shows the same files.  Bad names and files refused.
. "$top_srcdir/tests/lib.sh"
P="python3 $top_srcdir/tests/tng/tngpy.py"
cd "$T" || exit 1

$P write g.tng --full || fail "write"
gfs_mount g.tng m || fail "mount"
cp -r m/maps/meadow m/maps/forest || fail "cp -r a map folder"
mkdir m/maps/lake || fail "mkdir a map"
[ -f m/maps/lake.tmx ] && [ -f m/maps/lake.png ] || fail "the new map's TMX and PNG"
cp m/maps/dungeon/map.ini m/maps/lake/ || fail "the new map's map.ini alone"
cp g.tng snap.tng
check_eq EINVAL "$(errno_of "os.mkdir('m/maps/a.b')")" "a map name with a dot"
check_eq EPERM "$(errno_of "os.mkdir('m/npcs/sub')")" "a folder elsewhere"
check_eq EPERM "$(errno_of "open('m/maps/lake/notes.txt','w').close()")" "a file a map does not have"
check_eq EPERM "$(errno_of "open('m/maps/lake/layer+1.csv','w').close()")" "a layer not named by two digits"
check_eq EPERM "$(errno_of "open('m/maps/lake/layer11.csv','w').close()")" "a layer past the header's count"
check_eq EINVAL "$(errno_of "f=open('m/maps/lake/layer01.csv','w'); f.write('1,2\n'); f.close()")" "a layer of the wrong size"
cmp snap.tng g.tng || fail "refused changes changed the game"
rm -f m/maps/lake/layer01.csv.rejected
gfs_umount m || fail "umount"

$P verify g.tng >verify.out || fail "CRCs"
grep -qx "maps-last ok" verify.out || fail "new maps stored last"
$P get g.tng maps/meadow >meadow.bin && $P get g.tng maps/forest >forest.bin || fail "the reader finds forest"
cmp meadow.bin forest.bin || fail "forest has meadow's bytes"
$P get g.tng maps/lake >lake.bin || fail "the reader finds lake"
"$GAMEFS" check g.tng >check.out || fail "check: $(cat check.out)"
grep -q warning check.out && fail "warnings: $(cat check.out)"

gfs_mount g.tng m || fail "remount"
for f in map.ini layer00.csv layer04.csv layer10.csv; do
	cmp m/maps/meadow/$f m/maps/forest/$f || fail "forest's $f"
done
cmp m/maps/dungeon/map.ini m/maps/lake/map.ini || fail "lake's map.ini"
cmp m/maps/meadow.png m/maps/forest.png || fail "forest drawn as meadow"
grep -q '^-1,-1,-1,-1,-1,-1,-1,-1$' m/maps/lake/layer00.csv || fail "lake's empty layer"
gfs_umount m || fail "umount 2"

# a new map and a new record in one commit: the map still after the record
$P write h.tng --full || fail "write h"
gfs_mount h.tng n -o commit=unmount || fail "mount h"
mkdir n/maps/cave && cp n/maps/meadow/* n/maps/cave/ || fail "a map made file by file"
cp n/npcs/guard.ini n/npcs/bob.ini || fail "and a new NPC"
gfs_umount n || fail "umount h"
$P verify h.tng | grep -qx "maps-last ok" || fail "maps last after a mixed commit"
"$GAMEFS" check h.tng >check.out || fail "check h: $(cat check.out)"
echo ok
