#!/usr/bin/env python3
"""fontTools' feaLib test suite as an oracle for `fontshell fea`.

For every case builder_test.py compiles (data/NAME.fea with data/NAME.ttx), make a font with
the glyph order builder_test.py uses, compile the feature file into it with fontshell, read the
result back with fontTools, and compare each table the expected dump holds as XML data (comments
aside, text whitespace collapsed). A .fea in data/ without a .ttx is either valid (the spec's
example mini.fea, the empty test.fea, baseClass.fea: these must compile) or an expected failure
(GSUB_error.fea, STAT_bad.fea: fontshell must refuse it with a message naming a line and column).
The feature files builder_test.py's own tests expect feaLib to refuse (assertRaisesRegex with
self.build) must be refused too, with a line and column.

Prints one JSON line per case, then a summary line {"passed": N, "cases": M, ...}.
Usage: fealib_conformance.py FONTSHELL FEALIB_FOLDER [--only NAME ...] [--show-differences]
"""

import argparse
import io
import json
import logging
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ttx_parity import normalized, first_difference  # noqa: E402

from fontTools.fontBuilder import FontBuilder  # noqa: E402
from fontTools.ttLib import TTFont  # noqa: E402


def builder_cases(folder):
    """The case names and the glyph order of builder_test.py."""
    source = open(os.path.join(folder, "builder_test.py"), encoding="utf-8").read()
    names = re.search(r'TEST_FEATURE_FILES = """(.*?)"""', source, re.S).group(1).split()
    glyphs = re.search(r'glyphs = """(.*?)"""', source, re.S).group(1).split()
    glyphs += ["cid{:05d}".format(cid) for cid in range(800, 1001 + 1)]
    return names, glyphs


def error_cases(folder):
    """builder_test.py's tests that build a feature file feaLib must refuse:
    `self.assertRaisesRegex(FeatureLibError, MESSAGE, self.build, FEATURES)`, as (name, features)."""
    source = open(os.path.join(folder, "builder_test.py"), encoding="utf-8").read()
    strings = r'(?:r?"[^"]*"\s*|r?\'[^\']*\'\s*)+'
    pattern = re.compile(
        r"def (test_\w+)\(self\):\s+self\.assertRaisesRegex\(\s+FeatureLibError,\s+" + strings
        + r",\s+self\.build,\s+(" + strings + r"(?:\s*\*\s*\d+)?)\s*,?\s*\)")
    return [(m.group(1), eval("(" + m.group(2) + ")")) for m in pattern.finditer(source)]


def make_font(glyphs, path):
    """A TrueType font with these glyphs (empty outlines) and no name records."""
    fb = FontBuilder(1000, isTTF=True)
    fb.setupGlyphOrder(glyphs)
    fb.setupCharacterMap({})
    fb.setupGlyf({g: _empty_glyph() for g in glyphs})
    fb.setupHorizontalMetrics({g: (500, 0) for g in glyphs})
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    fb.setupVerticalMetrics({g: (1000, 0) for g in glyphs})
    fb.setupVerticalHeader(ascent=500, descent=-500)
    fb.setupNameTable({})
    fb.setupOS2(version=0)
    fb.setupPost(keepGlyphNames=True)
    fb.font["name"].names = []
    fb.save(path)


def make_variable_font(glyphs, path):
    """The same font with builder_test.py's axes (VARFONT_AXES: wght 200-1000, wdth 100-200,
    defaults at the minimum), as feaLib's variable_* cases are built."""
    make_font(glyphs, path)
    font = TTFont(path)
    fb = FontBuilder(font=font)
    fb.setupFvar([("wght", 200, 200, 1000, "Weight"), ("wdth", 100, 100, 200, "Width")], [])
    font.save(path)


def _empty_glyph():
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    return TTGlyphPen(None).glyph()


# Tables feaLib makes from zeros when its test font lacks them (builder.py's build_head and
# siblings): only the fields whose expected value differs from these are the feature file's doing,
# and only those are compared in our font, whose tables come from a real base font.
FIELD_TABLES = ("head", "hhea", "vhea", "OS_2")


def feaLib_default(tag):
    from fontTools.ttLib import newTable
    from fontTools.misc import sstruct
    from fontTools.ttLib import getTableModule
    font = TTFont()
    table = newTable(tag)
    if tag == "head":
        table.decompile(b"\0" * 54, font)
        table.tableVersion, table.magicNumber = 1.0, 0x5F0F3CF5
        table.created = table.modified = 3406620153
    elif tag in ("hhea", "vhea"):
        table.decompile(b"\0" * 36, font)
        table.tableVersion = 0x00010000 if tag == "hhea" else 0x00011000
    else:
        table.decompile(b"\0" * sstruct.calcsize(getTableModule("OS/2").OS2_format_0), font)
    font[tag] = table
    out = io.StringIO()
    font.saveXML(out, tables=[tag])
    return table_elements(out.getvalue())[tag.replace("/", "_")]


