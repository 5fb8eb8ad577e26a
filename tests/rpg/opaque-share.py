#!/usr/bin/env python3
"""Share of an OHRRPGCE game that no ordinary tool can open, before and after.

  opaque-share.py [-v] GAMEFS GAME.rpg...   (-v: name the opaque lumps left)
  opaque-share.py --tree [-v] GAMEFS GAME.rpg...

--tree measures the mounted tree instead: the share of the files outside
lumps/ (files and bytes) that are neither text (UTF-8, or Windows-1252
as old HamsterSpeak sources are, without control characters but tab, CR, LF) nor
PNG; -v names them.

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


def readable(b):
    if b.startswith(b'\x89PNG\r\n\x1a\n'):
        return True
    try:
        t = b.decode('utf-8')
    except UnicodeDecodeError:
        try:
            t = b.decode('cp1252')
        except UnicodeDecodeError:
            return False
    return all(c in '\t\r\n' or (ord(c) >= 0x20 and not 0x7f <= ord(c) < 0xa0) for c in t)


def tree(gamefs, paths, verbose):
    import tempfile
    import time
    print('%-24s %6s %12s %12s' % ('game', 'files', 'opaque files', 'opaque bytes'))
    for path in paths:
        mnt = tempfile.mkdtemp(prefix='opaque-share-')
        p = subprocess.Popen([gamefs, '-f', '-o', 'ro', path, mnt], stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
        try:
            for _ in range(400):
                if os.path.ismount(mnt) or p.poll() is not None:
                    break
                time.sleep(0.05)
            files, opaque, total, ob = 0, [], 0, 0
            for root, dirs, names in os.walk(mnt):
                if root == mnt and 'lumps' in dirs:
                    dirs.remove('lumps')
                for n in names:
                    f = os.path.join(root, n)
                    if root == mnt and n == '.gamefs.log':
                        continue
                    b = open(f, 'rb').read()
                    files += 1
                    total += len(b)
                    if not readable(b):
                        opaque.append(os.path.relpath(f, mnt))
                        ob += len(b)
        finally:
            subprocess.run(['fusermount', '-u', mnt], stderr=subprocess.DEVNULL)
            p.wait()
            os.rmdir(mnt)
        print('%-24s %6d %11.1f%% %11.1f%%' % (os.path.basename(path), files, 100.0 * len(opaque) / (files or 1),
                                               100.0 * ob / (total or 1)))
        if verbose and opaque:
            print('  opaque: ' + ' '.join(opaque[:40]) + (' ...' if len(opaque) > 40 else ''))
    return 0


def main(argv):
    if len(argv) > 1 and argv[1] == '--tree':
        verbose = len(argv) > 2 and argv[2] == '-v'
        rest = argv[3:] if verbose else argv[2:]
        return tree(rest[0], rest[1:], verbose)
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
