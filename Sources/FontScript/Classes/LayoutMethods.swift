import FontModel
import LuaBridge

/// Face methods about layout (GSUB, GPOS): features, lookups, substitutions, kerning. The
/// tables themselves are `face.GSUB`, `face.GPOS`, `face.GDEF` (`Table`).
extension FaceObject {
    /// face:features([tag]) → {{table=, script=, language=, feature=, lookups={...}, required=}, ...}
    static let features: LuaFunction = { L in
        LuaCall.run(L, "features") { call in
            let face = try call.methodSelf(className, as: FaceRef.self).get()
            let only = call.isNoneOrNil(2) ? nil : try call.string(2)
            let all = try face.layoutFeatures()
            let rows = all.filter { only == nil || $0.feature == only }
            // A registered tag the font lacks gives none; a tag nobody registered, close to one
            // the font has, is a typo.
            if let only, rows.isEmpty, !Self.isRegisteredFeature(only), let near = closestName(to: only, in: Array(Set(all.map(\.feature))))
            {
                throw LuaArgumentError(2, "the face has no feature '\(only)' (did you mean '\(near)'?)")
            }
            let s = call.stack
            s.pushTable(arrayCount: Int32(rows.count))
            for (k, row) in rows.enumerated() {
                s.pushTable(fieldCount: 6)
                for (key, value) in [("table", row.table), ("script", row.script), ("language", row.language), ("feature", row.feature)] {
                    s.push(value); s.setField(key, in: -2)
                }
                s.push(integers: row.lookups); s.setField("lookups", in: -2)
                s.push(row.required); s.setField("required", in: -2)
                s.setIndex(k + 1, in: -2)
            }
            return 1
        }
    }

    /// The feature tags of the OpenType feature registry (cv01–cv99 and ss01–ss20 by pattern).
    static let registeredFeatures: Set<String> = [
        "aalt", "abvf", "abvm", "abvs", "afrc", "akhn", "apkn", "blwf", "blwm", "blws", "c2pc", "c2sc", "calt", "case", "ccmp",
        "cfar", "chws", "cjct", "clig", "cpct", "cpsp", "cswh", "curs", "dist", "dlig", "dnom", "dtls", "expt", "falt", "fin2",
        "fin3", "fina", "flac", "frac", "fwid", "half", "haln", "halt", "hist", "hkna", "hlig", "hngl", "hojo", "hwid", "init",
        "isol", "ital", "jalt", "jp04", "jp78", "jp83", "jp90", "kern", "lfbd", "liga", "ljmo", "lnum", "locl", "ltra", "ltrm",
        "mark", "med2", "medi", "mgrk", "mkmk", "mset", "nalt", "nlck", "nukt", "numr", "onum", "opbd", "ordn", "ornm", "palt",
        "pcap", "pkna", "pnum", "pref", "pres", "pstf", "psts", "pwid", "qwid", "rand", "rclt", "rkrf", "rlig", "rphf", "rtbd",
        "rtla", "rtlm", "ruby", "rvrn", "salt", "sinf", "size", "smcp", "smpl", "ssty", "stch", "subs", "sups", "swsh", "titl",
        "tjmo", "tnam", "tnum", "trad", "twid", "unic", "valt", "vapk", "vatu", "vchw", "vert", "vhal", "vjmo", "vkna", "vkrt",
        "vpal", "vrt2", "vrtr", "zero",
    ]

    static func isRegisteredFeature(_ tag: String) -> Bool {
        if registeredFeatures.contains(tag) { return true }
        guard tag.count == 4, let n = Int(tag.dropFirst(2)) else { return false }
        return (tag.hasPrefix("cv") && (1...99).contains(n)) || (tag.hasPrefix("ss") && (1...20).contains(n))
    }

    /// face:lookups("GSUB" | "GPOS") → {{index=, type=, typeName=, flag=, subtables=, extension=}, ...}
    /// (index 0-based, as features list them).
    static let lookups: LuaFunction = { L in
        LuaCall.run(L, "lookups") { call in
            let face = try call.methodSelf(className, as: FaceRef.self).get()
            let tagText = try call.string(2)
            guard tagText == "GSUB" || tagText == "GPOS" else {
                throw LuaArgumentError(2, "\"GSUB\" or \"GPOS\" expected, got '\(tagText)'")
            }
            let rows = try face.layoutLookups(Tag(text: tagText))
            let s = call.stack
            s.pushTable(arrayCount: Int32(rows.count))
            for (k, row) in rows.enumerated() {
                s.pushTable(fieldCount: 6)
                s.push(row.index); s.setField("index", in: -2)
                s.push(row.type); s.setField("type", in: -2)
                s.push(row.typeName); s.setField("typeName", in: -2)
                s.push(row.flag); s.setField("flag", in: -2)
                s.push(row.subtables); s.setField("subtables", in: -2)
                s.push(row.isExtension); s.setField("extension", in: -2)
                s.setIndex(k + 1, in: -2)
            }
            return 1
        }
    }

