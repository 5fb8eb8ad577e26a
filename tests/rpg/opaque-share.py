#!/usr/bin/env python3
"""Share of an OHRRPGCE game that no ordinary tool can open, before and after.

  opaque-share.py [-v] GAMEFS GAME.rpg...   (-v: name the opaque lumps left)

Before (the flat tree of lumps): a lump is opaque unless it is printable
text (ASCII 0x20-0x7e, tab, CR, LF).  After: an opaque lump that gamefs
decodes (`gamefs check` names the lumps with no decoded view on its "raw only:"
line) is readable through its views; the rest is only reachable raw in
lumps/.  Prints files and bytes per game.
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
import rpgtool  # noqa: E402


def printable(b):
    return all(c in (9, 10, 13) or 0x20 <= c < 0x7f for c in b)


def main(argv):
    verbose = len(argv) > 1 and argv[1] == '-v'
    if verbose:
        argv = argv[:1] + argv[2:]
    gamefs = argv[1]
    print('%-24s %6s %12s %12s %12s %12s' % ('game', 'lumps', 'files before', 'bytes before',
                                             'files after', 'bytes after'))
    for path in argv[2:]:
        lumps = rpgtool.read_lumps(path)
        total = sum(len(b) for _, b in lumps) or 1
        opaque = [(n, b) for n, b in lumps if not printable(b)]
        ob = sum(len(b) for _, b in opaque)
        out = subprocess.run([gamefs, 'check', path], capture_output=True, text=True).stdout
        m = re.search(r'^raw only:(.*)$', out, re.M)
        raw = set(m.group(1).split()) if m else set()
        left = [(n, b) for n, b in opaque if n in raw]
        print('%-24s %6d %11.1f%% %11.1f%% %11.1f%% %11.1f%%' % (
            os.path.basename(path), len(lumps), 100.0 * len(opaque) / len(lumps), 100.0 * ob / total,
            100.0 * len(left) / len(lumps), 100.0 * sum(len(b) for _, b in left) / total))
        if verbose:
            print('  opaque, raw only: ' + ' '.join('%s (%d)' % (n, len(b)) for n, b in left))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
