import sys, re
src, dst, name, copyfrom = sys.argv[1:5]
s = open(src).read()
lay = re.findall(r' <layer [^>]*name="([^"]*)"', s)
m = re.search(r' <layer id="\d+" name="%s".*?</layer>\n' % re.escape(copyfrom), s, re.S)
blk = m.group(0)
nid = int(re.search(r'nextlayerid="(\d+)"', s).group(1))
blk = re.sub(r'id="\d+" name="[^"]*"', 'id="%d" name="%s"' % (nid, name), blk, 1)
s = s.replace('nextlayerid="%d"' % nid, 'nextlayerid="%d"' % (nid + 1))
# after the last tile layer tiles-N (before walls) as Tiled adds it above the one selected
last = [l for l in lay if l.startswith('tiles-')][-1]
e = re.search(r' <layer id="\d+" name="%s".*?</layer>\n' % last, s, re.S).end()
open(dst, 'w').write(s[:e] + blk + s[e:])
