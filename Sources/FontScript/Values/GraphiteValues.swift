import FontModel
import LuaBridge

/// Lua views of the Graphite tables, read-only copies (edit them through TTX, `face:fuse`):
/// - `face.Feat`: features in table order, each {id, label, name, flags, default, settings =
///   {{value, label, name}, …}} (ids as fontTools writes them: numbers, or tags like "cv01");
/// - `face.Sill`: languages by code, each a map of feature id → value (`face.Sill.languages.ur`);
/// - `face.Glat`: attributes by glyph name (`face.Glat.glyphs.a[3]`), with each glyph's
///   octabox in version 3 ({bitmap, diagonals, subboxes});
/// - `face.Gloc`: the attribute count, attribute name IDs and how many glyphs it indexes;
/// - `face.Silf`: subtables with their scalars, pseudo-glyphs (code point → glyph name),
///   classes (glyph names) and passes, whose rules hold their programs as text.
enum GraphiteValues {
    static let fields: [(name: String, push: @Sendable (LuaStack, Face) throws -> Void)] = [
        ("Feat", pushFeat), ("Sill", pushSill), ("Glat", pushGlat), ("Gloc", pushGloc), ("Silf", pushSilf),
    ]

    static func version(_ v: UInt32) -> Double { shortestDecimal(Int64(v), scale: Fixed.scale) }

    static func pushFeat(_ s: LuaStack, _ face: Face) throws {
        guard let feat = try face.table(FeatTable.self) else { s.pushNil(); return }
        let names = face.has("name") ? try? face.name : nil
        s.pushTable(fieldCount: 2)
        s.push(version(feat.version)); s.setField("version", in: -2)
        s.pushTable(arrayCount: Int32(feat.features.count))
        for (k, f) in feat.features.enumerated() {
            _ = s.reserve(8)
            s.pushTable(fieldCount: 6)
            s.push(Graphite.featureIDText(f.id)); s.setField("id", in: -2)
            s.push(Int(f.label)); s.setField("label", in: -2)
            if let name = names?.debugName(Int(f.label)) { s.push(name); s.setField("name", in: -2) }
            s.push(Int(f.flags)); s.setField("flags", in: -2)
            s.push(Int(f.defaultValue)); s.setField("default", in: -2)
            s.pushTable(arrayCount: Int32(f.settings.count))
            for (i, setting) in f.settings.enumerated() {
                s.pushTable(fieldCount: 3)
                s.push(Int(setting.value)); s.setField("value", in: -2)
                s.push(Int(setting.label)); s.setField("label", in: -2)
                if let name = names?.debugName(Int(setting.label)) { s.push(name); s.setField("name", in: -2) }
                s.setIndex(i + 1, in: -2)
            }
            s.setField("settings", in: -2)
            s.setIndex(k + 1, in: -2)
        }
        s.setField("features", in: -2)
    }

    static func pushSill(_ s: LuaStack, _ face: Face) throws {
        guard let sill = try face.table(SillTable.self) else { s.pushNil(); return }
        s.pushTable(fieldCount: 2)
        s.push(version(sill.version)); s.setField("version", in: -2)
        s.pushTable(fieldCount: Int32(sill.languages.count))
        for l in sill.languages {
            _ = s.reserve(4)
            s.pushTable(fieldCount: Int32(l.values.count))
            for v in l.values { s.push(Int(v.value)); s.setField(Graphite.featureIDText(v.feature), in: -2) }
            s.setField(l.code, in: -2)
        }
        s.setField("languages", in: -2)
    }

    static func pushGloc(_ s: LuaStack, _ face: Face) throws {
        guard let gloc = try face.table(GlocTable.self) else { s.pushNil(); return }
        s.pushTable(fieldCount: 4)
        s.push(version(gloc.version)); s.setField("version", in: -2)
        s.push(Int(gloc.attributeCount)); s.setField("attributeCount", in: -2)
        s.push(integers: gloc.attributeNames.map(Int.init)); s.setField("attributeNames", in: -2)
        s.push(max(gloc.locations.count - 1, 0)); s.setField("glyphCount", in: -2)
    }

