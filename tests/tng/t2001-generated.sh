#!/bin/sh
# A generated game: golden listing, byte-exact media, decoded texts and
# layers equal what the writer put in, an untouched mount never rewrites,
# check names the CRC convention and the deflate wrapping; raw-deflate and
# compressed-CRC variants alike.
. "$top_srcdir/tests/lib.sh"
P="python3 $top_srcdir/tests/tng/tngpy.py"
cd "$T" || exit 1

cat >golden <<'GOLD'
-rw-r--r--        315 header.ini
-r--r--r--        102 strings.txt
drwxr-xr-x          0 lang/
drwxr-xr-x          0 lang/en/
-rw-r--r--         71 lang/en/texts.txt
-rw-r--r--         93 lang/en/lang.ini
drwxr-xr-x          0 lang/en/speech/
-rw-r--r--        104 lang/en/speech/voice_hello.ogg
-rw-r--r--        114 lang/en/speech/voice_bye.ogg
drwxr-xr-x          0 lang/de/
-rw-r--r--         54 lang/de/texts.txt
-rw-r--r--         93 lang/de/lang.ini
drwxr-xr-x          0 lang/de/speech/
-rw-r--r--        104 lang/de/speech/voice_hello.ogg
-rw-r--r--          0 lang/de/speech/voice_bye.ogg
drwxr-xr-x          0 fonts/
-rw-r--r--         64 fonts/main.sfn
drwxr-xr-x          0 music/
-rw-r--r--       2004 music/theme.ogg
drwxr-xr-x          0 sounds/
-rw-r--r--        304 sounds/click.ogg
-rw-r--r--        305 sounds/door.ogg
-rw-r--r--        306 sounds/step.ogg
drwxr-xr-x          0 movies/
-rw-r--r--        904 movies/intro.ogv
drwxr-xr-x          0 atlases/
-rw-r--r--       6163 atlases/0000.png
-rw-r--r--       7277 atlases/0001.png
drwxr-xr-x          0 sprites/
drwxr-xr-x          0 sprites/ui/
-rw-r--r--        370 sprites/ui/0000.txt
-r--r--r--        404 sprites/ui/0000-south.png
drwxr-xr-x          0 sprites/tiles/
-rw-r--r--        396 sprites/tiles/0000.txt
-r--r--r--        799 sprites/tiles/0000-south.png
-rw-r--r--        422 sprites/tiles/0001.txt
-r--r--r--       1080 sprites/tiles/0001-south.png
drwxr-xr-x          0 sprites/chars/
-rw-r--r--        477 sprites/chars/0000.txt
-r--r--r--        443 sprites/chars/0000-south.png
-r--r--r--        795 sprites/chars/0000-southwest.png
drwxr-xr-x          0 sprites/portraits/
-rw-r--r--        396 sprites/portraits/0000.txt
-r--r--r--        792 sprites/portraits/0000-south.png
drwxr-xr-x          0 backs/
-rw-r--r--       3671 backs/0000.png
drwxr-xr-x          0 sections/
-rw-r--r--         95 sections/16-uielements.bin
-rw-r--r--        195 sections/19-equipslots.ini
-rw-r--r--        550 sections/33-tilesmeta.ini
drwxr-xr-x          0 npcs/
-rw-r--r--        418 npcs/0000.ini
drwxr-xr-x          0 dialogs/
-rw-r--r--        321 dialogs/0000.ini
drwxr-xr-x          0 quests/
-rw-r--r--        350 quests/0000.ini
-rw-r--r--         11 quests/0000.on_complete.tngs
drwxr-xr-x          0 startup/
-rw-r--r--         31 startup/index.csv
-rw-r--r--         29 startup/0000.tngs
-rw-r--r--         11 startup/0001.tngs
drwxr-xr-x          0 objects/
-rw-r--r--         26 objects/index.csv
-rw-r--r--       1849 objects/0000.ini
drwxr-xr-x          0 maps/
drwxr-xr-x          0 maps/tilesets/
-r--r--r--       3928 maps/tilesets/tiles.png
-r--r--r--         73 maps/tilesets/npcs.png
-r--r--r--         73 maps/tilesets/spawners.png
drwxr-xr-x          0 maps/meadow/
-rw-r--r--        410 maps/meadow/map.ini
-rw-r--r--        152 maps/meadow/layer00.csv
-rw-r--r--        152 maps/meadow/layer01.csv
-rw-r--r--        194 maps/meadow/layer02.csv
-rw-r--r--        195 maps/meadow/layer03.csv
-rw-r--r--        195 maps/meadow/layer04.csv
-rw-r--r--        216 maps/meadow/layer05.csv
-rw-r--r--        216 maps/meadow/layer06.csv
-rw-r--r--        195 maps/meadow/layer07.csv
-rw-r--r--        194 maps/meadow/layer08.csv
-rw-r--r--        195 maps/meadow/layer09.csv
-rw-r--r--        195 maps/meadow/layer10.csv
-rw-r--r--       4282 maps/meadow.tmx
-r--r--r--    3541311 maps/meadow.png
drwxr-xr-x          0 maps/dungeon/
-rw-r--r--        409 maps/dungeon/map.ini
-rw-r--r--        152 maps/dungeon/layer00.csv
-rw-r--r--        152 maps/dungeon/layer01.csv
-rw-r--r--        194 maps/dungeon/layer02.csv
-rw-r--r--        195 maps/dungeon/layer03.csv
-rw-r--r--        195 maps/dungeon/layer04.csv
-rw-r--r--        216 maps/dungeon/layer05.csv
-rw-r--r--        216 maps/dungeon/layer06.csv
-rw-r--r--        195 maps/dungeon/layer07.csv
-rw-r--r--        194 maps/dungeon/layer08.csv
-rw-r--r--        195 maps/dungeon/layer09.csv
-rw-r--r--        195 maps/dungeon/layer10.csv
-rw-r--r--       4281 maps/dungeon.tmx
-r--r--r--    3541311 maps/dungeon.png
GOLD

