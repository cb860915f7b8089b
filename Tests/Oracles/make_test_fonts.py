#!/usr/bin/env python3
"""Builds small fonts with fontTools for what the corpus lacks. Usage: make_test_fonts.py KIND OUT
  cff       non-CID CFF (OTTO) with .notdef, A, a, B, b; a and b call a local subroutine
  variable  TrueType with fvar/gvar: A and a have different variation deltas; post format 3
  cff2-variable     CFF2 with fvar (wght, wdth), three regions, blends in stems, hintmasks,
                    curves, lines and the Private DICT's BlueValues, and a second variation data
  cff-fanout        hostile CFF: a calls subr 0, each subr calls the next 60 times, 10 deep
  composite-fanout  hostile TrueType: a is 4 copies of c28, each c(k) 4 copies of c(k-1), c0 a box
  variable-metrics  TrueType with two axes (wght, wdth): each glyph's advance varies along both
                    (gvar moves its right edge and phantom point) and HVAR says the same through
                    an advance map and a left side bearing map (rows shared where glyphs agree)
  variable-metrics-direct   the same with HVAR's rows in glyph order and no maps
  cff2-metrics      cff2-variable with an HVAR (rows in glyph order) whose advances vary per glyph
  variable-clashing hostile variable TrueType: named instances sharing a PostScript name, one
                    named "../../Up" and one ".hidden"
  variable-twice    hostile variable TrueType: fvar lists the axis 'wght' twice
  colr              COLR version 1 with every Paint format (1-32), version 0 layers, clip boxes
                    (formats 1 and 2), a VarIndexMap and a VarStore over a wght axis (with an
                    avar map and a named instance), and CPAL
  colr0             COLR version 0 only (fontTools writes it in its own XML form)
  vtt               VTT's source tables (TSI0-3, TSI5, TSIV/B/D/J/P/S, TSIC)
  svg-sbix          TrueType with an SVG table (a plain and a gzipped document, one shared by a
                    glyph range) and an sbix table (two strikes: PNG images, a 'dupe' reference,
                    glyphs without images), a meta table (dlng, slng and a private entry) and VDMX
                    (two ratio ranges sharing a group, and a second group), EBSC (two scaled sizes)
                    and an AAT feat (two features with settings), and JSTF (two scripts: extender
                    glyphs, a default and a named language system, priorities with GSUB/GPOS
                    lists and JstfMax GPOS lookups, one behind an extension), and an AAT morx with
                    every subtable type (rearrangement, contextual, ligature, non-contextual,
                    insertion) in two chains, reserved bits and every direction and order, and
                    an AAT trak (three horizontal tracks over three sizes, one vertical track),
                    and AAT prop (format 1), opbd (format 0, two glyphs sharing bounds), lcar
                    (format 0), bsln (format 1) and ankr, whose per-glyph data are AAT lookups
  mort      TrueType with an AAT mort (morx's predecessor) of every subtable type in two chains,
            compiled by fontTools from XML, and Apple's CID maps cidg and gcid
  mort-packed       TrueType with a mort assembled byte by byte as older compilers packed it:
                    contextual substitutions as windows that start inside the entry table, end
                    at the subtable's end or hold nothing, ligature components stored with the
                    ligature table's offset added, and fewer ligatures than the actions could reach
"""
import sys

from fontTools.fontBuilder import FontBuilder
from fontTools.misc.psCharStrings import T2CharString
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib.tables.TupleVariation import TupleVariation

BOXES = {".notdef": (500, (50, 0, 450, 700)), "A": (600, (0, 0, 600, 700)), "a": (500, (50, 0, 450, 500)),
         "B": (620, (60, 0, 560, 700)), "b": (520, (60, 0, 460, 720))}
CMAP = {0x41: "A", 0x61: "a", 0x42: "B", 0x62: "b"}


def common(fb, order, boxes=BOXES):
    fb.setupGlyphOrder(order)
    fb.setupCharacterMap(CMAP)
    fb.setupHorizontalMetrics({n: (boxes[n][0], boxes[n][1][0]) for n in order})
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    fb.setupOS2(sTypoAscender=800, sTypoDescender=-200, usWinAscent=800, usWinDescent=200)


def cff(path):
    fb = FontBuilder(1000, isTTF=False)
    order = list(BOXES)
    common(fb, order)
    charstrings = {}
    for name in order:
        w, (x0, y0, x1, y1) = BOXES[name]
        if name in ("a", "b"):
            # Move to the corner, then call local subr 0 (bias 107 -> index -107) for a shared stroke.
            program = [w - 500 + 0, x0, y0, "rmoveto", x1 - x0, "hlineto", -107, "callsubr", y1 - y0, "vlineto", x0 - x1, "hlineto", "endchar"]
        else:
            program = [w - 500, x0, y0, "rmoveto", x1 - x0, y1 - y0, x0 - x1, "hlineto", "endchar"]
        charstrings[name] = T2CharString(program=program)
    subr = T2CharString(program=["return"])
    fb.setupCFF("TestCFF-Regular", {"FullName": "Test CFF", "FamilyName": "Test CFF"}, charstrings,
                {"defaultWidthX": 500, "nominalWidthX": 500})
    fb.font["CFF "].cff.topDictIndex[0].Private.Subrs = fontSubrs = __import__("fontTools.cffLib", fromlist=["SubrsIndex"]).SubrsIndex()
    fontSubrs.append(subr)
    for cs in charstrings.values():
        cs.private = fb.font["CFF "].cff.topDictIndex[0].Private
    fb.setupNameTable({"familyName": "Test CFF", "styleName": "Regular"})
    fb.setupPost()
    fb.save(path)


def box_font(family, keep_glyph_names=True):
    """A TrueType font of BOXES: glyph order, cmap, metrics, outlines, names and post."""
    fb = FontBuilder(1000, isTTF=True)
    order = list(BOXES)
    common(fb, order)
    fb.setupGlyf(box_glyphs(order))
    fb.setupNameTable({"familyName": family, "styleName": "Regular"})
    fb.setupPost(keepGlyphNames=keep_glyph_names)
    return fb, order


def box_glyphs(order, boxes=BOXES):
    """A TrueType rectangle per glyph, its bounds set (for fonts saved without recalculation)."""
    glyphs = {}
    for name in order:
        pen = TTGlyphPen(None)
        x0, y0, x1, y1 = boxes[name][1]
        pen.moveTo((x0, y0)); pen.lineTo((x0, y1)); pen.lineTo((x1, y1)); pen.lineTo((x1, y0)); pen.closePath()
        glyphs[name] = pen.glyph()
        glyphs[name].xMin, glyphs[name].yMin, glyphs[name].xMax, glyphs[name].yMax = x0, y0, x1, y1
    return glyphs


