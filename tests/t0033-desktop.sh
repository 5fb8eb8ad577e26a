#!/bin/sh
# The desktop as a GNOME user meets it: `make install` into a temporary
# prefix, then with that prefix in XDG_DATA_DIRS: GIO gives each game its
# own type (and a .sav stays SPSS's unless its content says otherwise),
# "Open With" offers gamefs for every type, the installed thumbnailer's Exec
# line makes a thumbnail inside the sandbox GNOME gives it (bwrap: /usr and
# the renamed file only), and `gamefs open` in a real nautilus under Xvfb
# mounts the game where the sidebar lists it (gio mount -l) and shows it in
# a window named after it; `gamefs close` unmounts and removes the mount
# point, and reports a last commit that failed.  GAMEFS_SCREENSHOT=FILE.png
# keeps a screenshot of the nautilus window.
. "$top_srcdir/tests/lib.sh"
for t in nautilus Xvfb dbus-run-session gio xwininfo update-mime-database update-desktop-database; do
	command -v $t >/dev/null 2>&1 || { echo "SKIP: $t absent"; exit 77; }
done
C=$top_srcdir/../shared/corpus
[ -f "$C/zzt/TOWN30.ZZT" ] && [ -f "$C/tng/demo1.tng" ] || { echo "SKIP: corpus absent"; exit 77; }
bad=0
# without a desktop, xdg-mime asks mimetype(1) (libfile-mimeinfo-perl), else file(1), which knows no shared MIME data
command -v mimetype >/dev/null 2>&1 && MIMETYPE_OK=generic
ok() { echo "ok: $*"; }
notok() { echo "not ok: $*"; bad=$((bad + 1)); }

P=$T/usr
make -C "$top_builddir" install prefix="$P" >"$T/install.log" 2>&1 || { cat "$T/install.log"; fail "make install"; }
for f in bin/gamefs share/mime/packages/gamefs.xml share/thumbnailers/gamefs.thumbnailer \
	 share/applications/gamefs.desktop share/man/man1/gamefs.1; do
	[ -f "$P/$f" ] || fail "make install left out $f"
done
[ -f "$P/share/mime/mime.cache" ] || fail "make install did not update the MIME database"
export HOME="$T/home" XDG_DATA_DIRS="$P/share:/usr/share" XDG_DATA_HOME="$T/home/.local/share" \
	XDG_CONFIG_HOME="$T/home/.config" XDG_CACHE_HOME="$T/home/.cache" XDG_RUNTIME_DIR="$T/run"
mkdir -p "$HOME" && mkdir -m 700 "$XDG_RUNTIME_DIR"

# the games, under names of their own (the mount point is named after the file)
G=$T/games
mkdir "$G"
cp "$C/zzt/TOWN30.ZZT" "$G/town$$.zzt"
cp "$C/tng/demo1.tng" "$G/demo1.tng"
cp "$C/zzt/TOWN30.ZZT" "$G/noext"
for s in tngsave/demo1.sav zzt/almost-of-zzt_SAVED.SAV rpg/npc_tag.rpg rpg/pstutor_2000.rpg \
	 rsav/reload_general.reld lay/MAY_QSE_.lay; do
	[ -f "$C/$s" ] && cp "$C/$s" "$G/"