for variant in "" "--raw" "--crc-comp" "--raw --crc-comp"; do
	# shellcheck disable=SC2086
	$P write g.tng $variant || fail "write $variant"
	cp g.tng orig.tng
	"$GAMEFS" ls g.tng >ls.out || fail "ls $variant"
	diff -u golden ls.out || fail "golden listing ($variant)"
	"$GAMEFS" check g.tng >check.out 2>&1 || fail "check $variant: $(cat check.out)"
	case "$variant" in *raw*) w="raw deflate" ;; *) w="zlib-wrapped deflate" ;; esac
	case "$variant" in *crc-comp*) c="compressed" ;; *) c="inflated" ;; esac
	grep -q "$w" check.out || fail "check does not say $w: $(cat check.out)"
	grep -q "section CRC: ok (over the $c bytes)" check.out || fail "check does not say $c: $(cat check.out)"

	gfs_mount g.tng m || fail "mount $variant"
	ino=$(stat -c %i g.tng); mt=$(stat -c %Y g.tng)
	# sounds/ is filled on first use: a path straight to a file works before any listing
	$P get g.tng sounds/door >want || fail "get sounds/door"
	cmp want m/sounds/door.ogg || fail "sounds/door.ogg by path before a listing ($variant)"
	check_eq "click.ogg door.ogg step.ogg" "$(ls m/sounds | tr '\n' ' ' | sed 's/ $//')" \
		"sounds/ listed after that lookup ($variant)"
	for k in sounds/click sounds/door music/theme movies/intro fonts/main lang/en/speech/voice_bye \
		 lang/de/speech/voice_bye atlases/0000 atlases/0001 backs/0000; do
		f=$(ls m/$k.* 2>/dev/null | head -1)
		[ -n "$f" ] || f=$(ls m/$(dirname $k)/$(basename $k).* | head -1)
		$P get g.tng "$k" >want || fail "get $k"
		cmp want "$f" || fail "media $k differs ($variant)"
	done
	# records are INI: the NPC's header fields by key, its title with the text
	grep -qx 'title = 2 ; Hello there' m/npcs/0000.ini || fail "npc title ($variant)"
	grep -qx 'speed = 100' m/npcs/0000.ini && grep -qx 'direction_change = 50' m/npcs/0000.ini ||
		fail "npc record ($variant)"
	$P get g.tng sections/16 >want && cmp want m/sections/16-uielements.bin || fail "raw section"
	# texts: one per line, newline and backslash escaped
	check_eq "Line with \\\\ backslash" "$(sed -n 4p m/lang/en/texts.txt)" "backslash escape"
	check_eq 'Two\nlines' "$(sed -n 5p m/lang/en/texts.txt)" "newline escape"
	check_eq "Grüße" "$(sed -n 4p m/lang/de/texts.txt)" "UTF-8 text"
	# layers equal the decoded map
	python3 - "$top_srcdir/tests/tng" g.tng m <<'PY' || fail "layers differ ($variant)"
