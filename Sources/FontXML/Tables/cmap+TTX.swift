import FontModel

/// cmap in TTX: one element per subtable (formats 0, 2, 4, 6, 12, 13 and 14), code → glyph name
/// (format 2 is fused only when its mapping is unchanged: it cannot be written yet);
/// formats fontTools does not type either (8, 10, …) as the subtable's bytes in hex inside
/// `<cmap_format_N platformID= platEncID=>`, as fontTools writes them.
extension TTX {
    /// cmap subtable formats written as typed XML, as fontTools types them.
    static let cmapFormats: Set<Int> = [0, 2, 4, 6, 12, 13, 14]
    /// Formats fontTools types but we do not (yet): a cmap holding one is written as hexdata,
    /// since fontTools would read an untyped element of that format as an empty subtable.
    static let cmapFormatsTypedOnlyByFontTools: Set<Int> = []

    /// cmap as fontTools writes it: one element per encoding record, maps sorted by code.
    static func cmapTable(_ cmap: CmapTable, _ face: Face) throws -> String {
        let names = try face.glyphNames()
        func glyphName(_ id: Int) -> String { FontModel.glyphName(id, in: names) }
        var out = XMLText()
        out.add("  <cmap>\n    <tableVersion version=\""); out.add(cmap.version); out.add("\"/>\n")
        // A glyph's name as it goes in XML, escaped once per glyph, not once per code (ids past
        // the glyph count, which a damaged cmap may give, are named and kept apart).
        var escaped = [String?](repeating: nil, count: names.count)
        var escapedBeyond: [Int: String] = [:]
        func name(_ id: Int) -> String {
            if escaped.indices.contains(id) {
                if let known = escaped[id] { return known }
                let text = xmlEscaped(glyphName(id))
                escaped[id] = text
                return text
            }
            if let known = escapedBeyond[id] { return known }
            let text = xmlEscaped(glyphName(id))
            escapedBeyond[id] = text
            return text
        }
        for r in cmap.records {
            let st = r.subtable
            let element = "cmap_format_\(st.format)"
            var attributes = "platformID=\"\(r.platformID)\" platEncID=\"\(r.encodingID)\""
            guard cmapFormats.contains(st.format) else {
                out.add("    <\(element) \(attributes)>\n"); out.hexLines(st.bytes, indent: 6); out.add("    </\(element)>\n")
                continue
            }
            let mapping = try st.mapping()
            switch st.format {
            case 14: break
            case 12, 13:
                attributes += " format=\"\(st.format)\" reserved=\"0\" length=\"\(st.bytes.count)\" language=\"\(st.language)\""
                attributes += " nGroups=\"\(max(0, (st.bytes.count - 16) / 12))\""
            default: attributes += " language=\"\(st.language)\""
            }
            out.add("    <\(element) \(attributes)>\n")
            if st.format == 14 {
                for (selector, v) in (st.variations ?? [:]).sorted(by: { $0.key < $1.key }) {
                    let uvs = String(selector, radix: 16)
                    for range in v.defaults.sorted(by: { $0.lowerBound < $1.lowerBound }) {
                        for uv in range {
                            out.add("      <map uv=\"0x"); out.add(String(uv, radix: 16)); out.add("\" uvs=\"0x"); out.add(uvs);
                            out.add("\"/>\n")
                        }
                    }
                    for (uv, g) in v.glyphs.sorted(by: { $0.key < $1.key }) {
                        out.add("      <map uv=\"0x"); out.add(String(uv, radix: 16)); out.add("\" uvs=\"0x"); out.add(uvs)
                        out.add("\" name=\""); out.add(name(g)); out.add("\"/>\n")
                    }
                }
            } else {
                for (code, g) in mapping.sorted(by: { $0.key < $1.key }) {
                    out.add("      <map code=\"0x"); out.addHex(code); out.add("\" name=\""); out.add(name(g)); out.add("\"/>\n")
                }
            }
            out.add("    </\(element)>\n")
        }
        out.add("  </cmap>\n")
        return out.string
    }