done
printf '$FL2@(#) SPSS DATA FILE' >"$G/spss.sav"
chmod u+w "$G"/*

# 1. each file's type as GIO (nautilus) sees it
while read -r f want; do
	[ -f "$G/$f" ] || continue
	got=$(gio info -a standard::content-type "$G/$f" | sed -n 's/.*standard::content-type: //p')
	[ "$got" = "$want" ] && ok "$f is $got" || notok "$f: type $got, want $want"
done <<EOF
town$$.zzt application/x-zzt-world
noext application/x-zzt-world
demo1.tng application/x-tirnanog
demo1.sav application/x-tirnanog-save
almost-of-zzt_SAVED.SAV application/x-zzt-save
npc_tag.rpg application/x-ohrrpgce-game
pstutor_2000.rpg application/x-ohrrpgce-game
reload_general.reld application/x-ohrrpgce-reload
MAY_QSE_.lay application/x-mages-lay
spss.sav application/x-spss-sav
EOF

# xdg-mime, as scripts ask: under GNOME it asks gio, elsewhere mimetype(1)
for f in town$$.zzt demo1.sav; do
	[ -f "$G/$f" ] || continue
	want=$(gio info -a standard::content-type "$G/$f" | sed -n 's/.*standard::content-type: //p')
	for de in GNOME ${MIMETYPE_OK:-}; do
		got=$(XDG_CURRENT_DESKTOP=$de xdg-mime query filetype "$G/$f" 2>/dev/null)
		[ "$got" = "$want" ] && ok "xdg-mime ($de) says $f is $got" || notok "xdg-mime ($de): $f is [$got], want $want"
	done
done

# 2. "Open With": gamefs for every type its desktop entry names
types=$(sed -n 's/^MimeType=//p' "$P/share/applications/gamefs.desktop" | tr ';' ' ')
[ -n "$types" ] || notok "the desktop entry names no MIME type"
for t in $types; do
	gio mime "$t" | grep -q "gamefs.desktop" && ok "Open With $t offers gamefs" || notok "gio mime $t: $(gio mime "$t")"
	# a double-click runs the default application
	gio mime "$t" | head -n 1 | grep -q "gamefs.desktop" && ok "a double-click on $t opens it with gamefs" ||
		notok "default for $t: $(gio mime "$t" | head -n 1)"
done

# 3. the thumbnailer, run as GNOME runs it: %i %o %s of its Exec line, in
#    a sandbox holding the binary's prefix and the file alone, renamed
exec_line=$(sed -n 's/^Exec=//p' "$P/share/thumbnailers/gamefs.thumbnailer")
sandbox=""
if command -v bwrap >/dev/null 2>&1 && bwrap --ro-bind / / true 2>/dev/null; then
	sandbox="bwrap --ro-bind /usr /usr --symlink usr/lib /lib --symlink usr/lib64 /lib64 --symlink usr/bin /bin \
		--ro-bind-try /etc/ld.so.cache /etc/ld.so.cache --proc /proc --dev /dev --unshare-all --die-with-parent"
fi
for f in town$$.zzt demo1.tng demo1.sav npc_tag.rpg; do
	[ -f "$G/$f" ] || continue
	box=$T/box-$f
	mkdir "$box"
	in=/tmp/gnome-desktop-file-to-thumbnail.${f##*.} out=/tmp/gnome-desktop-thumbnailer.png
	if [ -z "$sandbox" ]; then
		in=$box/${in#/tmp/} out=$box/${out#/tmp/}
		cp "$G/$f" "$in"
	fi
	cmd=$(printf '%s\n' "$exec_line" | sed "s|%i|$in|; s|%o|$out|; s|%s|128|")
	if [ -n "$sandbox" ]; then
		$sandbox --bind "$box" /tmp --ro-bind "$P" "$P" --ro-bind "$G/$f" "$in" $cmd 2>"$T/err"
	else
		$cmd 2>"$T/err"
	fi
	dims=$(python3 -c 'import struct,sys; d=open(sys.argv[1],"rb").read(24); print(*struct.unpack(">II", d[16:24])) if d[:8]==b"\x89PNG\r\n\x1a\n" else print("none")' \
		"$box/gnome-desktop-thumbnailer.png" 2>/dev/null)
	case "$dims" in
	"128 "*|*" 128") ok "thumbnail of $f${sandbox:+ (sandboxed)}: $dims" ;;
	*) notok "thumbnail of $f: [$dims] $(cat "$T/err")" ;;
	esac
done

# 4. open in nautilus, see it mounted in the sidebar's list and in a window
if [ "$(id -u)" = 0 ]; then mnt=/run/media/root/town$$.zzt; else mnt=$HOME/gamefs/town$$.zzt; fi
GFS_MOUNTS="$GFS_MOUNTS $mnt"
# the X server first: nautilus, started by D-Bus, gets the bus's environment
Xvfb -displayfd 5 -screen 0 1024x640x24 -nolisten tcp 5>"$T/display" 2>"$T/xvfb.log" &
GFS_PIDS="$GFS_PIDS $!"
i=0; while [ ! -s "$T/display" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
[ -s "$T/display" ] || fail "Xvfb did not start: $(cat "$T/xvfb.log")"
cat >"$T/session.sh" <<EOF
set -u
"$P/bin/gamefs" open "$G/town$$.zzt" >"$T/open.out" 2>&1; echo \$? >"$T/open.rc"
i=0; while ! xwininfo -root -tree 2>/dev/null | grep -q '"town$$.zzt"' && [ \$i -lt 300 ]; do sleep 0.1; i=\$((i + 1)); done
xwininfo -root -tree >"$T/windows" 2>&1
gio mount -l >"$T/mounts" 2>&1
[ -n "\${GAMEFS_SCREENSHOT:-}" ] && sleep 2 && xwd -root -silent | convert xwd:- "\$GAMEFS_SCREENSHOT"
"$P/bin/gamefs" close "$mnt" >"$T/close.out" 2>&1; echo \$? >"$T/close.rc"
gio mount -l >"$T/mounts-after" 2>&1
nautilus -q >/dev/null 2>&1
EOF
# Without GVfs's daemon (local VFS only): the sidebar's mounts come from
# GLib's own unix volume monitor, and gvfsd's FUSE side can hang here.
DISPLAY=:$(cat "$T/display") GIO_USE_VFS=local GDK_BACKEND=x11 GSK_RENDERER=cairo GDK_DEBUG=gl-disable GTK_A11Y=none NO_AT_BRIDGE=1 \
	timeout 90 dbus-run-session -- sh "$T/session.sh" >"$T/session.log" 2>&1
check_eq 0 "$(cat "$T/open.rc" 2>/dev/null)" "gamefs open: $(cat "$T/open.out" 2>/dev/null)"
grep -qx "$mnt" "$T/open.out" && ok "gamefs open mounted at $mnt" || notok "gamefs open said: $(cat "$T/open.out")"
grep -q "\"town$$.zzt\": (\"org.gnome.Nautilus\"" "$T/windows" && ok "nautilus shows town$$.zzt in a window" ||
	notok "no nautilus window for town$$.zzt: $(grep '"' "$T/windows")"
grep -q "Mount([0-9]*): town$$.zzt -> file://$mnt" "$T/mounts" && ok "gio mount -l lists it (the sidebar's mounts)" ||
	notok "gio mount -l: $(cat "$T/mounts")"
check_eq 0 "$(cat "$T/close.rc" 2>/dev/null)" "gamefs close: $(cat "$T/close.out" 2>/dev/null)"
grep -q "town$$.zzt" "$T/mounts-after" && notok "still listed after close"
[ -e "$mnt" ] && notok "close left the mount point $mnt" || ok "close removed the mount point"

# 5. close waits for the last commit and reports its failure: an edit
#    pending (commit=unmount) when another program rewrote the archive
GAMEFS_NO_OPEN=1 "$P/bin/gamefs" open -o commit=unmount "$G/town$$.zzt" >"$T/open2.out" 2>&1 ||
	fail "open -o commit=unmount: $(cat "$T/open2.out")"
sed -i 's/^name = .*/name = Edited/' "$mnt/boards/01-room-one/board.ini" || fail "edit in the mount"
cp "$C/zzt/TOWN30.ZZT" "$G/other" && printf 'x' | dd of="$G/other" bs=1 seek=20000 conv=notrunc 2>/dev/null
mv "$G/other" "$G/town$$.zzt"
sum=$(cksum <"$G/town$$.zzt")
"$P/bin/gamefs" close "$mnt" >"$T/close2.out" 2>&1
check_eq 1 $? "close after a refused last commit (exit): $(cat "$T/close2.out")"
grep -q "exited with status" "$T/close2.out" && ok "close reports the failed commit: $(tail -n 1 "$T/close2.out")" ||
	notok "close said: $(cat "$T/close2.out")"
check_eq "$sum" "$(cksum <"$G/town$$.zzt")" "the other program's archive stays"
[ -e "$mnt" ] && notok "close left the mount point after a failure"
[ $bad -eq 0 ] || fail "$bad checks failed"
echo ok
