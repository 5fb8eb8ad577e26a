# tests/lib.sh - shared shell helpers for the integration tests.
#
# Source it first thing:  . "$top_srcdir/tests/lib.sh"
# It makes a fresh directory $T (removed on exit), unmounts whatever the test
# mounted, and skips (exit 77) where FUSE cannot be used.
#
#   gfs_mount ARCHIVE MNT [gamefs options...]   mount in the background (-f), wait for it
#   gfs_umount MNT                              unmount, wait, return the daemon's exit code
#   fail "msg"                                  print and exit 1
#   check_eq WANT GOT "what"                    fail unless equal
#   corpus SUBDIR                               echo the corpus dir, or skip if absent
#   errno_of PYTHON-EXPR                        run an os.* call, print errno name or OK
#   refused ERRNO EXPR WHAT LOG-PATTERN LOG-WHAT  errno_of is ERRNO and the log says why
set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
: "${GAMEFS:=$top_builddir/gamefs}"
T=$(mktemp -d "${TMPDIR:-/tmp}/gamefs-test.XXXXXX")
GFS_MOUNTS=""
GFS_PIDS=""

cleanup() {
	for m in $GFS_MOUNTS; do
		mountpoint -q "$m" 2>/dev/null && { fusermount3 -u "$m" 2>/dev/null || umount -l "$m" 2>/dev/null; }
	done
	for p in $GFS_PIDS; do kill "$p" 2>/dev/null; done
	rm -rf "$T"
}
trap cleanup EXIT

fail() { echo "FAIL: $*" >&2; [ -f "$T/gamefs.log" ] && sed 's/^/  log: /' "$T/gamefs.log" >&2; exit 1; }
note() { echo "# $*"; }
check_eq() { [ "$1" = "$2" ] || fail "$3: want [$1] got [$2]"; }

if [ ! -c /dev/fuse ] || ! command -v fusermount3 >/dev/null 2>&1; then
	echo "SKIP: /dev/fuse or fusermount3 not usable"; exit 77
fi

# use as: dir=$(corpus rpg) || exit 77   (the exit in $(...) only leaves the subshell)
corpus() {
	d="$top_srcdir/../shared/corpus/$1"
	[ -d "$d" ] || { echo "SKIP: corpus $1 absent" >&2; exit 77; }
	echo "$d"
}

# gfs_mount ARCHIVE MNT [options]: start gamefs -f in the background
gfs_mount() {
	a=$1; m=$2; shift 2
	mkdir -p "$m"
	"$GAMEFS" -f "$@" "$a" "$m" >>"$T/gamefs.log" 2>&1 &
	GFS_PID=$!
	GFS_PIDS="$GFS_PIDS $GFS_PID"
	GFS_MOUNTS="$GFS_MOUNTS $m"
	i=0
	while ! mountpoint -q "$m"; do
		kill -0 "$GFS_PID" 2>/dev/null || { wait "$GFS_PID"; return $?; }
		i=$((i + 1)); [ $i -gt 200 ] && fail "mount of $a did not come up"
		sleep 0.05
	done
	eval "GFS_PID_$(echo "$m" | md5sum | cut -c1-8)=$GFS_PID"
	return 0
}

# gfs_umount MNT: unmount and return the daemon's exit status
gfs_umount() {
	m=$1
	v=GFS_PID_$(echo "$m" | md5sum | cut -c1-8)
	pid=$(eval echo "\${$v:-}")
	fusermount3 -u "$m" || return 99
	[ -n "$pid" ] || return 0
	wait "$pid"
}

# refused ERRNO PYTHON-EXPR WHAT LOG-PATTERN LOG-WHAT: the call fails with
# ERRNO and m/.gamefs.log has a line matching LOG-PATTERN (grep's BRE)
refused() {
	check_eq "$1" "$(errno_of "$2")" "$3"
	grep -q -- "$4" m/.gamefs.log || fail "$5: $(tail -n 1 m/.gamefs.log)"
}

# errno_of 'os.mkdir("x")' -> OK or the errno name (EPERM...)
errno_of() {
	python3 - "$1" <<'PY'
import os, sys, errno
try:
    exec(sys.argv[1])
    print("OK")
except OSError as e:
    print(errno.errorcode.get(e.errno, str(e.errno)))
PY
}

# linear_ok WHAT CPU_N CPU_4N: fail unless work on 4x the input took at most
# 8x the CPU seconds (+1 s for clock ticks): a linear parser takes about 4x,
# a quadratic one 16x.  See tests/hostile.py (cpu, pcpu) for the figures.
linear_ok() {
	python3 -c 'import sys; a, b = float(sys.argv[1]), float(sys.argv[2]); sys.exit(b > 8 * a + 1)' "$2" "$3" ||
		fail "$1: ${2}s of CPU for N, ${3}s for 4N: not linear"
	note "$1: ${2}s of CPU for N, ${3}s for 4N"
}

# errno_insert FILE LINE: rewrite FILE with LINE inserted before its last
# line (the end line of a text view that has one); print OK or the errno name
errno_insert() {
	errno_of "t = open('$1').read().split('\n'); t.insert(len(t) - 2 if t[-1] == '' else len(t) - 1, '''$2'''); f = open('$1', 'w'); f.write('\n'.join(t)); f.close()"
}
