/// One problem `validate` found.
public struct Finding: Equatable, Sendable, CustomStringConvertible {
    public enum Severity: String, Sendable, Comparable {
        case warning, error
        public static func < (a: Severity, b: Severity) -> Bool { a == .warning && b == .error }
    }
    /// Stable id of the check, e.g. "loca-monotonic".
    public let check: String
    public let severity: Severity
    /// 0-based face index (nil for file-level checks).
    public let face: Int?
    public let message: String

    public var description: String {
        "\(severity.rawValue): \(check)\(face.map { " (face \($0))" } ?? ""): \(message)"
    }
}

/// Checks a font before shipping: structure, checksums, counts, glyph data, cmap, names and
/// vertical metrics. Each check has an id; `Validator.checks` lists them all.
public enum Validator {
    public static let checks: [(id: String, what: String)] = [
        ("table-checksum", "each table's checksum in the directory matches its data"),
        ("checksum-adjustment", "head.checkSumAdjustment makes a single font sum to 0xB1B0AFBA"),
        ("head-magic", "head.magicNumber is 0x5F0F3CF5"),
        ("units-per-em", "head.unitsPerEm is 16...16384, as the spec requires"),
        ("field-ranges", "fields the spec narrows (OS/2's version, usWeightClass 1...1000, usWidthClass 1...9) hold values it allows"),
        (
            "required-tables",
            "cmap, head, hhea, hmtx, maxp, name, OS/2, post and glyph data (glyf+loca, CFF, CFF2, or bitmaps: CBDT+CBLC, sbix, EBDT+EBLC) are present"
        ),
        ("table-alignment", "every table starts on a 4-byte boundary"),
        ("glyph-count", "maxp.numGlyphs agrees with loca, hmtx and the CFF charstrings"),
        ("hhea-metrics-count", "hhea.numberOfHMetrics is between 1 and numGlyphs"),
        ("loca-monotonic", "loca offsets never run backwards and stay inside glyf"),
        ("glyph-data", "every glyph decodes; composite references exist and do not loop"),
        ("glyph-bounds", "glyph bounding boxes lie inside head's xMin/yMin/xMax/yMax"),
        ("cmap-subtables", "cmap subtables are sorted and map to existing glyphs"),
        ("name-decodable", "Unicode and Windows name records are valid UTF-16"),
        (
            "postscript-name",
            "the PostScript name is valid (ASCII 33–126 minus [](){}<>/%, ≤ 63), the same on every platform and the CFF FontName"
        ),
        ("family-names", "the full name (ID 4) starts with the family (ID 16 or 1)"),
        (
            "vertical-metrics",
            "hhea, OS/2 typo and win metrics agree (USE_TYPO_METRICS), win metrics do not clip, and the hhea ascender reaches the cap height"
        ),
        ("shared-tables", "in a collection, tables shared by faces decode for every face"),
        (
            "table-decodable",
            "every table FontShell reads (kern, fvar, gvar, CFF, COLR, the bitmap strikes …) decodes: what dump, diff and Lua would refuse, validate reports"
        ),
        (
            "variation-consistency",
            "in a variable font, gvar's deltas fit the outlines, HVAR/VVAR advances agree with gvar's phantom points at the masters, MVAR's items exist, and CFF2 charstrings blend with their store's regions"
        ),
        (
            "layout-structure",
            "structured tables (GDEF …) decode: offsets, counts and formats fit the bytes; Coverage glyphs ascend; glyph ids exist; GSUB/GPOS lookup types, feature and lookup indices are valid, extensions agree, contextual lookups do not call each other in a cycle"
        ),
    ]

