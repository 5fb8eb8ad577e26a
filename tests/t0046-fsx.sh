#!/bin/sh
# tests/t0046-fsx.sh [OPS] [SEED...]: a file system exerciser on a mounted
# file.  tests/fsx runs OPS (default 1500) random operations on a lump of an
# .rpg whose bytes are free-form (writes at random offsets and lengths, also
# past the end; reads compared with its model; truncates up and down; fsync;
# close and reopen, which commits), once for each SEED (default 1 and one
# from the clock, printed), each on what the one before left.  After each
# run the mount is unmounted and the archive's lump, read by
# tests/rpgtool.py (an independent reader), must be the model's final
# bytes, and the other lump untouched.  A failure names the seeds: run
#   top_srcdir=$PWD top_builddir=$PWD/_build sh tests/t0046-fsx.sh OPS SEED...
# to see it again (tests/fsx -v prints the whole operation log).
. "$top_srcdir/tests/lib.sh"
OPS=${1:-1500}
[ $# -gt 0 ] && shift
[ $# -gt 0 ] || set -- 1 "$(date +%s)"
FSX=$top_builddir/tests/fsx
R="python3 $top_srcdir/tests/rpgtool.py"
[ -x "$FSX" ] || fail "$FSX not built (make check builds it)"
cd "$T" || exit 1

# every byte value, in no order a format would parse
python3 -c 'import hashlib, sys
d = b"".join(hashlib.sha256(b"%d" % i).digest() for i in range(1000))
sys.stdout.buffer.write(d[:30000])' >start.bin || fail "start.bin"
printf 'left alone\n' >other.txt
$R make g.rpg FSX.BIN=@start.bin OTHER.TXT=@other.txt || fail "make rpg"
$R list g.rpg | grep OTHER.TXT >other.want

seeds="$*"
for seed in $seeds; do
	gfs_mount g.rpg m || fail "mount for seed $seed"
	start=$(date +%s)
	"$FSX" -N "$OPS" -S "$seed" -i start.bin -w model.bin m/FSX.BIN >fsx.out 2>&1 ||
		fail "fsx, seed $seed (seeds $seeds; rerun: t0046-fsx.sh $OPS $seeds): $(cat fsx.out)"
	note "$(tail -n 1 fsx.out), seed $seed, $(($(date +%s) - start)) s"
	gfs_umount m || fail "unmount after seed $seed"
	$R get g.rpg FSX.BIN >got.bin || fail "seed $seed: no FSX.BIN in the archive"
	cmp model.bin got.bin || fail "seed $seed: the archive's FSX.BIN ($(wc -c <got.bin) bytes) is not the model's ($(wc -c <model.bin) bytes)"
	$R list g.rpg | grep OTHER.TXT | cmp -s other.want - || fail "seed $seed: OTHER.TXT changed"
	mv model.bin start.bin
done
echo ok
