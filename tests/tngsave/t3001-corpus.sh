#!/bin/sh
# The corpus saves: golden listing, decoded views, check, untouched mount.
. "$top_srcdir/tests/lib.sh"
C=$(corpus tngsave) || exit 77
P="python3 $top_srcdir/tests/tngsave/tngsave.py"

cp "$C/demo1.sav" "$C/server3.sav" "$T/" && chmod u+w "$T"/*.sav
cat >"$T/want1" <<'X'
-rw-r--r-- header.ini
-rw-r--r-- preview.png
-rw-r--r-- preview.ini
-rw-r--r-- globals.txt
-rw-r--r-- quests.txt
drwxr-xr-x users/
drwxr-xr-x users/player0/
-rw-r--r-- users/player0/user.ini
drwxr-xr-x npcs/
-rw-r--r-- npcs/0000.ini
-rw-r--r-- npcs/0001.ini
drwxr-xr-x maps/
-rw-r--r-- maps/1.csv
X
"$GAMEFS" ls "$T/demo1.sav" | awk '{print $1, $3}' >"$T/got1" || fail "ls demo1"
diff "$T/want1" "$T/got1" || fail "demo1 listing"
"$GAMEFS" ls "$T/server3.sav" | awk '{print $3}' | tr '\n' ' ' >"$T/got3"
check_eq "header.ini globals.txt quests.txt users/ users/player0/ users/player0/user.ini users/player1/ users/player1/user.ini users/player2/ users/player2/user.ini npcs/ npcs/0000.ini npcs/0001.ini maps/ maps/1.csv deny.txt " \
	"$(cat "$T/got3")" "server3 listing (no preview)"

# decoded views
check_eq "3 31 49 46 43 -1" "$("$GAMEFS" cat "$T/demo1.sav" globals.txt | tr '\n' ' ' | sed 's/ $//')" "globals"
check_eq "0 -1 0" "$("$GAMEFS" cat "$T/demo1.sav" quests.txt | tr '\n' ' ' | sed 's/ $//')" "quests"
check_eq "127.0.0.9 ::1" "$("$GAMEFS" cat "$T/server3.sav" deny.txt | tr '\n' ' ' | sed 's/ $//')" "deny"
check_eq "game_id = demo1" "$("$GAMEFS" cat "$T/demo1.sav" header.ini | grep '^game_id')" "game id"
check_eq "time_played = 3601" "$("$GAMEFS" cat "$T/demo1.sav" preview.ini | grep '^time_played')" "time played"
u=$("$GAMEFS" cat "$T/demo1.sav" users/player0/user.ini)
for l in "name = player0" "password_hash = c27378a661c935187c07e4d5636e9bc3c400b27244b8cd3a97f11ae651070506" \
	"created = 1700000000" "; created 2023-11-14T22:13:20Z" "language = en" "flags = 0x00" "options = 0 1" \
	"x = 992" "y = 432" "direction = 3" "attributes = -43 85 6 62 76" "skill = 4 22" "quest = 1 open" \
	"quest = 3 completed"; do
	echo "$u" | grep -qxF "$l" || fail "user.ini lacks [$l]"
done
n=$("$GAMEFS" cat "$T/demo1.sav" npcs/0000.ini)
for l in "type = 0" "x = 190" "y = 644" "attributes = 25 -20 35 78 58" "skill = 4 19" "quest = 2 completed"; do
	echo "$n" | grep -qxF "$l" || fail "npc 0000 lacks [$l]"
done
"$GAMEFS" cat "$T/demo1.sav" maps/1.csv >"$T/map.csv"
check_eq 33 "$(wc -l <"$T/map.csv")" "map rows (header + 32)"
check_eq "3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3" "$(tail -1 "$T/map.csv" | cut -d, -f9-)" "map last row"
"$GAMEFS" cat "$T/demo1.sav" preview.png >"$T/p.png" || fail "preview.png"
check_eq "255 0 255 255" "$($P pngpix "$T/p.png" 255 0)" "preview pixel (RGB555: red in the high bits)"
"$GAMEFS" check "$T/demo1.sav" >"$T/check" || fail "check demo1"
grep -q "over the inflated payload: ok" "$T/check" || fail "check says which CRC"
"$GAMEFS" check "$T/server3.sav" >/dev/null || fail "check server3"

# mount, read everything, unmount: same bytes, same inode, same mtime
for f in demo1 server3; do
	before=$(stat -c '%i %Y' "$T/$f.sav")
	gfs_mount "$T/$f.sav" "$T/m" || fail "mount $f"
	find "$T/m" -type f -exec cat {} + >/dev/null || fail "read all of $f"
	gfs_umount "$T/m" || fail "umount $f"
	cmp "$C/$f.sav" "$T/$f.sav" || fail "$f changed by an untouched mount"
	check_eq "$before" "$(stat -c '%i %Y' "$T/$f.sav")" "$f inode and mtime"
done

# extract shows what cat shows
"$GAMEFS" extract "$T/server3.sav" "$T/x" || fail "extract"
check_eq "$("$GAMEFS" cat "$T/server3.sav" users/player1/user.ini)" "$(cat "$T/x/users/player1/user.ini")" "extract = cat"
echo ok
