#!/usr/bin/env python3
"""Compares an instance FontShell made with fontTools' expected instance from its own test
suite (Tests/varLib/instancer/data/test_results), the way fontTools' instancer tests compare:
the font is loaded without recalculating bounds or timestamps, dumped as TTX, and the lines
that change from run to run (ttLibVersion, checkSumAdjustment, created, modified) dropped.
Prints JSON: {"tables": {tag: "same" | first differing lines}, "only_ours": [...], "only_expected": [...]}.
Usage: instancer_conformance.py OURS.ttf EXPECTED.ttx
"""
import io
import json
import re
import sys

from fontTools.ttLib import TTFont

VARIABLE = re.compile(r'\s*<(checkSumAdjustment|created|modified) value=.*/>\n|\sttLibVersion="[^"]*"')


def tables(ttx_text):
    """TTX text by top-level table element."""
    out = {}
    for m in re.finditer(r"^  <([A-Za-z0-9_]+)[ >].*?^  </\1>\n", ttx_text, re.S | re.M):
        out[m.group(1)] = m.group(0)
    return out


def main():
    ours_path, expected_path = sys.argv[1], sys.argv[2]
    font = TTFont(ours_path, recalcBBoxes=False, recalcTimestamp=False)
    buffer = io.StringIO()
    font.saveXML(buffer)
    ours = tables(VARIABLE.sub("", buffer.getvalue()))
    with open(expected_path, encoding="utf-8") as f:
        expected = tables(VARIABLE.sub("", f.read()))
    result = {"tables": {}, "only_ours": sorted(set(ours) - set(expected)), "only_expected": sorted(set(expected) - set(ours))}
    for tag in sorted(set(ours) & set(expected)):
        a, b = ours[tag].splitlines(), expected[tag].splitlines()
        if a == b:
            result["tables"][tag] = "same"
        else:
            diff = [f"ours: {x.strip()} | expected: {y.strip()}" for x, y in zip(a, b) if x != y][:3]
            if len(a) != len(b):
                diff.append(f"{len(a)} lines vs {len(b)}")
            result["tables"][tag] = diff
    json.dump(result, sys.stdout, indent=1)


if __name__ == "__main__":
    main()
