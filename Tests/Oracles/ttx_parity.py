#!/usr/bin/env python3
"""TTX parity with ttx, both ways, table by table.

For each font (first face): `fontshell dump` of every table must equal fontTools' dump of it as
XML data (comments aside, text whitespace collapsed, comments inside TrueType assembly dropped:
what fontTools reads back), and `fontshell fuse` of fontTools' whole-font dump must give tables
that fontTools decompiles equal to the original's.

Fonts: the paths given, the fonts in the folders given (*.ttf, *.otf, *.ttc), and the fonts that
fontTools' own table test data (--tables DIR: its *.ttx files that are whole fonts) compile to.

Usage: ttx_parity.py --fontshell BIN [--tables DIR ...] [--skip-big-outlines] [--work DIR] PATH...
Prints one JSON object: counts, and every table that differs with the first difference.
"""
import argparse
import glob
import io
import json
import multiprocessing
import os
import re
import subprocess
import sys
import tempfile
import logging
import xml.etree.ElementTree as ET

from fontTools.ttLib import TTFont, TTLibError

ASSEMBLY_COMMENT = re.compile(r"/\*.*?\*/", re.S)
# Outline tables of a big font make ttx's dump hundreds of megabytes; --skip-big-outlines leaves
# them out above this size (small fonts cover them).
BIG = 2_000_000
OUTLINES = {"glyf", "loca", "CFF ", "CFF2", "gvar"}


def without_extensions(table):
    """GSUB/GPOS with extension lookups unwrapped: whether a lookup sits behind an extension is a
    layout choice each compiler makes to fit its offsets (fontTools and we order subtables
    differently), not data. Changes the element in place."""
    for lookup in table.iter("Lookup"):
        kind = lookup.find("LookupType")
        for k, child in enumerate(list(lookup)):
            if child.tag not in ("ExtensionPos", "ExtensionSubst"):
                continue
            inner_type = child.find("ExtensionLookupType")
            inner = [c for c in child if c.tag != "ExtensionLookupType"]
            if inner_type is None or len(inner) != 1:
                continue
            inner[0].set("index", child.get("index", "0"))
            lookup.remove(child)
            lookup.insert(k, inner[0])
            if kind is not None:
                kind.set("value", inner_type.get("value"))
    return table


def normalized(element):
    """An element as fontTools reads it: (tag, attributes, text, children)."""
    text = " ".join((element.text or "").split())
    if element.tag == "assembly":
        text = " ".join(ASSEMBLY_COMMENT.sub(" ", element.text or "").split())
    return (element.tag, tuple(sorted(element.attrib.items())), text, [normalized(c) for c in element])


def first_difference(a, b, path=""):
    """Where two normalized elements first differ, as a path and the two sides."""
    here = f"{path}/{a[0]}"
    if a[0] != b[0]:
        return f"{path}: <{a[0]}> vs <{b[0]}>"
    if a[1] != b[1]:
        return f"{here}: attributes {dict(a[1])} vs {dict(b[1])}"
    if a[2] != b[2]:
        k = next((i for i, (x, y) in enumerate(zip(a[2], b[2])) if x != y), min(len(a[2]), len(b[2])))
        return f"{here}: text …{a[2][max(0, k - 30):k + 40]!r} vs …{b[2][max(0, k - 30):k + 40]!r}"
    for i, (x, y) in enumerate(zip(a[3], b[3])):
        d = first_difference(x, y, f"{here}[{i}]")
        if d:
            return d
    if len(a[3]) != len(b[3]):
        return f"{here}: {len(a[3])} children vs {len(b[3])}"
    return None


def table_elements(xml_text):
    """Table elements of a TTX document by name (GlyphOrder apart), extensions unwrapped."""
    root = ET.fromstring(xml_text)
    return {e.tag: (without_extensions(e) if e.tag in ("GSUB", "GPOS") else e) for e in root if e.tag != "GlyphOrder"}


