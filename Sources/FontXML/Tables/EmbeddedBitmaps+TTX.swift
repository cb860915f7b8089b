import FontModel

/// EBLC/EBDT and CBLC/CBDT in TTX, as fontTools writes them. The location table:
/// `<header version=>`, then per strike a `<bitmapSizeTable>` (line metrics and sizes) and its
/// index subtables (`<eblc_index_sub_table_N>` listing `<glyphLoc>` glyphs). The data table:
/// per strike a `<strikedata>` of `<ebdt_bitmap_format_N>` / `<cbdt_bitmap_format_N>` glyphs,
/// each its metrics and `<rawimagedata>` (or `<components>`). When a document holds both
/// tables they are fused together (TTX.fuse); one alone is fused against the face's other.
extension TTX {
    static func bitmapLocatorConverter(_ kind: EmbeddedBitmaps.Kind) -> Converter {
        Converter(
            dump: { face in
                guard let bitmaps = try EmbeddedBitmaps.read(from: face, kind) else { return nil }
                return try BitmapXML.dumpLocator(bitmaps, names: try face.glyphNames())
            },
            fuse: { element, face, apply in try BitmapXML.fuse(locator: element, data: nil, kind, face, apply) })
    }

    static func bitmapDataConverter(_ kind: EmbeddedBitmaps.Kind) -> Converter {
        Converter(
            dump: { face in
                guard let bitmaps = try EmbeddedBitmaps.read(from: face, kind) else { return nil }
                return try BitmapXML.dumpData(bitmaps, names: try face.glyphNames())
            },
            fuse: { element, face, apply in try BitmapXML.fuse(locator: nil, data: element, kind, face, apply) })
    }

    /// The kind of bitmap pair a tag belongs to, and whether it is the data table.
    static func bitmapTable(_ tag: Tag) -> (kind: EmbeddedBitmaps.Kind, isData: Bool)? {
        switch tag {
        case "EBLC": (.monochrome, false)
        case "EBDT": (.monochrome, true)
        case "CBLC": (.color, false)
        case "CBDT": (.color, true)
        case "bloc": (.apple, false)
        case "bdat": (.apple, true)
        default: nil
        }
    }
}

enum BitmapXML {
    typealias Bitmaps = EmbeddedBitmaps

    static func versionText(_ v: UInt32) -> String { TTX.decimalText(Int64(v), scale: Fixed.scale) }

    static func name(_ id: UInt16, _ names: [String]) -> String { glyphName(Int(id), in: names) }

    static func record(_ r: Bitmaps.ByteRecord, indent: String, attributes: String = "") -> String {
        var out = "\(indent)<\(r.layout.xmlName)\(attributes)>\n"
        for (name, value) in zip(r.layout.names, r.values) { out += "\(indent)  <\(name) value=\"\(value)\"/>\n" }
        return out + "\(indent)</\(r.layout.xmlName)>\n"
    }

    // MARK: dump

    static func dumpLocator(_ bitmaps: Bitmaps, names: [String]) throws -> String {
        let tag = TTX.xmlName(bitmaps.kind.locatorTag)
        var out = "  <\(tag)>\n    <header version=\"\(versionText(bitmaps.locatorVersion))\"/>\n"
        for (index, strike) in bitmaps.strikes.enumerated() {
            out += "    <strike index=\"\(index)\">\n      <bitmapSizeTable>\n"
            out += record(strike.hori, indent: "        ", attributes: " direction=\"hori\"")
            out += record(strike.vert, indent: "        ", attributes: " direction=\"vert\"")
            for (field, value) in [
                ("colorRef", Int(strike.colorRef)), ("startGlyphIndex", Int(strike.startGlyphIndex)),
                ("endGlyphIndex", Int(strike.endGlyphIndex)),
                ("ppemX", Int(strike.ppemX)), ("ppemY", Int(strike.ppemY)), ("bitDepth", Int(strike.bitDepth)),
                ("flags", Int(strike.flags)),
            ] {
                out += "        <\(field) value=\"\(value)\"/>\n"
            }
            out += "      </bitmapSizeTable>\n"
            out +=
                "      <!-- GlyphIds are written but not read. The firstGlyphIndex and\n           lastGlyphIndex values will be recalculated by the compiler. -->\n"
            for sub in strike.indexSubtables {
                let element = "eblc_index_sub_table_\(sub.indexFormat)"
                out +=
                    "      <\(element) imageFormat=\"\(sub.imageFormat)\" firstGlyphIndex=\"\(sub.firstGlyphIndex)\" lastGlyphIndex=\"\(sub.lastGlyphIndex)\">\n"
                if let size = sub.imageSize, let metrics = sub.metrics {
                    out += "        <imageSize value=\"\(size)\"/>\n" + record(metrics, indent: "        ")
                }
                for id in sub.glyphIDs { out += "        <glyphLoc id=\"\(id)\" name=\"\(xmlEscaped(name(id, names)))\"/>\n" }
                out += "      </\(element)>\n"
            }
            out += "    </strike>\n"
        }
        return out + "  </\(tag)>\n"
    }

