#!/usr/bin/env python3
"""Variable feature files made at random, compiled by fontshell and by fontTools' feaLib.

feaLib's own suite has five variable cases with one or two regions each. This makes many more:
for each seed, a font with three axes (wght, wdth, opsz; every other seed with an avar map on
wght) and a feature file with pair and single positions, a cursive anchor and ligature carets
whose values are variable scalars (one to five masters at corners, edges and inside the design
space, deltas from one byte to 32 bits), and condition sets used by `variation` blocks for
liga and rvrn. Both compilers must give GDEF, GSUB and GPOS that are equal as XML data: the
same regions, VarData layout, variation indexes and FeatureVariations.

Prints one JSON line per seed that differs, then {"seeds", "compared", "refused", "different"}.
A file feaLib refuses (two positions for one glyph) must be refused by fontshell too.
Usage: fea_variable_random.py FONTSHELL FIRST_SEED COUNT
"""

import io
import json
import logging
import os
import random
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fealib_conformance import make_font, table_elements  # noqa: E402
from ttx_parity import normalized, first_difference  # noqa: E402

from fontTools.feaLib.builder import addOpenTypeFeatures  # noqa: E402
from fontTools.fontBuilder import FontBuilder  # noqa: E402
from fontTools.ttLib import TTFont, newTable  # noqa: E402

GLYPHS = [".notdef"] + ["g%d" % i for i in range(60)]
AXES = [("wght", 100, 400, 900, "Weight"), ("wdth", 50, 100, 200, "Width"), ("opsz", 8, 12, 72, "Optical size")]
# Coordinates other than the default, so that no master repeats the default location.
POINTS = {"wght": [100, 250, 300, 500, 700, 900], "wdth": [50, 75, 150, 200], "opsz": [8, 10, 36, 72]}


def make_variable_font(path, with_avar):
    make_font(GLYPHS, path)
    font = TTFont(path)
    FontBuilder(font=font).setupFvar(AXES, [])
    if with_avar:
        avar = newTable("avar")
        avar.segments = {
            "wght": {-1.0: -1.0, -0.3333: -0.1667, 0.0: 0.0, 0.6: 0.5, 1.0: 1.0},
            "wdth": {-1.0: -1.0, 0.0: 0.0, 1.0: 1.0},
            "opsz": {-1.0: -1.0, 0.0: 0.0, 1.0: 1.0},
        }
        font["avar"] = avar
    font.save(path)


def scalar(rng):
    masters = {(): rng.randint(-300, 300)}
    for _ in range(rng.randint(1, 5)):
        axes = rng.sample(sorted(POINTS), rng.randint(1, 3))
        location = tuple(sorted((axis, rng.choice(POINTS[axis])) for axis in axes))
        masters[location] = rng.choice([rng.randint(-40000, 40000), rng.randint(-300, 300), rng.randint(-100, 100)])
    parts = [str(v) if not loc else ",".join("%s=%d" % a for a in loc) + ":%d" % v for loc, v in masters.items()]
    rng.shuffle(parts)
    return "(" + " ".join(parts) + ")"


def feature_file(rng):
    lines = [
        "languagesystem DFLT dflt;",
        "languagesystem latn dflt;",
        "conditionset heavy { wght 500 900; } heavy;",
        "conditionset narrow { wdth 50 80; wght 300 600; } narrow;",
        "lookup L1 { sub g1 by g2; } L1;",
        "lookup L2 { sub g3 by g4; } L2;",
        "feature liga { sub g5 by g6; } liga;",
        "variation liga heavy { lookup L1; } liga;",
        "variation rvrn narrow { lookup L2; } rvrn;",
        "variation liga narrow { sub g7 by g8; } liga;",
        "feature kern {",
    ]
    for _ in range(rng.randint(1, 25)):
        a, b = rng.sample(range(1, 60), 2)
        if rng.random() < 0.5:
            lines.append("  pos g%d g%d %s;" % (a, b, scalar(rng)))
        else:
            lines.append("  pos g%d <%s %s %s %s>;" % (a, scalar(rng), scalar(rng), scalar(rng), scalar(rng)))
    lines.append("} kern;")
    lines.append("feature curs { pos cursive g9 <anchor %s %s> <anchor NULL>; } curs;" % (scalar(rng), scalar(rng)))
    lines.append("table GDEF { LigatureCaretByPos g10 %s 300; } GDEF;" % scalar(rng))
    return "\n".join(lines) + "\n"


def main():
    logging.getLogger("fontTools").setLevel(logging.ERROR)
    fontshell, first, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    compared = refused = different = 0
    with tempfile.TemporaryDirectory() as tmp:
        bases = {}
        for with_avar in (False, True):
            bases[with_avar] = os.path.join(tmp, "base-avar.ttf" if with_avar else "base.ttf")
            make_variable_font(bases[with_avar], with_avar)
        fea, out = os.path.join(tmp, "features.fea"), os.path.join(tmp, "out.ttf")
        for seed in range(first, first + count):
            rng = random.Random(seed)
            base = bases[seed % 2 == 0]
            with open(fea, "w") as f:
                f.write(feature_file(rng))
            expected = TTFont(base)
            try:
                addOpenTypeFeatures(expected, fea)
                feaLib_error = None
            except Exception as e:  # feaLib refuses the file: so must we
                feaLib_error = str(e)
            if os.path.exists(out):
                os.remove(out)
            r = subprocess.run([fontshell, "fea", base, fea, "-o", out], capture_output=True, text=True)
            if feaLib_error is not None:
                refused += 1
                if r.returncode == 0:
                    different += 1
                    print(json.dumps({"seed": seed, "why": "feaLib refuses it (%s), fontshell compiled it" % feaLib_error[:200]}))
                continue
            compared += 1
            if r.returncode != 0:
                different += 1
                print(json.dumps({"seed": seed, "why": "fontshell refused it: " + r.stderr.strip()[:300]}))
                continue
            ours = TTFont(out)
            for tag in ("GDEF", "GSUB", "GPOS"):
                a, b = io.StringIO(), io.StringIO()
                expected.saveXML(a, tables=[tag])
                ours.saveXML(b, tables=[tag])
                d = first_difference(normalized(table_elements(a.getvalue())[tag]), normalized(table_elements(b.getvalue())[tag]))
                if d:
                    different += 1
                    print(json.dumps({"seed": seed, "table": tag, "why": d[:400]}))
                    break
    print(json.dumps({"seeds": count, "compared": compared, "refused": refused, "different": different}))


if __name__ == "__main__":
    main()