    /// face:lookup("GSUB" | "GPOS", index) → lookup `index` of the table, numbered as
    /// features() and lookups() number them (from 0, as in the font and its TTX dump), as the
    /// structured view shows it: the same value as `face.GSUB.LookupList.Lookup[index + 1]`.
    static let lookup: LuaFunction = { L in
        LuaCall.run(L, "lookup") { call in
            let face = try call.methodSelf(className, as: FaceRef.self).get()
            let tagText = try call.string(2)
            guard tagText == "GSUB" || tagText == "GPOS" else {
                throw LuaArgumentError(2, "\"GSUB\" or \"GPOS\" expected, got '\(tagText)'")
            }
            let index = try call.integer(3)
            guard let table = try face.structuredTable(Tag(text: tagText)) else { throw LuaBridgeError("the face has no \(tagText) table") }
            guard let listMember = table.record.valueMembers.first(where: { $0.name == "LookupList" }),
                case .record(let listRecord) = listMember.shape.target,
                let lookupMember = listRecord.valueMembers.first(where: { $0.name == "Lookup" })
            else {
                throw LuaBridgeError("\(tagText)'s description has no LookupList.Lookup")
            }
            let lookups: [StructValue]
            if case .list(let items)? = try table.value("LookupList")?.resolved().fields?["Lookup"] {
                lookups = items
            } else {
                lookups = []
            }
            guard index >= 0, index < lookups.count else {
                throw LuaArgumentError(
                    3,
                    lookups.isEmpty
                        ? "\(tagText) has no lookups"
                        : "\(tagText) has lookups 0–\(lookups.count - 1) (numbered from 0, as features() lists them), not \(index)")
            }
            try StructValues(face).push(call.stack, try lookups[Int(index)].resolvedDeep(), lookupMember.shape)
            return 1
        }
    }

    /// face:substitutions(featureTag) → {{lookup=, ["in"]={names}, out={names}}, ...}
    static let substitutions: LuaFunction = { L in
        LuaCall.run(L, "substitutions") { call in
            let face = try call.methodSelf(className, as: FaceRef.self).get()
            let rows = try face.substitutions(feature: try call.string(2))
            let names = try face.glyphNames()
            func name(_ id: Int) -> String { glyphName(id, in: names) }
            let s = call.stack
            s.pushTable(arrayCount: Int32(rows.count))
            for (k, row) in rows.enumerated() {
                s.pushTable(fieldCount: 3)
                s.push(row.lookup); s.setField("lookup", in: -2)
                s.push(strings: row.substitution.input.map(name)); s.setField("in", in: -2)
                s.push(strings: row.substitution.output.map(name)); s.setField("out", in: -2)
                s.setIndex(k + 1, in: -2)
            }
            return 1
        }
    }

    /// face:kerning(left, right) → the kern feature's horizontal adjustment for the pair (glyph
    /// names, ids, or Glyph objects).
    static let kerning: LuaFunction = { L in
        LuaCall.run(L, "kerning") { call in
            let face = try call.methodSelf(className, as: FaceRef.self).get()
            call.stack.push(try face.kerning(try glyphArgument(call, face, 2), try glyphArgument(call, face, 3)))
            return 1
        }
    }

    /// face:kerningPairs() → a `KerningPairs` list of every kerned pair (GPOS `kern` feature, or
    /// the `kern` table), class pairs expanded as they are read.
    static let kerningPairs: LuaFunction = { L in
        LuaCall.run(L, "kerningPairs") { call in
            let ref = try call.methodSelf(className, as: FaceRef.self)
            KerningObject.push(call.stack, KerningBox(try KerningPairs(face: try ref.get()), face: ref))
            return 1
        }
    }

