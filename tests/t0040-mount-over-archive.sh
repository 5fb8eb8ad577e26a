#!/bin/sh
# A mount point that is the archive's own directory, or one of its parents,
# (or a .lay atlas's directory) would put every commit's temporary file, the
# lock and the journal inside the mount: the daemon would wait on itself (issue 28, item 2: the writer's
# close() and the daemon hung in D state, the edit lost).  Such a mount is
# refused at once, with a message, before anything is mounted or written;
# a mount point inside the archive's directory (the usual case) still works.
. "$top_srcdir/tests/lib.sh"
RPG="python3 $top_srcdir/tests/rpgtool.py"
cd "$T" || exit 1
mkdir -p d/sub
$RPG make d/g.rpg BROWSE.TXT=hello A.TXT=one || fail "make g.rpg"
cp d/g.rpg d/sub/h.rpg
ln -s d link
sum=$(sha256sum <d/g.rpg)

# refused within seconds: gamefs ARCHIVE MOUNTPOINT [-f]
refused() {
	what=$1; shift
	start=$(date +%s)
	timeout 10 "$GAMEFS" "$@" >out.txt 2>&1; rc=$?
	end=$(date +%s)
	for m in d d/sub e/art "$T"; do
		if mountpoint -q "$m"; then
			fusermount3 -u "$m"
			fail "$what: mounted (the daemon would wait on itself at the first commit)"
		fi
	done
	[ $rc -eq 124 ] && fail "$what: still running after 10 s"
	[ $rc -ne 0 ] || fail "$what: exit status 0"
	[ $((end - start)) -le 5 ] || fail "$what: took $((end - start)) s"
	grep -q "mount it elsewhere" out.txt || fail "$what: says: $(cat out.txt)"
	note "$what: refused in $((end - start)) s: $(grep elsewhere out.txt | cut -c1-150)"
}
refused "the archive's directory" -f d/g.rpg d
refused "the archive's directory, as a daemon" d/g.rpg d
refused "the directory by a symbolic link" -f link/g.rpg d
cd d || exit 1
refused "the directory as ." -f g.rpg .
cd "$T" || exit 1
refused "a parent of the archive's directory" -f d/sub/h.rpg d
refused "a parent, read-only" -f -o ro d/sub/h.rpg "$T"
# a .lay's atlas is written beside itself: its directory counts too
mkdir -p e/art
python3 "$top_srcdir/tests/lay/mklay.py" gen e/G_.lay --atlas e/art/G.png || fail "make G_.lay"
refused "the atlas's directory" -f -o atlas=e/art/G.png e/G_.lay e/art
grep -q "companion" out.txt || fail "the message does not name the atlas: $(cat out.txt)"
check_eq "$sum" "$(sha256sum <d/g.rpg)" "the archive is untouched"
ls -a d | grep -q 'gamefs' && fail "files left beside the archive: $(ls -a d)"

# no process of ours stuck in D state
ps -eo stat=,args= | grep "^D" | grep -F "$T" && fail "a process in D state"

# a mount point inside the archive's directory is the ordinary case
gfs_mount d/g.rpg d/m || fail "mount at d/m"
printf 'edited\n' >d/m/A.TXT || fail "edit through d/m"
gfs_umount d/m || fail "unmount d/m"
check_eq edited "$("$GAMEFS" cat d/g.rpg A.TXT)" "the edit through d/m"
echo ok
