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
