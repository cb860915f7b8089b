import FontModel
import LuaBridge

/// Lua view of AAT's morx, a read-only copy (edit it through TTX, `face:fuse`):
/// `face.morx.chains[1]` = {defaultFlags, features = {{type, setting, enableFlags,
/// disableFlags}, …}, subtables = {…}}; a subtable is {type = "ligature" (rearrangement,
/// contextual, noncontextual, insertion), coverage, subFeatureFlags} with, for a state
/// machine, `classes` (glyph name → class), `classCount` and `states` (per state, per class
/// from 0, {newState, flags = {names}, …}); contextual `lookups`, ligature `components` and
/// `ligatures`; a non-contextual one's `substitutions` (glyph name → glyph name).
/// `face.mort` (morx's predecessor) is the same, its version a number (1.0) and its ligature
/// subtables with `rebasedComponents` (indices from 0, as actions count them, of the components
/// stored with the ligature table's offset).
/// And `trak`: `face.trak.horizontal` = {sizes = {9.0, 12.0, …}, tracks = {{value = -1.0,
/// nameIndex, name, adjustments = {…}}, …}} (one adjustment per size), `vertical` the same.
/// And `ltag`: {version, flags, tags = {"en", "sr-Latn", …}} (name records' language index k
/// is `tags[k + 1]`).
enum AATValues {
    static let fields: [(name: String, push: @Sendable (LuaStack, Face) throws -> Void)] = [
        ("morx", pushMorx), ("mort", pushMort), ("trak", pushTrak), ("ltag", pushLtag),
    ]

    static func pushLtag(_ s: LuaStack, _ face: Face) throws {
        guard let ltag = try face.table(LtagTable.self) else { s.pushNil(); return }
        s.pushTable(fieldCount: 3)
        s.push(Int(ltag.version)); s.setField("version", in: -2)
        s.push(Int(ltag.flags)); s.setField("flags", in: -2)
        s.push(strings: ltag.tags); s.setField("tags", in: -2)
    }

    static func pushTrak(_ s: LuaStack, _ face: Face) throws {
        guard let trak = try face.table(TrakTable.self) else { s.pushNil(); return }
        let names = face.has("name") ? try? face.name : nil
        func fixed(_ v: Int64) -> Double { shortestDecimal(v, scale: Fixed.scale) }
        s.pushTable(fieldCount: 4)
        s.push(fixed(Int64(trak.version))); s.setField("version", in: -2)
        s.push(Int(trak.format)); s.setField("format", in: -2)
        for (key, data) in [("horizontal", trak.horizontal), ("vertical", trak.vertical)] {
            _ = s.reserve(8)
            s.pushTable(fieldCount: 2)
            s.pushTable(arrayCount: Int32(data.sizes.count))
            for (i, size) in data.sizes.enumerated() { s.push(fixed(Int64(size))); s.setIndex(i + 1, in: -2) }
            s.setField("sizes", in: -2)
            s.pushTable(arrayCount: Int32(data.tracks.count))
            for (i, t) in data.tracks.enumerated() {
                s.pushTable(fieldCount: 4)
                s.push(fixed(Int64(t.value))); s.setField("value", in: -2)
                s.push(Int(t.nameIndex)); s.setField("nameIndex", in: -2)
                if let name = names?.debugName(Int(t.nameIndex)) { s.push(name); s.setField("name", in: -2) }
                s.pushTable(arrayCount: Int32(t.adjustments.count))
                for (k, v) in t.adjustments.enumerated() { s.push(Int(v)); s.setIndex(k + 1, in: -2) }
                s.setField("adjustments", in: -2)
                s.setIndex(i + 1, in: -2)
            }
            s.setField("tracks", in: -2)
            s.setField(key, in: -2)
        }
    }

    static func typeName(_ kind: MorxTable.Kind) -> String {
        switch kind {
        case .rearrangement: "rearrangement"
        case .contextual: "contextual"
        case .ligature: "ligature"
        case .noncontextual: "noncontextual"
        case .insertion: "insertion"
        }
    }

    static func pushMorx(_ s: LuaStack, _ face: Face) throws {
        guard let morx = try face.table(MorxTable.self) else { s.pushNil(); return }
        s.pushTable(fieldCount: 2)
        s.push(Int(morx.version)); s.setField("version", in: -2)
        try pushChains(s, morx.chains, face)
    }

    static func pushMort(_ s: LuaStack, _ face: Face) throws {
        guard let mort = try face.table(MortTable.self) else { s.pushNil(); return }
        s.pushTable(fieldCount: 2)
        s.push(shortestDecimal(Int64(mort.version), scale: Fixed.scale)); s.setField("version", in: -2)
        try pushChains(s, mort.chains, face)
    }

