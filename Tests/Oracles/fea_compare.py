#!/usr/bin/env python3
"""Feature files compiled into a font by fontshell and by fontTools' feaLib, compared.

For each feature file: `fontshell fea FONT FILE -o OUT` and feaLib's addOpenTypeFeatures on the
same font; GDEF, GSUB and GPOS of the two results must be equal as XML data (comments aside,
whitespace collapsed). Cases feaLib's own suite does not have go here (a glyph with carets both
by position and by contour point, a named value record with device tables, …).

Prints one JSON line per file: {"file", "ok", "why"}.
Usage: fea_compare.py FONTSHELL FONT FILE.fea ...
"""

import io
import json
import logging
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fealib_conformance import table_elements  # noqa: E402
from ttx_parity import normalized, first_difference  # noqa: E402

from fontTools.feaLib.builder import addOpenTypeFeatures  # noqa: E402
from fontTools.ttLib import TTFont  # noqa: E402


def main():
    logging.getLogger("fontTools").setLevel(logging.ERROR)
    fontshell, font = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out.ttf")
        for fea in sys.argv[3:]:
            result = {"file": os.path.basename(fea)}
            expected = TTFont(font)
            addOpenTypeFeatures(expected, fea)
            r = subprocess.run([fontshell, "fea", font, fea, "-o", out, "--overwrite"], capture_output=True, text=True)
            if r.returncode != 0:
                result.update(ok=False, why="fontshell: " + r.stderr.strip()[:300])
                print(json.dumps(result), flush=True)
                continue
            ours = TTFont(out)
            why = None
            for tag in ("GDEF", "GSUB", "GPOS"):
                if (tag in expected) != (tag in ours):
                    why = f"{tag}: in {'feaLib' if tag in expected else 'fontshell'}'s only"
                    break
                if tag not in expected:
                    continue
                a, b = io.StringIO(), io.StringIO()
                expected.saveXML(a, tables=[tag])
                ours.saveXML(b, tables=[tag])
                d = first_difference(normalized(table_elements(a.getvalue())[tag]), normalized(table_elements(b.getvalue())[tag]))
                if d:
                    why = f"{tag}: {d[:300]}"
                    break
            result.update(ok=why is None, why=why)
            print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
