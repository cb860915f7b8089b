#!/usr/bin/env python3
"""Oracle checks run by the Swift tests: fontTools (not our code) reads a saved font and
reports facts as JSON on stdout. Usage:
  fonttools_check.py caps FONT          per face: do a-z draw and measure like A-Z?
  fonttools_check.py field FONT TABLE FIELD   per face: the field's value
  fonttools_check.py names FONT         per face: getDebugName(1, 4, 6, 16) and all name records
  fonttools_check.py order FONT         per face: the glyph order (names) fontTools derives
  fonttools_check.py gvar FONT          per face: {glyph: [[axes, coordinates], ...]} of gvar
  fonttools_check.py cffnames FONT      per face: CFF FontName, FullName, FamilyName
  fonttools_check.py tablexml TAG FONT...   {font: fontTools' XML of its table TAG (first face)}
"""
import io
import json
import sys

from fontTools.pens.recordingPen import RecordingPen
from fontTools.ttLib import TTCollection, TTFont


def faces(path):
    with open(path, "rb") as f:
        magic = f.read(4)
    if magic == b"ttcf":
        return list(TTCollection(path, lazy=True).fonts)
    return [TTFont(path, lazy=True)]


def outline(font, glyph_name):
    if "glyf" in font:
        g = font["glyf"][glyph_name]
        if g.isComposite():
            return ("composite", [(c.glyphName, c.x, c.y) for c in g.components])
        coords, ends, flags = g.getCoordinates(font["glyf"])
        return ("simple", list(coords), list(ends), [f & 1 for f in flags])
    pen = RecordingPen()
    font.getGlyphSet()[glyph_name].draw(pen)
    return ("cff", pen.value)


def caps(path):
    result = []
    for font in faces(path):
        cmap = font.getBestCmap()
        hmtx = font["hmtx"]
        bad = []
        for lower, upper in zip("abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ"):
            a, A = cmap.get(ord(lower)), cmap.get(ord(upper))
            if a is None or A is None:
                continue
            if outline(font, a) != outline(font, A):
                bad.append(lower + ": outline differs")
            if hmtx[a] != hmtx[A]:
                bad.append("%s: hmtx %s != %s" % (lower, hmtx[a], hmtx[A]))
        result.append({"problems": bad})
    return result


def field(path, table, name):
    return [getattr(font[table], name) for font in faces(path)]


def names(path):
    out = []
    for font in faces(path):
        out.append({
            "debug": {str(i): font["name"].getDebugName(i) for i in (1, 4, 6, 16)},
            "records": [[r.platformID, r.platEncID, r.langID, r.nameID, r.toUnicode()] for r in font["name"].names],
        })
    return out


def order(path):
    return [font.getGlyphOrder() for font in faces(path)]


def gvar(path):
    out = []
    for font in faces(path):
        out.append({g: [[sorted(v.axes.items()), [list(c) if c else None for c in v.coordinates]] for v in vs]
                    for g, vs in font["gvar"].variations.items()})
    return out


def cffnames(path):
    out = []
    for font in faces(path):
        cff = font["CFF "].cff
        top = cff.topDictIndex[0]
        out.append([cff.fontNames[0], getattr(top, "FullName", None), getattr(top, "FamilyName", None)])
    return out


def tablexml(tag, paths):
    """What fontTools decompiles each font's table to, as XML (its own version line left out)."""
    out = {}
    for path in paths:
        buffer = io.StringIO()
        TTFont(path, fontNumber=0).saveXML(buffer, tables=[tag])
        out[path] = "\n".join(l for l in buffer.getvalue().splitlines() if "ttLibVersion" not in l)
    return out


if __name__ == "__main__":
    command, path = sys.argv[1], sys.argv[2]
    if command == "tablexml":
        print(json.dumps(tablexml(path, sys.argv[3:])))
    elif command == "caps":
        print(json.dumps(caps(path)))
    elif command == "field":
        print(json.dumps(field(path, sys.argv[3], sys.argv[4])))
    elif command == "names":
        print(json.dumps(names(path)))
    elif command == "order":
        print(json.dumps(order(path)))
    elif command == "gvar":
        print(json.dumps(gvar(path)))
    elif command == "cffnames":
        print(json.dumps(cffnames(path)))
    else:
        sys.exit("unknown command " + command)