def variable(path, axes=(("wght", 100, 400, 900, "Weight"),), instances=()):
    fb, order = box_font("Test Variable", keep_glyph_names=False)
    fb.setupFvar(axes=list(axes), instances=list(instances))
    deltas = lambda dx: [(dx, 0), (dx, 0), (0, 0), (0, 0), (0, 0), (0, 0), (0, 0), (0, 0)]
    fb.setupGvar({".notdef": [], "A": [TupleVariation({"wght": (0, 1, 1)}, deltas(40))],
                  "a": [TupleVariation({"wght": (0, 1, 1)}, deltas(-7))],
                  "B": [], "b": [TupleVariation({"wght": (-1, -1, 0)}, deltas(3))]})
    fb.save(path)


# Advance deltas per glyph at the wght maximum and the wdth minimum.
ADVANCE_DELTAS = {".notdef": (0, 0), "A": (60, -40), "a": (30, -20), "B": (50, -30), "b": (20, -10)}


def add_hvar(font, order, mapped):
    """HVAR from ADVANCE_DELTAS over the regions wght up and wdth down: rows in glyph order, or
    (mapped) one row per distinct pair of deltas reached through AdvWidthMap, plus an LsbMap."""
    from fontTools.ttLib import newTable
    from fontTools.ttLib.tables import otTables as ot
    from fontTools.varLib import builder
    regions = builder.buildVarRegionList([{"wght": (0, 1, 1)}, {"wdth": (-1, -1, 0)}], ["wght", "wdth"])
    hvar = ot.HVAR()
    hvar.Version = 0x00010000
    hvar.AdvWidthMap = hvar.LsbMap = hvar.RsbMap = None
    rows = [list(ADVANCE_DELTAS[n]) for n in order]
    if mapped:
        distinct = sorted({tuple(r) for r in rows})
        data = builder.buildVarData([0, 1], [list(r) for r in distinct], optimize=False)
        hvar.AdvWidthMap = builder.buildVarIdxMap([distinct.index(tuple(r)) for r in rows], order)
        # Side bearings do not vary: every glyph to a row of zeros (added last).
        data.Item.append([0, 0]); data.ItemCount += 1
        hvar.LsbMap = builder.buildVarIdxMap([len(distinct)] * len(order), order)
    else:
        data = builder.buildVarData([0, 1], rows, optimize=False)
    hvar.VarStore = builder.buildVarStore(regions, [data])
    font["HVAR"] = newTable("HVAR")
    font["HVAR"].table = hvar


def variable_metrics(path, mapped=True):
    fb, order = box_font("Test Variable Metrics")
    fb.setupFvar(axes=[("wght", 100, 400, 900, "Weight"), ("wdth", 50, 100, 100, "Width")], instances=[])
    # The right edge (points 2, 3) and the advance's phantom point (5) move by the advance delta.
    right = lambda d: [(0, 0), (0, 0), (d, 0), (d, 0), (0, 0), (d, 0), (0, 0), (0, 0)]
    fb.setupGvar({n: [TupleVariation({"wght": (0, 1, 1)}, right(ADVANCE_DELTAS[n][0])),
                      TupleVariation({"wdth": (-1, -1, 0)}, right(ADVANCE_DELTAS[n][1]))] for n in order})
    add_hvar(fb.font, order, mapped)
    fb.save(path)


def cff2_metrics(path):
    cff2_variable(path)
    from fontTools.ttLib import TTFont
    font = TTFont(path)
    add_hvar(font, font.getGlyphOrder(), mapped=False)
    font.save(path)


