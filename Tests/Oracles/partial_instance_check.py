#!/usr/bin/env python3
"""Checks a partial instance FontShell made (some axes pinned, the others kept) against
fontTools' instancer. fontTools makes its own partial instance of the source at the same pins;
then, at a grid of locations on the kept axes (each axis's minimum, default and maximum and
the points halfway between), fontTools' instancer makes full instances of ours, of its own
partial instance, and of the source at the pins plus that location ("direct"), and they are
compared: glyph points, advances, OS/2 / hhea / post metrics, cvt values, GSUB, GPOS and GDEF (as TTX),
and for CFF2 the stem hints and Private DICT values.
Also compared without instancing: fvar's axes and named instances, STAT's axis values, and
HVAR's advance deltas at each grid location.
Prints JSON: {"locations": n, "points": {"vs_fonttools": max, "vs_direct": max},
"mismatches": [...]}.
Usage: partial_instance_check.py OURS.ttf SOURCE.ttf AXIS=VALUE|AXIS=MIN:MAX ...
"""
import io
import itertools
import json
import sys

from fontTools.pens.recordingPen import RecordingPen
from fontTools.ttLib import TTFont
from fontTools.varLib.instancer import instantiateVariableFont
from fontTools.varLib.varStore import VarStoreInstancer
from fontTools.varLib.models import normalizeLocation

METRICS = [("OS/2", a) for a in ("sTypoAscender", "sTypoDescender", "sTypoLineGap", "usWinAscent", "usWinDescent",
                                  "sxHeight", "sCapHeight", "yStrikeoutSize", "yStrikeoutPosition", "usWeightClass", "usWidthClass")]
METRICS += [("hhea", a) for a in ("ascent", "descent", "lineGap")] + [("post", a) for a in ("underlinePosition", "underlineThickness")]


def points(font):
    if "glyf" not in font:
        # CFF and CFF2: every point the outline draws, in order.
        glyphs = font.getGlyphSet()
        out = {}
        for name in font.getGlyphOrder():
            pen = RecordingPen()
            glyphs[name].draw(pen)
            out[name] = [point for _, args in pen.value for point in args]
        return out
    glyf = font["glyf"]
    out = {}
    for name in font.getGlyphOrder():
        g = glyf[name]
        out[name] = list(g.getCoordinates(glyf)[0]) if g.numberOfContours else []
    return out


def hints(font):
    """CFF and CFF2: each glyph's stem edges by direction (absolute within their operator) and
    every Font DICT's Private values, blends evaluated (after a full instance)."""
    tag = "CFF2" if "CFF2" in font else "CFF " if "CFF " in font else None
    if tag is None:
        return None
    # Read back from bytes: an instanced font's Private DICTs hold their old blends until saved.
    buffer = io.BytesIO()
    font.save(buffer)
    buffer.seek(0)
    top = TTFont(buffer)[tag].cff.topDictIndex[0]
    stems = {}
    for name in font.getGlyphOrder():
        charstring = top.CharStrings[name]
        charstring.decompile()
        found, args = {"h": [], "v": []}, []
        for token in charstring.program:
            if isinstance(token, str):
                if token in ("hstem", "vstem", "hstemhm", "vstemhm") or (token in ("hintmask", "cntrmask") and args):
                    edge = 0
                    for a in args:
                        edge += a
                        found["h" if token.startswith("h") else "v"].append(edge)
                args = []
            elif not isinstance(token, bytes):
                args.append(token)
        stems[name] = found
    privates = [sorted((k, v) for k, v in fd.Private.rawDict.items() if k not in ("Subrs", "vsindex")) for fd in top.FDArray]
    return stems, privates


def facts(font):
    """What is compared after full instancing."""
    metrics = {f"{t}.{a}": getattr(font[t], a) for t, a in METRICS if t in font and hasattr(font[t], a)}
    advances = {n: font["hmtx"][n][0] for n in font.getGlyphOrder()} if "hmtx" in font else {}
    cvt = list(font["cvt "].values) if "cvt " in font else None
    layout = {}
    for tag in ("GSUB", "GPOS", "GDEF"):
        if tag in font:
            buffer = io.StringIO()
            from fontTools.misc.xmlWriter import XMLWriter
            font[tag].toXML(XMLWriter(buffer), font)
            layout[tag] = buffer.getvalue()
    outlines = points(font) if any(t in font for t in ("glyf", "CFF ", "CFF2")) else {}
    return outlines, advances, metrics, cvt, layout, hints(font)


