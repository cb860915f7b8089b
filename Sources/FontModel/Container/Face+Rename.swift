/// Renaming a face so an edited copy can be installed next to the original.
extension Face {
    /// A valid PostScript name from any text: printable ASCII 33–126 except `[](){}<>/%`, at most 63 bytes.
    public static func postScriptName(from text: String) -> String {
        let forbidden = Set("[](){}<>/%")
        let kept = text.unicodeScalars.filter { $0.value >= 33 && $0.value <= 126 && !forbidden.contains(Character($0)) }
        var name = String(String.UnicodeScalarView(kept))
        if name.isEmpty { name = "Untitled" }
        return String(name.prefix(63))
    }

    /// Gives the face a new family name: updates name IDs 1, 3, 4, 6, 16, 17 (and 18, 21, 25 where
    /// present; 22, the WWS subfamily, is a style and stays) on every platform, and the CFF FontName/FullName/FamilyName.
    /// The style (subfamily) is kept. Returns the new PostScript name.
    @discardableResult
    public func rename(family newFamily: String, style: String? = nil) throws -> String {
        let name = try self.name
        let oldFamily = name.string(16) ?? name.string(1) ?? ""
        let oldLegacyFamily = name.string(1) ?? oldFamily
        let typoStyle = style ?? name.string(17) ?? name.string(2) ?? "Regular"

        // The legacy family (ID 1) keeps any style words the old ID 1 had beyond the typographic family.
        let legacySuffix = oldLegacyFamily.hasPrefix(oldFamily) ? String(oldLegacyFamily.dropFirst(oldFamily.count)) : ""
        let legacyFamily = newFamily + legacySuffix
        let full = typoStyle == "Regular" ? newFamily : "\(newFamily) \(typoStyle)"
        let psName = Face.postScriptName(from: newFamily) + "-" + Face.postScriptName(from: typoStyle)
        let psNameClamped = String(psName.prefix(63))

        func replacingFamily(_ text: String) -> String {
            guard !oldFamily.isEmpty, text.contains(oldFamily) else { return text }
            return text.replacing(oldFamily, with: newFamily)
        }
        try name.set(1, legacyFamily)
        if name.string(16) != nil || legacySuffix.isEmpty == false { try name.set(16, newFamily) }
        if name.string(17) != nil { try name.set(17, typoStyle) }
        try name.set(4, full)
        try name.set(6, psNameClamped)
        let version = name.string(5) ?? ""
        try name.set(3, "\(version.isEmpty ? "" : version + ";")\(psNameClamped)")
        if let v = name.string(18) { try name.set(18, replacingFamily(v)) }
        if let v = name.string(21) { try name.set(21, replacingFamily(v)) }
        if let v = name.string(25) { try name.set(25, Face.postScriptName(from: replacingFamily(v))) }
        if let cff = try cff {
            cff.rename(fontName: psNameClamped, fullName: full, familyName: newFamily)
        }
        invalidateCaches()
        return psNameClamped
    }
}
