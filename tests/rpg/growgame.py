"""growgame.py OUT [HEROES]: tests/rpgtool.py's records game with the lumps
its new records touch (SAY, TMN, DT6 beside ATTACK.BIN, STT: global strings 0-8) and GEN's last-record
fields telling the truth; HEROES: that many heroes in DT0 (the engine's limit
tests).  Also importable: gen(path, field), lump(path, name)."""
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
import rpgtool as t  # noqa: E402

GEN_LAST = {82: 0, 35: 0, 36: 0, 34: 1, 37: 0, 97: 0, 55: 0, 80: 0, 81: 0, 39: 1, 56: 2}


def lump(path, name):
    return dict(t.read_lumps(path))[name]


def gen(path, field):
    return struct.unpack('<h', lump(path, 'GAMEFS.GEN')[7 + 2 * field:9 + 2 * field])[0]


def main(out, heroes=1):
    t.records_game(out)
    lumps = t.read_lumps(out)
    g = bytearray(dict(lumps)['GAMEFS.GEN'])
    for f, v in GEN_LAST.items():
        g[7 + 2 * f:9 + 2 * f] = struct.pack('<h', v)
    if heroes > 1:
        g[7 + 70:9 + 70] = struct.pack('<h', heroes - 1)
    say = t.say_rec([b'First box'], [b'', b''], 400) + t.say_rec([b'Second box', b'line 2'], [b'Yes', b'No'], 400)
    tmn = b''.join(t.bad_binstring(n, 20, 0) for n in (b'', b'', b'Gate open'))
    dt6 = b''.join(bytes(48) + struct.pack('<hh', len(n), 0) + b''.join(struct.pack('<h', c) for c in n.ljust(10, b'\0'))
                   + bytes(80 - 72) for n in (b'Punch', b'Fire'))
    new = []
    for name, body in lumps:
        if name == 'GAMEFS.GEN':
            body = bytes(g)
        if name == 'GAMEFS.DT0' and heroes > 1:
            body = body * heroes
        new.append((name, body))
    stt = b''.join((bytes([len(n)]) + n).ljust(11, b'\0') for n in (b'HP', b'MP', b'Str', b'Acc', b'Def', b'Dog',
                                                                     b'Mag', b'Wil', b'Spd'))
    new += [('GAMEFS.SAY', say), ('GAMEFS.TMN', tmn), ('GAMEFS.DT6', dt6), ('GAMEFS.STT', stt)]
    with open(out, 'wb') as f:
        for name, body in new:
            f.write(t.lump_bytes(name, body))


if __name__ == '__main__':
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 1)
