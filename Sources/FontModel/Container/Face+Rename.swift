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

    /// Gives the face a new family name so the copy can live beside the original. The family is
    /// replaced inside every name that contains it (IDs 1, 3, 4, 6, 16, and 18, 21, 25 where
    /// present), on every platform, keeping each name's structure ("DejaVu Sans Bold" becomes
    /// "DejaVu Caps Bold", "DejaVuSans-Bold" becomes "DejaVuCaps-Bold"); names that do not contain
    /// it are rebuilt from the family and style. The style (IDs 17, 2 and 22) stays unless `style`
    /// is given, which sets it and goes into the full and PostScript names. For CFF faces the
    /// FontName, FullName and FamilyName are rewritten too. Returns the PostScript name.
    @discardableResult
    public func rename(family newFamily: String, style newStyle: String? = nil) throws -> String {
        let name = try self.name
        let oldFamily = name.string(16) ?? name.string(1) ?? ""
        let oldStyle = name.string(17) ?? name.string(2) ?? "Regular"
        if let newStyle {
            if name.string(17) != nil { try name.set(17, newStyle) } else { try name.set(2, newStyle) }
            if name.string(22) != nil { try name.set(22, newStyle) }
        }
        let style = newStyle ?? oldStyle
        let oldPostScript = name.string(6) ?? ""
        let oldFamilyPostScript = Face.postScriptName(from: oldFamily)
        let newFamilyPostScript = Face.postScriptName(from: newFamily)

        func replacingFamily(_ text: String) -> String? {
            guard !oldFamily.isEmpty, text.contains(oldFamily) else { return nil }
            return text.replacing(oldFamily, with: newFamily)
        }
        let built = style == "Regular" ? newFamily : "\(newFamily) \(style)"
        let full = newStyle == nil ? (name.string(4).flatMap(replacingFamily) ?? built) : built
        let postScript: String
        if newStyle == nil, !oldFamilyPostScript.isEmpty, oldPostScript.hasPrefix(oldFamilyPostScript) {
            postScript = Face.postScriptName(from: newFamilyPostScript + oldPostScript.dropFirst(oldFamilyPostScript.count))
        } else {
            postScript = Face.postScriptName(from: newFamilyPostScript + "-" + Face.postScriptName(from: style))
        }

        try name.set(1, name.string(1).flatMap(replacingFamily) ?? newFamily)
        if name.string(16) != nil { try name.set(16, newFamily) }
        try name.set(4, full)
        try name.set(6, postScript)
        let unique = name.string(3) ?? ""
        var newUnique = oldPostScript.isEmpty ? unique : unique.replacing(oldPostScript, with: postScript)
        newUnique = replacingFamily(newUnique) ?? newUnique
        if newUnique == unique {
            let version = name.string(5) ?? ""
            newUnique = version.isEmpty ? postScript : "\(version);\(postScript)"
        }
        try name.set(3, newUnique)
        for id in [18, 21] { if let v = name.string(id), let r = replacingFamily(v) { try name.set(id, r) } }
        if let v = name.string(25) {
            try name.set(25, Face.postScriptName(from: v.replacing(oldFamilyPostScript, with: newFamilyPostScript)))
        }
        if let cff = try cff {
            cff.rename(fontName: postScript, fullName: full, familyName: newFamily)
        }
        invalidateCaches()
        return postScript
    }
}