    /// Sets `chains` in the table on top.
    static func pushChains(_ s: LuaStack, _ chains: [MorxTable.Chain], _ face: Face) throws {
        let names = try face.glyphNames()
        func name(_ g: UInt16) -> String { glyphName(Int(g), in: names) }
        func pushMap(_ pairs: [(glyph: UInt16, value: UInt16)], glyphValues: Bool) {
            s.pushTable(fieldCount: Int32(pairs.count))
            for p in pairs {
                if glyphValues { s.push(name(p.value)) } else { s.push(Int(p.value)) }
                s.setField(name(p.glyph), in: -2)
            }
        }
        s.pushTable(arrayCount: Int32(chains.count))
        for (c, chain) in chains.enumerated() {
            _ = s.reserve(10)
            s.pushTable(fieldCount: 3)
            s.push(Int(chain.defaultFlags)); s.setField("defaultFlags", in: -2)
            s.pushTable(arrayCount: Int32(chain.features.count))
            for (k, f) in chain.features.enumerated() {
                s.pushTable(fieldCount: 4)
                s.push(Int(f.type)); s.setField("type", in: -2)
                s.push(Int(f.setting)); s.setField("setting", in: -2)
                s.push(Int(f.enableFlags)); s.setField("enableFlags", in: -2)
                s.push(Int(f.disableFlags)); s.setField("disableFlags", in: -2)
                s.setIndex(k + 1, in: -2)
            }
            s.setField("features", in: -2)
            s.pushTable(arrayCount: Int32(chain.subtables.count))
            for (k, sub) in chain.subtables.enumerated() {
                s.pushTable(fieldCount: 8)
                s.push(typeName(sub.kind)); s.setField("type", in: -2)
                s.push(Int(sub.coverage)); s.setField("coverage", in: -2)
                s.push(Int(sub.subFeatureFlags)); s.setField("subFeatureFlags", in: -2)
                if sub.kind == .noncontextual { pushMap(sub.substitutions, glyphValues: true); s.setField("substitutions", in: -2) }
                if let m = sub.machine {
                    s.push(m.classCount); s.setField("classCount", in: -2)
                    pushMap(m.classes, glyphValues: false); s.setField("classes", in: -2)
                    s.pushTable(arrayCount: Int32(m.states.count))
                    for (i, row) in m.states.enumerated() {
                        _ = s.reserve(8)
                        s.pushTable(arrayCount: Int32(row.count))
                        for (cls, e) in row.enumerated() {
                            pushEntry(s, e, sub.kind, name: name)
                            s.setIndex(cls, in: -2)   // by class number, from 0
                        }
                        s.setIndex(i + 1, in: -2)
                    }
                    s.setField("states", in: -2)
                    if sub.kind == .contextual {
                        s.pushTable(arrayCount: Int32(m.perGlyphLookups.count))
                        for (i, lookup) in m.perGlyphLookups.enumerated() { pushMap(lookup, glyphValues: true); s.setIndex(i + 1, in: -2) }
                        s.setField("lookups", in: -2)
                    }
                    if sub.kind == .ligature {
                        s.pushTable(arrayCount: Int32(m.components.count))
                        for (i, v) in m.components.enumerated() { s.push(Int(v)); s.setIndex(i + 1, in: -2) }
                        s.setField("components", in: -2)
                        s.pushTable(arrayCount: Int32(m.ligatures.count))
                        for (i, g) in m.ligatures.enumerated() { s.push(name(g)); s.setIndex(i + 1, in: -2) }
                        s.setField("ligatures", in: -2)
                        if let rebase = m.ligatureRebase {
                            s.pushTable(arrayCount: Int32(rebase.count))
                            for (i, v) in rebase.enumerated() { s.push(v); s.setIndex(i + 1, in: -2) }
                            s.setField("rebasedComponents", in: -2)
                        }
                    }
                }
                s.setIndex(k + 1, in: -2)
            }
            s.setField("subtables", in: -2)
            s.setIndex(c + 1, in: -2)
        }
        s.setField("chains", in: -2)
    }

    static func pushEntry(_ s: LuaStack, _ e: MorxTable.Entry, _ kind: MorxTable.Kind, name: (UInt16) -> String) {
        s.pushTable(fieldCount: 4)
        s.push(Int(e.newState)); s.setField("newState", in: -2)
        let flags = kind.flagNames.filter { e.flags & $0.1 != 0 }
        s.pushTable(arrayCount: Int32(flags.count))
        for (i, f) in flags.enumerated() { s.push(f.0); s.setIndex(i + 1, in: -2) }
        s.setField("flags", in: -2)
        switch kind {
        case .rearrangement: s.push(Int(e.flags & 0xF)); s.setField("verb", in: -2)
        case .contextual:
            if e.markIndex != 0xFFFF { s.push(Int(e.markIndex) + 1); s.setField("markLookup", in: -2) }
            if e.currentIndex != 0xFFFF { s.push(Int(e.currentIndex) + 1); s.setField("currentLookup", in: -2) }
        case .ligature:
            if !e.ligatureActions.isEmpty {
                s.pushTable(arrayCount: Int32(e.ligatureActions.count))
                for (i, a) in e.ligatureActions.enumerated() {
                    s.pushTable(fieldCount: 2)
                    s.push(Int(a.delta)); s.setField("delta", in: -2)
                    s.push(a.store); s.setField("store", in: -2)
                    s.setIndex(i + 1, in: -2)
                }
                s.setField("actions", in: -2)
            }
        case .insertion:
            for (key, glyphs) in [("insertAtCurrent", e.currentInsertion), ("insertAtMark", e.markedInsertion)] where !glyphs.isEmpty {
                s.pushTable(arrayCount: Int32(glyphs.count))
                for (i, g) in glyphs.enumerated() { s.push(name(g)); s.setIndex(i + 1, in: -2) }
                s.setField(key, in: -2)
            }
        case .noncontextual: break
        }
    }
}