def tag_of(element_name):
    """A table tag from its TTX element name (fontTools' xmlToTag)."""
    from fontTools.misc.textTools import tostr
    from fontTools.ttLib import xmlToTag
    return tostr(xmlToTag(element_name))


def fonttools_dump(font, tags):
    out = io.StringIO()
    font.saveXML(out, tables=tags, skipTables=None)
    return out.getvalue()


def run(args):
    return subprocess.run(args, capture_output=True, text=True, timeout=600)


def check_font(job):
    result = {"font": job[0], "dump": {}, "fuse": {}, "errors": []}
    try:
        return check(job, result)
    except Exception as e:  # noqa: BLE001 - one font's failure is a finding, not the end of the run
        result["errors"].append(f"{type(e).__name__}: {e}")
        return result


def check(job, result):
    path, fontshell, work, skip_big = job
    # "FONT.ttc#2" checks face 2 of a collection; the first face otherwise.
    face = 0
    if re.fullmatch(r".*#\d+", path):
        path, face = path.rsplit("#", 1)[0], int(path.rsplit("#", 1)[1])
    try:
        font = TTFont(path, fontNumber=face, lazy=False)
        tags = [t for t in font.keys() if t != "GlyphOrder"]
    except Exception as e:  # noqa: BLE001 - a font fontTools cannot open is reported, not fatal
        result["errors"].append(f"fontTools cannot open it: {e}")
        return result
    if skip_big and os.path.getsize(path) > BIG:
        tags = [t for t in tags if t not in OUTLINES]
    stem = os.path.join(work, re.sub(r"[^A-Za-z0-9_.-]", "_", path.strip("/")) + (f".{face}" if face else ""))
    # 1. Our dump of each table against fontTools'.
    ours_file = stem + ".ours.ttx"
    dumped = run([fontshell, "dump", path, "--face", str(face)] + sum((["-t", t] for t in tags), []) + ["-o", ours_file])
    if dumped.returncode != 0:
        result["errors"].append(f"fontshell dump: {dumped.stderr.strip()[:300]}")
        return result
    with open(ours_file, encoding="utf-8") as f:
        ours = table_elements(f.read())
    theirs_text = fonttools_dump(font, tags)
    theirs = table_elements(theirs_text)
    for name, element in theirs.items():
        mine = ours.get(name)
        if mine is None:
            result["dump"][name] = "missing from our dump"
        elif mine.get("raw") == "True" and element.get("raw") != "True":
            result["dump"][name] = "hexdata where ttx types it"
        else:
            result["dump"][name] = first_difference(normalized(mine), normalized(element)) or "equal"
    # 2. Our fuse of fontTools' dump: fontTools must decompile each table as it did the original.
    theirs_file = stem + ".theirs.ttx"
    with open(theirs_file, "w", encoding="utf-8") as f:
        f.write(theirs_text)
    extension = os.path.splitext(path)[1]   # a collection is saved whole
    fused_file, next_file = stem + ".fused" + extension, stem + ".next" + extension
    fused = run([fontshell, "fuse", path, theirs_file, "--face", str(face), "--force", "-o", fused_file])
    if fused.returncode != 0:
        # Whole-font fusing stops at the first table we cannot fuse: fuse the others one by
        # one, so each table gets its own verdict.
        result["errors"].append(f"fontshell fuse of the whole dump: {fused.stderr.strip()[:300]}")
        current = path
        for name in theirs:
            single = f"{stem}.{re.sub(r'[^A-Za-z0-9_]', '_', name)}.ttx"
            with open(single, "w", encoding="utf-8") as f:
                f.write(fonttools_dump(font, [tag_of(name)]))
            step = run([fontshell, "fuse", current, single, "--face", str(face), "--force", "-o", next_file])
            os.remove(single)
            if step.returncode != 0:
                result["fuse"][name] = "fontshell fuse: " + step.stderr.strip()[:600]
                continue
            os.replace(next_file, fused_file)
            current = fused_file
        if current == path:
            return result
    try:
        again = TTFont(fused_file, fontNumber=face)
        reread = table_elements(fonttools_dump(again, tags))
    except Exception as e:  # noqa: BLE001
        result["errors"].append(f"fontTools cannot read our fused font: {e}")
        return result
    # Fields that follow from the file or from other tables, which fontTools recomputes too when
    # it compiles its own dump: compare the rest.
    recomputed = {"head": ("checkSumAdjustment", "modified"), "hhea": ("numberOfHMetrics",), "vhea": ("numberOfVMetrics",)}
    for name, element in theirs.items():
        if name in recomputed:
            for e in (element, reread.get(name)):
                for child in list(e if e is not None else []):
                    if child.tag in recomputed[name]:
                        e.remove(child)
        if name in result["fuse"]:
            continue
        other = reread.get(name)
        result["fuse"][name] = "missing after fusing" if other is None else (first_difference(normalized(other), normalized(element)) or "equal")
    for f in (ours_file, theirs_file, fused_file):
        if os.path.exists(f):
            os.remove(f)
    return result