def set_fields(expected, default):
    """The children of a fixed-field table whose values the feature file set."""
    base = {c.tag: c.attrib for c in default}
    return [c for c in expected if base.get(c.tag) != c.attrib]


def table_elements(xml_text):
    root = ET.fromstring(xml_text)
    return {e.tag: e for e in root if e.tag != "GlyphOrder"}


LOCATION = re.compile(r":\d+:\d+: ")


def main():
    logging.getLogger("fontTools").setLevel(logging.ERROR)
    p = argparse.ArgumentParser()
    p.add_argument("fontshell")
    p.add_argument("folder")
    p.add_argument("--only", nargs="*")
    p.add_argument("--show-differences", action="store_true")
    args = p.parse_args()
    data = os.path.join(args.folder, "data")
    names, glyphs = builder_cases(args.folder)
    without_dump = sorted(
        f[:-4] for f in os.listdir(data) if f.endswith(".fea") and not os.path.exists(os.path.join(data, f[:-4] + ".ttx"))
    )
    valid_without_dump = {"mini", "test", "baseClass"}
    expected_failures = [n for n in without_dump if n not in valid_without_dump and not n.startswith("include")]
    passed = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        base = os.path.join(tmp, "base.ttf")
        make_font(glyphs, base)
        variable_base = os.path.join(tmp, "variable.ttf")
        make_variable_font(glyphs, variable_base)
        for name in names + expected_failures + sorted(valid_without_dump & set(without_dump)):
            if args.only and name not in args.only:
                continue
            fea = os.path.join(data, name + ".fea")
            out = os.path.join(tmp, name + ".ttf")
            font_in = variable_base if name.startswith("variable_") else base
            r = subprocess.run([args.fontshell, "fea", font_in, fea, "-o", out], capture_output=True, text=True)
            result = {"case": name}
            if name in expected_failures:
                result["expected"] = "failure"
                ok = r.returncode != 0 and bool(LOCATION.search(r.stderr)) and not os.path.exists(out)
                result["ok"] = ok
                if not ok:
                    result["why"] = "compiled" if r.returncode == 0 else "no line:column in " + r.stderr.strip()[:200]
            elif name in valid_without_dump:
                result["ok"] = r.returncode == 0
                if r.returncode != 0:
                    result["why"] = r.stderr.strip()[:300]
            elif r.returncode != 0:
                result["ok"] = False
                result["why"] = r.stderr.strip()[:300]
            else:
                expected = table_elements(open(os.path.join(data, name + ".ttx"), encoding="utf-8").read())
                font = TTFont(out)
                tags = [t for t in ("head", "name", "BASE", "GDEF", "GSUB", "GPOS", "OS/2", "STAT", "hhea", "vhea")]
                ours_text = io.StringIO()
                font.saveXML(ours_text, tables=[t for t in tags if t in font])
                ours = table_elements(ours_text.getvalue())
                differences = []
                for table, element in expected.items():
                    mine = ours.get(table)
                    if mine is None:
                        differences.append(f"{table}: not written")
                        continue
                    if table in FIELD_TABLES:
                        default = feaLib_default(table.replace("OS_2", "OS/2"))
                        theirs = {c.tag: c.attrib for c in mine}
                        for c in set_fields(element, default):
                            if theirs.get(c.tag) != c.attrib:
                                differences.append(f"{table}.{c.tag}: {c.attrib} expected, {theirs.get(c.tag)} written")
                        continue
                    d = first_difference(normalized(element), normalized(mine))
                    if d:
                        differences.append(d)
                for table in ours:
                    if table in ("GDEF", "GSUB", "GPOS") and table not in expected:
                        differences.append(f"{table}: written, but not expected")
                result["ok"] = not differences
                if differences:
                    result["why"] = "; ".join(differences)[:600]
            passed += result["ok"]
            failed += not result["ok"]
            print(json.dumps(result), flush=True)
        # builder_test.py's refusals: each must fail with a line and column, writing nothing.
        refused = 0
        cases = [] if args.only else error_cases(args.folder)
        for name, text in cases:
            fea, out = os.path.join(tmp, "refuse.fea"), os.path.join(tmp, "refused.ttf")
            with open(fea, "w", encoding="utf-8") as f:
                f.write(text)
            r = subprocess.run([args.fontshell, "fea", base, fea, "-o", out], capture_output=True, text=True)
            ok = r.returncode != 0 and bool(LOCATION.search(r.stderr)) and not os.path.exists(out)
            refused += ok
            if not ok:
                why = "compiled" if r.returncode == 0 else "no line:column in " + r.stderr.strip()[:200]
                print(json.dumps({"refusal": name, "ok": False, "why": why}), flush=True)
    print(json.dumps({"passed": passed, "failed": failed, "cases": passed + failed,
                      "expected_failures": len(expected_failures), "refusals": len(cases), "refused": refused}))


if __name__ == "__main__":
    main()