    static func pushGlat(_ s: LuaStack, _ face: Face) throws {
        guard let glat = try face.table(GlatTable.self) else { s.pushNil(); return }
        let names = try face.glyphNames()
        s.pushTable(fieldCount: 3)
        s.push(version(glat.version)); s.setField("version", in: -2)
        s.push(glat.compression); s.setField("compression", in: -2)
        s.pushTable(fieldCount: Int32(glat.glyphs.count))
        for (g, glyph) in glat.glyphs.enumerated() {
            _ = s.reserve(8)
            s.pushTable(fieldCount: Int32(glyph.attributes.count))
            for a in glyph.attributes { s.push(Int(a.value)); s.setIndex(Int(a.index), in: -2) }
            if let box = glyph.octabox {
                s.pushTable(fieldCount: 3)
                s.push(Int(box.subboxBitmap)); s.setField("bitmap", in: -2)
                s.push(integers: box.diagonals.map(Int.init)); s.setField("diagonals", in: -2)
                s.pushTable(arrayCount: Int32(box.subboxes.count))
                for (k, sub) in box.subboxes.enumerated() { s.push(integers: sub.values.map(Int.init)); s.setIndex(k + 1, in: -2) }
                s.setField("subboxes", in: -2)
                s.setField("octabox", in: -2)
            }
            s.setField(glyphName(g, in: names), in: -2)
        }
        s.setField("glyphs", in: -2)
    }

    static func pushSilf(_ s: LuaStack, _ face: Face) throws {
        guard let silf = try face.table(SilfTable.self) else { s.pushNil(); return }
        let names = try face.glyphNames()
        func name(_ g: UInt16) -> String { glyphName(Int(g), in: names) }
        func code(_ bytes: [UInt8]) -> String {
            ((try? SilfCode.disassemble(bytes)) ?? ["-- not decodable: \(bytes.count) bytes"]).joined(separator: "\n")
        }
        s.pushTable(fieldCount: 4)
        s.push(version(silf.version)); s.setField("version", in: -2)
        s.push(Int(silf.compilerVersion)); s.setField("compilerVersion", in: -2)
        s.push(silf.compression); s.setField("compression", in: -2)
        s.pushTable(arrayCount: Int32(silf.subtables.count))
        for (k, sub) in silf.subtables.enumerated() {
            _ = s.reserve(10)
            s.pushTable(fieldCount: Int32(SilfTable.Subtable.scalarNames.count + 6))
            for key in SilfTable.Subtable.scalarNames { s.push(sub.scalar(key)); s.setField(key, in: -2) }
            s.push(strings: sub.scriptTags.map(\.trimmed)); s.setField("scriptTags", in: -2)
            s.push(integers: sub.critFeatures.map(Int.init)); s.setField("critFeatures", in: -2)
            s.pushTable(fieldCount: Int32(sub.pseudos.count))
            for p in sub.pseudos { s.push(name(p.glyph)); s.setIndex(Int(p.unicode), in: -2) }
            s.setField("pseudos", in: -2)
            s.pushTable(arrayCount: Int32(sub.linearClasses.count + sub.nonLinearClasses.count))
            for (c, glyphs) in sub.linearClasses.enumerated() { s.push(strings: glyphs.map(name)); s.setIndex(c + 1, in: -2) }
            for (c, pairs) in sub.nonLinearClasses.enumerated() {
                // An input class: glyph name → index.
                s.pushTable(fieldCount: Int32(pairs.count))
                for pair in pairs { s.push(Int(pair.index)); s.setField(name(pair.glyph), in: -2) }
                s.setIndex(sub.linearClasses.count + c + 1, in: -2)
            }
            s.setField("classes", in: -2)
            s.pushTable(arrayCount: Int32(sub.passes.count))
            for (n, p) in sub.passes.enumerated() {
                _ = s.reserve(8)
                s.pushTable(fieldCount: 14)
                for (key, v) in zip(SilfTable.Pass.infoNames, p.info) { s.push(Int(v)); s.setField(key, in: -2) }
                for (key, v) in zip(SilfTable.Pass.machineNames, p.machine) { s.push(Int(v)); s.setField(key, in: -2) }
                if !p.passConstraint.isEmpty { s.push(code(p.passConstraint)); s.setField("constraint", in: -2) }
                s.pushTable(arrayCount: Int32(p.rules.count))
                for (i, r) in p.rules.enumerated() {
                    s.pushTable(fieldCount: 4)
                    s.push(Int(r.sortKey)); s.setField("sortKey", in: -2)
                    s.push(Int(r.preContext)); s.setField("preContext", in: -2)
                    if !r.constraint.isEmpty { s.push(code(r.constraint)); s.setField("constraint", in: -2) }
                    s.push(code(r.action)); s.setField("action", in: -2)
                    s.setIndex(i + 1, in: -2)
                }
                s.setField("rules", in: -2)
                s.setIndex(n + 1, in: -2)
            }
            s.setField("passes", in: -2)
            s.setIndex(k + 1, in: -2)
        }
        s.setField("subtables", in: -2)
    }
}