    static func dumpData(_ bitmaps: Bitmaps, names: [String]) throws -> String {
        let tag = TTX.xmlName(bitmaps.kind.dataTag)
        // Reserved once: the hex of colour fonts' images is tens of megabytes.
        let imageBytes = bitmaps.strikes.reduce(0) { $0 + $1.glyphs.values.reduce(0) { $0 + $1.imageData.count } }
        var out = XMLText(capacity: imageBytes * 9 / 4 + 256 * bitmaps.strikes.reduce(0) { $0 + $1.glyphs.count } + 4096)
        out.add("  <\(tag)>\n    <header version=\"\(versionText(bitmaps.dataVersion))\"/>\n")
        for (index, strike) in bitmaps.strikes.enumerated() {
            out.add("    <strikedata index=\""); out.add(index); out.add("\">\n")
            for id in strike.glyphOrder {
                guard let glyph = strike.glyphs[id] else { continue }
                let element = glyphElementName(glyph.imageFormat)
                out.add("      <"); out.add(element); out.add(" name=\""); out.add(xmlEscaped(name(id, names))); out.add("\">\n")
                if let metrics = glyph.metrics { out.add(record(metrics, indent: "        ")) }
                if glyph.imageFormat == 8 || glyph.imageFormat == 9 {
                    out.add("        <components>\n")
                    for c in glyph.components {
                        out.add("          <ebdtComponent name=\"\(xmlEscaped(name(c.glyph, names)))\">\n")
                        out.add(
                            "            <xOffset value=\"\(c.xOffset)\"/>\n            <yOffset value=\"\(c.yOffset)\"/>\n          </ebdtComponent>\n"
                        )
                    }
                    out.add("        </components>\n")
                } else {
                    out.add("        <rawimagedata>\n"); out.hexLines(glyph.imageData, indent: 6); out.add("        </rawimagedata>\n")
                }
                out.add("      </"); out.add(element); out.add(">\n")
            }
            out.add("    </strikedata>\n")
        }
        out.add("  </\(tag)>\n")
        return out.string
    }

    static func glyphElementName(_ format: UInt16) -> String {
        format >= 17 ? "cbdt_bitmap_format_\(format)" : "ebdt_bitmap_format_\(format)"
    }

    // MARK: fuse

    /// Fuses a location table, a data table, or both. What the document does not give comes
    /// from the face's current tables (glyph data by strike and glyph; the strikes' layout).
    static func fuse(locator: XMLElement?, data: XMLElement?, _ kind: Bitmaps.Kind, _ face: Face, _ apply: Bool) throws {
        guard let element = locator ?? data else { return }
        let reader = Reader(face: face)
        let parsedLocator = try locator.map { try reader.locator($0) }
        let parsedData = try data.map { try reader.data($0, kind) }
        var bitmaps: Bitmaps
        if let parsedLocator, let parsedData {
            bitmaps = Bitmaps(
                kind: kind, locatorVersion: parsedLocator.version, dataVersion: parsedData.version, strikes: parsedLocator.strikes)
            try attach(parsedData.strikes, to: &bitmaps, at: element)
        } else {
            guard let current = try EmbeddedBitmaps.read(from: face, kind) else {
                let other = locator == nil ? kind.locatorTag : kind.dataTag
                throw XMLError(
                    "<\(element.name)> needs the face's \(other) table (fuse the two together)", line: element.line, column: element.column)
            }
            bitmaps = current
            if let parsedLocator {
                bitmaps.locatorVersion = parsedLocator.version
                let old = bitmaps.strikes
                bitmaps.strikes = parsedLocator.strikes
                try attach(old.map { ($0.glyphOrder, $0.glyphs) }, to: &bitmaps, at: element)
            } else if let parsedData {
                bitmaps.dataVersion = parsedData.version
                try attach(parsedData.strikes, to: &bitmaps, at: element)
            }
        }
        // Encoding checks what only the pair can show (a listed glyph with no bitmap, a format mismatch).
        do {
            let encoded = try bitmaps.encode()
            if apply {
                face.setRawTable(kind.locatorTag, encoded.locator)
                face.setRawTable(kind.dataTag, encoded.data)
            }
        } catch let error as FontError {
            throw XMLError(error.message, line: element.line, column: element.column)
        }
    }

