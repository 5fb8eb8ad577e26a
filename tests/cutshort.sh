# tests/cutshort.sh - sourced by the cut-short tests: cut_short VIEW ARCHIVE WHAT
# writes the mounted text view VIEW back cut at several points (whole lines,
# mid-line, and by a writer SIGKILLed half way) and checks that each is
# refused with EINVAL ("looks cut short" in the log) and ARCHIVE unchanged;
# the view without only its final newline, and the view as it is, are taken.
cut_short() {
	view=$1 arch=$2 what=$3
	cat "$view" >"$T/full" || fail "$what: read $view"
	cp "$arch" "$T/before"
	n=$(wc -l <"$T/full") size=$(stat -c %s "$T/full")
	[ "$n" -ge 3 ] || fail "$what: $view has $n lines"
	for k in 1 $((n / 3)) $((n / 2)) $((n - 1)); do
		head -n "$k" "$T/full" >"$T/cut"
		check_eq EINVAL "$(errno_of "import shutil; shutil.copyfile('$T/cut', '$view')")" "$what: the first $k of $n lines"
		tail -n 1 "$T/gamefs.log" | grep -q 'looks cut short' || fail "$what: the first $k lines: $(tail -n 1 "$T/gamefs.log")"
	done
	for p in 10 37 50 90; do
		head -c $((size * p / 100)) "$T/full" >"$T/cut"
		check_eq EINVAL "$(errno_of "import shutil; shutil.copyfile('$T/cut', '$view')")" "$what: $p% of the bytes"
		tail -n 1 "$T/gamefs.log" | grep -q 'looks cut short' || fail "$what: $p% of the bytes: $(tail -n 1 "$T/gamefs.log")"
	done
	lines=$(wc -l <"$T/gamefs.log")
	# a writer killed half way: the kernel closes the file for it
	python3 - "$view" "$T/full" <<'PY'
import os, signal, sys
data = open(sys.argv[2], 'rb').read()
fd = os.open(sys.argv[1], os.O_WRONLY | os.O_TRUNC)
os.write(fd, data[:len(data) // 2])
os.kill(os.getpid(), signal.SIGKILL)
PY
	i=0
	while [ "$(wc -l <"$T/gamefs.log")" = "$lines" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	tail -n 1 "$T/gamefs.log" | grep -q 'looks cut short' || fail "$what: the killed writer: $(tail -n 1 "$T/gamefs.log")"
	cmp "$view" "$T/full" || fail "$what: $view does not read its last good content"
	cmp "$arch" "$T/before" || fail "$what: a cut-short text changed $arch"
	head -c $((size - 1)) "$T/full" >"$T/cut"
	cp "$T/cut" "$view" || fail "$what: the text without its final newline"
	cp "$T/full" "$view" || fail "$what: the text as it was"
	cmp "$arch" "$T/before" || fail "$what: the complete text changed $arch"
}
