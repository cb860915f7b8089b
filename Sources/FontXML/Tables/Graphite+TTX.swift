import FontModel

/// What the Graphite tables' TTX (Feat, Sill, Glat/Gloc, Silf) shares: elements written with
/// sorted attributes as fontTools writes them, and reading numbers, versions and glyphs back.
enum GraphiteXML {
    /// `<name a="1" b="2"/>` with the attributes in name order.
    static func tag(_ name: String, _ attributes: [(String, String)], close: Bool = true) -> String {
        "<\(name)" + attributes.sorted { $0.0 < $1.0 }.map { " \($0.0)=\"\(xmlEscaped($0.1))\"" }.joined() + (close ? "/>" : ">")
    }

    static func versionText(_ v: UInt32) -> String { TTX.decimalText(Int64(v), scale: Fixed.scale) }

    /// Items joined by spaces, broken into lines past 80 characters, as fontTools' wrapline.
    static func wrapped(_ items: [String], indent: String) -> String {
        var out = "", line = ""
        for item in items {
            if line.count > 80 { out += indent + line.dropLast() + "\n"; line = "" }
            line += item + " "
        }
        if !line.isEmpty { out += indent + line.dropLast() + "\n" }
        return out
    }

    struct Reader {
        let face: Face
        let table: String

        func fail(_ message: String, _ e: XMLElement) -> XMLError { XMLError(message, line: e.line, column: e.column) }

        func int(_ e: XMLElement, _ key: String, _ range: ClosedRange<Int64>) throws -> Int { Int(try TTX.integerAttribute(e, key, range)) }

        func version(_ e: XMLElement, _ key: String = "version") throws -> UInt32 {
            let text = try e.attribute(key)
            guard let v = Double(text.trimmingWhitespace()), v >= 0, v < 65536 else {
                throw fail("\(key)=\"\(text)\" is not a 16.16 version number", e)
            }
            return UInt32((v * Fixed.scale).rounded())
        }

        func glyph(_ name: String, _ e: XMLElement) throws -> UInt16 {
            UInt16(truncatingIfNeeded: try StructuredReader(face: face).glyph(name, e))
        }

        func featureID(_ e: XMLElement) throws -> UInt32 {
            let text = try e.attribute("fid")
            guard let id = Graphite.featureID(text) else {
                throw fail("fid=\"\(text)\" is neither a number nor a tag of up to four ASCII characters", e)
            }
            return id
        }

        /// The table's bytes, or the model's complaint as an error at the table's element.
        func encoded<T>(_ element: XMLElement, _ body: () throws -> T) throws -> T {
            do { return try body() } catch let error as FontError { throw fail("\(table): \(error.message)", element) }
        }
    }
}

