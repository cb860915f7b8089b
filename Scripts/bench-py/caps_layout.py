"""fontTools baseline for the all-caps edit with layout (`fontshell edit --caps`): every face of
a collection gets a-z's outlines and advances from A-Z (glyf fonts; a CFF font's charstrings are
left alone, since decompiling noto-cjk's CFF alone takes minutes), and GSUB, GPOS and GDEF are
decompiled, remapped so each lowercase letter is covered, classed and substituted where its
capital is, and compiled again on save.

The remapping is a lower bound on the work fontshell does: Coverage tables, ClassDefs, the
substitution mappings and PairPos second glyphs are remapped, but the lists a Coverage indexes
(PairSets, mark records) are not reordered to match, so the output is a timing baseline, not a
correct font. Usage: python3 caps_layout.py IN.ttc OUT.ttc"""
import sys
from fontTools.ttLib import TTCollection
from fontTools.ttLib.tables import otBase


def remap(obj, target_of, targets, order, seen):
    if id(obj) in seen:
        return
    seen.add(id(obj))
    name = type(obj).__name__
    if name == "Coverage":
        glyphs = [g for g in obj.glyphs if g not in targets] + [target_of[g] for g in obj.glyphs if g in target_of]
        obj.glyphs = sorted(glyphs, key=order.__getitem__)
        return
    if name == "ClassDef":
        defs = {g: c for g, c in obj.classDefs.items() if g not in targets}
        defs.update({target_of[g]: c for g, c in obj.classDefs.items() if g in target_of})
        obj.classDefs = defs
        return
    if name in ("SingleSubst", "MultipleSubst", "AlternateSubst"):
        m = getattr(obj, "mapping", None) or getattr(obj, "alternates", None) or {}
        for g in [g for g in m if g in targets]:
            del m[g]
        m.update({target_of[g]: v for g, v in list(m.items()) if g in target_of})
        return
    if name == "LigatureSubst":
        ligs = obj.ligatures
        for g in [g for g in ligs if g in targets]:
            del ligs[g]
        ligs.update({target_of[g]: v for g, v in list(ligs.items()) if g in target_of})
        return
    if name == "PairSet":
        records = [r for r in obj.PairValueRecord if r.SecondGlyph not in targets]
        for r in list(records):
            if r.SecondGlyph in target_of:
                copy = otBase.BaseTable.__new__(type(r))
                copy.__dict__.update(r.__dict__)
                copy.SecondGlyph = target_of[r.SecondGlyph]
                records.append(copy)
        obj.PairValueRecord = sorted(records, key=lambda r: order[r.SecondGlyph])
        obj.PairValueCount = len(records)
        return
    values = obj.__dict__.values() if hasattr(obj, "__dict__") else obj if isinstance(obj, list) else ()
    for v in list(values):
        if isinstance(v, (otBase.BaseTable, list)):
            remap(v, target_of, targets, order, seen)


collection = TTCollection(sys.argv[1])
for font in collection.fonts:
    cmap = font.getBestCmap()
    order = {g: i for i, g in enumerate(font.getGlyphOrder())}
    target_of = {}
    for lo, up in zip(range(97, 123), range(65, 91)):
        a, A = cmap.get(lo), cmap.get(up)
        if a and A:
            target_of[A] = a
            if "glyf" in font:
                font["glyf"][a] = font["glyf"][A]
                font["hmtx"][a] = font["hmtx"][A]
    targets = set(target_of.values())
    for tag in ("GDEF", "GSUB", "GPOS"):
        if tag in font:
            table = font[tag].table
            table.ensureDecompiled(recurse=True)
            remap(table, target_of, targets, order, set())
collection.save(sys.argv[2])
