"""Summaries of Nsight Compute's source page (SASS with stall samples, --page source --csv) as
quoted in docs/PERFORMANCE.md (runs 65 and 67): the share of each stall reason in all samples, the
instruction mix, and for every LDS the distance in instructions to the first instruction that reads
what it loaded. usage: 65-analysis.py SOURCE.csv..."""
import collections, csv, re, sys


def summary(path):
    rows = list(csv.reader(open(path)))
    hdr, data = rows[1], rows[2:]
    ix = {h: i for i, h in enumerate(hdr)}

    def v(r, k):
        try:
            return float(r[ix[k]])
        except (KeyError, IndexError, ValueError):
            return 0.0

    stalls = collections.Counter()
    for r in data:
        for k in hdr:
            if k.startswith("stall_") and "(" not in k:
                stalls[k[6:]] += v(r, k)
    total = sum(stalls.values())
    print("==", path)
    print("stall samples: %d; shares: %s" % (total, ", ".join(
        "%s %.3f" % (k, c / total) for k, c in stalls.most_common(8))))
    mix = collections.Counter()
    for r in data:
        words = r[1].split()
        if not words:
            continue
        op = words[1] if words[0].startswith("@") and len(words) > 1 else words[0]
        mix[op.split(".")[0]] += v(r, "Instructions Executed")
    print("instructions executed: %d; %s" % (sum(mix.values()), ", ".join(
        "%s %d" % (o, c) for o, c in mix.most_common(10))))
    dist = []
    for i, r in enumerate(data):
        s = r[1].strip()
        m = re.match(r"(@\S+\s+)?LDS(\.\S+)?\s+R(\d+),", s)
        if not m or v(r, "Instructions Executed") == 0:
            continue
        w = 4 if ".128" in s else (2 if ".64" in s else 1)
        regs = {"R%d" % (int(m.group(3)) + k) for k in range(w)}
        for j in range(i + 1, min(len(data), i + 400)):
            t = data[j][1].strip()
            ops = re.findall(r"R\d+", t.split(" ", 1)[1] if " " in t else "")
            srcs = ops if t.startswith(("STS", "STG", "ST.")) else ops[1:]
            if regs & set(srcs):
                dist.append(j - i)
                break
            if regs & set(ops[:1]):
                break
    if dist:
        dist.sort()
        print("LDS to first use, instructions: %d loads, median %d, mean %.1f, %d within 16" % (
            len(dist), dist[len(dist) // 2], sum(dist) / len(dist), sum(d <= 16 for d in dist)))


for p in sys.argv[1:]:
    summary(p)
