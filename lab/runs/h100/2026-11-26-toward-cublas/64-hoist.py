"""Experiment: move each ld.shared of a PTX file earlier, past D fma instructions, within its
straight-line segment (no labels, branches, barriers or shared stores crossed; never above the
definition of its address register)."""
import re, sys
src, D, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
lines = open(src).read().split('\n')
stop = re.compile(r'^\$|^\s*(bar\.|@?%?\w*\s*bra|st\.shared|ret|\}|\{)|^\s*@%p\d+\s+bra')
res = []
seg = []
def flush():
    global seg
    out_seg = []
    for l in seg:
        m = re.match(r'\s*ld\.shared\S*\s+\{[^}]*\},\s*\[(%rd\d+)', l)
        if not m:
            out_seg.append(l); continue
        base = m.group(1)
        pos = len(out_seg); n = 0
        while pos > 0:
            prev = out_seg[pos - 1]
            if re.match(r'\s*\S+\s+' + re.escape(base) + r',', prev): break
            if 'fma.rn' in prev:
                if n == D: break
                n += 1
            pos -= 1
        out_seg.insert(pos, l)
    res.extend(out_seg); seg = []
for l in lines:
    if stop.search(l):
        flush(); res.append(l)
    else:
        seg.append(l)
flush()
open(out, 'w').write('\n'.join(res))
