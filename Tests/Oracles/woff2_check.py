"""fontTools' side of the WOFF2 tests.

  same FONT_A FONT_B [FACE]  tables and glyph outlines of two fonts (any container fontTools
                             reads), as JSON: tables whose bytes differ (glyf, loca and head's
                             checksum adjustment and flags excepted: WOFF2 rebuilds them) and
                             glyphs whose outlines, boxes, components or instructions differ
  extras FONT                flavor, metadata and private data, one line each
  collection OUT FONT...     a TTC of the fonts, tables shared where identical
"""
import json
import sys

from fontTools.ttLib import TTCollection, TTFont


def glyph_key(glyf, name):
    g = glyf[name]
    if g.numberOfContours == 0:
        return None
    key = [g.numberOfContours, g.xMin, g.yMin, g.xMax, g.yMax]
    if g.isComposite():
        key.append([(c.glyphName, c.x, c.y, c.flags, getattr(c, "transform", None)) for c in g.components])
    else:
        key.append(list(g.coordinates))
        key.append(list(g.endPtsOfContours))
        key.append([f & 1 for f in g.flags])
        key.append(bool(g.flags and g.flags[0] & 0x40))
    key.append(g.program.getBytecode().hex() if hasattr(g, "program") else "")
    return repr(key)


def same(a_path, b_path, face=0):
    a, b = TTFont(a_path, fontNumber=face), TTFont(b_path, fontNumber=face)
    differ = []
    for tag in sorted(set(a.reader.keys()) | set(b.reader.keys())):
        if tag in ("glyf", "loca", "DSIG"):
            continue
        da, db = a.reader[tag] if tag in a.reader else None, b.reader[tag] if tag in b.reader else None
        if tag == "head" and da and db:
            # checkSumAdjustment depends on the layout; flags bit 11 marks a transformed font.
            da = da[:8] + da[12:16] + bytes([da[16] & ~0x08]) + da[17:]
            db = db[:8] + db[12:16] + bytes([db[16] & ~0x08]) + db[17:]
        if da != db:
            differ.append(tag)
    glyphs = []
    count = 0
    if "glyf" in a:
        ga, gb = a["glyf"], b["glyf"]
        for name in a.getGlyphOrder():
            count += 1
            if glyph_key(ga, name) != glyph_key(gb, name):
                glyphs.append(name)
    print(json.dumps({"tables": differ, "glyphs": count, "glyphsDiffer": glyphs[:10], "glyphsDifferCount": len(glyphs)}))


def extras(path):
    f = TTFont(path)
    data = f.flavorData
    print(f.flavor)
    print((data.metaData or b"").decode() if data else "")
    print((data.privData or b"").decode() if data else "")


def collection(out, paths):
    c = TTCollection()
    c.fonts = [TTFont(p) for p in paths]
    c.save(out, shareTables=True)


if __name__ == "__main__":
    command, args = sys.argv[1], sys.argv[2:]
    if command == "same":
        same(args[0], args[1], int(args[2]) if len(args) > 2 else 0)
    elif command == "extras":
        extras(args[0])
    elif command == "collection":
        collection(args[0], args[1:])
    else:
        sys.exit(f"unknown command {command}")
