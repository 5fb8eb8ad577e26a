#!/bin/sh
# -o backup under SIGKILL: the daemon is killed at random moments of a
# commit that also keeps ARCHIVE.bak.  The archive is always the old or the
# new version, ARCHIVE.bak is absent or a whole earlier version, and the
# next mount removes the temporaries of both (.ARCHIVE.gamefs-XXXXXX and
# .ARCHIVE.bak.gamefs-XXXXXX).
. "$top_srcdir/tests/lib.sh"
RPG="python3 $top_srcdir/tests/rpgtool.py"
cd "$T" || exit 1
TRIALS=${GAMEFS_KILL_TRIALS:-12}
temps() { ls -a | grep -E '^\.g\.rpg(\.bak)?\.gamefs-'; }

$RPG gen g.rpg 40 1000000 || fail "gen"		# ~40 MB
# what a killed commit leaves is removed by the next writable mount
: >.g.rpg.bak.gamefs-Ab12Cd
: >.g.rpg.gamefs-Zz99Yy
gfs_mount g.rpg m -o backup || fail "mount"
[ -z "$(temps)" ] || fail "stale temporaries kept by the mount: $(temps)"
gfs_umount m || fail "unmount"
[ -e g.rpg.bak ] && fail "backup made by a mount that changed nothing"

seen=$(sha256sum <g.rpg)
passed=0 old_seen=0 new_seen=0 bak_seen=0
for i in $(seq 1 "$TRIALS"); do
	old=$(sha256sum <g.rpg)
	head -c 1024 /dev/urandom >edit
	gfs_mount g.rpg m -o backup || fail "mount $i"
	pid=$GFS_PID
	dd if=edit of=m/LUMP00020.BIN conv=notrunc bs=1024 count=1 2>/dev/null &
	writer=$!
	sleep "0.$(shuf -i 0-40 -n 1 | xargs printf '%02d')"
	kill -9 "$pid"
	wait "$pid" 2>/dev/null
	wait "$writer" 2>/dev/null
	fusermount3 -u m 2>/dev/null || umount -l m 2>/dev/null
	now=$(sha256sum <g.rpg)
	if [ "$now" = "$old" ]; then
		old_seen=$((old_seen + 1))
	elif $RPG get g.rpg LUMP00020.BIN | head -c 1024 | cmp -s - edit; then
		new_seen=$((new_seen + 1)); seen="$seen $now"
	else
		fail "trial $i: archive is neither the old nor the new version"
	fi
	$RPG list g.rpg >/dev/null || fail "trial $i: archive does not parse"
	if [ -e g.rpg.bak ]; then
		b=$(sha256sum <g.rpg.bak)
		case " $seen " in *" $b "*) bak_seen=$((bak_seen + 1)) ;;
		*) fail "trial $i: g.rpg.bak is not a whole earlier version" ;; esac
	fi
	gfs_mount g.rpg m || fail "remount $i"
	[ -z "$(temps)" ] && ! ls -a | grep -q 'gamefs-' || fail "trial $i: temporaries left after the next mount: $(ls -a | grep gamefs-)"
	gfs_umount m || fail "unmount $i"
	passed=$((passed + 1))
done
echo "ok: $passed kill trials with -o backup ($old_seen old, $new_seen new, a whole backup after $bak_seen)"
