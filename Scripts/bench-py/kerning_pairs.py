"""fontTools baseline for flattening kerning: decompile GPOS and walk the kern feature's pair
lookups with the rules Face:kerningPairs uses (per lookup and first glyph, glyph pairs until a
class subtable covers it; class 0 of the second glyph not expanded; lookups add up).
Usage: python3 kerning_pairs.py FONT [FACE] [--time]  → prints the pair count and a checksum;
with --time, also the seconds spent opening, decompiling and walking (imports left out) on stderr."""
import sys, time
from fontTools.ttLib import TTFont

timed = "--time" in sys.argv
args = [a for a in sys.argv[1:] if a != "--time"]
start = time.perf_counter()
font = TTFont(args[0], fontNumber=int(args[1]) if len(args) > 1 else 0, lazy=True)
gpos = font["GPOS"].table
order = {name: i for i, name in enumerate(font.getGlyphOrder())}
wanted = sorted({i for rec in gpos.FeatureList.FeatureRecord if rec.FeatureTag == "kern" for i in rec.Feature.LookupListIndex})
total = {}
for index in wanted:
    lookup = gpos.LookupList.Lookup[index]
    pairs, closed = {}, set()
    for st in lookup.SubTable:
        if lookup.LookupType == 9:
            st = st.ExtSubTable
        if not hasattr(st, "PairSet") and not hasattr(st, "Class1Record"):
            continue   # not a pair subtable
        lefts = st.Coverage.glyphs
        if st.Format == 1:
            for left, pairset in zip(lefts, st.PairSet):
                if left in closed:
                    continue
                row = pairs.setdefault(left, {})
                for rec in pairset.PairValueRecord:
                    if rec.SecondGlyph not in row:
                        row[rec.SecondGlyph] = getattr(rec.Value1, "XAdvance", 0) or 0
        else:
            by_class = {}
            for g, c in st.ClassDef2.classDefs.items():
                by_class.setdefault(c, []).append(g)
            for left in lefts:
                if left in closed:
                    continue
                closed.add(left)
                c1 = st.ClassDef1.classDefs.get(left, 0)
                row = pairs.setdefault(left, {})
                for c2, cell in enumerate(st.Class1Record[c1].Class2Record):
                    v = getattr(cell.Value1, "XAdvance", 0) or 0 if cell.Value1 else 0
                    if c2 == 0 or v == 0:
                        continue
                    for right in by_class.get(c2, []):
                        row.setdefault(right, v)
    for left, row in pairs.items():
        t = total.setdefault(left, {})
        for right, v in row.items():
            t[right] = t.get(right, 0) + v
flat = [(order[l], order[r], v) for l, row in total.items() for r, v in row.items() if v]
if timed:
    print("%.6f" % (time.perf_counter() - start), file=sys.stderr)
print(len(flat), sum((l * 65536 + r) * v for l, r, v in flat) % 1000000007)