import sys, struct
sys.path.insert(0, sys.argv[1])
import tngpy
r = tngpy.Reader(open(sys.argv[2], "rb").read())
maps = {k: v for k, v in r.items() if k.startswith("maps/")}
for key, m in maps.items():
    npar, npath, rl = m[29], m[30], int.from_bytes(m[31:34], "little")
    p = 34 + 10 * npar
    for _ in range(npath):
        p += 3 + 4 * struct.unpack_from("<H", m, p + 1)[0]
    cells = tngpy.unrle(m[p:p + rl], 11 * 64)
    for l in range(11):
        rows = open("%s/%s/layer%02d.csv" % (sys.argv[3], key, l)).read().splitlines()
        assert rows[0] == ",".join("x%d" % x for x in range(8)), rows[0]
        got = [[int(v) for v in row.split(",")] for row in rows[1:]]
        want = [[-1 if c == 0xFFFF else c for c in cells[l * 64 + y * 8:l * 64 + y * 8 + 8]] for y in range(8)]
        assert got == want, (key, l)
PY
	# strips are PNGs of frames side by side
	python3 - m/sprites/chars/0000-southwest.png <<'PY' || fail "strip png"
import sys, struct
d = open(sys.argv[1], "rb").read()
assert d[:8] == b"\x89PNG\r\n\x1a\n"
w, h = struct.unpack(">II", d[16:24])
assert (w, h) == (48, 20), (w, h)
PY
	# read-only render, editable views
	check_eq EACCES "$(errno_of "open('m/sprites/chars/0000-south.png','r+b')" | sed 's/EROFS/EACCES/')" "strip is read-only"
	check_eq EACCES "$(errno_of "open('m/strings.txt','r+b')" | sed 's/EROFS/EACCES/')" "strings.txt is read-only"
	gfs_umount m || fail "umount $variant"
	cmp g.tng orig.tng || fail "untouched mount rewrote ($variant)"
	check_eq "$ino $mt" "$(stat -c %i g.tng) $(stat -c %Y g.tng)" "same inode and mtime"
done

# extract then cat: the same bytes as the mount
"$GAMEFS" extract g.tng x || fail "extract"
cmp x/maps/meadow/layer03.csv "$(sh -c "\"$GAMEFS\" cat g.tng maps/meadow/layer03.csv >c; echo c")" || fail "extract vs cat"

# extract, then write every editable file back through a mount: no byte changes
cp g.tng before.tng
gfs_mount g.tng m || fail "mount for re-import"
"$GAMEFS" ls g.tng | awk '$1 ~ /^-rw/ {print $3}' | while read -r f; do
	cp "x/$f" "m/$f" || { echo "$f"; exit 1; }
done || fail "re-import"
gfs_umount m || fail "umount re-import"
cmp before.tng g.tng || fail "extract + re-import changed the game"

# inode numbers do not depend on which directory is used first
gfs_mount g.tng m || fail "mount for inodes"
ls m/sounds m/npcs >/dev/null && find m -printf '%i %p\n' | sort -k2 >ino1
gfs_umount m || fail "umount for inodes"
gfs_mount g.tng m || fail "mount for inodes (2)"
find m -printf '%i %p\n' | sort -k2 >ino2
gfs_umount m || fail "umount for inodes (2)"
[ -s ino1 ] && cmp ino1 ino2 || fail "inode numbers depend on the order of first use"
echo ok
