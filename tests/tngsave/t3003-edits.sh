#!/bin/sh
# Every edit kind survives unmount and reload: game id, time played, the
# preview image, globals, quests, ban list, a user (fields, inventory, name),
# an NPC, map layers, an unknown chunk.
. "$top_srcdir/tests/lib.sh"
P="python3 $top_srcdir/tests/tngsave/tngsave.py"
s="$T/s.sav"
$P mk "$s" --kind server --crc compressed || fail "mk"
cp "$s" "$T/orig.sav"

gfs_mount "$s" "$T/m" || fail "mount"
M="$T/m"
# rewriting a view with its own content changes nothing
cp "$M/preview.png" "$T/same.png" && cp "$T/same.png" "$M/preview.png" || fail "preview copy back"
cat "$M/users/alice/user.ini" >"$T/u" && cp "$T/u" "$M/users/alice/user.ini" || fail "user.ini copy back"
cmp "$T/orig.sav" "$s" || fail "unchanged content rewritten differently"

sed -i 's/^game_id = .*/game_id = newgame/' "$M/header.ini" || fail "edit header"
sed -i 's/^time_played = .*/time_played = 99/' "$M/preview.ini" || fail "edit preview.ini"
$P png "$T/p.png" --set 1 2 255 0 8 && cp "$T/p.png" "$M/preview.png" || fail "write preview.png"
printf '7\n-1\n' >"$M/quests.txt" || fail "edit quests"
sed -i '/^192.168.1.7$/d' "$M/deny.txt" && echo "fe80::1" >>"$M/deny.txt" || fail "edit deny"
sed -i -e 's/^x = .*/x = 4242/' -e 's/^flags = .*/flags = 0x00/' -e 's/^name = .*/name = robert/' \
	-e 's/^\(; item = .*\)$/\1\nitem = 9 99/' -e 's/^quest = 5 open$/quest = 5 completed/' \
	"$M/users/bob/user.ini" || fail "edit user"
sed -i -e 's/^type = .*/type = 77/' -e 's/^attributes = .*/attributes = 1 2 3 4/' -e 's/^map = .*/map = 16777215/' \
	"$M/npcs/0001.ini" || fail "edit npc"
printf 'value\n1\n2\n3\n4\n5\n-1\n65535\n' >"$M/maps/4.csv" || fail "edit map 4"
python3 - "$M/maps/1.csv" <<'PY' || fail "edit map 1"
import sys
rows = open(sys.argv[1]).read().splitlines()
cells = rows[1].split(",")
cells[5] = "12"
rows[1] = ",".join(cells)
open(sys.argv[1], "w").write("\n".join(rows) + "\n")
PY
printf 'new raw body' >"$M/chunks/10-XTRA.bin" || fail "edit raw chunk"
# a Windows editor: byte order mark and CRLF line ends
python3 - "$M/npcs/0002.ini" <<'PY' || fail "BOM + CRLF edit"
import sys
t = open(sys.argv[1]).read().replace("spawner = 12", "spawner = 99")
open(sys.argv[1], "wb").write(b"\xef\xbb\xbf" + t.replace("\n", "\r\n").encode())
PY
check_eq "time_played = 99" "$(grep '^time_played' "$M/preview.ini")" "view after commit"
check_eq "alice carol robert" "$(ls "$M/users" | tr '\n' ' ' | sed 's/ $//')" "user directory renamed at commit"
grep -qx "x = 4242" "$M/users/robert/user.ini" || fail "renamed user readable"
gfs_umount "$M" || fail "umount"

$P dump "$s" >"$T/d" || fail "dump"
g() { grep "^$1" "$T/d" | head -1; }
check_eq "game: newgame" "$(g game:)" "game id"
check_eq "crc: compressed" "$(g crc:)" "CRC convention"
check_eq "preview.played: 99" "$(g preview.played)" "time played"
check_eq "7c01" "$($P pixel "$s" 1 2)" "edited pixel as RGB555"
check_eq "$($P pixel "$T/orig.sav" 0 0) $($P pixel "$T/orig.sav" 200 100)" \
	"$($P pixel "$s" 0 0) $($P pixel "$s" 200 100)" "other pixels kept"
check_eq "QSTS: 7 -1" "$(g QSTS:)" "quests"
check_eq "DENY: 10 2001:db8::42|DENY: 2 10.0.0.1|DENY: 10 fe80::1" "$(grep '^DENY:' "$T/d" | paste -sd'|')" "deny"
check_eq "user.robert.x: 4242" "$(g user.robert.x)" "user x"
check_eq "user.robert.flags: 0" "$(g user.robert.flags)" "user flags"
check_eq "user.robert.inventory: [(9, 99), (3, 17), (1, 4)]" "$(g user.robert.inventory)" "inventory"
check_eq "user.robert.quests: [2147483653, 2147483654]" "$(g user.robert.quests)" "quests of user"
check_eq "$($P dump "$T/orig.sav" | grep '^user.bob.hash' | sed 's/bob/robert/')" \
	"$(g user.robert.hash)" "hash kept"
check_eq "npc.0001.type: 77" "$(g npc.0001.type)" "npc type"
check_eq "npc.0001.attributes: [1, 2, 3, 4]" "$(g npc.0001.attributes)" "npc attributes"
check_eq "npc.0001.map: 16777215" "$(g npc.0001.map)" "npc map (24 bits)"
check_eq "map.4: 7 values: 1 2 3 4 5 -1 -1" "$(g map.4)" "map 4"
g map.1 | grep -q "^map.1: 1024 values: -1 -1 -1 -1 -1 12 -1 " \
	|| fail "map 1 cell (first row, x5)"
check_eq "raw.XTRA: $(printf 'new raw body' | od -An -tx1 | tr -d ' \n')" "$(g raw.XTRA)" "raw chunk"
# untouched chunks byte-identical
check_eq "npc.0002.spawner: 99" "$(g npc.0002.spawner)" "BOM + CRLF edit"
for k in GLBL user.alice user.carol npc.0000; do
	check_eq "$($P dump "$T/orig.sav" | grep "^$k")" "$(grep "^$k" "$T/d")" "untouched $k"
done

# the reload shows the edits
gfs_mount "$s" "$T/m" || fail "remount"
check_eq "alice carol robert" "$(ls "$M/users" | sort | tr '\n' ' ' | sed 's/ $//')" "renamed user dir"
grep -qx "x = 4242" "$M/users/robert/user.ini" || fail "user.ini reload"
grep -qx "item = 9 99" "$M/users/robert/user.ini" || fail "inventory reload"
check_eq "255 0 8 255" "$($P pngpix "$M/preview.png" 1 2)" "pixel reload"
check_eq "new raw body" "$(cat "$M/chunks/10-XTRA.bin")" "raw chunk reload"
check_eq "game_id = newgame" "$(grep '^game_id' "$M/header.ini")" "header reload"
gfs_umount "$M" || fail "umount 2"
"$GAMEFS" check "$s" >/dev/null || fail "check"
echo ok
