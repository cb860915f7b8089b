/// Which OpenType scripts shape a glyph: the Unicode scripts of the characters the cmap maps
/// to it, as the OpenType script tags a shaper tries for each (HarfBuzz tries the new Indic
/// tags first), then what it falls back to: DFLT, dflt, latn. Layout edits go to the lookups
/// those language systems reach, never to a lookup only another script reaches.
enum LayoutScripts {
    /// The main scripts' blocks; code points outside them are Common or Inherited (digits,
    /// punctuation, combining marks), which shape with the text around them.
    static let blocks: [(range: ClosedRange<UInt32>, tags: [String])] = [
        (0x0041...0x005A, ["latn"]), (0x0061...0x007A, ["latn"]), (0x00AA...0x00AA, ["latn"]), (0x00BA...0x00BA, ["latn"]),
        (0x00C0...0x00D6, ["latn"]), (0x00D8...0x00F6, ["latn"]), (0x00F8...0x02AF, ["latn"]), (0x1D00...0x1DBF, ["latn"]),
        (0x1E00...0x1EFF, ["latn"]), (0x2C60...0x2C7F, ["latn"]), (0xA720...0xA7FF, ["latn"]), (0xAB30...0xAB6F, ["latn"]),
        (0xFB00...0xFB06, ["latn"]), (0xFF21...0xFF3A, ["latn"]), (0xFF41...0xFF5A, ["latn"]),
        (0x0370...0x03FF, ["grek"]), (0x1F00...0x1FFF, ["grek"]),
        (0x0400...0x052F, ["cyrl"]), (0x1C80...0x1C8F, ["cyrl"]), (0x2DE0...0x2DFF, ["cyrl"]), (0xA640...0xA69F, ["cyrl"]),
        (0x0531...0x058F, ["armn"]), (0xFB13...0xFB17, ["armn"]),
        (0x0591...0x05FF, ["hebr"]), (0xFB1D...0xFB4F, ["hebr"]),
        (0x0600...0x06FF, ["arab"]), (0x0750...0x077F, ["arab"]), (0x08A0...0x08FF, ["arab"]), (0xFB50...0xFDFF, ["arab"]),
        (0xFE70...0xFEFF, ["arab"]),
        (0x0700...0x074F, ["syrc"]), (0x0780...0x07BF, ["thaa"]), (0x07C0...0x07FF, ["nko "]),
        (0x0900...0x097F, ["dev2", "deva"]), (0xA8E0...0xA8FF, ["dev2", "deva"]), (0x0980...0x09FF, ["bng2", "beng"]),
        (0x0A00...0x0A7F, ["gur2", "guru"]), (0x0A80...0x0AFF, ["gjr2", "gujr"]), (0x0B00...0x0B7F, ["ory2", "orya"]),
        (0x0B80...0x0BFF, ["tml2", "taml"]), (0x0C00...0x0C7F, ["tel2", "telu"]), (0x0C80...0x0CFF, ["knd2", "knda"]),
        (0x0D00...0x0D7F, ["mlm2", "mlym"]), (0x0D80...0x0DFF, ["sinh"]), (0x0E00...0x0E7F, ["thai"]), (0x0E80...0x0EFF, ["lao "]),
        (0x0F00...0x0FFF, ["tibt"]), (0x1000...0x109F, ["mym2", "mymr"]), (0x10A0...0x10FF, ["geor"]), (0x2D00...0x2D2F, ["geor"]),
        (0x1100...0x11FF, ["hang"]), (0x3130...0x318F, ["hang"]), (0xAC00...0xD7AF, ["hang"]),
        (0x1200...0x139F, ["ethi"]), (0x13A0...0x13FF, ["cher"]), (0x1400...0x167F, ["cans"]), (0x1680...0x169F, ["ogam"]),
        (0x16A0...0x16FF, ["runr"]), (0x1780...0x17FF, ["khmr"]), (0x1800...0x18AF, ["mong"]), (0x2D30...0x2D7F, ["tfng"]),
        (0x3041...0x309F, ["kana"]), (0x30A0...0x30FF, ["kana"]), (0x31F0...0x31FF, ["kana"]), (0x3100...0x312F, ["bopo"]),
        (0x2E80...0x2FDF, ["hani"]), (0x3400...0x4DBF, ["hani"]), (0x4E00...0x9FFF, ["hani"]), (0xF900...0xFAFF, ["hani"]),
        (0x20000...0x3FFFF, ["hani"]),
    ]

