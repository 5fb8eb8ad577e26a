#!/usr/bin/env python3
"""Hostile inputs of issue 28 (linear bounds), written with no gamefs code.

  hostile.py reld-names N OUT       a RELOAD document whose root has N children,
                                    each under a name of its own
  hostile.py reld-text N OUT        the same as document.txt text (names listed)
  hostile.py pcpu PID                the CPU seconds (user+system) process PID has used
  hostile.py pmem PID                the peak resident memory of process PID in KiB (VmHWM)
  hostile.py tmx-attrs K IN OUT     the TMX IN with an <editorsettings> of K elements of
                                    256 attributes each (Tiled keeps what it does not know)
  hostile.py tmx-kids K IN OUT      the TMX IN with an <editorsettings> of K empty elements,
                                    one a line
  hostile.py png-bomb W H MIB OUT    an 8-bit RGBA PNG declaring W x H pixels whose IDAT
                                    inflates to MIB MiB of zeros
  hostile.py tmx-tiles GID IN OUT   the TMX IN with its first CSV layer as <tile gid=".."/>
                                    elements, the first of them gid="GID" ("-": no gid)
  hostile.py cpu CMD...             run CMD (stdout to /dev/null), print its user+system
                                    CPU seconds; exit status of CMD kept in the 2nd field

RELOAD facts (ohrrpgce-lumps.md section 1): "RELD", version 1, int32 header
size 13, int32 string table offset; nodes in pre-order: int32 content size,
VLI name index, type (0 null), VLI child count; then the table: VLI count,
(VLI length, bytes) each.
"""
import os
import resource
import struct
import subprocess
import sys
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rpgtool import vli  # noqa: E402  (the RELOAD VLI, written once)


def reld_names(n):
    names = [b'n%d' % i for i in range(n)]
    kids = b''
    for i in range(n):
        body = vli(i + 2) + b'\0' + vli(0)
        kids += struct.pack('<I', len(body)) + body
    body = vli(1) + b'\0' + vli(n) + kids
    root = struct.pack('<I', len(body)) + body
    table = vli(n + 1) + vli(4) + b'root' + b''.join(vli(len(x)) + x for x in names)
    return b'RELD\x01' + struct.pack('<II', 13, 13 + len(root)) + root + table


def reld_text(n):
    out = ['RELOAD 1', 'names', '  1 root']
    out += ['  %d n%d' % (i + 2, i) for i in range(n)]
    out += ['tree', 'root'] + ['  n%d' % i for i in range(n)] + ['end']
    return '\n'.join(out) + '\n'


def cpu(cmd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with open(os.devnull, 'wb') as null:
        rc = subprocess.call(cmd, stdout=null)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    used = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    print('%.3f %d' % (used, rc))


def pcpu(pid):
    f = open('/proc/%d/stat' % pid).read()
    f = f[f.rindex(')') + 2:].split()
    print('%.3f' % ((int(f[11]) + int(f[12])) / os.sysconf('SC_CLK_TCK')))


def pmem(pid):
    for line in open('/proc/%d/status' % pid):
        if line.startswith('VmHWM:'):
            print(line.split()[1])


def tmx_attrs(k, src, dst):
    el = '  <x' + ''.join(' a%d=""' % i for i in range(256)) + '/>\n'
    d = open(src).read()
    at = d.index('>', d.index('<map ')) + 1
    open(dst, 'w').write(d[:at] + '\n <editorsettings>\n' + el * k + ' </editorsettings>' + d[at:])


def tmx_kids(k, src, dst):
    d = open(src).read()
    at = d.index('>', d.index('<map ')) + 1
    open(dst, 'w').write(d[:at] + '\n <editorsettings>\n' + '  <x/>\n' * k + ' </editorsettings>' + d[at:])


def png_chunk(kind, data):
    return struct.pack('>I', len(data)) + kind + data + struct.pack('>I', zlib.crc32(kind + data))


def png_bomb(w, h, mib, out):
    z = zlib.compressobj(9)
    zero = bytes(1 << 20)
    idat = b''.join(z.compress(zero) for _ in range(mib)) + z.flush()
    open(out, 'wb').write(b'\x89PNG\r\n\x1a\n' + png_chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 6, 0, 0, 0)) +
                          png_chunk(b'IDAT', idat) + png_chunk(b'IEND', b''))


def tmx_tiles(gid, src, dst):
    d = open(src).read()
    a = d.index('<data encoding="csv">')
    b = d.index('</data>', a)
    gids = [g.strip() for g in d[a + len('<data encoding="csv">'):b].split(',')]
    tiles = ['<tile/>' if gid == '-' else '<tile gid="%s"/>' % gid]
    tiles += ['<tile gid="%s"/>' % g for g in gids[1:]]
    open(dst, 'w').write(d[:a] + '<data>\n   ' + '\n   '.join(tiles) + '\n  ' + d[b:])


def main(argv):
    cmd = argv[1] if len(argv) > 1 else ''
    if cmd == 'reld-names':
        open(argv[3], 'wb').write(reld_names(int(argv[2])))
    elif cmd == 'reld-text':
        open(argv[3], 'w').write(reld_text(int(argv[2])))
    elif cmd == 'pcpu':
        pcpu(int(argv[2]))
    elif cmd == 'pmem':
        pmem(int(argv[2]))
    elif cmd == 'tmx-attrs':
        tmx_attrs(int(argv[2]), argv[3], argv[4])
    elif cmd == 'tmx-kids':
        tmx_kids(int(argv[2]), argv[3], argv[4])
    elif cmd == 'png-bomb':
        png_bomb(int(argv[2]), int(argv[3]), int(argv[4]), argv[5])
    elif cmd == 'tmx-tiles':
        tmx_tiles(argv[2], argv[3], argv[4])
    elif cmd == 'cpu':
        cpu(argv[2:])
    else:
        raise SystemExit(__doc__)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
