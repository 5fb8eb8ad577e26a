#!/usr/bin/env python3
"""Compiled HamsterSpeak written from the documented layout (OHRRPGCE
scripting.bas / hspeak.exw, ../shared/specs/ohrrpgce-lumps.md section 6),
independent of gamefs's C code, for the decompiler's tests and fuzz seeds.

  hszlib.py game OUT.rpg            the test game (every node kind)
  hszlib.py hostile OUT.rpg         the same game with damaged scripts
  hszlib.py seeds DIR               small games for fuzz/corpus/rpg

A node is a tuple: ('num', v), ('global', id), ('local', id), ('nonlocal', id)
or (kind, id, [args]) with kind 'flow', 'math', 'cmd', 'call'.
"""
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
import rpgtool  # noqa: E402

KIND = {'num': 1, 'flow': 2, 'global': 3, 'local': 4, 'math': 5, 'cmd': 6, 'call': 7, 'nonlocal': 8}
FLOW = {'do': 0, 'return': 3, 'if': 4, 'then': 5, 'else': 6, 'for': 7, 'while': 10, 'break': 11,
        'continue': 12, 'exitscript': 13, 'exitreturning': 14, 'switch': 15}
MATH = ['random', 'exponent', 'modulus', 'divide', 'multiply', 'subtract', 'add', 'xor', 'or', 'and',
        'equal', 'notequal', 'lessthan', 'greaterthan', 'lessthanorequalto', 'greaterthanorequalto',
        'setvariable', 'increment', 'decrement', 'not', 'logand', 'logor', 'logxor', 'abs', 'sign', 'sqrt']


def num(v):
    return ('num', v)


def flow(name, *args):
    return ('flow', FLOW[name], list(args))


def math(name, *args):
    return ('math', MATH.index(name), list(args))


def cmd(i, *args):
    return ('cmd', i, list(args))


def encode(root):
    """The code words of the tree root (root at word 0)"""
    words = []

    def put(n):
        at = len(words)
        if len(n) == 2:
            words.extend([KIND[n[0]], n[1]])
            return at
        args = n[2]
        words.extend([KIND[n[0]], n[1], len(args)] + [0] * len(args))
        for i, a in enumerate(args):
            words[at + 3 + i] = put(a)
        return at
    put(root)
    return words


def str32(s):
    b = struct.pack('<i', len(s)) + s
    return b + b'\0' * (-len(s) % 4)


