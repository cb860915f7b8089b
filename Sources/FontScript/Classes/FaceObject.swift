import FontModel
import FontXML
import LuaBridge

/// Lua class `Face`: one font of a file, with its tables, names, cmap and glyphs.
enum FaceObject {
    static let className = "Face"
    static var classID: Int32 { ScriptClass.face.rawValue }
    /// Described tables reachable as fields (`face.hhea`, `face["OS/2"]`, `face.GDEF`), from the
    /// model's registry; other tags are raw.
    static let fieldTables: [String] = (TableRegistry.describedTags + TableRegistry.shapeDescribedTags).map(\.trimmed)
    /// Fields that show a hand-written table their own way (`face.cvt`, `face.bitmaps`), by name.
    static let tableViews =
        HintingValues.fields + BitmapValues.fields + PaletteValues.fields + ColorImageValues.fields + VariationValues.fields
        + GraphiteValues.fields + MetaValues.fields + AATValues.fields

    static var luaClass: LuaClass {
        var c = LuaClass(
            id: classID, name: className,
            summary: "one face: face.hhea.ascender, face.name[1], face.glyphs.A, face:glyphFor('a'), face:rename{family=...}", get: get)
        c.fields = Field.names + tableViews.map(\.name) + fieldTables
        c.methods = [
            "rawTable": rawTable, "setRawTable": setRawTable, "removeTable": removeTable, "rename": rename,
            "glyphFor": glyphFor, "sharing": sharing, "dump": dump, "fuse": fuse, "validate": validate,
            "sweep": PreviewModule.sweep, "save": save, "unshare": unshare,
            "features": features, "lookups": lookups, "lookup": lookup, "substitutions": substitutions, "kerning": kerning,
            "kerningPairs": kerningPairs, "setKerning": setKerning, "addSubstitution": addSubstitution,
            "removeSubstitution": removeSubstitution, "setGlyphClass": setGlyphClass, "subset": SubsetMethods.faceSubset,
            "location": VariationMethods.location, "instance": VariationMethods.instance,
            "setCvt": HintingValues.setCvt, "setProgram": HintingValues.setProgram, "addFeatures": FeatureMethods.addFeatures,
            "fea": FeatureMethods.fea,
        ]
        c.tostring = tostring
        return c
    }

    static func push(_ stack: LuaStack, _ ref: FaceRef) { stack.push(object: ref, classID: classID) }

    /// The face's own fields, by name, in the order the bridge numbers them (from 1); the
    /// table views and described tables follow them.
    enum Field: String, ClassFields {
        case index, postscriptName, familyName, fullName, format, tags, glyphCount, unitsPerEm, font, name, cmap, glyphs, kern, axes,
            instances, isVariable
    }
    static let fields = Field.allCases

    static let get: LuaFunction = { L in
        LuaCall.run(L, "Face") { call in
            let ref = try call.trustedSelf(className, as: FaceRef.self)
            let face = try ref.get()
            let s = call.stack
            let raw = try call.integer(3)
            guard let field = fields.numbered(raw) else {
                // Past the face's own fields: a table view, then a described table.
                let k = raw - fields.count - 1
                if tableViews.indices.contains(k) {
                    try tableViews[k].push(s, face)
                } else if fieldTables.indices.contains(k - tableViews.count) {
                    try pushTable(s, ref, face, Tag(text: fieldTables[k - tableViews.count]))
                } else {
                    throw unknownField(className, s.describe(at: 2), luaClass.fields + luaClass.methods.keys)
                }
                return 1
            }
            switch field {
            case .index: s.push(face.index)
            case .postscriptName: try pushOptional(s, face.postScriptName)
            case .familyName: try pushOptional(s, face.familyName)
            case .fullName: try pushOptional(s, face.fullName)
            case .format: s.push(face.format.rawValue)
            case .tags: s.push(strings: face.tags.map(\.description))
            case .glyphCount: s.push(try face.glyphCount)
            case .unitsPerEm: s.push(try face.head.unitsPerEm)
            case .font: FontObject.push(s, ref.handle)
            case .name: s.push(object: FacePart(ref, "name"), classID: NameObject.classID)
            case .cmap:
                guard try face.cmap != nil else { s.pushNil(); break }
                s.push(object: FacePart(ref, "cmap"), classID: CmapObject.classID)
            case .glyphs: s.push(object: FacePart(ref, "glyf"), classID: GlyphsObject.classID)
            case .kern: try pushKern(s, face)
            case .axes: try VariationMethods.pushAxes(s, face)
            case .instances: try VariationMethods.pushInstances(s, face)
            case .isVariable: s.push(face.isVariable)
            }
            return 1
        }
    }