def largest_difference(a, b):
    worst = 0
    for name in a:
        if len(a[name]) != len(b.get(name, [])):
            return float("inf")
        for (x1, y1), (x2, y2) in zip(a[name], b[name]):
            worst = max(worst, abs(x1 - x2), abs(y1 - y2))
    return worst


def main():
    ours_path, source_path = sys.argv[1], sys.argv[2]
    pins = {}
    for k, v in (a.split("=", 1) for a in sys.argv[3:]):
        pins[k] = tuple(float(x) for x in v.split(":")) if ":" in v else float(v)
    source = TTFont(source_path)
    ours = TTFont(ours_path)
    theirs = instantiateVariableFont(TTFont(source_path), dict(pins))
    mismatches = []

    def axes(f):
        return [(a.axisTag, a.minValue, a.defaultValue, a.maxValue) for a in f["fvar"].axes]

    if axes(ours) != axes(theirs):
        mismatches.append(f"fvar axes: {axes(ours)} != {axes(theirs)}")
    inst = lambda f: sorted((i.subfamilyNameID, sorted(i.coordinates.items())) for i in f["fvar"].instances)
    if inst(ours) != inst(theirs):
        mismatches.append(f"fvar instances: {inst(ours)} != {inst(theirs)}")
    if "STAT" in theirs:
        values = lambda f: sorted(v.ValueNameID for v in (f["STAT"].table.AxisValueArray.AxisValue if f["STAT"].table.AxisValueArray else []))
        if values(ours) != values(theirs):
            mismatches.append(f"STAT axis values: {values(ours)} != {values(theirs)}")

    kept = [a for a in ours["fvar"].axes]
    grid = [sorted({a.minValue, a.defaultValue, a.maxValue, (a.minValue + a.defaultValue) / 2, (a.defaultValue + a.maxValue) / 2})
            for a in kept]
    worst_theirs = worst_direct = 0
    count = 0
    for values in itertools.product(*grid):
        location = {a.axisTag: v for a, v in zip(kept, values)}
        count += 1
        if "HVAR" in theirs and "HVAR" in ours:
            deltas = []
            for f in (ours, theirs):
                normalized = normalizeLocation(location, {a.axisTag: (a.minValue, a.defaultValue, a.maxValue) for a in f["fvar"].axes})
                if "avar" in f:
                    from fontTools.varLib.models import piecewiseLinearMap
                    maps = f["avar"].segments
                    normalized = {t: piecewiseLinearMap(v, maps.get(t, {})) for t, v in normalized.items()}
                table = f["HVAR"].table
                instancer = VarStoreInstancer(table.VarStore, f["fvar"].axes, normalized)
                mapping = table.AdvWidthMap.mapping if table.AdvWidthMap else None
                order = f.getGlyphOrder()
                deltas.append([round(instancer[mapping[n]] if mapping else instancer[i]) for i, n in enumerate(order)])
            if deltas[0] != deltas[1]:
                bad = [i for i, (x, y) in enumerate(zip(*deltas)) if x != y]
                mismatches.append(f"HVAR advance deltas at {location}: glyphs {bad[:5]} differ ({deltas[0][bad[0]]} != {deltas[1][bad[0]]})")
        a = facts(instantiateVariableFont(TTFont(ours_path), dict(location)))
        b = facts(instantiateVariableFont(theirs_copy(source_path, pins), dict(location)))
        c = facts(instantiateVariableFont(TTFont(source_path), {**{k: v for k, v in pins.items() if not isinstance(v, tuple)}, **location}))
        worst_theirs = max(worst_theirs, largest_difference(a[0], b[0]))
        worst_direct = max(worst_direct, largest_difference(a[0], c[0]))
        for what, k in (("advances", 1), ("metrics", 2), ("cvt", 3), ("GSUB/GPOS/GDEF", 4), ("CFF hints and Private DICTs", 5)):
            if a[k] != b[k]:
                if isinstance(a[k], dict):
                    bad = sorted(n for n in a[k] if a[k][n] != b[k].get(n))
                    mismatches.append(f"{what} at {location}: {bad[:5]} ({[a[k][n] for n in bad[:3]]} != {[b[k].get(n) for n in bad[:3]]})")
                else:
                    mismatches.append(f"{what} at {location} differ")
    print(json.dumps({"locations": count, "points": {"vs_fonttools": worst_theirs, "vs_direct": worst_direct}, "mismatches": mismatches[:20]}))


def theirs_copy(source_path, pins):
    return instantiateVariableFont(TTFont(source_path), dict(pins))


if __name__ == "__main__":
    main()