def cff2_variable(path):
    """Glyphs whose every kind of charstring value varies: stems and their hintmasks, moves,
    lines, curves (three regions: wght up, wght down, wdth down), B on a second variation data
    with only the wght regions; BlueValues blended too."""
    fb = FontBuilder(1000, isTTF=False)
    order = list(BOXES)
    common(fb, order)
    regions = [{"wght": (0, 1, 1)}, {"wght": (-1, -1, 0)}, {"wdth": (-1, -1, 0)}]

    def blend(*values):
        # values: (default, d_wght_up, d_wght_down, d_wdth_down) each; all blended at once.
        return [v[0] for v in values] + [d for v in values for d in v[1:]] + [len(values), "blend"]

    def box(x0, y0, x1, y1, grow):
        program = blend((y0, 0, 0, 0), (y1 - y0, grow, -grow // 2, 0)) + ["hstemhm"]
        program += blend((x0, 0, 0, 0), (40, grow, -10, -5), (x1 - x0 - 80, -grow, 10, -20), (40, grow, -10, -5)) + ["vstemhm"]
        program += ["hintmask", bytes([0xE0])]
        program += blend((x0, 0, 0, 5), (y0, 0, 0, 0)) + ["rmoveto"]
        program += blend((x1 - x0, grow, -grow // 3, -30)) + ["hlineto"]
        program += blend((0, 0, 0, 0), (y1 - y0 - 100, grow, -7, 0)) + ["rlineto"]
        program += ["hintmask", bytes([0xA0])]
        program += blend((0, 0, 0, 0), (60, 3, -2, 0), (-40, -grow, 5, 10), (40, 2, 0, 0), (-60, -3, 1, -4), (0, 0, 0, 0)) + ["rrcurveto"]
        program += blend((x0 - x1 + 40, -grow, grow // 3, 25)) + ["hlineto"]
        return program

    charstrings = {}
    for name in order:
        x0, y0, x1, y1 = BOXES[name][1]
        program = box(x0, y0, x1, y1, {"A": 60, "a": 35, "B": 50, "b": 20, ".notdef": 0}[name])
        if name == "B":
            # Variation data 1 has only the two wght regions: drop the wdth deltas.
            out, i = [], 0
            while i < len(program):
                if program[i] == "blend":
                    n = out.pop()
                    values = out[-4 * n:]; del out[-4 * n:]
                    defaults, deltas = values[:n], values[n:]
                    out += defaults + [d for k in range(n) for d in deltas[3 * k:3 * k + 2]] + [n, "blend"]
                else:
                    out.append(program[i])
                i += 1
            program = [1, "vsindex"] + out
        charstrings[name] = T2CharString(program=program)
    fb.setupNameTable({"familyName": "Test CFF2 Variable", "styleName": "Regular", "psName": "TestCFF2Variable-Regular"})
    fb.setupFvar(axes=[("wght", 100, 400, 900, "Weight"), ("wdth", 50, 100, 100, "Width")], instances=[])
    fb.setupCFF2(charstrings, regions=regions)
    cff2 = fb.font["CFF2"].cff
    store = cff2.topDictIndex[0].VarStore.otVarStore
    import copy
    second = copy.deepcopy(store.VarData[0])
    second.VarRegionIndex = [0, 1]
    second.VarRegionCount = 2
    store.VarData.append(second)
    store.VarDataCount = len(store.VarData)
    private = cff2.topDictIndex[0].FDArray[0].Private
    # Each value with its deltas per region of variation data 0 (x-height and cap height move).
    private.BlueValues = [[-12, 0, 0, 0], [0, 0, 0, 0], [500, 12, -6, 0], [512, 14, -7, 0], [700, 9, -4, 0], [712, 9, -4, 0]]
    private.rawDict["BlueValues"] = private.BlueValues
    fb.setupPost()
    fb.save(path)


def cff_fanout(path):
    fb = FontBuilder(1000, isTTF=False)
    order = list(BOXES)
    common(fb, order)
    charstrings = {name: T2CharString(program=[BOXES[name][0] - 500, 10, 10, "rmoveto", 100, 100, "rlineto", "endchar"]) for name in order}
    charstrings["a"] = T2CharString(program=[0, 10, 10, "rmoveto", -107, "callsubr", "endchar"])
    fb.setupCFF("FanOut-Regular", {"FullName": "Fan Out", "FamilyName": "Fan Out"}, charstrings,
                {"defaultWidthX": 500, "nominalWidthX": 500})
    private = fb.font["CFF "].cff.topDictIndex[0].Private
    private.Subrs = subrs = __import__("fontTools.cffLib", fromlist=["SubrsIndex"]).SubrsIndex()
    for i in range(10):
        body = [1, 1, "rlineto"] if i == 9 else [i + 1 - 107, "callsubr"] * 60
        subrs.append(T2CharString(program=body + ["return"]))
    for cs in charstrings.values():
        cs.private = private
    fb.setupNameTable({"familyName": "Fan Out", "styleName": "Regular", "psName": "FanOut-Regular"})
    fb.setupPost()
    fb.font.recalcBBoxes = False   # fontTools would run the charstrings too
    fb.save(path)


def composite_fanout(path):
    from fontTools.ttLib.tables._g_l_y_f import GlyphComponent, Glyph
    fb = FontBuilder(1000, isTTF=True)
    levels = [f"c{k}" for k in range(29)]
    order = list(BOXES) + levels
    boxes = dict(BOXES, **{n: (500, (0, 0, 100, 100)) for n in levels})
    fb.setupGlyphOrder(order)
    fb.setupCharacterMap(CMAP)
    fb.setupHorizontalMetrics({n: (boxes[n][0], 0) for n in order})
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    fb.setupOS2(sTypoAscender=800, sTypoDescender=-200, usWinAscent=800, usWinDescent=200)
    glyphs = box_glyphs(order, boxes)
    def composite(base):
        g = Glyph()
        g.numberOfContours = -1
        g.components = []
        for k in range(4):
            c = GlyphComponent()
            c.glyphName, c.x, c.y, c.flags = base, 10 * k, 0, 0x4
            g.components.append(c)
        g.xMin = g.yMin = 0; g.xMax = g.yMax = 100
        return g
    for k in range(1, 29):
        glyphs[f"c{k}"] = composite(f"c{k - 1}")
    glyphs["a"] = composite("c28")
    fb.setupGlyf(glyphs, calcGlyphBounds=False)
    fb.setupNameTable({"familyName": "Fan Out TT", "styleName": "Regular", "psName": "FanOutTT-Regular"})
    fb.setupPost()
    fb.font.recalcBBoxes = False
    fb.save(path)


def colr(path, version0_only=False):
    from fontTools.colorLib.builder import buildCOLR, buildCPAL
    from fontTools.ttLib.tables import otTables as ot
    from fontTools.varLib.builder import buildVarRegionList, buildVarData, buildVarStore
    extra = [f"c{k}" for k in range(1, 12)]
    order = list(BOXES) + extra
    boxes = dict(BOXES, **{n: (500, (0, 0, 400, 600)) for n in extra})
    fb = FontBuilder(1000, isTTF=True)
    common(fb, order, boxes)
    fb.setupGlyf(box_glyphs(order, boxes))
    fb.setupNameTable({"familyName": "Colour Test", "styleName": "Regular", "psName": "ColourTest-Regular"})
    fb.setupPost()
    fb.font["CPAL"] = buildCPAL([[(1, 0, 0, 1), (0, 0, 1, 1), (0, 0.5, 0, 0.5)]])
    v0 = {"A": [("a", 0), ("b", 1)], "B": [("b", 2), ("a", 0xFFFF)]}
    if version0_only:
        fb.font["COLR"] = buildCOLR(v0)
        fb.save(path)
        return
    fb.setupFvar([("wght", 100, 400, 900, "Weight")], [{"location": {"wght": 700}, "stylename": "Bold"}])
    avar = __import__("fontTools.ttLib", fromlist=["newTable"]).newTable("avar")
    avar.segments = {"wght": {-1.0: -1.0, 0.0: 0.0, 0.5: 0.25, 1.0: 1.0}}
    fb.font["avar"] = avar
    solid = {"Format": ot.PaintFormat.PaintSolid, "PaletteIndex": 0, "Alpha": 0.75}
    var_solid = {"Format": ot.PaintFormat.PaintVarSolid, "PaletteIndex": 1, "Alpha": 0.5, "VarIndexBase": 0}
    def line(varying):
        stop = {"StopOffset": 0.0, "PaletteIndex": 0, "Alpha": 1.0}
        end = {"StopOffset": 1.0, "PaletteIndex": 1, "Alpha": 0.25}
        if varying:
            stop, end = dict(stop, VarIndexBase=1), dict(end, VarIndexBase=0xFFFFFFFF)
        return {"Extend": "reflect" if varying else "pad", "ColorStop": [stop, end]}
    def glyph(paint, name="a"):
        return {"Format": ot.PaintFormat.PaintGlyph, "Paint": paint, "Glyph": name}
    F = ot.PaintFormat
    paints = [
        glyph(solid), glyph(var_solid, "b"),
        glyph({"Format": F.PaintLinearGradient, "ColorLine": line(False), "x0": 0, "y0": 0, "x1": 400, "y1": 0, "x2": 0, "y2": 600}),
        glyph({"Format": F.PaintVarLinearGradient, "ColorLine": line(True), "x0": 0, "y0": 0, "x1": 400, "y1": 10, "x2": 5, "y2": 600, "VarIndexBase": 2}),
        glyph({"Format": F.PaintRadialGradient, "ColorLine": line(False), "x0": 200, "y0": 300, "r0": 0, "x1": 200, "y1": 300, "r1": 250}),
        glyph({"Format": F.PaintVarRadialGradient, "ColorLine": line(True), "x0": 200, "y0": 300, "r0": 10, "x1": 210, "y1": 300, "r1": 250, "VarIndexBase": 0}),
        glyph({"Format": F.PaintSweepGradient, "ColorLine": line(False), "centerX": 200, "centerY": 300, "startAngle": 0.0, "endAngle": 360.0}),
        glyph({"Format": F.PaintVarSweepGradient, "ColorLine": line(True), "centerX": 200, "centerY": 300, "startAngle": -90.0, "endAngle": 45.5, "VarIndexBase": 1}),
    ]
    transforms = [
        {"Format": F.PaintTransform, "Paint": glyph(solid), "Transform": {"xx": 1.5, "yx": 0.0, "xy": 0.25, "yy": 1.0, "dx": 10.0, "dy": -20.5}},
        {"Format": F.PaintVarTransform, "Paint": glyph(solid), "Transform": {"xx": 1.0, "yx": 0.5, "xy": 0.0, "yy": 1.0, "dx": 0.0, "dy": 0.0, "VarIndexBase": 0}},
        {"Format": F.PaintTranslate, "Paint": glyph(solid), "dx": 30, "dy": -40},
        {"Format": F.PaintVarTranslate, "Paint": glyph(solid), "dx": 30, "dy": -40, "VarIndexBase": 1},
        {"Format": F.PaintScale, "Paint": glyph(solid), "scaleX": 1.25, "scaleY": 0.5},
        {"Format": F.PaintVarScale, "Paint": glyph(solid), "scaleX": 1.25, "scaleY": 0.5, "VarIndexBase": 0},
        {"Format": F.PaintScaleAroundCenter, "Paint": glyph(solid), "scaleX": 1.25, "scaleY": 0.5, "centerX": 100, "centerY": 200},
        {"Format": F.PaintVarScaleAroundCenter, "Paint": glyph(solid), "scaleX": 1.25, "scaleY": 0.5, "centerX": 100, "centerY": 200, "VarIndexBase": 0},
        {"Format": F.PaintScaleUniform, "Paint": glyph(solid), "scale": 0.75},
        {"Format": F.PaintVarScaleUniform, "Paint": glyph(solid), "scale": 0.75, "VarIndexBase": 1},
        {"Format": F.PaintScaleUniformAroundCenter, "Paint": glyph(solid), "scale": 0.75, "centerX": 10, "centerY": 20},
        {"Format": F.PaintVarScaleUniformAroundCenter, "Paint": glyph(solid), "scale": 0.75, "centerX": 10, "centerY": 20, "VarIndexBase": 0},
        {"Format": F.PaintRotate, "Paint": glyph(solid), "angle": 33.75},
        {"Format": F.PaintVarRotate, "Paint": glyph(solid), "angle": -120.0, "VarIndexBase": 0},
        {"Format": F.PaintRotateAroundCenter, "Paint": glyph(solid), "angle": 10.0, "centerX": 200, "centerY": 300},
        {"Format": F.PaintVarRotateAroundCenter, "Paint": glyph(solid), "angle": 10.0, "centerX": 200, "centerY": 300, "VarIndexBase": 1},
        {"Format": F.PaintSkew, "Paint": glyph(solid), "xSkewAngle": 12.5, "ySkewAngle": -5.0},
        {"Format": F.PaintVarSkew, "Paint": glyph(solid), "xSkewAngle": 12.5, "ySkewAngle": 0.0, "VarIndexBase": 0},
        {"Format": F.PaintSkewAroundCenter, "Paint": glyph(solid), "xSkewAngle": 12.5, "ySkewAngle": -5.0, "centerX": 1, "centerY": 2},
        {"Format": F.PaintVarSkewAroundCenter, "Paint": glyph(solid), "xSkewAngle": 12.5, "ySkewAngle": -5.0, "centerX": 1, "centerY": 2, "VarIndexBase": 1},
    ]
    composite = {"Format": F.PaintComposite, "SourcePaint": glyph(solid), "CompositeMode": "multiply", "BackdropPaint": glyph(var_solid, "b")}
    v1 = {
        "a": (F.PaintColrLayers, paints[:4]),
        "b": (F.PaintColrLayers, paints[4:] + [composite]),
        "c1": (F.PaintColrLayers, transforms[:7]),
        "c2": (F.PaintColrLayers, transforms[7:14]),
        "c3": (F.PaintColrLayers, transforms[14:]),
        "c4": {"Format": F.PaintColrGlyph, "Glyph": "a"},
        "c5": composite,
        "c6": paints[0],
    }
    regions = buildVarRegionList([{"wght": (0, 1.0, 1.0)}, {"wght": (-1.0, -1.0, 0)}], ["wght"])
    store = buildVarStore(regions, [buildVarData([0, 1], [[100, -50], [2000, 0], [-300, 300], [0, 16384], [5, 5], [1, 2]])])
    var_map = ot.DeltaSetIndexMap()
    var_map.mapping = [0, 1, 2, 3, 0xFFFFFFFF, 5]
    colour = dict(v0, **v1)
    clips = {"a": (0, 0, 400, 600), "b": (0, 0, 400, 600), "c1": (0, -10, 410, 600), "c4": (0, 0, 400, 600),
             "c5": ot.ClipBox(), "c6": (1, 2, 3, 4)}
    clip = ot.ClipBox(); clip.Format = 2; clip.xMin, clip.yMin, clip.xMax, clip.yMax, clip.VarIndexBase = -5, -5, 405, 605, 3
    clips["c5"] = clip
    # Built without the store first: fontTools splits version 0 layers out only then.
    table = buildCOLR(colour, clipBoxes=clips, glyphMap=fb.font.getReverseGlyphMap())
    table.table.VarStore, table.table.VarIndexMap = store, var_map
    fb.font["COLR"] = table
    fb.save(path)


def variable_clashing(path):
    named = [(400, "Regular", "Same-Name"), (700, "Bold", "Same-Name"), (800, "Heavy", "Same-name"),
             (900, "Black", "../../Up"), (200, "Light", ".hidden")]
    variable(path, instances=[{"location": {"wght": w}, "stylename": style, "postscriptfontname": ps} for w, style, ps in named])


def variable_twice(path):
    variable(path, axes=(("wght", 100, 400, 900, "Weight"), ("wght", 0, 0, 10, "Weight again")),
             instances=[{"location": {"wght": 700}, "stylename": "Bold"}])


def svg_sbix(path):
    from fontTools.ttLib import newTable
    from fontTools.ttLib.tables.S_V_G_ import SVGDocument
    from fontTools.ttLib.tables.sbixStrike import Strike
    from fontTools.ttLib.tables.sbixGlyph import Glyph
    fb, order = box_font("Test Colour")
    svg = newTable("SVG ")
    doc = '<svg xmlns="http://www.w3.org/2000/svg" id="glyph{}"><rect width="500" height="700" fill="#c00"/></svg>'
    repeated = "".join('<rect x="{0}" width="10" height="700" fill="#c00"/>'.format(10 * k) for k in range(30))
    svg.docList = [SVGDocument(doc.format(1), 1, 1), SVGDocument(doc.format(2).replace("</svg>", repeated + "</svg>") + "\n<!-- gzipped -->", 2, 4, compressed=True)]
    fb.font["SVG "] = svg
    sbix = newTable("sbix")
    png = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000") + bytes(range(40))
    for ppem, resolution in ((20, 72), (40, 144)):
        strike = Strike(ppem=ppem, resolution=resolution)
        strike.glyphs["A"] = Glyph(glyphName="A", graphicType="png ", imageData=png + bytes([ppem]), originOffsetX=2, originOffsetY=-3)
        strike.glyphs["a"] = Glyph(glyphName="a", graphicType="png ", imageData=png)
        strike.glyphs["B"] = Glyph(glyphName="B", graphicType="dupe", referenceGlyphName="A")
        sbix.strikes[ppem] = strike
    fb.font["sbix"] = sbix
    meta = newTable("meta")
    meta.data = {"dlng": "Latn, Grek", "slng": "Latn, Grek, Cyrl", "Xtst": b"private\x00\x01"}
    fb.font["meta"] = meta
    vdmx = newTable("VDMX")
    vdmx.version = 1
    vdmx.ratRanges = [{"bCharSet": 1, "xRatio": 0, "yStartRatio": 0, "yEndRatio": 0, "groupIndex": 0},
                      {"bCharSet": 1, "xRatio": 1, "yStartRatio": 1, "yEndRatio": 1, "groupIndex": 1},
                      {"bCharSet": 0, "xRatio": 2, "yStartRatio": 1, "yEndRatio": 3, "groupIndex": 0}]
    vdmx.groups = [{8: (7, -2), 9: (8, -2), 10: (9, -3)}, {12: (10, -3), 14: (12, -4)}]
    fb.font["VDMX"] = vdmx
    from fontTools.ttLib.tables.E_B_S_C_ import BitmapScaleTable
    from fontTools.ttLib.tables.E_B_L_C_ import SbitLineMetrics
    ebsc = newTable("EBSC")
    ebsc.version = 2.0
    ebsc.bitmapScaleTables = []
    for k, (ppem, source) in enumerate(((9, 12), (11, 12))):
        lines = []
        for sign in (1, -1):
            m = SbitLineMetrics()
            for i, name in enumerate(("ascender", "descender", "widthMax", "caretSlopeNumerator", "caretSlopeDenominator", "caretOffset",
                                      "minOriginSB", "minAdvanceSB", "maxBeforeBL", "minAfterBL", "pad1", "pad2")):
                setattr(m, name, (ppem - i) * sign if name != "widthMax" else ppem + i)
            lines.append(m)
        ebsc.bitmapScaleTables.append(BitmapScaleTable(lines[0], lines[1], ppem, ppem, source, source + k))
    fb.font["EBSC"] = ebsc
    from fontTools.ttLib.tables import otTables
    feat = newTable("feat")
    feat.table = otTables.feat()
    feat.table.Version = 0x00010000
    names = otTables.FeatureNames()
    names.Reserved1, names.Reserved2, names.FeatureName = 0, 0, []
    for k, (kind, values) in enumerate(((1, (0, 2)), (14, (0, 1, 4)))):
        f = otTables.FeatureName()
        f.FeatureType, f.FeatureFlags, f.FeatureNameID = kind, 0x8000 | k, 256 + k
        f.Settings = otTables.Settings()
        f.Settings.Setting = []
        for v in values:
            s = otTables.Setting()
            s.SettingValue, s.SettingNameID = v, 260 + v
            f.Settings.Setting.append(s)
        f.SettingsCount = len(values)
        names.FeatureName.append(f)
    names.FeatureNameCount = len(names.FeatureName)
    feat.table.FeatureNames = names
    fb.font["feat"] = feat
    import io
    import tempfile
    jstf = """<ttFont><JSTF><Version value="0x00010000"/>
      <JstfScriptRecord index="0"><JstfScriptTag value="arab"/><JstfScript>
        <ExtenderGlyph><ExtenderGlyph index="0" value="a"/><ExtenderGlyph index="1" value="b"/></ExtenderGlyph>
        <DefJstfLangSys><JstfPriority index="0">
          <ShrinkageEnableGSUB><GSUBLookupIndex index="0" value="2"/><GSUBLookupIndex index="1" value="5"/></ShrinkageEnableGSUB>
          <ExtensionDisableGPOS><GPOSLookupIndex index="0" value="1"/></ExtensionDisableGPOS>
          <ShrinkageJstfMax><Lookup index="0"><LookupType value="1"/><LookupFlag value="8"/>
            <SinglePos index="0" Format="1"><Coverage><Glyph value="a"/><Glyph value="b"/></Coverage>
              <ValueFormat value="4"/><Value XAdvance="-40"/></SinglePos></Lookup></ShrinkageJstfMax>
        </JstfPriority><JstfPriority index="1">
          <ExtensionEnableGSUB><GSUBLookupIndex index="0" value="3"/></ExtensionEnableGSUB>
          <ExtensionJstfMax><Lookup index="0"><LookupType value="9"/><LookupFlag value="0"/>
            <ExtensionPos index="0" Format="1"><ExtensionLookupType value="1"/>
              <SinglePos Format="2"><Coverage><Glyph value="A"/><Glyph value="B"/></Coverage><ValueFormat value="4"/>
                <Value index="0" XAdvance="120"/><Value index="1" XAdvance="90"/></SinglePos></ExtensionPos></Lookup></ExtensionJstfMax>
        </JstfPriority></DefJstfLangSys>
        <JstfLangSysRecord index="0"><JstfLangSysTag value="URD "/><JstfLangSys><JstfPriority index="0">
          <ShrinkageDisableGSUB><GSUBLookupIndex index="0" value="0"/></ShrinkageDisableGSUB>
        </JstfPriority></JstfLangSys></JstfLangSysRecord>
      </JstfScript></JstfScriptRecord>
      <JstfScriptRecord index="1"><JstfScriptTag value="latn"/><JstfScript>
        <ExtenderGlyph><ExtenderGlyph index="0" value="A"/></ExtenderGlyph>
      </JstfScript></JstfScriptRecord>
    </JSTF></ttFont>"""
    with tempfile.NamedTemporaryFile("w", suffix=".ttx", delete=False) as xml:
        xml.write(jstf)
    fb.font.importXML(xml.name)
    with tempfile.NamedTemporaryFile("w", suffix=".ttx", delete=False) as xml:
        xml.write(morx_xml())
    fb.font.importXML(xml.name)
    from fontTools.ttLib.tables._t_r_a_k import TrackData, TrackTableEntry
    trak = newTable("trak")
    trak.version, trak.format = 1.0, 0
    trak.horizData = TrackData({-1.0: TrackTableEntry({9.0: -15, 12.0: -7, 24.5: -2}, nameIndex=2),
                                0.0: TrackTableEntry({9.0: 0, 12.0: 0, 24.5: 0}, nameIndex=1),
                                1.0: TrackTableEntry({9.0: 20, 12.0: 12, 24.5: 4}, nameIndex=300)})
    trak.vertData = TrackData({0.0: TrackTableEntry({10.0: 3}, nameIndex=1)})
    fb.font["trak"] = trak
    with tempfile.NamedTemporaryFile("w", suffix=".ttx", delete=False) as xml:
        xml.write(aat_lookup_tables_xml())
    fb.font.importXML(xml.name)
    fb.save(path)


def aat_lookup_tables_xml():
    """AAT prop, opbd, lcar, bsln and ankr (their per-glyph data in AAT lookups; ankr's b shares
    A's anchors), as fontTools' XML."""
    deltas = "".join('<Delta index="{}" value="{}"/>'.format(k, 10 * k if k < 4 else 0) for k in range(32))
    return """<ttFont>
    <prop><Version value="3.0"/><GlyphProperties Format="1"><DefaultProperties value="0"/><Properties>
      <Lookup glyph="A" value="11"/><Lookup glyph="a" value="10"/><Lookup glyph="B" value="24587"/><Lookup glyph="b" value="10"/>
    </Properties></GlyphProperties></prop>
    <opbd><Version value="0x00010000"/><OpticalBounds Format="0"><OpticalBoundsDeltas>
      <Lookup glyph="A"><Left value="-10"/><Top value="15"/><Right value="0"/><Bottom value="0"/></Lookup>
      <Lookup glyph="b"><Left value="-50"/><Top value="5"/><Right value="55"/><Bottom value="-5"/></Lookup>
      <Lookup glyph="B"><Left value="-10"/><Top value="15"/><Right value="0"/><Bottom value="0"/></Lookup>
    </OpticalBoundsDeltas></OpticalBounds></opbd>
    <lcar><Version value="0x00010000"/><LigatureCarets Format="0"><Carets>
      <Lookup glyph="a"><DivisionPoint index="0" value="239"/><DivisionPoint index="1" value="472"/></Lookup>
      <Lookup glyph="B"><DivisionPoint index="0" value="220"/></Lookup>
    </Carets></LigatureCarets></lcar>
    <bsln><Version value="0x00010000"/><Baseline Format="1"><DefaultBaseline value="0"/>""" + deltas + """
      <BaselineValues><Lookup glyph="a" value="1"/><Lookup glyph="b" value="1"/><Lookup glyph="B" value="2"/></BaselineValues>
    </Baseline></bsln>
    <ankr><AnchorPoints Format="0"><Flags value="0"/><Anchors>
      <Lookup glyph="A"><AnchorPoint index="0"><XCoordinate value="300"/><YCoordinate value="700"/></AnchorPoint>
        <AnchorPoint index="1"><XCoordinate value="-20"/><YCoordinate value="0"/></AnchorPoint></Lookup>
      <Lookup glyph="a"><AnchorPoint index="0"><XCoordinate value="250"/><YCoordinate value="500"/></AnchorPoint></Lookup>
      <Lookup glyph="b"><AnchorPoint index="0"><XCoordinate value="300"/><YCoordinate value="700"/></AnchorPoint>
        <AnchorPoint index="1"><XCoordinate value="-20"/><YCoordinate value="0"/></AnchorPoint></Lookup>
    </Anchors></AnchorPoints></ankr>
    </ttFont>"""


def morx_xml(legacy=False):
    """A morx (or, legacy, a mort) over A a B b with every subtable type, as fontTools' XML."""
    def machine(classes, states, extra=""):
        out = "<StateTable>" + "".join('<GlyphClass glyph="%s" value="%d"/>' % g for g in classes)
        for k, row in enumerate(states):
            out += '<State index="%d">' % k
            for cls, body in enumerate(row):
                out += '<Transition onGlyphClass="%d">%s</Transition>' % (cls, body)
            out += "</State>"
        return out + extra + "</StateTable>"

    def subtable(kind, body, direction="Horizontal", order="LayoutOrder", reserved=None, flags="0x00000001"):
        if legacy:
            coverage = {"Horizontal": 0, "Vertical": 0x80, "Any": 0x20}[direction] | {"LayoutOrder": 0, "ReversedLayoutOrder": 0x40,
                                                                                    "LogicalOrder": 0x10, "ReversedLogicalOrder": 0x50}[order]
            return ('<MorphSubtable><CoverageFlags value="%d"/><SubFeatureFlags value="%s"/><%s>%s</%s></MorphSubtable>'
                    % (coverage | (1 if reserved else 0), flags, kind, body, kind))
        res = '<Reserved value="%s"/>' % reserved if reserved else ""
        return ('<MorphSubtable><TextDirection value="%s"/><ProcessingOrder value="%s"/>%s<SubFeatureFlags value="%s"/>'
                '<%s>%s</%s></MorphSubtable>' % (direction, order, res, flags, kind, body, kind))

    plain = '<NewState value="0"/>'
    rearrangement = machine([("A", 4), ("B", 5)], [
        [plain + '<Verb value="0"/>'] * 4 + ['<NewState value="1"/><Flags value="MarkFirst"/><Verb value="0"/>', plain + '<Verb value="0"/>'],
        [plain + '<Verb value="0"/>'] * 4 + ['<NewState value="1"/><Flags value="DontAdvance,MarkLast"/><ReservedFlags value="0x0010"/><Verb value="3"/>',
                                             '<NewState value="0"/><Flags value="MarkLast"/><Verb value="15"/>']])
    ctx = lambda mark, cur, more="": '<NewState value="0"/>%s<MarkIndex value="%d"/><CurrentIndex value="%d"/>' % (more, mark, cur)
    contextual = machine([("a", 4), ("b", 4), ("B", 5)], [
        [ctx(65535, 65535)] * 4 + [ctx(65535, 65535, '<Flags value="SetMark"/>'), ctx(0, 1, '<ReservedFlags value="0x0003"/>')],
        [ctx(65535, 65535)] * 5 + [ctx(1, 65535, '<Flags value="SetMark,DontAdvance"/>')]],
        '<PerGlyphLookup index="0"><Lookup glyph="a" value="b"/><Lookup glyph="b" value="a"/></PerGlyphLookup>'
        '<PerGlyphLookup index="1"><Lookup glyph="B" value="A"/></PerGlyphLookup>')
    lig = lambda state, more="": '<NewState value="%d"/>%s' % (state, more)
    ligature = machine([("A", 4), ("a", 5)], [
        [lig(0)] * 4 + [lig(1, '<Flags value="SetComponent"/>'), lig(0)],
        [lig(0)] * 4 + [lig(1, '<Flags value="SetComponent"/>'),
                        lig(0, '<Flags value="SetComponent"/><Action GlyphIndexDelta="-3"/><Action GlyphIndexDelta="2" Flags="Store"/>')],
        [lig(0)] * 5 + [lig(0, '<Flags value="SetComponent,DontAdvance"/>%s<Action GlyphIndexDelta="2" Flags="Store"/>'
                              % ("" if legacy else '<ReservedFlags value="0x0100"/>'))]],
        '<LigComponents>' + "".join('<LigComponent index="%d" value="%d"/>' % (k, v) for k, v in enumerate((0, 1, 0, 2))) + '</LigComponents>'
        '<Ligatures><Ligature index="0" glyph="B"/><Ligature index="1" glyph="b"/><Ligature index="2" glyph="A"/></Ligatures>')
    noncontextual = '<Substitution><Lookup glyph="a" value="b"/><Lookup glyph="b" value="a"/><Lookup glyph="A" value="A"/></Substitution>'
    ins = lambda more="": '<NewState value="0"/>' + more
    insertion = machine([("A", 4), ("b", 5)], [
        [ins()] * 4 + [ins('<Flags value="SetMark,CurrentIsKashidaLike"/><CurrentInsertionAction glyph="a"/>'),
                       ins('<Flags value="MarkedInsertBefore,CurrentInsertBefore"/><CurrentInsertionAction glyph="B"/><CurrentInsertionAction glyph="a"/>'
                           '<MarkedInsertionAction glyph="b"/><MarkedInsertionAction glyph="B"/><MarkedInsertionAction glyph="a"/>')]])
    features = ('<MorphFeature><FeatureType value="1"/><FeatureSetting value="0"/><EnableFlags value="0x00000001"/><DisableFlags value="0xFFFFFFFF"/></MorphFeature>'
                '<MorphFeature><FeatureType value="0"/><FeatureSetting value="1"/><EnableFlags value="0x00000006"/><DisableFlags value="0xFFFFFFF9"/></MorphFeature>')
    chain1 = ('<MorphChain><DefaultFlags value="0x00000003"/>' + features
              + subtable("RearrangementMorph", rearrangement, direction="Vertical", order="ReversedLayoutOrder")
              + subtable("ContextualMorph", contextual, direction="Any", order="LogicalOrder", reserved="0x30001")
              + subtable("LigatureMorph", ligature, order="ReversedLogicalOrder", flags="0x00000002") + "</MorphChain>")
    chain2 = ('<MorphChain><DefaultFlags value="0x00000001"/>'
              + subtable("NoncontextualMorph", noncontextual) + subtable("InsertionMorph", insertion, flags="0x80000000") + "</MorphChain>")
    if legacy:
        return '<ttFont><mort><Version value="0x00010000"/>' + chain1 + chain2 + "</mort></ttFont>"
    return '<ttFont><morx><Version value="2"/><Reserved value="0"/>' + chain1 + chain2 + "</morx></ttFont>"


def mort(path):
    import tempfile
    fb, order = box_font("Test Mort")
    with tempfile.NamedTemporaryFile("w", suffix=".ttx", delete=False) as xml:
        xml.write(morx_xml(legacy=True))
    fb.font.importXML(xml.name)
    # Apple's CID maps, both ways (cidg: CIDs 0, 3 and 7 have glyphs; gcid: A, b and B have CIDs).
    header = ('<DataFormat value="0"/><Registry value="0"/><RegistryName value="Adobe"/><Order value="1"/>'
              '<OrderName value="Japan1"/><SupplementVersion value="6"/>')
    with tempfile.NamedTemporaryFile("w", suffix=".ttx", delete=False) as xml:
        xml.write('<ttFont><cidg><CIDGlyphMapping Format="0">' + header + '<Mapping><CID cid="0" glyph=".notdef"/>'
                  '<CID cid="3" glyph="A"/><CID cid="7" glyph="b"/></Mapping></CIDGlyphMapping></cidg>'
                  '<gcid><GlyphCIDMapping Format="0">' + header + '<Mapping><CID glyph="A" value="3"/><CID glyph="b" value="7"/>'
                  '<CID glyph="B" value="12000"/></Mapping></GlyphCIDMapping></gcid></ttFont>')
    fb.font.importXML(xml.name)
    fb.save(path)


def mort_packed(path):
    """Glyphs .notdef A a B b (ids 0-4). Offsets in a state table count from its header."""
    import struct
    from fontTools.ttLib import TTFont, newTable
    fb, order = box_font("Test Mort Packed")
    u16 = lambda *v: struct.pack(">%dH" % len(v), *v)
    # Contextual: 5 classes (A a b in class 4, B out of bounds), 2 states; entries of 8 bytes.
    # Substitution words start at 60: window 28 (glyphs 0 and 1 would fall in the entry table)
    # maps a→b, b→a; window 29 maps A→b and B→a and ends at the subtable's end (66) before b;
    # window -1 holds nothing.
    classes = u16(1, 4) + bytes([4, 4, 1, 4])
    states = bytes([0, 0, 0, 0, 1]) + bytes([0, 0, 0, 3, 2])
    entries = (u16(18, 0, 0, 0) + u16(23, 0x8000, 0, 0) + struct.pack(">HHhh", 18, 0, 28, 29)
               + struct.pack(">HHhh", 18, 0, 0, -1))
    contextual = u16(5, 10, 18, 28, 60) + classes + states + entries + u16(4, 0, 2)
    assert len(contextual) == 66
    # Ligature: 6 classes (A 4, a 5), 2 states; 4-byte entries, the last one's actions at 48:
    # component word offsets 27 and 29 (indices -1 and 1 into the components at 56, word 28).
    # Components 2 and 3 carry the ligature table's word offset (32); the actions could reach
    # index 2 (3 ligatures), but the subtable holds 2.
    lig_classes = u16(1, 4) + bytes([4, 5, 1, 1])
    lig_states = bytes([0, 0, 0, 0, 1, 0]) + bytes([0, 0, 0, 0, 1, 2])
    lig_entries = u16(22, 0) + u16(28, 0x8000) + u16(22, 0x8000 | 48)
    actions = struct.pack(">II", 27, 0x80000000 | 29)
    ligature = (u16(6, 14, 22, 34, 48, 56, 64) + lig_classes + lig_states + lig_entries + b"\0\0" + actions
                + u16(0, 2, 64, 66) + u16(3, 4))
    assert len(ligature) == 68
    subtables = b""
    for kind, flags, body in ((1, 1, contextual), (2, 2, ligature)):
        subtables += u16(8 + len(body)) + bytes([0, kind]) + struct.pack(">I", flags) + body
    feature = u16(1, 0) + struct.pack(">II", 3, 0xFFFFFFFF)
    chain = struct.pack(">II", 3, 12 + len(feature) + len(subtables)) + u16(1, 2) + feature + subtables
    fb.save(path)
    font = TTFont(path)
    from fontTools.ttLib.tables.DefaultTable import DefaultTable
    raw = DefaultTable("mort")
    raw.data = struct.pack(">II", 0x00010000, 1) + chain
    font["mort"] = raw
    font.save(path)


def vtt(path):
    """VTT's source tables: TSI1 assembly (with a program longer than 32,767 bytes, stored with
    the 0x8000 length) and extra programs, TSI3 VTTTalk, their indexes TSI0/TSI2, TSI5 groups,
    the table sources TSIV, TSIB, TSID, TSIJ, TSIP, TSIS, and TSIC's variation CVT records."""
    from fontTools.ttLib import newTable
    fb, order = box_font("VTT Test")
    tsi1 = newTable("TSI1")
    tsi1.glyphPrograms = {"A": "/* A */\rSVTCA[Y]\rMIAP[R], 1, 3", "a": "SVTCA[X]\r" + "DELTAP1[], 1, 2\r" * 2200, "b": ""}
    tsi1.extraPrograms = {"fpgm": "/* fpgm */\rFDEF[], 0\rENDF[]", "ppgm": "SVTCA[Y]", "cvt": "0: 700 /* cap */\r1: 0"}
    tsi3 = newTable("TSI3")
    tsi3.glyphPrograms = {"A": "YAnchor(1)\rYLink(1,3)", "B": "Smooth()"}
    tsi3.extraPrograms = {}
    fb.font["TSI0"], fb.font["TSI1"], fb.font["TSI2"], fb.font["TSI3"] = newTable("TSI0"), tsi1, newTable("TSI2"), tsi3
    tsi5 = newTable("TSI5")
    tsi5.glyphGrouping = {name: k % 4 for k, name in enumerate(order)}
    fb.font["TSI5"] = tsi5
    for tag, text in (("TSIV", "/* variation CVT */\r0: 700"), ("TSIB", "SETUP_BASE"), ("TSID", "GDEF source"), ("TSIJ", "JSTF source"),
                      ("TSIP", "GPOS source\rline 2"), ("TSIS", "GSUB source")):
        table = newTable(tag)
        table.data = text.encode("ascii")
        fb.font[tag] = table
    # TSIC (VTT's variation CVT window) is an otData table: built from its XML.
    from fontTools.misc.testTools import parseXML
    tsic = newTable("TSIC")
    for element in parseXML('''
        <Version value="0x00010000"/><Flags value="0"/><Reserved value="0"/><AxisArray index="0" value="wght"/><AxisArray index="1" value="wdth"/>
        <RecordLocations index="0"><Axis index="0" value="1.0"/><Axis index="1" value="0.0"/></RecordLocations>
        <RecordLocations index="1"><Axis index="0" value="-0.5"/><Axis index="1" value="1.0"/></RecordLocations>
        <Record index="0"><Flags value="0"/><NameArray index="0" value="66"/><NameArray index="1" value="100"/>
          <CVTArray index="0" value="1"/><CVTArray index="1" value="4"/><CVTValueArray index="0" value="720"/><CVTValueArray index="1" value="-10"/></Record>
        <Record index="1"><Flags value="0"/><CVTArray index="0" value="1"/><CVTValueArray index="0" value="700"/></Record>'''):
        if isinstance(element, tuple):
            tsic.fromXML(*element, fb.font)
    fb.font["TSIC"] = tsic
    fb.save(path)


if __name__ == "__main__":
    {"cff": cff, "variable": variable, "variable-clashing": variable_clashing, "variable-twice": variable_twice, "cff2-variable": cff2_variable, "cff-fanout": cff_fanout,
     "variable-metrics": variable_metrics, "variable-metrics-direct": lambda p: variable_metrics(p, mapped=False), "cff2-metrics": cff2_metrics,
     "composite-fanout": composite_fanout, "colr": colr, "colr0": lambda p: colr(p, version0_only=True),
     "svg-sbix": svg_sbix, "vtt": vtt, "mort": mort, "mort-packed": mort_packed}[sys.argv[1]](sys.argv[2])