    /// Gives each strike of `bitmaps` its glyph data, strike by strike.
    static func attach(
        _ glyphs: [(order: [UInt16], glyphs: [UInt16: Bitmaps.BitmapGlyph])], to bitmaps: inout Bitmaps, at element: XMLElement
    ) throws {
        guard glyphs.count == bitmaps.strikes.count else {
            throw XMLError(
                "\(bitmaps.kind.dataTag) has \(glyphs.count) strikes of glyph data, \(bitmaps.kind.locatorTag) \(bitmaps.strikes.count) strikes",
                line: element.line, column: element.column)
        }
        for (i, strikeGlyphs) in glyphs.enumerated() {
            bitmaps.strikes[i].glyphOrder = strikeGlyphs.order
            bitmaps.strikes[i].glyphs = strikeGlyphs.glyphs
        }
    }

    /// Reads the elements, resolving glyph names against the face.
    struct Reader {
        let face: Face

        func fail(_ message: String, _ e: XMLElement) -> XMLError { XMLError(message, line: e.line, column: e.column) }

        func glyph(_ name: String, _ e: XMLElement) throws -> UInt16 {
            // As the structured tables read glyph names (glyphNNNNN past the font's glyphs).
            UInt16(truncatingIfNeeded: try StructuredReader(face: face).glyph(name, e))
        }

        func number(_ e: XMLElement, _ key: String = "value", _ range: ClosedRange<Int64>) throws -> Int64 {
            try TTX.integerAttribute(e, key, range)
        }

        func version(_ e: XMLElement) throws -> UInt32 {
            let text = try e.attribute("version")
            guard let v = Double(text.trimmingWhitespace()), v >= 0, v < 65536 else {
                throw fail("version=\"\(text)\" is not a 16.16 number", e)
            }
            return UInt32((v * Fixed.scale).rounded())
        }

        func record(_ layout: Bitmaps.ByteRecord.Layout, _ e: XMLElement) throws -> Bitmaps.ByteRecord {
            var values = [Int?](repeating: nil, count: layout.names.count)
            for child in e.children {
                guard let i = layout.names.firstIndex(of: child.name) else {
                    throw fail("<\(child.name)> is not part of <\(layout.xmlName)> (\(layout.names.joined(separator: ", ")))", child)
                }
                let r = layout.range(i)
                values[i] = Int(try number(child, "value", Int64(r.lowerBound)...Int64(r.upperBound)))
            }
            if let missing = values.firstIndex(where: { $0 == nil }) {
                throw fail("<\(layout.xmlName)> needs <\(layout.names[missing])>", e)
            }
            return Bitmaps.ByteRecord(layout, values: values.map { $0 ?? 0 })
        }

        func locator(_ element: XMLElement) throws -> (version: UInt32, strikes: [Bitmaps.Strike]) {
            var version: UInt32 = 0x20000
            var strikes: [Int: Bitmaps.Strike] = [:]
            for e in element.children {
                switch e.name {
                case "header": version = try self.version(e)
                case "strike":
                    let index = Int(try number(e, "index", 0...0xFFFF))
                    guard strikes[index] == nil else { throw fail("a second <strike index=\"\(index)\">", e) }
                    strikes[index] = try strike(e)
                default: throw fail("<\(e.name)> in <\(element.name)>: expected <header> or <strike>", e)
                }
            }
            guard strikes.keys.sorted() == Array(0..<strikes.count) else {
                throw fail("the strikes' indices must run 0, 1, 2 … without gaps", element)
            }
            return (version, (0..<strikes.count).compactMap { strikes[$0] })
        }