    /// The checks whose verdict edits to these tables can change (`cffOutlines`: the CFF edit
    /// touched charstrings, not only names). Checksums, alignment and the checksum adjustment are
    /// the writer's own work, and warnings cannot refuse a save, so neither is rerun before one.
    static func checksAffected(byEditsTo tags: Set<String>, cffOutlines: Bool) -> Set<String> {
        var checks: Set<String> = ["head-magic", "units-per-em", "required-tables", "glyph-count", "hhea-metrics-count"]
        let cff = tags.contains("CFF") || tags.contains("CFF ")
        if !tags.isDisjoint(with: ["glyf", "loca", "maxp"]) || (cff && cffOutlines) {
            checks.formUnion(["loca-monotonic", "glyph-data", "shared-tables", "cmap-subtables"])
        }
        if tags.contains("head") { checks.formUnion(["loca-monotonic", "glyph-data"]) }
        if tags.contains("cmap") { checks.insert("cmap-subtables") }
        if !tags.isDisjoint(with: TableRegistry.structuredTags.map(\.description)) { checks.insert("layout-structure") }
        if tags.contains("name") || cff { checks.formUnion(["name-decodable", "postscript-name"]) }
        return checks
    }

    /// Every finding for every face of the font.
    /// `runCharStrings: false` skips running every CFF charstring (the slowest check); `checks`
    /// runs only those ids (the check before a save runs those its edits can affect).
    public static func validate(_ font: Font, runCharStrings: Bool = true, checks: Set<String>? = nil) -> [Finding] {
        var findings: [Finding] = []
        let bytes = font.bytes.buffer
        var checkedSources = Set<Int>()   // a table shared by faces is checked once
        var checkedStructures = Set<String>()
        var decodedSources = Set<Int>()
        for face in font.faces {
            let f = font.isCollection ? face.index : nil
            func add(_ check: String, _ severity: Finding.Severity, _ message: String) {
                findings.append(Finding(check: check, severity: severity, face: f, message: message))
            }
            // Checks run one by one: a failure in one is reported and the others still run.
            func run(_ check: String, _ body: () throws -> Void) {
                guard checks?.contains(check) ?? true else { return }
                do { try body() } catch { add(check, .error, "\(error)") }
            }
            run("table-checksum") {
                for tag in face.tags {
                    guard let source = face.slots[tag]?.source, let stored = face.storedChecksum(tag),
                        checkedSources.insert(source.lowerBound).inserted
                    else { continue }
                    let data = UnsafeRawBufferPointer(rebasing: bytes[source])
                    var actual = sfntChecksum(data)
                    // head's checksum is taken with checkSumAdjustment (its third word) as zero.
                    if tag == "head", data.count >= 12 {
                        actual &-= UInt32(bigEndian: data.loadUnaligned(fromByteOffset: 8, as: UInt32.self))
                    }
                    if actual != stored {
                        add(
                            "table-checksum", .warning,
                            "'\(tag)' checksum is 0x\(String(stored, radix: 16)), the data sums to 0x\(String(actual, radix: 16))")
                    }
                    if source.lowerBound % 4 != 0 {
                        add("table-alignment", .warning, "'\(tag)' starts at \(source.lowerBound), not on a 4-byte boundary")
                    }
                }
            }
            run("head-magic") {
                let magic = try face.head.int("magicNumber")
                if magic != 0x5F0F_3CF5 { add("head-magic", .error, "magicNumber is 0x\(String(magic, radix: 16))") }
            }
            run("required-tables") {
                let missing = ["cmap", "head", "hhea", "hmtx", "maxp", "name", "OS/2", "post"].filter { !face.has(Tag(text: $0)) }
                if !missing.isEmpty {
                    add("required-tables", missing == ["OS/2"] ? .warning : .error, "missing \(missing.joined(separator: ", "))")
                }
                // A colour bitmap font (Noto Color Emoji: CBDT+CBLC; Apple's sbix) has no outlines, by design.
                let bitmaps =
                    (face.has("CBDT") && face.has("CBLC")) || face.has("sbix") || (face.has("EBDT") && face.has("EBLC"))
                    || (face.has("bdat") && face.has("bloc"))
                if !(face.has("glyf") && face.has("loca")) && !face.has("CFF ") && !face.has("CFF2") && !bitmaps {
                    add(
                        "required-tables", .error,
                        "no glyphs: neither outlines (glyf+loca, CFF, CFF2) nor bitmaps (CBDT+CBLC, sbix, EBDT+EBLC)")
                }
            }
            run("glyph-count") {
                let n = try face.glyphCount
                if let loca = try face.table(LocaTable.self), let length = face.storedLength("loca") {
                    let entries = length / (loca.isShort ? 2 : 4) - 1
                    if entries != n { add("glyph-count", .error, "maxp.numGlyphs is \(n), loca has room for \(entries) glyphs") }
                }
                if let hmtx = face.storedLength("hmtx") {
                    let long = try face.hhea.numberOfHMetrics
                    let needed = long * 4 + max(0, n - long) * 2
                    if hmtx < needed { add("glyph-count", .error, "hmtx has \(hmtx) bytes, \(n) glyphs need \(needed)") }
                }
                if let cff = try face.cff, cff.glyphCount != n {
                    add("glyph-count", .error, "maxp.numGlyphs is \(n), CFF has \(cff.glyphCount) charstrings")
                }
            }
            run("hhea-metrics-count") {
                let m = try face.hhea.numberOfHMetrics, n = try face.glyphCount
                if m < 1 || m > n {
                    add("hhea-metrics-count", .error, "numberOfHMetrics is \(m), must be 1...\(n)")
                } else {
                    _ = try face.hmtx
                }
            }
            // A structured table shared by faces (same bytes in the file) is checked once.
            for tag in TableRegistry.structuredTags where face.has(tag) {
                if let slot = face.slots[tag], !slot.isEdited, let source = slot.source,
                    !checkedStructures.insert("\(tag)@\(source.lowerBound)").inserted
                {
                    continue
                }
                run("layout-structure") {
                    let table: StructuredTable
                    do { guard let t = try face.structuredTable(tag) else { return }; table = t } catch is UndescribedStructure { return }
                    var (problems, warnings) = try StructureCheck.problems(table, glyphCount: try face.glyphCount)
                    if tag == "GSUB" || tag == "GPOS" { problems += try LayoutCheck.problems(table) }
                    for problem in problems.prefix(20) {
                        add("layout-structure", .error, "\(tag.trimmed).\(problem)")
                    }
                    for warning in warnings.prefix(20) {
                        add("layout-structure", .warning, "\(tag.trimmed).\(warning)")
                    }
                }
            }
            if face.has("glyf") {
                run("loca-monotonic") { _ = try face.glyf }
                run("glyph-data") {
                    guard let glyf = try face.glyf else { return }
                    let s = try glyf.statistics()   // decodes every glyph header, follows composites, finds loops
                    if s.maxCompositePoints > GlyfTable.maximumFlattenedPoints {
                        add(
                            "glyph-data", .error,
                            "a composite glyph flattens to more than \(GlyfTable.maximumFlattenedPoints) points, which maxp cannot count: its components fan out"
                        )
                    }
                }
            }
            if runCharStrings, let cffSource = face.slots["CFF "]?.source, checkedSources.insert(-1 - cffSource.lowerBound).inserted {
                run("glyph-data") {
                    // Every charstring runs (each within its operation budget) once per CFF table.
                    guard let cff = try face.cff else { return }
                    var failures: [String] = []
                    for id in 0..<cff.glyphCount {
                        do { _ = try CharStringInterpreter.run(cff: cff, glyph: id) } catch let e as FontError {
                            failures.append(e.message)
                        }
                    }
                    if let first = failures.first {
                        add("glyph-data", .error, "\(failures.count) CFF charstrings do not run, e.g. \(first)")
                    }
                }
            }
            run("glyph-bounds") {
                let head = try face.head
                let limits = GlyphBounds(xMin: head.int("xMin"), yMin: head.int("yMin"), xMax: head.int("xMax"), yMax: head.int("yMax"))
                let all = try face.glyf?.allBounds() ?? []
                let outside = all.enumerated().filter { _, b in
                    guard let b else { return false }
                    return b.xMin < limits.xMin || b.yMin < limits.yMin || b.xMax > limits.xMax || b.yMax > limits.yMax
                }
                if let first = outside.first {
                    add("glyph-bounds", .warning, "\(outside.count) glyphs extend beyond head's bounds, e.g. glyph \(first.offset)")
                }
            }
            run("cmap-subtables") {
                guard let cmap = try face.cmap else { return }
                let n = try face.glyphCount
                for r in cmap.records where r.subtable.isMapping {
                    if let bad = try r.subtable.mapping().first(where: { $0.value >= n }) {
                        add(
                            "cmap-subtables", .error,
                            "subtable \(r.platformID)/\(r.encodingID) maps U+\(String(bad.key, radix: 16, uppercase: true)) to glyph \(bad.value) of \(n)"
                        )
                    }
                    if let problem = r.subtable.orderProblem() {
                        add("cmap-subtables", .error, "subtable \(r.platformID)/\(r.encodingID) format \(r.subtable.format): \(problem)")
                    }
                }
            }
            run("table-decodable") {
                // The glyph and layout tables have their own, finer checks (glyph-data,
                // layout-structure); a shared table is decoded once.
                for tag in face.tags where !["glyf", "loca"].contains(tag.description) && !TableRegistry.structuredTags.contains(tag) {
                    guard let type = TableRegistry.type(for: tag) else { continue }
                    // A bitmap pair is read together, through its data table when there is one.
                    if let part = type as? any EmbeddedBitmapsPart.Type, tag == part.kind.locatorTag, face.has(part.kind.dataTag) {
                        continue
                    }
                    if let source = face.slots[tag]?.source, face.font?.isCollection == true,
                        !decodedSources.insert(source.lowerBound).inserted
                    {
                        continue
                    }
                    do {
                        try decode(type, in: face)
                        // A table read through a description (HVAR, COLR …) is checked as dump and Lua read it.
                        if TableRegistry.shapeDescribedTags.contains(tag) { _ = try face.describedView(tag) }
                    } catch { add("table-decodable", .error, "\(error)") }
                }
            }
            run("variation-consistency") {
                for (severity, message) in try variationProblems(face) { add("variation-consistency", severity, message) }
            }
            run("name-decodable") {
                for r in try face.name.records where r.isUTF16 {
                    if r.bytes.count % 2 != 0 {
                        add("name-decodable", .error, "name \(r.nameID) (platform \(r.platformID)) has an odd byte count \(r.bytes.count)")
                    } else if r.text?.unicodeScalars.contains("\u{FFFD}") == true {
                        add("name-decodable", .warning, "name \(r.nameID) (platform \(r.platformID)) is not valid UTF-16")
                    }
                }
            }
            run("postscript-name") {
                let name = try face.name
                let values = Set(name.records.filter { $0.nameID == 6 }.compactMap(\.text))
                guard let ps = name.string(6) else { add("postscript-name", .error, "no PostScript name (name ID 6)"); return }
                if Face.postScriptName(from: ps) != ps || ps.utf8.count > 63 {
                    add("postscript-name", .error, "'\(ps)' is not a valid PostScript name")
                }
                if values.count > 1 {
                    add("postscript-name", .error, "differs between platforms: \(values.sorted().joined(separator: " / "))")
                }
                if let cff = try face.cff, let cffName = cff.fontNames.first, cffName != ps, font.faces.count == 1 {
                    add(
                        "postscript-name", .error,
                        "the CFF FontName '\(cffName)' differs from name ID 6 '\(ps)' (apps find the font by one, PostScript printers by the other)"
                    )
                }
            }
            run("family-names") {
                let name = try face.name
                guard let family = name.string(16) ?? name.string(1), let full = name.string(4) else { return }
                if !full.hasPrefix(family) && !full.hasPrefix(name.string(1) ?? family) {
                    add("family-names", .warning, "full name '\(full)' does not start with the family '\(family)'")
                }
            }
            run("units-per-em") {
                let upem = try face.head.int("unitsPerEm")
                if !(16...16384).contains(upem) {
                    add("units-per-em", .error, "head.unitsPerEm is \(upem); it must be 16...16384 (nothing can be laid out at 0)")
                }
            }
            run("field-ranges") {
                // Every field table member with a `valid:` range (unitsPerEm has its own check);
                // a table that does not decode is table-decodable's finding.
                for tag in TableRegistry.fieldTableTags {
                    guard let table = try? face.fieldTable(tag) else { continue }
                    for member in table.fields where !(tag == "head" && member.name == "unitsPerEm") {
                        guard let valid = member.valid, let v = try? table.rawValue(member.name), !valid.contains(v) else { continue }
                        add(
                            "field-ranges", .warning,
                            "\(tag.trimmed).\(member.name) is \(v); the OpenType spec allows \(valid.lowerBound)...\(valid.upperBound)")
                    }
                }
            }
            run("vertical-metrics") {
                guard let os2 = try face.os2, os2.has("usWinAscent") else { return }
                let hhea = try face.hhea, head = try face.head
                if os2.has("sCapHeight"), os2.int("sCapHeight") > 0, hhea.int("ascender") < os2.int("sCapHeight") {
                    add(
                        "vertical-metrics", .warning,
                        "hhea ascender \(hhea.int("ascender")) is below the cap height \(os2.int("sCapHeight")): capitals reach above the line box (clipped or colliding on Apple platforms)"
                    )
                }
                if os2.useTypoMetrics
                    && (hhea.int("ascender") != os2.int("sTypoAscender") || hhea.int("descender") != os2.int("sTypoDescender")
                        || hhea.int("lineGap") != os2.int("sTypoLineGap"))
                {
                    add(
                        "vertical-metrics", .warning,
                        "USE_TYPO_METRICS is set but hhea (\(hhea.int("ascender"))/\(hhea.int("descender"))/\(hhea.int("lineGap"))) differs from typo (\(os2.int("sTypoAscender"))/\(os2.int("sTypoDescender"))/\(os2.int("sTypoLineGap")))"
                    )
                }
                if os2.int("usWinAscent") < head.int("yMax") || os2.int("usWinDescent") < -head.int("yMin") {
                    add(
                        "vertical-metrics", .warning,
                        "win metrics (\(os2.int("usWinAscent"))/\(os2.int("usWinDescent"))) clip the font's bounds (yMax \(head.int("yMax")), yMin \(head.int("yMin"))) on Windows"
                    )
                }
            }
        }
        if font.isCollection, checks?.contains("shared-tables") ?? true {
            for tag in Set(font.faces.flatMap(\.tags)) where Font.sharedEditTags.contains(tag) {
                let users = font.faces.filter { $0.has(tag) }
                guard users.count > 1 else { continue }
                let counts = Set(users.compactMap { try? $0.glyphCount })
                if counts.count > 1 {
                    findings.append(
                        Finding(
                            check: "shared-tables", severity: .error, face: nil,
                            message: "faces sharing '\(tag)' disagree on the glyph count: \(counts.sorted())"))
                }
            }
        }
        if checks?.contains("checksum-adjustment") ?? true, !font.isCollection, let face = font.faces.first,
            let source = face.slots["head"]?.source, source.count >= 12
        {
            let total = sfntChecksum(UnsafeRawBufferPointer(font.bytes.buffer))
            if total != 0xB1B0_AFBA {
                findings.append(
                    Finding(
                        check: "checksum-adjustment", severity: .warning, face: nil,
                        message: "the file sums to 0x\(String(total, radix: 16)), not 0xb1b0afba"))
            }
        }
        return findings
    }
}

