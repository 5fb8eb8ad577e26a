#!/usr/bin/python3
# tests/fake-notify.py OUT: a tiny org.freedesktop.Notifications server on
# the session bus; each Notify call appends "SUMMARY<TAB>BODY" (newlines of
# the body as \n) to OUT, then answers after $FAKE_NOTIFY_DELAY seconds (a
# slow server).  Writes "ready" to OUT.ready once it owns the name.
import os, sys, time
from gi.repository import Gio, GLib

XML = """<node><interface name="org.freedesktop.Notifications">
<method name="Notify"><arg type="s" direction="in"/><arg type="u" direction="in"/>
<arg type="s" direction="in"/><arg type="s" direction="in"/><arg type="s" direction="in"/>
<arg type="as" direction="in"/><arg type="a{sv}" direction="in"/><arg type="i" direction="in"/>
<arg type="u" direction="out"/></method>
<method name="GetServerInformation"><arg type="s" direction="out"/><arg type="s" direction="out"/>
<arg type="s" direction="out"/><arg type="s" direction="out"/></method>
<method name="GetCapabilities"><arg type="as" direction="out"/></method>
</interface></node>"""
out = sys.argv[1]
count = [0]


def call(conn, sender, path, iface, method, params, inv):
    if method == "Notify":
        app, _, _, summary, body = params.unpack()[:5]
        with open(out, "a") as f:
            f.write("%s\t%s\t%s\n" % (app, summary, body.replace("\n", "\\n")))
        count[0] += 1
        time.sleep(float(os.environ.get("FAKE_NOTIFY_DELAY", "0")))
        inv.return_value(GLib.Variant("(u)", (count[0],)))
    elif method == "GetServerInformation":
        inv.return_value(GLib.Variant("(ssss)", ("fake", "gamefs-tests", "1", "1.2")))
    else:
        inv.return_value(GLib.Variant("(as)", (["body"],)))


def acquired(conn, name):
    open(out + ".ready", "w").write("ready\n")


def bus_up(conn, name):
    node = Gio.DBusNodeInfo.new_for_xml(XML)
    conn.register_object("/org/freedesktop/Notifications", node.interfaces[0], call, None, None)


Gio.bus_own_name(Gio.BusType.SESSION, "org.freedesktop.Notifications", Gio.BusNameOwnerFlags.NONE,
                 bus_up, acquired, lambda *a: sys.exit(1))
GLib.MainLoop().run()