    /// face.kern → a copy of the kern table: {version = 0, subtables = {{format = 0, coverage = 1,
    /// pairs = {{"A", "V", -80}, ...}}, ...}} (format 2 read as pairs too); nil without one.
    /// Edit with face:setKerning.
    static func pushKern(_ s: LuaStack, _ face: Face) throws {
        guard let kern = try face.kern else { s.pushNil(); return }
        let names = try face.glyphNames()
        s.pushTable(fieldCount: 2)
        s.push(kern.isApple ? 1 : 0); s.setField("version", in: -2)
        s.pushTable(arrayCount: Int32(kern.subtables.count))
        for (k, st) in kern.subtables.enumerated() {
            _ = s.reserve(6)
            s.pushTable(fieldCount: 4)
            s.push(st.format); s.setField("format", in: -2)
            s.push(st.coverage); s.setField("coverage", in: -2)
            if let t = st.tupleIndex { s.push(t); s.setField("tupleIndex", in: -2) }
            let pairs = st.format == 2 ? try kern.classPairs(k) : st.format == 0 ? st.pairs : []
            s.pushTable(arrayCount: Int32(pairs.count))
            for (n, p) in pairs.enumerated() {
                s.pushTable(arrayCount: 3)
                s.push(glyphName(p.left, in: names)); s.setIndex(1, in: -2)
                s.push(glyphName(p.right, in: names)); s.setIndex(2, in: -2)
                s.push(p.value); s.setIndex(3, in: -2)
                s.setIndex(n + 1, in: -2)
            }
            s.setField("pairs", in: -2)
            s.setIndex(k + 1, in: -2)
        }
        s.setField("subtables", in: -2)
    }

    static func pushOptional(_ s: LuaStack, _ value: String?) { if let value { s.push(value) } else { s.pushNil() } }

    static func pushTable(_ s: LuaStack, _ ref: FaceRef, _ face: Face, _ tag: Tag) throws {
        guard face.has(tag), TableRegistry.describedTags.contains(tag) || TableRegistry.shapeDescribedTags.contains(tag) else {
            s.pushNil(); return
        }
        s.push(object: FacePart(ref, tag), classID: TableObject.classID)
    }

    static func tag(_ call: LuaCall, _ i: Int32) throws -> Tag {
        let text = try call.string(i)
        guard let tag = Tag(string: text) else { throw LuaArgumentError(i, "'\(text)' is not a table tag (1 to 4 ASCII characters)") }
        return tag
    }

    /// face:rawTable(tag) → the table's bytes as they would be saved now, or nil.
    static let rawTable: LuaFunction = { L in
        LuaCall.run(L, "rawTable") { call in
            let face = try call.methodSelf(className, as: FaceRef.self).get()
            if let bytes = try face.rawTable(try tag(call, 2)) { call.stack.push(bytes: bytes) } else { call.stack.pushNil() }
            return 1
        }
    }

    /// face:setRawTable(tag, bytes): replaces (or adds) a table with these bytes, for this face only.
    static let setRawTable: LuaFunction = { L in
        LuaCall.run(L, "setRawTable") { call in
            let face = try call.methodSelf(className, as: FaceRef.self).get()
            face.setRawTable(try tag(call, 2), try call.bytes(3))
            return 0
        }
    }

    static let removeTable: LuaFunction = { L in
        LuaCall.run(L, "removeTable") { call in
            let face = try call.methodSelf(className, as: FaceRef.self).get()
            face.removeTable(try tag(call, 2))
            return 0
        }
    }

    /// face:save(path [, options as font:save]) → report: this face alone as a .ttf/.otf/.woff/
    /// .woff2, e.g. one face taken out of a collection (shared tables are copied into it).
    static let save: LuaFunction = { L in
        LuaCall.run(L, "save") { call in
            let face = try call.methodSelf(className, as: FaceRef.self).get()
            let path = try call.string(2)
            guard let font = face.font else { throw LuaBridgeError("the face's font is closed") }
            let options = try FontObject.saveOptions(call, 3)
            let report = try font.save(face: face, to: path, options: options)
            FontObject.pushReport(call.stack, report)
            return 1
        }
    }

