import FontModel

/// Glat and Gloc in TTX, as fontTools writes them. Glat: `<version version= compressionScheme=>`,
/// then per glyph `<glyph name=>` holding version 3's `<octaboxes>` (extents as percentages of
/// the glyph's box) and its `<attribute index= value=/>`. Gloc: only `<attributes number=>`,
/// since its locations follow from Glat: fusing Glat rewrites Gloc's locations too.
extension TTX {
    static let glatConverter = Converter(
        dump: { face in
            guard let glat = try face.table(GlatTable.self) else { return nil }
            let names = try face.glyphNames()
            // fontTools re-reads the version of Glat 3 unrounded, as it does Silf's.
            let version = glat.version >= 0x0003_0000 ? "\(Double(glat.version) / Fixed.scale)" : GraphiteXML.versionText(glat.version)
            var out =
                "  <Glat>\n    " + GraphiteXML.tag("version", [("version", version), ("compressionScheme", "\(glat.compression)")]) + "\n"
            out.reserveCapacity(glat.glyphs.count * 120)
            func percent(_ v: UInt8) -> String { cFormat("%.3f", Double(v) * 100 / 255) + "%" }
            for (g, glyph) in glat.glyphs.enumerated() {
                out += "    <glyph name=\"\(xmlEscaped(glyphName(g, in: names)))\">\n"
                if let box = glyph.octabox {
                    let diagonals = zip(GlatXML.diagonalNames, box.diagonals).map { ($0, percent($1)) }
                    out +=
                        "      "
                        + GraphiteXML.tag(
                            "octaboxes", [("bitmap", String(box.subboxBitmap, radix: 16, uppercase: true))] + diagonals, close: false)
                        + "\n"
                    for s in box.subboxes {
                        out += "        " + GraphiteXML.tag("octabox", zip(GlatXML.subboxNames, s.values).map { ($0, percent($1)) }) + "\n"
                    }
                    out += "      </octaboxes>\n"
                }
                for a in glyph.attributes { out += "      <attribute index=\"\(a.index)\" value=\"\(a.value)\"/>\n" }
                out += "    </glyph>\n"
            }
            return out + "  </Glat>\n"
        },
        fuse: { element, face, apply in
            let x = GraphiteXML.Reader(face: face, table: "Glat")
            var version: UInt32 = 0x0001_0000, compression = 0
            var glyphs: [Int: GlatTable.Glyph] = [:]
            for e in element.children {
                switch e.name {
                case "version":
                    version = try x.version(e)
                    compression = try e.value("compressionScheme").map { _ in try x.int(e, "compressionScheme", 0...1) } ?? 0
                case "glyph": glyphs[Int(try x.glyph(try e.attribute("name"), e))] = try GlatXML.glyph(e, x)
                default: throw x.fail("<\(e.name)> in <Glat>: expected <version> or <glyph>", e)
                }
            }
            let count = (glyphs.keys.max() ?? -1) + 1
            let list = (0..<count).map { glyphs[$0] ?? GlatTable.Glyph(attributes: []) }
            let hasOctaboxes = list.contains { $0.octabox != nil }
            guard !hasOctaboxes || version >= 0x0003_0000 else { throw x.fail("octaboxes need Glat version 3", element) }
            guard compression == 0 || version >= 0x0003_0000 else { throw x.fail("compression needs Glat version 3", element) }
            let table = GlatTable(version: version, compression: compression, hasOctaboxes: hasOctaboxes, glyphs: list)
            let (bytes, locations) = try x.encoded(element) { try table.encodeWithLocations() }
            let maxAttribute = list.flatMap { $0.attributes.map { Int($0.index) } }.max().map { $0 + 1 } ?? 0
            let gloc =
                try face.table(GlocTable.self)?.with(locations: locations)
                ?? GlocTable(locations: locations, attributeCount: UInt16(clamping: maxAttribute))
            let glocBytes = try x.encoded(element) { try gloc.encode() }
            if apply { face.setRawTable("Glat", bytes); face.setRawTable("Gloc", glocBytes) }
        })