    /// A cmap element: every subtable it lists replaces the face's cmap records; a subtable whose
    /// mapping did not change keeps its bytes.
    static func fuseCmap(_ face: Face, _ element: XMLElement, apply: Bool) throws {
        guard let cmap = try face.cmap else {
            throw XMLError("the face has no cmap table to fuse into", line: element.line, column: element.column)
        }
        var records: [CmapTable.EncodingRecord] = []
        for child in element.children {
            if child.name == "tableVersion" { continue }
            guard child.name.hasPrefix("cmap_format_"), let format = Int(child.name.dropFirst("cmap_format_".count)) else {
                throw XMLError("<\(child.name)> in <cmap>: expected <cmap_format_N>", line: child.line, column: child.column)
            }
            guard cmapFormats.contains(format) else {
                // A subtable fontTools does not type: its bytes in hex, kept as they are.
                let platform = Int(try uint16(child, "platformID")), encoding = Int(try uint16(child, "platEncID"))
                let bytes = try hexBytes(child)
                guard bytes.count >= 2, Int(bytes[0]) << 8 | Int(bytes[1]) == format else {
                    throw XMLError(
                        "<\(child.name)> holds no format \(format) subtable: give its bytes in hex, starting with its format",
                        line: child.line, column: child.column)
                }
                records.append(
                    CmapTable.EncodingRecord(
                        platformID: platform, encodingID: encoding, subtable: CmapSubtable(keeping: bytes, format: format)))
                continue
            }
            func number(_ e: XMLElement, _ key: String, default value: Int64? = nil) throws -> Int64 {
                guard let text = e.value(key) else {
                    if let value { return value }
                    throw XMLError("<\(e.name)> needs the attribute '\(key)'", line: e.line, column: e.column)
                }
                guard let v = parseInteger(text), v >= 0 else {
                    throw XMLError("\(key)=\"\(text)\" is not a number", line: e.line, column: e.column)
                }
                return v
            }
            func glyph(_ e: XMLElement) throws -> Int {
                let name = try e.attribute("name")
                guard let id = try face.glyphID(named: name) ?? fontToolsGlyphID(name) else {
                    throw XMLError("glyph '\(name)' does not exist in this font", line: e.line, column: e.column)
                }
                return id
            }
            let platform = Int(try number(child, "platformID")), encoding = Int(try number(child, "platEncID"))
            let language = Int(try number(child, "language", default: 0))
            var mapping: [UInt32: Int] = [:]
            var variations: [UInt32: (defaults: [ClosedRange<UInt32>], glyphs: [UInt32: Int])] = [:]
            for m in child.children {
                guard m.name == "map" else {
                    throw XMLError("<\(m.name)> in <\(child.name)>: expected <map>", line: m.line, column: m.column)
                }
                if format == 14 {
                    let uv = UInt32(truncatingIfNeeded: try number(m, "uv")), selector = UInt32(truncatingIfNeeded: try number(m, "uvs"))
                    var v = variations[selector] ?? ([], [:])
                    if m.value("name") == nil || m.value("name") == "None" {
                        v.defaults.append(uv...uv)
                    } else {
                        v.glyphs[uv] = try glyph(m)
                    }
                    variations[selector] = v
                } else {
                    let code = try number(m, "code")
                    guard code <= 0x10FFFF else {
                        throw XMLError("code 0x\(String(code, radix: 16)) is beyond Unicode", line: m.line, column: m.column)
                    }
                    mapping[UInt32(code)] = try glyph(m)
                }
            }
            // Keep the existing subtable (and its bytes) when nothing in it changed.
            let existing = cmap.records.first { $0.platformID == platform && $0.encodingID == encoding && $0.subtable.format == format }?
                .subtable
            var subtable: CmapSubtable
            if let existing, format != 14, existing.language == language, try existing.mapping() == mapping {
                subtable = existing
            } else if let existing, format == 14, try existing.mapping() == [:], sameVariations(existing.variations ?? [:], variations) {
                subtable = existing
            } else {
                do {
                    subtable = try CmapSubtable(
                        format: format, language: language, mapping: mapping, variations: mergedDefaults(variations))
                } catch let e as FontError {
                    throw XMLError(e.message, line: child.line, column: child.column)
                }
            }
            records.append(CmapTable.EncodingRecord(platformID: platform, encodingID: encoding, subtable: subtable))
        }
        if apply { cmap.replaceRecords(records) }
    }

    /// Default variation ranges merged into runs (the XML lists single code points).
    static func mergedDefaults(_ v: [UInt32: (defaults: [ClosedRange<UInt32>], glyphs: [UInt32: Int])]) -> [UInt32: (
        defaults: [ClosedRange<UInt32>], glyphs: [UInt32: Int]
    )] {
        v.mapValues { entry in
            var runs: [ClosedRange<UInt32>] = []
            for r in entry.defaults.sorted(by: { $0.lowerBound < $1.lowerBound }) {
                if let last = runs.last, r.lowerBound == last.upperBound + 1, r.upperBound - last.lowerBound <= 255 {
                    runs[runs.count - 1] = last.lowerBound...r.upperBound
                } else {
                    runs.append(r)
                }
            }
            return (runs, entry.glyphs)
        }
    }

    static func sameVariations(
        _ a: [UInt32: (defaults: [ClosedRange<UInt32>], glyphs: [UInt32: Int])],
        _ b: [UInt32: (defaults: [ClosedRange<UInt32>], glyphs: [UInt32: Int])]
    ) -> Bool {
        guard Set(a.keys) == Set(b.keys) else { return false }
        for (k, x) in a {
            guard let y = b[k], x.glyphs == y.glyphs else { return false }
            let codes = { (r: [ClosedRange<UInt32>]) in Set(r.flatMap { Array($0) }) }
            if codes(x.defaults) != codes(y.defaults) { return false }
        }
        return true
    }

    /// fontTools' name for a glyph id the font does not have ("glyph00300"), as its id: a cmap
    /// may map to such ids, and fontTools dumps them so.
    static func fontToolsGlyphID(_ name: String) -> Int? {
        guard name.hasPrefix("glyph"), name.count > 5, let id = Int(name.dropFirst(5)), (0...0xFFFF).contains(id),
            name.dropFirst(5).allSatisfy(\.isASCII)
        else { return nil }
        return id
    }

    static let cmapConverter = Converter(
        dump: { face in
            guard let cmap = try face.cmap, cmap.records.allSatisfy({ !cmapFormatsTypedOnlyByFontTools.contains($0.subtable.format) })
            else { return nil }
            return try cmapTable(cmap, face)
        },
        fuse: { element, face, apply in try fuseCmap(face, element, apply: apply) })
}

extension CmapTable: TTXTable { static var ttx: TTX.Converter { TTX.cmapConverter } }
