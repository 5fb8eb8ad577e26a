#!/bin/sh
# Every edit kind survives unmount and reload with both CRCs right, the CRC
# convention and deflate wrapping kept, map assets last, and every other
# asset byte-identical: a sound replaced by a bigger one, a map cell, map.ini,
# a translation, sprite maps (a frame changed, a direction added), the
# equipment slots (as INI, one fewer), an NPC (its INI), an atlas PNG, header.ini.
. "$top_srcdir/tests/lib.sh"
P="python3 $top_srcdir/tests/tng/tngpy.py"
cd "$T" || exit 1

for variant in "" "--raw --crc-comp"; do
	# shellcheck disable=SC2086
	$P write g.tng $variant || fail "write"
	cp g.tng orig.tng
	$P dump orig.tng >before
	gfs_mount g.tng m || fail "mount"
	# writing views back unchanged changes nothing
	for f in maps/meadow/map.ini maps/meadow/layer02.csv lang/en/texts.txt sprites/ui/0000.txt \
		 sounds/step.ogg header.ini sections/16-uielements.bin; do
		cat "m/$f" >same && cp same "m/$f" || fail "copy back $f"
	done
	cmp orig.tng g.tng || fail "copying views back changed the archive"

	python3 -c "import sys; sys.stdout.buffer.write(b'OggS' + bytes(range(256)) * 20)" >newsound
	cp newsound m/sounds/door.ogg || fail "replace sound"
	python3 - m/maps/meadow/layer03.csv <<'PY' || fail "edit layer"
import sys
rows = open(sys.argv[1]).read().splitlines()
c = rows[3].split(","); c[4] = "4242"; rows[3] = ",".join(c)
open(sys.argv[1], "w").write("\n".join(rows) + "\n")
PY
	sed -i -e 's/^daylight = .*/daylight = 900/' -e 's/^music = .*/music = voice_hello/' \
		-e 's/^points = .*/points = 2,3 4,5 6,7/' -e 's/^speed_x = .*/speed_x = -99/' m/maps/dungeon/map.ini || fail "edit map.ini"
	printf '\n[parallax 1]\nbackground = 0\nspeed_x = 1\ndelta_x = 2\nspeed_y = 3\ndelta_y = 4\ntime = 5\nsprite = 1:-1\n' >>m/maps/dungeon/map.ini || fail "add parallax"
	sed -i 's/^Hello there$/Hello, modder\\nsecond line/' m/lang/en/texts.txt || fail "edit texts"
	sed -i '0,/^frame = .*/s//frame = 0 0 9 9 8 8 0 0/' m/sprites/tiles/0001.txt || fail "edit sprite"
	printf '\n[direction 1]\ndir = 4\nloop = 1\nwidth = 16\nheight = 16\nframe = 1 2 0 0 16 16 0 0\nframe = 0 0 4 4 8 8 4 4\n' >>m/sprites/ui/0000.txt || fail "add direction"
	printf '[slot 0]\nleft = 1\ntop = 2\n[slot 1]\nleft = 3\ntop = 4\n[slot 2]\nleft = 5\ntop = 6\n' \
		>m/sections/19-equipslots.ini || fail "section records as INI"
	sed -i 's/^speed = 100$/speed = 7/' m/npcs/0000.ini || fail "npc record"
	cp m/atlases/0000.png m/atlases/0001.png || fail "replace atlas"
	sed -i -e 's/^fps = .*/fps = 60/' -e 's/^id = .*/id = edited/' -e 's/^tile_width = .*/tile_width = 300/' m/header.ini || fail "edit header"
	grep -q '^fps = 60$' m/header.ini || fail "header view after commit"
	[ -f m/sprites/ui/0000-north.png ] || fail "strip of the added direction before remount"
	python3 -c "import sys,struct; d=open(sys.argv[1],'rb').read(); assert struct.unpack('>II', d[16:24]) == (32, 16)" m/sprites/ui/0000-north.png || fail "new strip size"
	sed -i 's/^name = .*/name = 4/' m/lang/en/lang.ini || fail "edit lang.ini"
	sed -i 's/^0001,500$/0001,250/' m/startup/index.csv || fail "edit index.csv"
	check_eq EINVAL "$(errno_of "f=open('m/startup/index.csv','w'); f.write('asset,interval\\n0,1\\n'); f.close()")" "index.csv row count"
	gfs_umount m || fail "umount"

	$P verify g.tng >v || fail "CRCs after edits: $(cat v)"
	case "$variant" in
	*raw*) check_eq "header-crc ok|section-crc compressed|wrap raw|maps-last ok" "$(paste -sd'|' v)" "conventions kept" ;;
	*) check_eq "header-crc ok|section-crc inflated|wrap zlib|maps-last ok" "$(paste -sd'|' v)" "conventions kept" ;;
	esac
	"$GAMEFS" check g.tng >/dev/null || fail "gamefs check after edits"
	$P dump g.tng >after
	diff before after | grep '^[<>]' | awk '{print $2}' | sort -u | paste -sd' ' >changed
	check_eq "atlases/0001 lang/en/name lang/en/texts maps/dungeon maps/meadow npcs/0000 sections/19 sounds/door startup/0001.field tiles/0001 ui/0000" \
		"$(cat changed)" "only the edited assets changed"
	$P get g.tng sounds/door | cmp - newsound || fail "new sound bytes"
	$P get g.tng atlases/0000 >a0; $P get g.tng atlases/0001 | cmp - a0 || fail "atlas"
	check_eq "2 0 0 1 7 0 50 0 0 0 0 0 0" "$($P get g.tng npcs/0000 | od -An -tu1 | tr -s ' ' | sed 's/^ //;s/ $//')" "npc bytes"
	check_eq "1 0 2 0 3 0 4 0 5 0 6 0" "$($P get g.tng sections/19 | od -An -tu1 | tr -s ' ' | sed 's/^ //;s/ $//')" "equipment slots"
	python3 - g.tng <<'PY' || fail "header bytes"