    static let glocConverter = Converter(
        dump: { face in
            guard let gloc = try face.table(GlocTable.self) else { return nil }
            return "  <Gloc>\n    <attributes number=\"\(gloc.attributeCount)\"/>\n  </Gloc>\n"
        },
        fuse: { element, face, apply in
            let x = GraphiteXML.Reader(face: face, table: "Gloc")
            var count: UInt16 = 0
            for e in element.children {
                guard e.name == "attributes" else { throw x.fail("<\(e.name)> in <Gloc>: expected <attributes number=/>", e) }
                count = UInt16(try x.int(e, "number", 0...0xFFFF))
            }
            guard let gloc = try face.table(GlocTable.self) else {
                throw x.fail("Gloc's locations come from Glat: fuse Glat with it, or into a face that has both", element)
            }
            let updated = GlocTable(
                version: gloc.version, locations: gloc.locations, attributeCount: count,
                attributeNames: gloc.attributeNames.count == Int(count) ? gloc.attributeNames : [])
            let bytes = try x.encoded(element) { try updated.encode() }
            if apply { face.setRawTable("Gloc", bytes) }
        })
}

enum GlatXML {
    static let diagonalNames = ["diagNegMin", "diagNegMax", "diagPosMin", "diagPosMax"]
    static let subboxNames = ["left", "right", "bottom", "top"] + diagonalNames

    static func glyph(_ e: XMLElement, _ x: GraphiteXML.Reader) throws -> GlatTable.Glyph {
        var attributes: [UInt16: Int16] = [:]
        var octabox: GlatTable.Octabox?
        func percent(_ c: XMLElement, _ key: String) throws -> UInt8 {
            let text = try c.attribute(key)
            guard text.hasSuffix("%"), let v = Double(String(text.dropLast()).trimmingWhitespace()), v >= 0, v <= 100 else {
                throw x.fail("\(key)=\"\(text)\" is not a percentage like 49.804%", c)
            }
            return UInt8(min(255, Int(v * 255 / 100 + 0.5)))
        }
        for c in e.children {
            switch c.name {
            case "attribute": attributes[UInt16(try x.int(c, "index", 0...0xFFFF))] = Int16(try x.int(c, "value", -32768...32767))
            case "octaboxes":
                let bitmapText = try c.attribute("bitmap")
                guard let bitmap = UInt16(bitmapText, radix: 16) else {
                    throw x.fail("bitmap=\"\(bitmapText)\" is not a 16-bit hex number", c)
                }
                let subboxes = try c.children.map { s -> GlatTable.Box in
                    guard s.name == "octabox" else { throw x.fail("<\(s.name)> in <octaboxes>: expected <octabox>", s) }
                    return GlatTable.Box(values: try subboxNames.map { try percent(s, $0) })
                }
                guard subboxes.count == bitmap.nonzeroBitCount else {
                    throw x.fail("bitmap=\"\(bitmapText)\" names \(bitmap.nonzeroBitCount) subboxes but \(subboxes.count) are given", c)
                }
                octabox = GlatTable.Octabox(
                    subboxBitmap: bitmap, diagonals: try diagonalNames.map { try percent(c, $0) }, subboxes: subboxes)
            default: throw x.fail("<\(c.name)> in <glyph>: expected <attribute> or <octaboxes>", c)
            }
        }
        return GlatTable.Glyph(
            octabox: octabox, attributes: attributes.sorted { $0.key < $1.key }.map { GlatTable.Attribute(index: $0.key, value: $0.value) })
    }
}

extension GlatTable: TTXTable { static var ttx: TTX.Converter { TTX.glatConverter } }

extension GlocTable: TTXTable { static var ttx: TTX.Converter { TTX.glocConverter } }
