/// Names for a static instance, so it installs beside the variable font and its siblings:
/// the style comes from the named instance at that location, else from the STAT values that
/// hold there, else from the coordinates ("wght 650"); family, full, PostScript and unique
/// names follow, and the RIBBI bits (fsSelection, macStyle) match the legacy subfamily.
extension Face {
    /// Renames this face (an instance) after `original`'s location; returns the PostScript name.
    func nameInstance(from original: Face, location: VariationLocation) throws -> String {
        let source = try original.name
        let family = source.string(16) ?? source.string(1) ?? "Untitled"
        var style: String?
        var postScript: String?
        if let fvar = try original.table(FvarTable.self),
            let named = fvar.instances.first(where: { $0.coordinates == location.user })
        {
            style = source.string(named.subfamilyNameID)
            postScript = named.postScriptNameID.flatMap { source.string($0) }
        }
        if style == nil { style = try original.styleFromSTAT(location) }
        if style == nil || style!.isEmpty {
            style = zip(location.tags, location.user).map { "\($0.0.trimmed) \(Face.short($0.1))" }.joined(separator: " ")
        }
        let styleName = style!
        let words = styleName.split(separator: " ").map(String.init)
        let italic = words.contains("Italic") || words.contains("Oblique")
        let isRIBBI = ["Regular", "Bold", "Italic", "Bold Italic"].contains(styleName)
        let legacyFamily = isRIBBI ? family : "\(family) \(words.filter { $0 != "Italic" && $0 != "Oblique" }.joined(separator: " "))"
        let legacyStyle = isRIBBI ? styleName : (italic ? "Italic" : "Regular")
        let full = styleName == "Regular" ? family : "\(family) \(styleName)"
        let ps = Face.postScriptName(from: postScript ?? "\(Face.postScriptName(from: family))-\(Face.postScriptName(from: styleName))")

        let name = try self.name
        try name.set(1, legacyFamily)
        try name.set(2, legacyStyle)
        if isRIBBI {
            _ = name.remove(16); _ = name.remove(17)
        } else {
            try name.set(16, family); try name.set(17, styleName)
        }
        try name.set(4, full)
        try name.set(6, ps)
        let version = name.string(5) ?? ""
        try name.set(3, version.isEmpty ? ps : "\(version);\(ps)")
        _ = name.remove(25)

        let ribbiBold = legacyStyle.contains("Bold"), ribbiItalic = legacyStyle.contains("Italic")
        if let os2 = try os2 {
            var selection = try os2.rawValue("fsSelection") & ~0b0110_0001
            if ribbiBold { selection |= 1 << 5 }
            if ribbiItalic { selection |= 1 }
            if !ribbiBold && !ribbiItalic { selection |= 1 << 6 }
            try os2.setRaw("fsSelection", selection)
        }
        let head = try self.head
        try head.setRaw("macStyle", try head.rawValue("macStyle") & ~0b11 | (ribbiBold ? 1 : 0) | (ribbiItalic ? 2 : 0))
        invalidateCaches()
        return ps
    }

    /// "SemiBold Condensed" from the STAT values that hold at a location (elidable ones left
    /// out), in the design axes' ordering; nil when the face has no STAT.
    func styleFromSTAT(_ location: VariationLocation) throws -> String? {
        guard let stat = try table(STATTable.self), let name = try? self.name,
            case .record(let d)? = try stat.value("DesignAxisRecord"), case .list(let axes)? = d["Axis"]
        else { return nil }
        let tags: [Tag?] = axes.map { $0.fields?["AxisTag"]?.int.map { Tag(UInt32(truncatingIfNeeded: $0)) } }
        let ordering: [Int] = axes.map { Int($0.fields?["AxisOrdering"]?.int ?? 0) }
        func user(_ axis: Int64?) -> Double? {
            guard let axis, Int(axis) < tags.count, let tag = tags[Int(axis)] else { return nil }
            return location.user(tag)
        }
        guard case .record(let a)? = try stat.value("AxisValueArray"), case .list(let values)? = a["AxisValue"] else { return nil }
        var parts: [(order: Int, text: String)] = []
        var covered = Set<Int64>()
        // Format 4 (a combination) first: it names several axes at once.
        for v in values {
            guard case .formatted(4, let f) = try v.resolved(), case .list(let records)? = f["AxisValueRecord"] else { continue }
            let matches = records.allSatisfy { r in
                user(r.fields?["AxisIndex"]?.int).map { $0 == Double(r.fields?["Value"]?.int ?? 0) / Fixed.scale } ?? false
            }
            guard matches else { continue }
            let indexes = records.compactMap { $0.fields?["AxisIndex"]?.int }
            covered.formUnion(indexes)
            if (f["Flags"]?.int ?? 0) & 2 == 0, let text = name.string(Int(f["ValueNameID"]?.int ?? 0)) {
                parts.append((indexes.map { Int($0) < ordering.count ? ordering[Int($0)] : 0 }.min() ?? 0, text))
            }
        }
        for v in values {
            guard case .formatted(let format, let f) = try v.resolved(), format != 4, let axis = f["AxisIndex"]?.int,
                !covered.contains(axis), let u = user(axis)
            else { continue }
            let fixed = { (key: String) in Double(f[key]?.int ?? 0) / Fixed.scale }
            let holds = format == 2 ? (fixed("RangeMinValue")...fixed("RangeMaxValue")).contains(u) : fixed("Value") == u
            guard holds else { continue }
            covered.insert(axis)
            if (f["Flags"]?.int ?? 0) & 2 == 0, let text = name.string(Int(f["ValueNameID"]?.int ?? 0)) {
                parts.append((Int(axis) < ordering.count ? ordering[Int(axis)] : 0, text))
            }
        }
        // An axis away from its default that no STAT value names still shows in the style, as
        // its coordinate ("Bold slnt -5"), so the instance is not named like the upright one.
        if let fvar = try table(FvarTable.self) {
            for (i, axis) in fvar.axes.enumerated() where i < location.user.count && location.user[i] != axis.defaultValue {
                let named = tags.firstIndex(where: { $0 == axis.tag }).map { covered.contains(Int64($0)) } ?? false
                if !named { parts.append((Int.max, "\(axis.tag.trimmed) \(Face.short(location.user[i]))")) }
            }
        }
        if parts.isEmpty {
            return covered.isEmpty ? nil : (name.string(Int(try stat.value("ElidedFallbackNameID")?.int ?? 2)) ?? "Regular")
        }
        return parts.sorted { $0.order < $1.order }.map(\.text).joined(separator: " ")
    }
}
