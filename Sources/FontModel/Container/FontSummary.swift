extension Font {
    /// What `fontshell info` prints: per face names, format, units per em, glyph count, vertical
    /// metrics and the table list with sharing. Decodes only head, hhea, maxp, OS/2 and name.
    /// The summary of every face, or of `faces` (still naming the faces each table is shared with).
    public func summary(faces selected: [Face]? = nil) throws -> String {
        let font = self
        var out: [String] = []
        // Which faces share each table, found in one pass (asking every face about every other is
        // quadratic: a collection of 5,000 faces on one directory took minutes).
        var sharing: [Face.SharingKey: [Int]] = [:]
        if font.isCollection {
            for face in font.faces {
                for tag in face.tags { if let key = face.sharingKey(tag) { sharing[key, default: []].append(face.index) } }
            }
        }
        let kind =
            (font.isCollection ? "collection of \(font.faces.count) faces" : font.format.rawValue)
            + (font.webFormat.map { ", in a \($0.uppercased())" } ?? "")
        out.append("\(font.path ?? "font"): \(kind)")
        for face in selected ?? font.faces {
            out.append("")
            out.append("face \(face.index): \(try face.postScriptName ?? "?")")
            out.append("  full name:    \(try face.fullName ?? "?")")
            out.append("  family:       \(try face.familyName ?? "?")")
            out.append("  format:       \(face.format.rawValue)\(font.isCollection ? " (in a collection)" : "")")
            out.append("  unitsPerEm:   \(try face.head.unitsPerEm)")
            out.append("  glyphs:       \(try face.glyphCount)")
            let hhea = try face.hhea
            out.append(
                "  hhea:         ascender \(hhea.int("ascender")), descender \(hhea.int("descender")), lineGap \(hhea.int("lineGap"))")
            if let os2 = try face.os2 {
                if os2.has("sTypoAscender") {
                    out.append(
                        "  OS/2 typo:    ascender \(os2.int("sTypoAscender")), descender \(os2.int("sTypoDescender")), lineGap \(os2.int("sTypoLineGap"))"
                    )
                    out.append("  OS/2 win:     ascent \(os2.int("usWinAscent")), descent \(os2.int("usWinDescent"))")
                }
                out.append("  USE_TYPO_METRICS: \(os2.useTypoMetrics ? "yes" : "no")")
            }
            if let fvar = try face.table(FvarTable.self) {
                let names = try face.name
                func n(_ v: Double) -> String { Face.short(v) }
                let axes = fvar.axes.map { "\($0.tag.trimmed) \(n($0.minimum))…\(n($0.maximum)) (default \(n($0.defaultValue)))" }
                out.append("  axes:         " + axes.joined(separator: ", "))
                let instances = fvar.instances.map { names.string($0.subfamilyNameID) ?? "#\($0.subfamilyNameID)" }
                if !instances.isEmpty { out.append("  instances:    \(instances.count): " + instances.joined(separator: ", ")) }
            }
            out.append("  tables:")
            let raw = face.tags
            for tag in raw {
                // The first 8 others and a count: a line per table must not grow with the collection.
                let group = face.sharingKey(tag).flatMap { sharing[$0] } ?? [face.index]
                let others = group.count - 1
                let first = group.lazy.filter { $0 != face.index }.prefix(8).map(String.init).joined(separator: ", ")
                let shared =
                    others == 0 ? "" : "  shared with face\(others > 1 ? "s" : "") \(first)" + (others > 8 ? " and \(others - 8) more" : "")
                let checksum = face.storedChecksum(tag).map { "0x" + String($0, radix: 16, uppercase: true).leftPadded(8) } ?? ""
                out.append("    \(tag.description)  \(String(face.storedLength(tag) ?? 0).leftPadded(9, with: " "))  \(checksum)\(shared)")
            }
        }
        return out.joined(separator: "\n")
    }
}

extension String {
    /// Right-aligns in `width` characters.
    func leftPadded(_ width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}
