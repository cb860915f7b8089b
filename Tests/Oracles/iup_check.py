#!/usr/bin/env python3
"""Checks the points FontShell leaves out of a partial instance's gvar tuples (IUP
optimization) with fontTools' own reading: every tuple of SPARSE.ttf, its missing deltas
inferred by fontTools' iup_delta against the glyph's default outline, must equal the same
tuple of DENSE.ttf (the same instance made with --no-optimize, every point listed) within
0.5. With THEIRS.ttf (fontTools' instancer's partial
instance of the same source), its gvar's size is reported beside ours.
Prints JSON: {"glyphs": n, "tuples": n, "sparse_tuples": n, "worst": max difference,
"gvar_bytes": [sparse, dense(, theirs)], "mismatches": [...]}.
Usage: iup_check.py SPARSE.ttf DENSE.ttf [THEIRS.ttf]
"""
import json
import sys

from fontTools.ttLib import TTFont
from fontTools.varLib.iup import iup_delta


def main():
    sparse, dense = TTFont(sys.argv[1]), TTFont(sys.argv[2])
    tolerance = 0.5
    glyf = sparse["glyf"]
    report = {"glyphs": 0, "tuples": 0, "sparse_tuples": 0, "worst": 0.0,
              "gvar_bytes": [len(sparse.reader["gvar"]), len(dense.reader["gvar"])], "mismatches": []}
    if len(sys.argv) > 3:
        report["gvar_bytes"].append(len(TTFont(sys.argv[3]).reader["gvar"]))
    for name in sparse.getGlyphOrder():
        ours = sparse["gvar"].variations.get(name, [])
        full = dense["gvar"].variations.get(name, [])
        if len(ours) != len(full):
            report["mismatches"].append(f"{name}: {len(ours)} tuples, {len(full)} with every point")
            continue
        if not ours:
            continue
        report["glyphs"] += 1
        coordinates, controls = glyf._getCoordinatesAndControls(name, sparse["hmtx"].metrics,
                                                                sparse["vmtx"].metrics if "vmtx" in sparse else None)
        ends = list(controls.endPts)   # iup_delta adds the four phantom points as contours of their own
        for a, b in zip(ours, full):
            report["tuples"] += 1
            if a.axes != b.axes:
                report["mismatches"].append(f"{name}: regions differ")
                continue
            if None in a.coordinates:
                report["sparse_tuples"] += 1
                inferred = iup_delta(a.coordinates, coordinates, ends)
            else:
                inferred = a.coordinates
            for (x1, y1), (x2, y2) in zip(inferred, b.coordinates):
                report["worst"] = max(report["worst"], abs(x1 - x2), abs(y1 - y2))
            if len(a.coordinates) != len(b.coordinates):
                report["mismatches"].append(f"{name}: {len(a.coordinates)} points, {len(b.coordinates)} with every point")
    if report["worst"] > tolerance:
        report["mismatches"].append(f"an inferred delta is {report['worst']} from the listed one")
    report["mismatches"] = report["mismatches"][:20]
    print(json.dumps(report))


if __name__ == "__main__":
    main()
