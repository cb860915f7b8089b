import FontModel

/// glyf in TTX: contours and points, components, instructions (as assembly, like fontTools); loca
/// is computed from glyf and written as a comment.
extension TTX {
    /// Component flags fontTools keeps in XML; the others follow from the data and are recomputed.
    static let keptComponentFlags: UInt16 =
        GlyphComponent.roundXYToGrid | GlyphComponent.useMyMetrics
        | GlyphComponent.overlapCompound | GlyphComponent.scaledComponentOffset | GlyphComponent.unscaledComponentOffset

    /// glyf as fontTools writes it: TTGlyph elements in glyph-name order; instructions as assembly.
    static func glyfTable(_ glyf: GlyfTable, _ face: Face) throws -> String {
        let names = try face.glyphNames()
        // About 13 bytes of XML per byte of glyph data.
        var out = XMLText(capacity: 16 * (face.storedLength("glyf") ?? 0))
        out.add("  <glyf>\n\n    <!-- The xMin, yMin, xMax and yMax values\n         will be recalculated by the compiler. -->\n\n")
        for id in names.indices.sorted(by: { names[$0].utf8.lexicographicallyPrecedes(names[$1].utf8) }) where id < glyf.glyphCount {
            let g = try glyf.glyph(id)
            let name = xmlEscaped(names[id])
            guard !g.isEmpty || !g.instructions.isEmpty,
                let b = g.bounds ?? (g.isEmpty ? GlyphBounds(xMin: 0, yMin: 0, xMax: 0, yMax: 0) : nil)
            else {
                out.add("    <TTGlyph name=\""); out.add(name); out.add("\"/><!-- contains no outline data -->\n\n")
                continue
            }
            out.add("    <TTGlyph name=\""); out.add(name)
            out.add("\" xMin=\""); out.add(b.xMin); out.add("\" yMin=\""); out.add(b.yMin)
            out.add("\" xMax=\""); out.add(b.xMax); out.add("\" yMax=\""); out.add(b.yMax); out.add("\">\n")
            for (ci, contour) in g.contours.enumerated() {
                out.add("      <contour>\n")
                for (pi, p) in contour.enumerated() {
                    out.add("        <pt x=\""); out.add(p.x); out.add("\" y=\""); out.add(p.y)
                    out.add(p.onCurve ? "\" on=\"1\"" : "\" on=\"0\"")
                    if ci == 0 && pi == 0 && g.overlapSimple { out.add(" overlap=\"1\"") }
                    out.add("/>\n")
                }
                out.add("      </contour>\n")
            }
            for c in g.components {
                var attributes = "glyphName=\"\(xmlEscaped(c.glyphID < names.count ? names[c.glyphID] : "glyph\(c.glyphID)"))\""
                attributes +=
                    c.flags & GlyphComponent.argsAreXYValues != 0
                    ? " x=\"\(c.arg1)\" y=\"\(c.arg2)\"" : " firstPt=\"\(c.arg1)\" secondPt=\"\(c.arg2)\""
                let t = c.transform
                func f(_ v: Int) -> String { decimalText(Int64(v), scale: F2Dot14.scale) }
                if t.xy != 0 || t.yx != 0 {
                    attributes += " scalex=\"\(f(t.xx))\" scale01=\"\(f(t.xy))\" scale10=\"\(f(t.yx))\" scaley=\"\(f(t.yy))\""
                } else if t.xx != t.yy {
                    attributes += " scalex=\"\(f(t.xx))\" scaley=\"\(f(t.yy))\""
                } else if t.xx != 16384 {
                    attributes += " scale=\"\(f(t.xx))\""
                }
                attributes += " flags=\"0x\(String(c.flags & keptComponentFlags, radix: 16))\""
                out.add("      <component "); out.add(attributes); out.add("/>\n")
            }
            // fontTools writes a composite's instructions only when it has the field (maybe empty).
            if g.instructions.isEmpty {
                if g.components.isEmpty || g.hasInstructions { out.add("      <instructions/>\n") }
            } else {
                out.add("      <instructions>\n"); programElement(g.instructions, indent: 8, into: &out); out.add("      </instructions>\n")
            }
            out.add("    </TTGlyph>\n\n")
        }
        out.add("  </glyf>\n")
        return out.string
    }