        func strike(_ element: XMLElement) throws -> Bitmaps.Strike {
            let line = Bitmaps.ByteRecord(.lineMetrics, values: Array(repeating: 0, count: 12))
            var strike = Bitmaps.Strike(
                hori: line, vert: line, colorRef: 0, startGlyphIndex: 0, endGlyphIndex: 0, ppemX: 0, ppemY: 0, bitDepth: 1, flags: 0,
                indexSubtables: [], glyphOrder: [], glyphs: [:])
            var sawSizeTable = false
            for e in element.children {
                if e.name == "bitmapSizeTable" {
                    sawSizeTable = true
                    for f in e.children {
                        switch f.name {
                        case "sbitLineMetrics":
                            switch try f.attribute("direction") {
                            case "hori": strike.hori = try record(.lineMetrics, f)
                            case "vert": strike.vert = try record(.lineMetrics, f)
                            case let other: throw fail("direction=\"\(other)\": expected hori or vert", f)
                            }
                        case "colorRef": strike.colorRef = UInt32(try number(f, "value", 0...0xFFFF_FFFF))
                        case "startGlyphIndex": strike.startGlyphIndex = UInt16(try number(f, "value", 0...0xFFFF))
                        case "endGlyphIndex": strike.endGlyphIndex = UInt16(try number(f, "value", 0...0xFFFF))
                        case "ppemX": strike.ppemX = UInt8(try number(f, "value", 0...255))
                        case "ppemY": strike.ppemY = UInt8(try number(f, "value", 0...255))
                        case "bitDepth": strike.bitDepth = UInt8(try number(f, "value", 0...255))
                        case "flags": strike.flags = Int8(try number(f, "value", -128...127))
                        default: throw fail("<\(f.name)> is not part of <bitmapSizeTable>", f)
                        }
                    }
                } else if e.name.hasPrefix("eblc_index_sub_table_") {
                    strike.indexSubtables.append(try indexSubtable(e))
                } else {
                    throw fail("<\(e.name)> in <strike>: expected <bitmapSizeTable> or <eblc_index_sub_table_N>", e)
                }
            }
            guard sawSizeTable else { throw fail("<strike> needs a <bitmapSizeTable>", element) }
            return strike
        }

        func indexSubtable(_ e: XMLElement) throws -> Bitmaps.IndexSubtable {
            guard let format = UInt16(e.name.dropFirst("eblc_index_sub_table_".count)), (1...5).contains(format) else {
                throw fail("<\(e.name)>: index subtable formats are 1–5", e)
            }
            var sub = Bitmaps.IndexSubtable(
                indexFormat: format, imageFormat: UInt16(try number(e, "imageFormat", 0...0xFFFF)),
                firstGlyphIndex: UInt16(try number(e, "firstGlyphIndex", 0...0xFFFF)),
                lastGlyphIndex: UInt16(try number(e, "lastGlyphIndex", 0...0xFFFF)), imageSize: nil, metrics: nil, glyphIDs: [])
            for child in e.children {
                switch child.name {
                case "glyphLoc": sub.glyphIDs.append(try glyph(try child.attribute("name"), child))
                case "imageSize" where format == 2 || format == 5: sub.imageSize = UInt32(try number(child, "value", 0...0xFFFF_FFFF))
                case "BigGlyphMetrics" where format == 2 || format == 5: sub.metrics = try record(.bigGlyphMetrics, child)
                default: throw fail("<\(child.name)> is not part of <\(e.name)>", child)
                }
            }
            if format == 2 || format == 5, sub.imageSize == nil || sub.metrics == nil {
                throw fail("<\(e.name)> needs <imageSize> and <BigGlyphMetrics>", e)
            }
            guard !sub.glyphIDs.isEmpty else { throw fail("<\(e.name)> lists no glyphs", e) }
            return sub
        }

