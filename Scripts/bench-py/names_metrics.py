"""The Python baseline of Examples/batch/names-and-metrics.lua: a loop over every font under a
folder, fontTools loading lazily, reading the same names and metrics of every face."""
import json, os, sys
from fontTools.ttLib import TTCollection, TTFont

def faces(path):
    if path.lower().endswith((".ttc", ".otc")):
        return TTCollection(path, lazy=True).fonts
    return [TTFont(path, lazy=True)]

root = sys.argv[1]
paths = sorted(os.path.join(d, f) for d, _, files in os.walk(root, followlinks=True) for f in files
               if f.lower().endswith((".ttf", ".otf", ".ttc")))
for path in paths:
    out = []
    for f in faces(path):
        name, hhea = f["name"], f["hhea"]
        out.append({"postscriptName": name.getDebugName(6), "family": name.getDebugName(16) or name.getDebugName(1),
                    "style": name.getDebugName(17) or name.getDebugName(2), "unitsPerEm": f["head"].unitsPerEm,
                    "ascender": hhea.ascent, "descender": hhea.descent, "lineGap": hhea.lineGap,
                    "glyphs": f["maxp"].numGlyphs})
    print(json.dumps({"path": path, "faces": out}))