    /// face:unshare() → tags: this face gets its own copy of the glyph data it shares with other
    /// faces of a collection, so glyph edits through it change no other face.
    static let unshare: LuaFunction = { L in
        LuaCall.run(L, "unshare") { call in
            let face = try call.methodSelf(className, as: FaceRef.self).get()
            call.stack.push(strings: try face.unshareGlyphData().map(\.description))
            return 1
        }
    }

    /// face:rename{family = "New Family"} or face:rename("New Family") → the new PostScript name.
    static let rename: LuaFunction = { L in
        LuaCall.run(L, "rename") { call in
            let face = try call.methodSelf(className, as: FaceRef.self).get()
            let family: String
            var style: String?
            if let s = call.stack.string(at: 2) {
                family = s
            } else {
                try call.options(2, ["family", "style"], optional: false)
                guard let f = try call.stringOption(2, "family") else {
                    throw LuaArgumentError(2, "rename needs {family = \"New Family\"}")
                }
                family = f
                style = try call.stringOption(2, "style")
            }
            call.stack.push(try face.rename(family: family, style: style))
            return 1
        }
    }

    /// face:glyphFor(char) → the Glyph the best Unicode cmap maps it to, or nil.
    static let glyphFor: LuaFunction = { L in
        LuaCall.run(L, "glyphFor") { call in
            let ref = try call.methodSelf(className, as: FaceRef.self)
            let char = try call.character(2)
            guard let id = try ref.get().cmap?.glyph(for: char) else { call.stack.pushNil(); return 1 }
            GlyphObject.push(call.stack, ref, id)
            return 1
        }
    }

    /// face:sharing(tag) → 0-based indices of the faces that share this face's table.
    static let sharing: LuaFunction = { L in
        LuaCall.run(L, "sharing") { call in
            let face = try call.methodSelf(className, as: FaceRef.self).get()
            call.stack.push(integers: face.facesSharing(try tag(call, 2)))
            return 1
        }
    }

    /// face:dump([tag]) → TTX XML of one table, or of every table (with GlyphOrder).
    static let dump: LuaFunction = { L in
        LuaCall.run(L, "dump") { call in
            let face = try call.methodSelf(className, as: FaceRef.self).get()
            let tags = call.isNoneOrNil(2) ? nil : [try tag(call, 2)]
            call.stack.push(try TTX.dump(face, tags: tags))
            return 1
        }
    }

    /// face:fuse(xml) → list of the tags fused (errors give the XML line and column).
    static let fuse: LuaFunction = { L in
        LuaCall.run(L, "fuse") { call in
            let face = try call.methodSelf(className, as: FaceRef.self).get()
            let xml = try call.bytes(2)   // checked as UTF-8 by the reader, not repaired
            do {
                call.stack.push(strings: try TTX.fuse(TTX.parse(bytes: xml), into: face).map(\.description))
            } catch let e as XMLError {
                throw LuaBridgeError("XML \(e)")
            }
            return 1
        }
    }

    /// face:validate() → list of {check, severity, message} for this face and the file.
    static let validate: LuaFunction = { L in
        LuaCall.run(L, "validate") { call in
            let ref = try call.methodSelf(className, as: FaceRef.self)
            let font = try ref.handle.get()
            let findings = Validator.validate(font).filter { $0.face == nil || $0.face == ref.index }
            let s = call.stack
            s.pushTable(arrayCount: Int32(findings.count))
            for (i, f) in findings.enumerated() {
                s.pushTable(fieldCount: 3)
                s.push(f.check); s.setField("check", in: -2)
                s.push(f.severity.rawValue); s.setField("severity", in: -2)
                s.push(f.message); s.setField("message", in: -2)
                s.setIndex(i + 1, in: -2)
            }
            return 1
        }
    }

    static let tostring: LuaFunction = { L in
        LuaCall.run(L, "__tostring") { call in
            let ref = try call.methodSelf(className, as: FaceRef.self)
            guard ref.handle.font != nil else { call.stack.push("<Face \(ref.index): font closed>"); return 1 }
            let face = try ref.get()
            call.stack.push(
                "<Face \(try face.postScriptName ?? "face \(face.index)"): \(face.tags.count) tables, \(try face.glyphCount) glyphs>")
            return 1
        }
    }
}