    /// TTGlyph elements replace those glyphs (glyphs not listed stay as they are); a glyph whose
    /// outline, components and instructions did not change keeps its bytes.
    static func fuseGlyf(_ face: Face, _ element: XMLElement, apply: Bool) throws {
        guard let glyf = try face.glyf else {
            throw XMLError("the face has no glyf table to fuse into", line: element.line, column: element.column)
        }
        for e in element.children {
            guard e.name == "TTGlyph" else { throw XMLError("<\(e.name)> in <glyf>: expected <TTGlyph>", line: e.line, column: e.column) }
            func fail(_ message: String, _ at: XMLElement) -> XMLError { XMLError(message, line: at.line, column: at.column) }
            func int(_ x: XMLElement, _ key: String) throws -> Int {
                let text = try x.attribute(key)
                guard let v = parseInteger(text), (-0x8000...0xFFFF).contains(v) else {
                    throw fail("\(key)=\"\(text)\" is not a 16-bit integer", x)
                }
                return Int(v)
            }
            func f2dot14(_ x: XMLElement, _ key: String) throws -> Int? {
                guard let text = x.value(key) else { return nil }
                guard let d = Double(text), (-2.0..<2.0).contains(d) else {
                    throw fail("\(key)=\"\(text)\" is not a 2.14 number (-2 to 2)", x)
                }
                return Int((d * F2Dot14.scale).rounded())
            }
            let name = try e.attribute("name")
            guard let id = try face.glyphID(named: name) else { throw fail("glyph '\(name)' does not exist in this font", e) }
            var glyph = TrueTypeGlyph()
            for child in e.children {
                switch child.name {
                case "contour":
                    var points: [GlyphPoint] = []
                    for pt in child.children {
                        guard pt.name == "pt" else { throw fail("<\(pt.name)> in <contour>: expected <pt>", pt) }
                        points.append(GlyphPoint(x: try int(pt, "x"), y: try int(pt, "y"), onCurve: (pt.value("on") ?? "1") != "0"))
                        if pt.value("overlap") == "1" { glyph.overlapSimple = true }
                        if pt.value("cubic") == "1" { throw fail("cubic points need the glyf extensions fontshell does not write yet", pt) }
                    }
                    glyph.contours.append(points)
                case "component":
                    let componentName = try child.attribute("glyphName")
                    guard let componentID = try face.glyphID(named: componentName) else {
                        throw fail("component glyph '\(componentName)' does not exist in this font", child)
                    }
                    guard let flags = parseInteger(child.value("flags") ?? "0"), (0...0xFFFF).contains(flags) else {
                        throw fail("flags must be a 16-bit number", child)
                    }
                    var c: GlyphComponent
                    if child.value("firstPt") != nil {
                        c = GlyphComponent(
                            glyphID: componentID, flags: UInt16(flags) & ~GlyphComponent.argsAreXYValues, arg1: try int(child, "firstPt"),
                            arg2: try int(child, "secondPt"))
                    } else {
                        c = GlyphComponent(
                            glyphID: componentID, flags: UInt16(flags) | GlyphComponent.argsAreXYValues, arg1: try int(child, "x"),
                            arg2: try int(child, "y"))
                    }
                    if let scale = try f2dot14(child, "scale") { c.transform = (scale, 0, 0, scale) }
                    if let sx = try f2dot14(child, "scalex") {
                        c.transform = (
                            sx, try f2dot14(child, "scale01") ?? 0, try f2dot14(child, "scale10") ?? 0, try f2dot14(child, "scaley") ?? sx
                        )
                    }
                    glyph.components.append(c)
                case "instructions":
                    // On a composite, the element (even empty) says it has an instructions field.
                    if !glyph.components.isEmpty { glyph.components[glyph.components.count - 1].flags |= GlyphComponent.weHaveInstructions }
                    for program in child.children {
                        switch program.name {
                        case "bytecode": glyph.instructions = try hexBytes(program)
                        case "assembly":
                            do { glyph.instructions = try TrueTypeAssembly.assemble(program.text) } catch let e as AssemblyError {
                                throw fail(e.description, program)
                            }
                        default: throw fail("<\(program.name)> in <instructions>: expected <assembly> or <bytecode>", program)
                        }
                    }
                default:
                    throw fail("<\(child.name)> in <TTGlyph>: expected <contour>, <component> or <instructions>", child)
                }
            }
            guard glyph.contours.isEmpty || glyph.components.isEmpty else { throw fail("a glyph has contours or components, not both", e) }
            let current = try glyf.glyph(id)
            let same =
                current.contours == glyph.contours && current.instructions == glyph.instructions
                && current.overlapSimple == glyph.overlapSimple
                && current.hasInstructions == glyph.hasInstructions
                && current.components.count == glyph.components.count
                && zip(current.components, glyph.components).allSatisfy { a, b in
                    a.glyphID == b.glyphID && a.arg1 == b.arg1 && a.arg2 == b.arg2 && a.transform == b.transform
                        && (a.flags & (keptComponentFlags | GlyphComponent.argsAreXYValues))
                            == (b.flags & (keptComponentFlags | GlyphComponent.argsAreXYValues))
                }
            if same { continue }
            do {
                if glyph.isEmpty && glyph.instructions.isEmpty {
                    if apply { try glyf.setGlyphData(id, []) }
                } else if apply {
                    try glyf.setGlyph(id, glyph)
                } else {
                    _ = try glyph.encode(compositeBounds: GlyphBounds(xMin: 0, yMin: 0, xMax: 0, yMax: 0))   // checks it can be stored
                }
                // Other points than gvar's deltas fit: the glyph stops varying (a <gvar> later
                // in the document gives it variations again).
                if apply && !glyph.hasSamePoints(as: current) { try face.stopVarying(id) }
            } catch let error as FontError {
                throw fail(error.message, e)
            }
        }
    }

    static let glyfConverter = Converter(
        dump: { face in try face.glyf.map { try glyfTable($0, face) } },
        fuse: { element, face, apply in try fuseGlyf(face, element, apply: apply) })

    static let locaConverter = Converter(
        dump: { _ in "  <loca>\n    <!-- The 'loca' table will be calculated by the compiler -->\n  </loca>\n" },
        fuse: { _, _, _ in })   // computed from glyf on save
}

extension GlyfTable: TTXTable { static var ttx: TTX.Converter { TTX.glyfConverter } }

extension LocaTable: TTXTable { static var ttx: TTX.Converter { TTX.locaConverter } }