def hsz(root, nvars=0, nargs=0, strings=(), varnames=None, parent=0, nonlocals=0, words=None):
    """A format-3 .HSZ with the 32-byte header (string table, variable names)"""
    code = b''.join(struct.pack('<i', w) for w in (words if words is not None else encode(root)))
    table = b''.join(str32(s) for s in strings)
    hl = 32
    st = hl + len(code) if strings else 0
    names = b''.join(str32(s) for s in varnames) if varnames else b''
    vn = (len(code) + len(table)) // 4 if varnames else 0
    head = struct.pack('<4h', hl, nvars, nargs, 3) + struct.pack('<i', st) + struct.pack('<3h', parent, 1, nonlocals)
    head += struct.pack('<i', len(table) // 4) + struct.pack('<h', 0) + struct.pack('<ii', vn, 0)
    assert len(head) == hl
    return head + code + table + names


def hsx(root, nvars):
    """A format-0 .HSX: a 4-byte header (length, variables) and 16-bit words"""
    return struct.pack('<2h', 4, nvars) + b''.join(struct.pack('<h', w) for w in encode(root))


def scripts_bin(recs):
    out = struct.pack('<2h', 4, 44)
    for sid, trig, name, parent in recs:
        out += struct.pack('<3h', sid, trig, len(name)) + name.ljust(36, b'\0') + struct.pack('<h', parent)
    return out


def scripts_txt(recs):
    out = b''
    for name, sid, defaults in recs:
        out += b'%s\r\n%d\r\n%d\r\n' % (name, sid, len(defaults)) + b''.join(b'%d\r\n' % d for d in defaults)
    return out


def commands_bin(names):
    """COMMANDS.BIN: header 6, format 0, records; an offset per id; argc, length, name"""
    n = max(names) + 1
    offs, body = [], b''
    base = 6 + 2 * n
    for i in range(n):
        if i in names:
            offs.append(base + len(body))
            body += struct.pack('<2h', 1, len(names[i])) + names[i]
        else:
            offs.append(0)
    return struct.pack('<3h', 6, 0, n) + b''.join(struct.pack('<h', o) for o in offs) + body


L0, L1, L2 = ('local', 0), ('local', 1), ('local', 2)


def main_script():
    """script 1: every node kind, every flow and math id, strings, names"""
    ops = ['exponent', 'modulus', 'divide', 'multiply', 'subtract', 'add', 'xor', 'or', 'and', 'equal',
           'notequal', 'lessthan', 'greaterthan', 'lessthanorequalto', 'greaterthanorequalto', 'logand',
           'logor', 'logxor']
    body = [
        math('setvariable', num(-3), math('add', L0, math('multiply', L1, num(3)))),
        cmd(251, num(1), num(0)),
        cmd(252, num(1), num(4)),
        flow('if', math('equal', ('global', 5), num(1)),
             flow('then', cmd(1, num(1))),
             flow('else', flow('if', math('lessthan', L2, num(0)),
                               flow('then', flow('exitreturning', num(7))),
                               flow('else', flow('return', num(0)))))),
        flow('if', ('global', 9), flow('then'), flow('else')),
        flow('while', math('not', ('global', 6)),
             flow('do', math('increment', num(6), num(2)), flow('break', num(1)), flow('continue', num(2)))),
        flow('for', num(-3), num(1), num(10), num(2), flow('do', ('call', 2, [num(4)]), ('call', 77, []))),
        flow('for', num(-1), num(0), num(5), num(1), flow('do')),
        flow('switch', L0, num(1), num(2), flow('do', cmd(3)), num(3), flow('do'), flow('do', flow('exitscript'))),
        flow('switch', L1, num(4), flow('do', math('decrement', num(5), num(1)))),
        cmd(2, math('random', num(1), num(6)), math('abs', num(-2)), math('sign', L1), math('sqrt', num(16))),
        cmd(466, num(0), L0, num(3), L1),
        cmd(9999),
        ('flow', 8, [num(1)]),
        ('math', 40, [num(1)]),
    ]
    for i, op in enumerate(ops):
        body.append(math('setvariable', num(-2), math(op, L0, num(i))))
    return flow('do', *body)


def good_lumps():
    sub = flow('do', math('setvariable', num(-1 - 256), ('nonlocal', 257)), flow('return', ('nonlocal', 256)))
    src = (rpgtool.lump_bytes('MAIN.HSS', b'global variable(5, gold found)  # a comment\r\n'
                              b'global variable, begin\n  6, door open # yes\n  7 , spare\nend\n'
                              b'# global variable(9, not this)\n') +
           rpgtool.lump_bytes('PLOTSCR.HSD', b'define function, begin\n1,wait,1,1\nend\n'))
    return [
        ('HS', b'HamsterSpeak\n3Ug\n1\n3U \n3\n727\n'),
        ('SCRIPTS.TXT', scripts_txt([(b'main', 1, [0, 0]), (b'helper', 2, [5]), (b'inner', 3, [])])),
        ('SCRIPTS.BIN', scripts_bin([(1, 1, b'main', 0), (2, 0, b'helper', 0), (3, 0, b'inner', 1)])),
        ('COMMANDS.BIN', commands_bin({1: b'pause', 2: b'put\xe9many'})),
        ('1.HSZ', hsz(main_script(), nvars=3, nargs=2, strings=[b'Hi "you"', b'\\and\x01\n'],
                      varnames=[b'hero x', b'hero y', b'count'])),
        ('2.HSX', hsx(flow('do', flow('return', math('add', L0, L1))), 2)),
        ('3.HSZ', hsz(sub, nvars=0, parent=1, nonlocals=2)),
        ('SOURCE.LUMPED', src),
    ]


def hostile_lumps():
    """each script damaged its own way; 10-19 by name"""
    good = hsz(main_script(), nvars=3, nargs=2, strings=[b'Hi'], varnames=[b'a', b'b', b'c'])
    w = encode(flow('do', cmd(1, num(1)), cmd(2, num(2))))
    lying = list(w)
    lying[4] = 99999                         # the second statement's offset
    cycle = [2, 0, 1, 0]                       # do() whose one argument is itself
    chain = []                                 # a DAG of 40 levels: 2^40 paths
    for i in range(40):
        chain += [5, 6, 2, len(chain) + 5, len(chain) + 5]
    chain += [1, 7]
    dag = [2, 0, 1, 4] + [c + 4 if k % 5 in (3, 4) else c for k, c in enumerate(chain)]
    huge = [2, 0, 0x7fffffff, 0]
    badstr = encode(flow('do', cmd(251, num(1), num(50)), cmd(251, num(1), num(-3))))
    return [
        ('SCRIPTS.BIN', scripts_bin([(i, 0, b'bad%d' % i, 0) for i in range(10, 22)])),
        ('10.HSZ', good[:len(good) // 2]),                       # truncated
        ('11.HSZ', hsz(None, words=lying)),                      # an offset past the end
        ('12.HSZ', hsz(None, words=cycle)),                      # a cycle
        ('13.HSZ', hsz(None, words=dag)),                        # exponential sharing
        ('14.HSZ', hsz(None, words=huge)),                       # a huge argument count
        ('15.HSZ', struct.pack('<h', -5) + b'\0' * 20),          # a negative header length
        ('16.HSZ', struct.pack('<4h', 400, 0, 0, 3) + b'\0' * 20),  # a header past the end
        ('17.HSZ', struct.pack('<4h', 8, 0, 0, 99) + b'\0' * 20),   # an unknown format
        ('18.HSZ', hsz(None, words=badstr, strings=[b'ok'])),    # string offsets past the table
        ('19.HSZ', hsz(None, words=[2, 0, 1, 4, 42, 0])),         # an unknown node kind
        ('20.HSZ', b'\x01'),                                     # one byte
        ('21.HSZ', hsz(None, words=[7, 0, 0])),                   # the root is no do()
    ]


def game(out, lumps):
    hsp = b''.join(rpgtool.lump_bytes(n, b) for n, b in lumps)
    with open(out, 'wb') as f:
        for n, b in (('ARCHINYM.LMP', b'gamefs\ntestgame\n'), ('GAMEFS.GEN', rpgtool.gen_lump(False)),
                     ('GAMEFS.HSP', hsp)):
            f.write(rpgtool.lump_bytes(n, b))


def main(argv):
    if argv[1] == 'game':
        game(argv[2], good_lumps())
    elif argv[1] == 'hostile':
        game(argv[2], hostile_lumps())
    elif argv[1] == 'seeds':
        import hashlib
        for lumps in (good_lumps(), hostile_lumps()):
            p = os.path.join(argv[2], 'tmp.rpg')
            game(p, lumps)
            data = open(p, 'rb').read()
            os.unlink(p)
            with open(os.path.join(argv[2], hashlib.sha1(data).hexdigest()), 'wb') as f:
                f.write(data)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