    /// face:setKerning(left, right, value [, {class = true, script =, language =}]) → where the
    /// edit went (a string). `value` nil removes the pair's kerning. Edits the table and subtable
    /// that kern the pair now, in the lookups the pair's script reaches (or the named system's).
    static let setKerning: LuaFunction = { L in
        LuaCall.run(L, "setKerning") { call in
            let face = try call.methodSelf(className, as: FaceRef.self).get()
            let left = try glyphArgument(call, face, 2), right = try glyphArgument(call, face, 3)
            let value: Int? = call.isNoneOrNil(4) ? nil : try call.integer(4)
            try call.options(5, ["class", "script", "language"])
            let classLevel = try call.boolOption(5, "class", default: false)
            call.stack.push(
                try face.setKerning(
                    left, right, value, classLevel: classLevel,
                    script: try call.stringOption(5, "script"), language: try call.stringOption(5, "language")))
            return 1
        }
    }

    /// face:addSubstitution(feature, input, output [, {script =, language =}]) → where it went.
    /// `input` is a glyph (one for one: a single substitution) or a list of glyphs, or names
    /// separated by spaces (a ligature). It goes to the lookups the input's script reaches.
    static let addSubstitution: LuaFunction = { L in
        LuaCall.run(L, "addSubstitution") { call in
            let face = try call.methodSelf(className, as: FaceRef.self).get()
            let feature = try call.string(2)
            let input = try glyphSequence(call, face, 3)
            let output = try glyphArgument(call, face, 4)
            try call.options(5, ["script", "language"])
            call.stack.push(
                try face.addSubstitution(
                    feature: feature, input: input, output: output,
                    script: try call.stringOption(5, "script"), language: try call.stringOption(5, "language")))
            return 1
        }
    }

    /// face:removeSubstitution(feature, input [, {script =, language =}]) → how many
    /// substitutions were removed (from the lookups the input's script reaches).
    static let removeSubstitution: LuaFunction = { L in
        LuaCall.run(L, "removeSubstitution") { call in
            let face = try call.methodSelf(className, as: FaceRef.self).get()
            let feature = try call.string(2), input = try glyphSequence(call, face, 3)
            try call.options(4, ["script", "language"])
            call.stack.push(
                try face.removeSubstitution(
                    feature: feature, input: input,
                    script: try call.stringOption(4, "script"), language: try call.stringOption(4, "language")))
            return 1
        }
    }

    /// face:setGlyphClass(glyph, class): GDEF class by number (0 none, 1 base, 2 ligature,
    /// 3 mark, 4 component) or name ("base", "ligature", "mark", "component", "none").
    static let setGlyphClass: LuaFunction = { L in
        LuaCall.run(L, "setGlyphClass") { call in
            let face = try call.methodSelf(className, as: FaceRef.self).get()
            let glyph = try glyphArgument(call, face, 2)
            let names = ["none", "base", "ligature", "mark", "component"]
            let glyphClass: Int
            if call.stack.type(at: 3) == .string {
                let text = try call.string(3)
                guard let k = names.firstIndex(of: text) else {
                    throw LuaArgumentError(3, "glyph class '\(text)' is not one of \(names.joined(separator: ", "))")
                }
                glyphClass = k
            } else {
                glyphClass = try call.integer(3)
            }
            try face.setGlyphClass(glyph, glyphClass)
            return 0
        }
    }

    /// A list of glyphs (names, ids or Glyphs), one glyph, or names separated by spaces.
    static func glyphSequence(_ call: LuaCall, _ face: Face, _ i: Int32) throws -> [Int] {
        let s = call.stack
        if s.type(at: i) == .table {
            return try s.items(ofListAt: i) { _ in try glyphArgument(call, face, s.top) }
        }
        if s.type(at: i) == .string {
            let words = try call.string(i).split(separator: " ").map(String.init)
            return try words.map { name in
                guard let id = try face.glyphID(named: name) else {
                    throw LuaArgumentError(i, try GlyphsObject.missingGlyphMessage(name, face, orNil: false))
                }
                return id
            }
        }
        return [try glyphArgument(call, face, i)]
    }

    static func glyphArgument(_ call: LuaCall, _ face: Face, _ i: Int32) throws -> Int {
        if call.stack.isObject(at: i, classID: GlyphObject.classID) { return call.payload(i) }
        if call.stack.type(at: i) == .number {
            let id = try call.integer(i)
            guard id >= 0, id < (try face.glyphCount) else { throw LuaArgumentError(i, "glyph id \(id) is not in the font") }
            return id
        }
        let name = try call.string(i)
        guard let id = try face.glyphID(named: name) else {
            throw LuaArgumentError(i, try GlyphsObject.missingGlyphMessage(name, face, orNil: false))
        }
        return id
    }
}
