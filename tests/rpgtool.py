#!/usr/bin/env python3
"""Independent OHRRPGCE lumped-file reader/writer for the tests.

Written from the format document (ohrrpgce-rpg-format.txt), not from
gamefs's C code:
  rpgtool.py list FILE              name<TAB>size<TAB>sha1 per lump, in order
  rpgtool.py get FILE NAME          one lump's bytes to stdout
  rpgtool.py make OUT NAME=TEXT|NAME=@PATH ...
  rpgtool.py gen OUT COUNT SIZE     COUNT lumps LUMPnnnnn.BIN of SIZE pseudo-random bytes
  rpgtool.py extract FILE DIR       every lump as DIR/NAME
"""
import hashlib
import os
import struct
import sys


def read_lumps(path):
    data = open(path, 'rb').read()
    pos, out = 0, []
    while pos < len(data):
        end = data.index(b'\0', pos)
        name = data[pos:end].decode('ascii')
        hi, lo = struct.unpack('<2H', data[end + 1:end + 5])
        size = lo | hi << 16
        body = data[end + 5:end + 5 + size]
        if len(body) != size:
            raise SystemExit('%s: lump %s truncated' % (path, name))
        out.append((name, body))
        pos = end + 5 + size
    return out


def lump_bytes(name, body):
    size = len(body)
    return name.encode('ascii') + b'\0' + struct.pack('<2H', size >> 16, size & 0xffff) + body


def main(argv):
    cmd = argv[1]
    if cmd == 'list':
        for name, body in read_lumps(argv[2]):
            print('%s\t%d\t%s' % (name, len(body), hashlib.sha1(body).hexdigest()))
    elif cmd == 'get':
        for name, body in read_lumps(argv[2]):
            if name == argv[3]:
                sys.stdout.buffer.write(body)
                return 0
        return 1
    elif cmd == 'make':
        with open(argv[2], 'wb') as f:
            for spec in argv[3:]:
                name, _, val = spec.partition('=')
                body = open(val[1:], 'rb').read() if val.startswith('@') else val.encode()
                f.write(lump_bytes(name, body))
    elif cmd == 'gen':
        count, size = int(argv[3]), int(argv[4])
        with open(argv[2], 'wb') as f:
            for i in range(count):
                seed = hashlib.sha256(b'%d' % i).digest()
                body = (seed * (size // len(seed) + 1))[:size]
                f.write(lump_bytes('LUMP%05d.BIN' % i, body))
    elif cmd == 'extract':
        os.makedirs(argv[3], exist_ok=True)
        for name, body in read_lumps(argv[2]):
            with open(os.path.join(argv[3], name), 'wb') as f:
                f.write(body)
    else:
        raise SystemExit(__doc__)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