    /// The OpenType tags of a character's script, most preferred first; [] for Common.
    static func tags(for scalar: UInt32) -> [String] {
        blocks.first { $0.range.contains(scalar) }?.tags ?? []
    }

    /// What a shaper falls back to when the font has none of a script's own tags.
    static let fallback = ["DFLT", "dflt", "latn"]

    /// The script tag a shaper picks in a table whose ScriptList has `present`, for text of a
    /// script with these tags (Common text: the fallback alone).
    static func chosen(_ tags: [String], present: Set<String>) -> String? {
        (tags + fallback).first { present.contains($0) }
    }
}

extension Face {
    /// The language systems (of `table`'s `feature`) a layout edit of these glyphs goes to:
    /// with `script` (and `language`), those; otherwise every language system of the script a
    /// shaper picks for each character the glyphs stand for (DFLT/latn for glyphs with none,
    /// or Common ones). An error names what exists when nothing is reached.
    func reachedFeatures(_ table: String, _ feature: String, glyphs: [Int], script: String?, language: String?) throws -> [LayoutFeature] {
        let all = try layoutFeatures().filter { $0.table == table }
        let withFeature = all.filter { $0.feature == feature }
        guard !withFeature.isEmpty else {
            let tags = Set(all.map(\.feature)).sorted()
            var message = "\(table) has no '\(feature)' feature"
            if let near = closestName(to: feature, in: tags) { message += " (did you mean '\(near)'?)" }
            throw FontError(message)
        }
        /// "arab (4 language systems), latn (dflt)": where a feature exists, by script.
        func systems(_ features: [LayoutFeature]) -> String {
            let byScript = Dictionary(grouping: features, by: { String($0.script.filter { $0 != " " }) })
            return byScript.keys.sorted().map { script -> String in
                let systems = byScript[script] ?? []
                let which = systems.count == 1 ? String(systems[0].language.filter { $0 != " " }) : "\(systems.count) language systems"
                return "\(script) (\(which))"
            }.joined(separator: ", ")
        }
        if let script {
            let s = Self.padded(script)
            var chosen = withFeature.filter { $0.script == s }
            if let language { chosen = chosen.filter { $0.language == Self.padded(language) } }
            guard !chosen.isEmpty else {
                throw FontError(
                    "\(table) '\(feature)' has no language system \(script)\(language.map { "/" + $0 } ?? ""); it has \(systems(withFeature))"
                )
            }
            return chosen
        }
        let present = Set(all.map(\.script))
        var scripts = Set<String>()
        let cmap = try self.cmap
        for g in glyphs {
            let characters = try cmap?.characters(for: g) ?? []
            let scriptTags = characters.map { LayoutScripts.tags(for: $0) }.filter { !$0.isEmpty }
            if scriptTags.isEmpty {
                if let s = LayoutScripts.chosen([], present: present) { scripts.insert(s) }
            }
            for tags in scriptTags { if let s = LayoutScripts.chosen(tags, present: present) { scripts.insert(s) } }
        }
        let wantedLanguage = language.map(Self.padded)
        let chosen = withFeature.filter { scripts.contains($0.script) && (wantedLanguage == nil || $0.language == wantedLanguage) }
        guard !chosen.isEmpty else {
            throw FontError(
                "\(table) '\(feature)' is not reached by the script these glyphs are shaped with (\(scripts.sorted().joined(separator: ", "))); "
                    + "it exists for \(systems(withFeature)): give {script = …} to edit it there")
        }
        return chosen
    }

    /// A tag as the font spells it: four characters, padded with spaces ("lao" → "lao ").
    static func padded(_ tag: String) -> String { tag.count >= 4 ? tag : tag + String(repeating: " ", count: 4 - tag.count) }
}
