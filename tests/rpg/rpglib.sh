# tests/rpg/rpglib.sh - shared by the rpg tests (sourced after tests/lib.sh).

# rpg_corpus_writeback WHAT FIND-ARGS...: every file of each corpus game
# that `find FIND-ARGS` (run in the mount) lists is written back unchanged;
# the archive must stay byte-identical.  Sets n to the files written.
# Skips (exit 77) without the corpus.
rpg_corpus_writeback() {
	what=$1
	shift
	dir=$(corpus rpg) || exit 77
	n=0
	for f in "$dir"/*.rpg; do
		b=$(basename "$f")
		cp "$f" "$b" && chmod 644 "$b"
		gfs_mount "$b" m -o commit=unmount || fail "mount $b"
		(cd m && find "$@" 2>/dev/null | sort) >views.txt
		[ -s views.txt ] || fail "$b: no $what"
		while IFS= read -r v; do
			cat "m/$v" >view.bin
			cp view.bin "m/$v" || fail "$b: write back $v"
			n=$((n + 1))
		done <views.txt
		gfs_umount m || fail "unmount $b"
		cmp "$f" "$b" || fail "$b: a $what written back unchanged changed the archive"
		rm -f "$b"
	done
}

# writeback_all ARCHIVE: mount it, write every file of the mount back
# unchanged, unmount; adds the files written to n.  The caller compares.
writeback_all() {
	gfs_mount "$1" wb || fail "mount $1"
	(cd wb && find . -type f ! -name .gamefs.log | sort) >wb-views.txt
	while IFS= read -r v; do
		cat "wb/$v" >wb-view.bin
		cp wb-view.bin "wb/$v" || fail "$1: write back $v"
		n=$((n + 1))
	done <wb-views.txt
	gfs_umount wb || fail "unmount $1"
}
