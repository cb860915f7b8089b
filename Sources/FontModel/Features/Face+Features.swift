/// What compiling a feature file did to a face.
public struct FeatureCompileReport: Sendable {
    /// Tables written (GSUB, GPOS, GDEF) and tables removed because the file gives them nothing.
    public var written: [String] = []
    public var removed: [String] = []
    /// Lookups built per table.
    public var lookupCounts: [String: Int] = [:]
    /// Name records added (featureNames, cvParameters, sizemenuname).
    public var namesAdded = 0
}

extension Face {
    /// Compiles feature-file text into this face, replacing its GSUB, GPOS and GDEF as feaLib
    /// does (a table the file gives nothing is removed). `file` names the text in errors and is
    /// where `include()` paths start; `readInclude` reads an included file (the caller decides
    /// which folders may be read) and returns its bytes and the name to report it by.
    ///
    /// With `replace: false` the file is added to the face's layout instead: the face's own
    /// GSUB, GPOS and GDEF are written as a feature file (`featureFile`) and compiled first, then
    /// this file, whose features go to its own language systems (DFLT/dflt when it names none)
    /// and whose lookups come after the face's. Refused when that would lose part of the
    /// face's layout (FeatureVariations, for one).
    @discardableResult
    public func compileFeatures(
        _ text: [UInt8], file: String, replace: Bool = true,
        readInclude: @escaping (String, FeatureLocation) throws -> (bytes: [UInt8], file: String) = { name, at in
            throw FeatureFileError("include(\(name)): including files is not allowed here", at)
        }
    ) throws -> FeatureCompileReport {
        let names = try glyphNames()
        let builder = FeatureBuilder(glyphNames: names)
        if let nameTable = try table(NameTable.self) { builder.usedNameIDs = Set(nameTable.records.map(\.nameID)) }
        builder.setAxes(try variationAxes, avar: try table(AvarTable.self))
        if !replace {
            let existing = try featureFile(namePrefix: "existing_")
            if let lost = existing.omissions.first {
                throw FeatureFileError("adding to the face's layout would lose part of it: \(lost)", nil)
            }
            try FeatureParser(text: Array(existing.text.utf8), file: "<the face's layout>", glyphNames: names, builder: builder) {
                name, at in
                throw FeatureFileError("include(\(name)) in the face's own layout", at)
            }.parse()
            builder.startAppendedFile()
        }
        try FeatureParser(text: text, file: file, glyphNames: names, builder: builder, readInclude: readInclude).parse()
        if !replace, let nameTable = try table(NameTable.self) {
            var existing: [Int: Set<FeatureNameRecord>] = [:]
            for r in nameTable.records {
                existing[r.nameID, default: []].insert(
                    FeatureNameRecord(platformID: r.platformID, encodingID: r.encodingID, languageID: r.languageID, bytes: r.bytes))
            }
            builder.reuseNameIDs(existing)
        }

        builder.buildAalt()
        // Build everything before changing the face: an error leaves it as it was.
        var tables: [(Tag, [UInt8]?)] = []
        var report = FeatureCompileReport()
        // Variable scalars: the deltas laid out, and the rows' ids in Devices made indexes.
        let variations = try builder.finishVariationStore()
        for tag in ["GPOS", "GSUB"] {
            guard var root = try builder.buildLayout(tag) else {
                tables.append((Tag(text: tag), nil))
                continue
            }
            if let variations { root = FeatureBuilder.remapFields(root, variations.indexes) }
            let table: StructuredTable = tag == "GSUB" ? GSUBTable(root: root) : GPOSTable(root: root)
            do {
                tables.append((Tag(text: tag), try table.encode()))
            } catch let e as FontError {
                throw FeatureFileError("\(tag) cannot be written: \(e.message)", nil)
            }
            if case .list(let l)? = root["LookupList"]?.fields?["Lookup"] { report.lookupCounts[tag] = l.count }
        }
        if var gdef = builder.buildGDEF(variationStore: variations?.store) {
            if let variations { gdef = FeatureBuilder.remapFields(gdef, variations.indexes) }
            tables.append(("GDEF", try GDEFTable(root: gdef).encode()))
        } else {
            tables.append(("GDEF", nil))
        }
        if let base = builder.buildBASE() { tables.append(("BASE", try BASETable(root: base).encode())) }
        // STAT's names take IDs past every one the name table will have otherwise.
        var addedNames = builder.names
        if !builder.stat.isEmpty {
            guard let nameTable = try table(NameTable.self) else {
                throw FeatureFileError("the face has no name table for STAT's names", builder.stat.location)
            }
            let (stat, statNames) = try builder.stat.build(usedNameIDs: Set(nameTable.records.map(\.nameID) + addedNames.map(\.0)))
            tables.append(("STAT", try STATTable(root: stat).encode()))
            addedNames += statNames
        }
        if !addedNames.isEmpty, try table(NameTable.self) == nil {
            throw FeatureFileError("the face has no name table for the feature names", nil)
        }
        // Fields of head, hhea, vhea and OS/2 (an OS/2 too old for a field is upgraded first):
        // set on copies first, so that a value a field refuses leaves the face as it was.
        func setFields(_ tableFor: (String) throws -> FieldTable?) throws {
            for (tag, field, value, at) in builder.tableFields {
                guard let table = try tableFor(tag) else { throw FeatureFileError("the face has no \(tag) table", at) }
                do {
                    if tag == "OS/2", builder.os2Version > table.int("version") {
                        try table.set("version", .int(Int64(builder.os2Version)))
                    }
                    try table.set(field, value)
                } catch let e as FontError {
                    throw FeatureFileError(e.message, at)
                }
            }
        }
        var copies: [String: FieldTable] = [:]
        try setFields { tag in
            if let copy = copies[tag] { return copy }
            guard let table = try fieldTable(Tag(text: tag)) else { return nil }
            let copy = try table.encode().withUnsafeBytes { try type(of: table).init(reader: BinaryReader($0)) }
            copies[tag] = copy
            return copy
        }

        // `table vmtx`: advances into vmtx; vertical origins as vmtx's top side bearings (the
        // origin less the glyph's top) and, for CFF outlines, into VORG too.
        var longVerticalMetrics: Int?
        if !builder.verticalOrigins.isEmpty || !builder.verticalAdvances.isEmpty {
            let cff = has("CFF ") || has("CFF2")
            var vmtx: VmtxTable?
            if !builder.verticalAdvances.isEmpty || !cff || has("vmtx") {
                guard let existing = try table(VmtxTable.self), has("vhea") else {
                    throw FeatureFileError(
                        "table vmtx needs the face's vhea and vmtx tables (it has no vertical metrics)",
                        (builder.verticalAdvances.first ?? builder.verticalOrigins.first)?.at)
                }
                vmtx = try existing.encode().withUnsafeBytes { try VmtxTable.decode(BinaryReader($0), face: self) }
            }
            for (g, value, at) in builder.verticalAdvances {
                do { try vmtx?.setAdvance(g, value) } catch let e as FontError { throw FeatureFileError(e.message, at) }
            }
            if cff {
                let old = try table(VORGTable.self)
                var origins = old?.origins ?? [:]
                let defaultY =
                    try old?.defaultVertOriginY ?? fieldTable("OS/2")?.int("sTypoAscender") ?? fieldTable("hhea")?.int("ascender") ?? 0
                for (g, value, _) in builder.verticalOrigins { origins[g] = value }
                if !builder.verticalOrigins.isEmpty {
                    let vorg = VORGTable(
                        majorVersion: old?.majorVersion ?? 1, minorVersion: old?.minorVersion ?? 0, defaultVertOriginY: defaultY,
                        origins: origins)
                    tables.append(("VORG", try vorg.encode()))
                }
            }
            if let vmtx {
                for (g, value, at) in builder.verticalOrigins {
                    let top = try glyphBounds(g)?.yMax ?? 0
                    do { try vmtx.setSideBearing(g, value - top) } catch let e as FontError { throw FeatureFileError(e.message, at) }
                }
            }
            if let vmtx {
                tables.append(("vmtx", try vmtx.encode()))
                longVerticalMetrics = vmtx.longMetricsCount
            }
        }

        // Nothing below fails: the face changes.
        if !addedNames.isEmpty, let nameTable = try table(NameTable.self) {
            for (id, r) in addedNames {
                nameTable.set(
                    record: NameRecord(
                        platformID: r.platformID, encodingID: r.encodingID, languageID: r.languageID, nameID: id, bytes: r.bytes))
            }
            report.namesAdded = addedNames.count
        }
        try setFields { try fieldTable(Tag(text: $0)) }
        // vhea counts vmtx's full records, which new advances can change.
        if let n = longVerticalMetrics { try fieldTable("vhea")?.setRaw("numOfLongVerMetrics", Int64(n)) }
        if !builder.tableFields.isEmpty { report.written += Array(Set(builder.tableFields.map(\.table))).sorted() }
        for (tag, bytes) in tables {
            if let bytes {
                setRawTable(tag, bytes)
                report.written.append(tag.trimmed)
            } else if tags.contains(tag) {
                removeTable(tag)
                report.removed.append(tag.trimmed)
            }
        }
        return report
    }
}