        func data(_ element: XMLElement, _ kind: Bitmaps.Kind) throws -> (
            version: UInt32, strikes: [(order: [UInt16], glyphs: [UInt16: Bitmaps.BitmapGlyph])]
        ) {
            var version: UInt32 = 0x20000
            var strikes: [Int: (order: [UInt16], glyphs: [UInt16: Bitmaps.BitmapGlyph])] = [:]
            for e in element.children {
                switch e.name {
                case "header": version = try self.version(e)
                case "strikedata":
                    let index = Int(try number(e, "index", 0...0xFFFF))
                    guard strikes[index] == nil else { throw fail("a second <strikedata index=\"\(index)\">", e) }
                    var order: [UInt16] = [], glyphs: [UInt16: Bitmaps.BitmapGlyph] = [:]
                    for g in e.children {
                        let id = try glyph(try g.attribute("name"), g)
                        guard glyphs[id] == nil else {
                            throw fail("glyph '\(try g.attribute("name"))' has a second bitmap in this strike", g)
                        }
                        glyphs[id] = try bitmap(g, kind)
                        order.append(id)
                    }
                    strikes[index] = (order, glyphs)
                default: throw fail("<\(e.name)> in <\(element.name)>: expected <header> or <strikedata>", e)
                }
            }
            guard strikes.keys.sorted() == Array(0..<strikes.count) else {
                throw fail("the strikedata indices must run 0, 1, 2 … without gaps", element)
            }
            return (version, (0..<strikes.count).compactMap { strikes[$0] })
        }

        func bitmap(_ e: XMLElement, _ kind: Bitmaps.Kind) throws -> Bitmaps.BitmapGlyph {
            let prefix = e.name.hasPrefix("cbdt_") ? "cbdt_bitmap_format_" : "ebdt_bitmap_format_"
            guard e.name.hasPrefix(prefix), let format = UInt16(e.name.dropFirst(prefix.count)), kind.imageFormats.contains(format) else {
                throw fail(
                    "<\(e.name)>: expected a bitmap glyph (\(kind.imageFormats.sorted().map { glyphElementName($0) }.joined(separator: ", ")))",
                    e)
            }
            var bitmap = Bitmaps.BitmapGlyph(imageFormat: format)
            let layout = Bitmaps.BitmapGlyph.metricsLayout(format)
            var sawData = false
            for child in e.children {
                switch child.name {
                case "SmallGlyphMetrics", "BigGlyphMetrics":
                    // fontTools ignores (with a warning) the metrics a format does not carry; so do we.
                    if let layout, layout.xmlName == child.name { bitmap.metrics = try record(layout, child) }
                case "rawimagedata" where format != 8 && format != 9:
                    bitmap.imageData = try TTX.hexBytes(child); sawData = true
                case "components" where format == 8 || format == 9:
                    sawData = true
                    for c in child.children {
                        guard c.name == "ebdtComponent" else { throw fail("<\(c.name)> in <components>: expected <ebdtComponent>", c) }
                        var component = Bitmaps.BitmapGlyph.Component(glyph: try glyph(try c.attribute("name"), c), xOffset: 0, yOffset: 0)
                        for f in c.children {
                            switch f.name {
                            case "xOffset": component.xOffset = Int8(try number(f, "value", -128...127))
                            case "yOffset": component.yOffset = Int8(try number(f, "value", -128...127))
                            default: throw fail("<\(f.name)> is not part of <ebdtComponent>", f)
                            }
                        }
                        bitmap.components.append(component)
                    }
                case "rowimagedata", "bitwiseimagedata", "extfileimagedata":
                    throw fail("<\(child.name)> is not read yet: dump with ttx's default (-z raw) to get <rawimagedata>", child)
                default: throw fail("<\(child.name)> is not part of <\(e.name)>", child)
                }
            }
            if let layout, bitmap.metrics == nil { throw fail("<\(e.name)> needs <\(layout.xmlName)>", e) }
            guard sawData else { throw fail("<\(e.name)> needs <\(format == 8 || format == 9 ? "components" : "rawimagedata")>", e) }
            return bitmap
        }
    }
}

extension EBLCTable: TTXTable { static var ttx: TTX.Converter { TTX.bitmapLocatorConverter(.monochrome) } }

extension EBDTTable: TTXTable { static var ttx: TTX.Converter { TTX.bitmapDataConverter(.monochrome) } }

extension CBLCTable: TTXTable { static var ttx: TTX.Converter { TTX.bitmapLocatorConverter(.color) } }

extension CBDTTable: TTXTable { static var ttx: TTX.Converter { TTX.bitmapDataConverter(.color) } }
extension BlocTable: TTXTable { static var ttx: TTX.Converter { TTX.bitmapLocatorConverter(.apple) } }
extension BdatTable: TTXTable { static var ttx: TTX.Converter { TTX.bitmapDataConverter(.apple) } }