/// Decodes a face's table of a type known only at run time (the existential is opened here).
private func decode<T: DecodableTable>(_ type: T.Type, in face: Face) throws { _ = try face.table(type) }

extension CmapSubtable {
    /// Why the subtable's segments or groups are out of order, if they are.
    func orderProblem() -> String? {
        bytes.withUnsafeBytes { b -> String? in
            let r = BinaryReader(b)
            switch format {
            case 4:
                guard let segX2 = try? r.u16(at: 6) else { return "truncated" }
                var previous = -1
                for s in 0..<Int(segX2) / 2 {
                    guard let end = try? r.u16(at: 14 + 2 * s) else { return "truncated" }
                    if Int(end) <= previous { return "segment \(s) ends at \(end), not after \(previous)" }
                    previous = Int(end)
                }
                return previous == 0xFFFF ? nil : "the last segment does not end at 0xFFFF"
            case 12, 13:
                guard let n = try? r.u32(at: 12) else { return "truncated" }
                var previous: Int64 = -1
                for g in 0..<Int(n) {
                    guard let start = try? r.u32(at: 16 + 12 * g), let end = try? r.u32(at: 20 + 12 * g) else { return "truncated" }
                    if Int64(start) <= previous || end < start { return "group \(g) (\(start)...\(end)) is out of order" }
                    previous = Int64(end)
                }
                return nil
            default:
                return nil
            }
        }
    }
}
