#!/usr/bin/env python3
"""Round trip of a font's layout through a feature file, judged by HarfBuzz.

For each font: `fontshell dump FONT --fea` writes its GSUB/GPOS/GDEF as a feature file; that file
is compiled back into the font by fontshell (`fontshell fea`) and by fontTools' feaLib. Each
result must shape every test string exactly as the original does (`hb-shape`, glyph names,
clusters and positions): strings made from the font's own cmap for each script its layout
covers, with the default features and with each of the font's features turned on alone; a
variable font also with the default features at other places in its design space (axis ends,
all axes at their maximum, a third of the way to it), so variable values and FeatureVariations
are judged too.

Prints one JSON line per font: {"font", "strings", "runs", "fontshell": mismatches,
"feaLib": mismatches, "example": first mismatch}; a font whose file does not compile says why.
Usage: fea_roundtrip.py FONTSHELL FONT[#face] ...
"""

import json
import logging
import os
import random
import subprocess
import sys
import tempfile

from fontTools import unicodedata
from fontTools.ttLib import TTFont

CHUNK = 24


def scripts_and_strings(font):
    """ISO script → test strings made of the font's characters in that script."""
    tags = set()
    features = set()
    for t in ("GSUB", "GPOS"):
        if t in font:
            table = font[t].table
            if table.ScriptList:
                tags.update(r.ScriptTag for r in table.ScriptList.ScriptRecord)
            if table.FeatureList:
                features.update(r.FeatureTag for r in table.FeatureList.FeatureRecord)
    by_script = {}
    for code in sorted(font.getBestCmap() or {}):
        ch = chr(code)
        if unicodedata.category(ch).startswith("C"):
            continue
        iso = unicodedata.script(ch)
        if iso in ("Zyyy", "Zinh", "Zzzz"):
            continue
        if not any(t in tags for t in unicodedata.ot_tags_from_script(iso)):
            continue
        by_script.setdefault(iso, []).append(ch)
    marks = {}
    for code in sorted(font.getBestCmap() or {}):
        ch = chr(code)
        if unicodedata.category(ch) == "Mn":
            marks.setdefault(unicodedata.script(ch), []).append(ch)
    strings = {}
    rng = random.Random(1)
    for iso, chars in by_script.items():
        out = ["".join(chars[i:i + CHUNK]) for i in range(0, len(chars), CHUNK)]
        shuffled = chars[:]
        for _ in range(2):
            rng.shuffle(shuffled)
            out += ["".join(shuffled[i:i + CHUNK]) for i in range(0, len(shuffled), CHUNK)]
        combining = marks.get(iso, []) + marks.get("Zinh", [])
        bases = [c for c in chars if unicodedata.category(c).startswith("L")][:40]
        if combining and bases:
            out += ["".join(b + rng.choice(combining) + rng.choice(combining) for b in bases[i:i + 8]) for i in range(0, len(bases), 8)]
        strings[iso] = out[:200]
    return strings, sorted(features)


def design_locations(font):
    """For a variable font, hb-shape --variations values besides the default: each axis at its
    minimum and at its maximum, every axis at its maximum, and every axis a third of the way
    from its default to its maximum (between masters, where deltas interpolate)."""
    if "fvar" not in font:
        return []
    axes = font["fvar"].axes
    out = []
    for a in axes:
        for v in (a.minValue, a.maxValue):
            if v != a.defaultValue:
                out.append(f"{a.axisTag}={v:g}")
    out.append(",".join(f"{a.axisTag}={a.maxValue:g}" for a in axes))
    out.append(",".join(f"{a.axisTag}={a.defaultValue + (a.maxValue - a.defaultValue) / 3:g}" for a in axes))
    return list(dict.fromkeys(out))


def shape(font_path, face, strings, iso, features, work, variations=None):
    text = os.path.join(work, "strings.txt")
    with open(text, "w", encoding="utf-8") as f:
        f.write("\n".join(s.replace("\n", " ") for s in strings) + "\n")
    args = ["hb-shape", font_path, f"--text-file={text}", f"--script={iso}", f"--face-index={face}"]
    if features:
        args.append(f"--features={features}")
    if variations:
        args.append(f"--variations={variations}")
    r = subprocess.run(args, capture_output=True, text=True)
    return r.stdout.splitlines() if r.returncode == 0 else ["ERROR " + r.stderr.strip()]


def main():
    logging.getLogger("fontTools").setLevel(logging.ERROR)
    fontshell = sys.argv[1]
    for spec in sys.argv[2:]:
        path, _, face = spec.partition("#")
        face = int(face or 0)
        result = {"font": spec}
        with tempfile.TemporaryDirectory() as work:
            fea = os.path.join(work, "layout.fea")
            r = subprocess.run([fontshell, "dump", path, "--fea", "--face", str(face), "-o", fea], capture_output=True, text=True)
            if r.returncode != 0:
                result["error"] = "dump --fea: " + r.stderr.strip()[:300]
                print(json.dumps(result), flush=True)
                continue
            ours = os.path.join(work, "fontshell.ttf")
            r = subprocess.run([fontshell, "fea", path, fea, "--face", str(face), "-o", ours, "--force"], capture_output=True, text=True)
            if r.returncode != 0:
                result["error"] = "fontshell fea: " + r.stderr.strip()[:300]
                ours = None
            theirs = os.path.join(work, "fealib.ttf")
            original = TTFont(path, fontNumber=face, lazy=True)
            single = os.path.join(work, "original.ttf")
            original.save(single)
            r = subprocess.run(["fonttools", "feaLib", "-o", theirs, fea, single], capture_output=True, text=True)
            if r.returncode != 0:
                result["feaLib_error"] = r.stderr.strip().splitlines()[-1][:300] if r.stderr.strip() else "failed"
                theirs = None
            strings, features = scripts_and_strings(TTFont(single))
            # A tag with a space before a letter (DejaVu's ' RQD') cannot be written in a feature
            # file (tags are padded at the end); such features are not compared.
            runs = [(f, None) for f in [""] + [f"+{t.strip()}" for t in features if t.strip() == t.rstrip()]]
            # A variable font is also shaped elsewhere in its design space, with the default features.
            runs += [("", location) for location in design_locations(TTFont(single))]
            counts = {"fontshell": 0, "feaLib": 0}
            total = 0
            for iso, texts in sorted(strings.items()):
                for features_arg, location in runs:
                    expected = shape(single, 0, texts, iso, features_arg, work, location)
                    total += len(texts)
                    for name, candidate in (("fontshell", ours), ("feaLib", theirs)):
                        if candidate is None:
                            continue
                        got = shape(candidate, 0, texts, iso, features_arg, work, location)
                        for k, (a, b) in enumerate(zip(expected, got)):
                            if a != b:
                                counts[name] += 1
                                by_run = result.setdefault("runs_" + name, {})
                                run = (features_arg or "default") + (f" at {location}" if location else "")
                                by_run[run] = by_run.get(run, 0) + 1
                                result.setdefault("example_" + name, f"{iso} {run} {texts[k]!r}: {a[:120]} vs {b[:120]}")
                        counts[name] += abs(len(expected) - len(got))
            result.update({"strings": sum(len(v) for v in strings.values()), "runs": total,
                           "fontshell": counts["fontshell"] if ours else None, "feaLib": counts["feaLib"] if theirs else None})
        print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