def compile_table_tests(folder, out):
    """fontTools' table test data that are whole fonts (a GlyphOrder or a head), compiled."""
    fonts = []
    for path in sorted(glob.glob(os.path.join(folder, "*.ttx"))):
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
            root = ET.fromstring(text)
            if root.tag != "ttFont" or not any(e.tag in ("GlyphOrder", "head") for e in root):
                continue
            font = TTFont()
            font.importXML(path)
            target = os.path.join(out, os.path.basename(path)[:-4] + (".otf" if root.get("sfntVersion") == "OTTO" else ".ttf"))
            font.save(target)
            fonts.append(target)
        except Exception:  # noqa: BLE001 - fragments that are not whole fonts do not compile
            continue
    return fonts


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--fontshell", required=True)
    parser.add_argument("--tables", action="append", default=[], help="a folder of TTX files; whole fonts among them are compiled and checked (repeatable)")
    parser.add_argument("--skip-big-outlines", action="store_true")
    parser.add_argument("--work")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--timeout", type=float, default=1800, help="seconds for the whole run")
    parser.add_argument("paths", nargs="*")
    args = parser.parse_args()
    logging.disable(logging.WARNING)   # fontTools' warnings about the test fonts are not findings
    work = args.work or tempfile.mkdtemp(prefix="ttx-parity-")
    fonts = []
    for p in args.paths:
        if os.path.isdir(p):
            fonts += sorted(f for ext in ("ttf", "otf", "ttc") for f in glob.glob(os.path.join(p, "*." + ext)))
        else:
            fonts.append(p)
    for folder in args.tables:
        fonts += compile_table_tests(folder, work)
    jobs = [(f, args.fontshell, work, args.skip_big_outlines) for f in fonts]
    if args.jobs == 1:
        results = [check_font(job) for job in jobs]
    else:
        # Workers are spawned, not forked: a forked worker inherits locks held by other threads
        # of this process and was seen to wait on one for ever. A worker that dies takes its
        # task with it and map() would wait for ever too: the wait is bounded.
        with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
            results = pool.map_async(check_font, jobs, chunksize=1).get(timeout=args.timeout)
    summary = {"fonts": len(results), "tables": 0, "dumpEqual": 0, "fuseEqual": 0, "dumpDiffers": [], "fuseDiffers": [], "errors": []}
    for r in results:
        for e in r["errors"]:
            summary["errors"].append(f"{r['font']}: {e}")
        for name, verdict in r["dump"].items():
            summary["tables"] += 1
            if verdict == "equal":
                summary["dumpEqual"] += 1
            else:
                summary["dumpDiffers"].append(f"{r['font']} {name}: {verdict}")
        for name, verdict in r["fuse"].items():
            if verdict == "equal":
                summary["fuseEqual"] += 1
            else:
                summary["fuseDiffers"].append(f"{r['font']} {name}: {verdict}")
    json.dump(summary, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