import sys
d = open(sys.argv[1], "rb").read()
assert d[39] == 60 and d[16:23] == b"edited\0" and d[34] == 300 & 255 and (d[33] >> 4) & 3 == 1, d[32:40]
PY
	# the reloaded views show the edits
	gfs_mount g.tng m || fail "remount"
	check_eq "4242" "$(sed -n 4p m/maps/meadow/layer03.csv | cut -d, -f5)" "map cell"
	check_eq "daylight = 900|music = voice_hello|speed_x = -99|speed_x = 1|points = 2,3 4,5 6,7" \
		"$(grep -E '^(daylight|music|points|speed_x) ' m/maps/dungeon/map.ini | paste -sd'|')" "map.ini"
	grep -q '^\[parallax 1\]' m/maps/dungeon/map.ini || fail "added parallax"
	check_eq 'Hello, modder\nsecond line' "$(sed -n 3p m/lang/en/texts.txt)" "texts"
	grep -q '^frame = 0 0 9 9 8 8 0 0$' m/sprites/tiles/0001.txt || fail "sprite frame"
	[ -f m/sprites/ui/0000-north.png ] || fail "strip of the added direction"
	check_eq "fps = 60" "$(grep '^fps' m/header.ini)" "header"
	check_eq "name = 4" "$(grep '^name' m/lang/en/lang.ini)" "lang.ini"
	check_eq "0001,250" "$(sed -n 3p m/startup/index.csv)" "index.csv"
	check_eq "tile_width = 300" "$(grep '^tile_width' m/header.ini)" "tile width high bits"
	gfs_umount m || fail "umount 2"
	python3 - g.tng "$top_srcdir/tests/tng" <<'PY' || fail "RLE written by gamefs does not decode"
import sys, struct
sys.path.insert(0, sys.argv[2])
import tngpy
m = dict(tngpy.Reader(open(sys.argv[1], "rb").read()).items())["maps/meadow"]
p = 34 + 10 * m[29]
for _ in range(m[30]):
    p += 3 + 4 * struct.unpack_from("<H", m, p + 1)[0]
cells = tngpy.unrle(m[p:p + int.from_bytes(m[31:34], "little")], 11 * 64)
assert cells[3 * 64 + 2 * 8 + 4] == 4242, cells[3 * 64 + 2 * 8 + 4]
PY
	python3 - g.tng "$top_srcdir/tests/tng" <<'PY' || fail "sprite descriptor direction count"
import sys, struct
sys.path.insert(0, sys.argv[2])
import tngpy
r = tngpy.Reader(open(sys.argv[1], "rb").read())
ui = [d for t, d in r.secs if t == 7][0]
assert ui[15] == 2, ui[15]
PY
done
echo ok
