#!/bin/sh
# fuzz/run.sh BUILDDIR SECONDS [FMT...] - run the libFuzzer target for each
# format in turn (build with ./configure CC=clang --enable-fuzzing; no FMT:
# every format of the table, from `gamefs --formats`, the core's XML
# reader, xml, and its record layout codec, layout), starting from the
# seed corpus in fuzz/corpus/FMT and growing a working corpus in
# BUILDDIR/fuzz-work/FMT.  Crashers land in fuzz/crashers/FMT: keep them,
# they are replayed by make check.
set -u
here=$(cd "$(dirname "$0")" && pwd)
b=$1 secs=$2; shift 2
[ $# -gt 0 ] || set -- $("$b/gamefs" --formats | cut -f1) xml layout
for f in "$@"; do
	mkdir -p "$b/fuzz-work/$f" "$here/crashers/$f"
	cp -n "$here/corpus/$f"/* "$b/fuzz-work/$f/" 2>/dev/null
	dict=; [ -f "$here/$f.dict" ] && dict="-dict=$here/$f.dict"
	GAMEFS_FUZZ_FORMAT=$f "$b/fuzz/gamefs-fuzz" -max_total_time="$secs" -max_len=65536 -timeout=10 \
		-rss_limit_mb=2048 $dict -artifact_prefix="$here/crashers/$f/" -print_final_stats=1 \
		"$b/fuzz-work/$f" >"$b/fuzz-$f.log" 2>&1
	echo "$f: exit $?; $(grep -E 'stat::number_of_executed_units|cov:' "$b/fuzz-$f.log" | tail -n 2 | tr '\n' ' ')"
done
