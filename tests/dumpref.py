#!/usr/bin/env python3
"""dumpref.py LS DIR: what `gamefs dump` must print for a tree, from the
listing `gamefs ls` gave (tree order, modes) and the files `gamefs extract`
wrote to DIR, written from gamefs.1's description of dump, independently
of src/core/dump.c (hashlib's SHA-256, Python's UTF-8 decoder).  The first
line (format name) is not printed; compare from the second line on."""
import hashlib
import os
import sys


def is_text(b):
    if not b or any(c < 0x20 and c not in (9, 10, 13) for c in b):
        return False
    try:
        b.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def main(ls, root):
    out = sys.stdout.buffer
    entries = []
    for line in open(ls, encoding="utf-8", errors="surrogateescape"):
        mode, _size, path = line.rstrip("\n").split(None, 2)
        entries.append((mode, path))
    for i, (mode, path) in enumerate(entries):
        if mode.startswith("d"):
            nxt = entries[i + 1][1] if i + 1 < len(entries) else ""
            if not nxt.startswith(path):
                out.write(("=== %s (empty directory)\n" % path).encode("utf-8", "surrogateescape"))
            continue
        with open(os.path.join(root, path), "rb") as f:
            b = f.read()
        head = "=== " + path + ("" if "w" in mode else " (read-only)")
        if is_text(b):
            out.write(head.encode("utf-8", "surrogateescape") + b"\n" + b)
            if not b.endswith(b"\n"):
                out.write(b"\n\\ no newline at end of file\n")
        else:
            out.write(("%s: %s, %d bytes, sha256 %s\n" % (head, "binary" if b else "empty", len(b),
                                                          hashlib.sha256(b).hexdigest()))
                      .encode("utf-8", "surrogateescape"))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