/// Feat in TTX: `<version version=>`, then per feature `<feature fid= label= flags= default=>`
/// holding its `<setting value= label=/>` (by value, each with its name as a comment).
/// Fused, the default setting is written first, the others by value, as fontTools does.
extension TTX {
    static let featConverter = Converter(
        dump: { face in
            guard let feat = try face.table(FeatTable.self) else { return nil }
            let names = face.has("name") ? try? face.name : nil
            var out = "  <Feat>\n    " + GraphiteXML.tag("version", [("version", GraphiteXML.versionText(feat.version))]) + "\n"
            for f in feat.features {
                if let name = names?.debugName(Int(f.label)) { out += "\n    <!-- \(xmlComment(name)) -->\n" }
                out +=
                    "    "
                    + GraphiteXML.tag(
                        "feature",
                        [
                            ("fid", Graphite.featureIDText(f.id)), ("label", "\(f.label)"), ("flags", "\(f.flags)"),
                            ("default", "\(f.defaultValue)"),
                        ], close: false) + "\n"
                for s in f.settings.sorted(by: { $0.value < $1.value }) {
                    out += "      " + GraphiteXML.tag("setting", [("value", "\(s.value)"), ("label", "\(s.label)")])
                    if let name = names?.debugName(Int(s.label)) { out += "  <!-- \(xmlComment(name)) -->" }
                    out += "\n"
                }
                out += "    </feature>\n"
            }
            return out + "  </Feat>\n"
        },
        fuse: { element, face, apply in
            let x = GraphiteXML.Reader(face: face, table: "Feat")
            var version: UInt32 = 0x0002_0000
            var features: [FeatTable.Feature] = []
            for e in element.children {
                switch e.name {
                case "version": version = try x.version(e)
                case "feature":
                    let defaultValue = try e.value("default").map { _ in UInt16(try x.int(e, "default", 0...0xFFFF)) }
                    var settings = try e.children.map { s -> FeatTable.Setting in
                        guard s.name == "setting" else { throw x.fail("<\(s.name)> in <feature>: expected <setting value= label=/>", s) }
                        return FeatTable.Setting(
                            value: UInt16(try x.int(s, "value", 0...0xFFFF)), label: UInt16(try x.int(s, "label", 0...0xFFFF)))
                    }
                    settings.sort { ($0.value == defaultValue ? 0 : 1, $0.value) < ($1.value == defaultValue ? 0 : 1, $1.value) }
                    features.append(
                        FeatTable.Feature(
                            id: try x.featureID(e), flags: UInt16(try x.int(e, "flags", 0...0xFFFF)),
                            label: UInt16(try x.int(e, "label", 0...0xFFFF)), settings: settings))
                default: throw x.fail("<\(e.name)> in <Feat>: expected <version> or <feature>", e)
                }
            }
            let bytes = try x.encoded(element) { try FeatTable(version: version, features: features).encode() }
            if apply { face.setRawTable("Feat", bytes) }
        })

    /// Sill in TTX: `<version version=>`, then per language (sorted by code) `<lang name=>`
    /// holding `<feature fid= val=/>`.
    static let sillConverter = Converter(
        dump: { face in
            guard let sill = try face.table(SillTable.self) else { return nil }
            var out = "  <Sill>\n    " + GraphiteXML.tag("version", [("version", GraphiteXML.versionText(sill.version))]) + "\n"
            for l in sill.languages.sorted(by: { Array($0.code.utf8).lexicographicallyPrecedes(Array($1.code.utf8)) }) {
                out += "    " + GraphiteXML.tag("lang", [("name", l.code)], close: false) + "\n"
                for v in l.values {
                    out +=
                        "      " + GraphiteXML.tag("feature", [("fid", Graphite.featureIDText(v.feature)), ("val", "\(v.value)")]) + "\n"
                }
                out += "    </lang>\n"
            }
            return out + "  </Sill>\n"
        },
        // The same walk as Feat's fuse (version, then one element per entry) over other elements.
        fuse: { element, face, apply in
            let x = GraphiteXML.Reader(face: face, table: "Sill")
            var version: UInt32 = 0x0001_0000
            var languages: [SillTable.Language] = []
            for e in element.children {
                switch e.name {
                case "version": version = try x.version(e)
                case "lang":
                    let code = try e.attribute("name")
                    guard code.utf8.count <= 4, code.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else {
                        throw x.fail("name=\"\(code)\" is not a language code of up to four ASCII letters", e)
                    }
                    let values = try e.children.map { f -> SillTable.FeatureValue in
                        guard f.name == "feature" else { throw x.fail("<\(f.name)> in <lang>: expected <feature fid= val=/>", f) }
                        return SillTable.FeatureValue(feature: try x.featureID(f), value: UInt16(try x.int(f, "val", 0...0xFFFF)))
                    }
                    languages.append(SillTable.Language(code: code, values: values))
                default: throw x.fail("<\(e.name)> in <Sill>: expected <version> or <lang>", e)
                }
            }
            languages.sort { Array($0.code.utf8).lexicographicallyPrecedes(Array($1.code.utf8)) }
            let bytes = try x.encoded(element) { try SillTable(version: version, languages: languages).encode() }
            if apply { face.setRawTable("Sill", bytes) }
        })
}

extension FeatTable: TTXTable { static var ttx: TTX.Converter { TTX.featConverter } }

extension SillTable: TTXTable { static var ttx: TTX.Converter { TTX.sillConverter } }
