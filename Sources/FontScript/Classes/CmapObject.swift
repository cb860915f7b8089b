import FontModel
import LuaBridge

/// Lua class `Cmap`: characters to glyphs through the best Unicode subtable. `cmap["A"]` or
/// `cmap[0x41]` → glyph id; `cmap:chars(id)` → the characters mapped to a glyph.
enum CmapObject {
    static let className = "Cmap"
    static var classID: Int32 { ScriptClass.cmap.rawValue }

    static var luaClass: LuaClass {
        var c = LuaClass(
            id: classID, name: className,
            summary: "character → glyph id: cmap['A'], cmap[0x41]; cmap:chars(id); cmap['a'] = id maps a character", get: get)
        c.set = set
        c.methods = ["chars": chars, "subtables": subtables, "mappings": mappings]
        c.tostring = tostring
        c.pairs = pairs
        return c
    }

    static func cmap(_ call: LuaCall, method: Bool) throws -> CmapTable {
        let part = method ? try call.methodSelf(className, as: FacePart.self) : try call.trustedSelf(className, as: FacePart.self)
        guard let c = try part.face.get().cmap else { throw LuaBridgeError("the face has no cmap") }
        return c
    }

    static let get: LuaFunction = { L in
        LuaCall.run(L, "Cmap") { call in
            let c = try cmap(call, method: false)
            if let g = try c.glyph(for: try call.character(2)) { call.stack.push(g) } else { call.stack.pushNil() }
            return 1
        }
    }

    /// cmap[char] = glyphId (or nil to unmap) in every Unicode subtable of format 4 or 12.
    static let set: LuaFunction = { L in
        LuaCall.run(L, "Cmap") { call in
            let c = try cmap(call, method: false)
            let face = try call.trustedSelf(className, as: FacePart.self).face.get()
            try c.set(try call.character(2), glyph: call.isNoneOrNil(3) ? nil : try call.integer(3), glyphCount: try face.glyphCount)
            return 0
        }
    }

    /// cmap:chars(glyphId) → list of one-character strings mapped to it.
    static let chars: LuaFunction = { L in
        LuaCall.run(L, "chars") { call in
            let c = try cmap(call, method: true)
            let scalars = try c.characters(for: try call.integer(2)).compactMap(Unicode.Scalar.init)
            call.stack.push(strings: scalars.map { String(Character($0)) })
            return 1
        }
    }

    /// cmap:subtables() → list of {platformID, encodingID, format}.
    static let subtables: LuaFunction = { L in
        LuaCall.run(L, "subtables") { call in
            let c = try cmap(call, method: true)
            let s = call.stack
            s.pushTable(arrayCount: Int32(c.records.count))
            for (i, r) in c.records.enumerated() {
                s.pushTable(fieldCount: 3)
                s.push(r.platformID); s.setField("platformID", in: -2)
                s.push(r.encodingID); s.setField("encodingID", in: -2)
                s.push(r.subtable.format); s.setField("format", in: -2)
                s.setIndex(i + 1, in: -2)
            }
            return 1
        }
    }

    /// pairs(cmap): code point → glyph id.
    static let pairs: LuaFunction = { L in
        LuaCall.run(L, "__pairs") { call in
            let m = try cmap(call, method: true).bestUnicodeSubtable()?.mapping() ?? [:]
            let s = call.stack
            s.pushTable(fieldCount: Int32(m.count))
            for (char, glyph) in m { s.push(glyph); s.setIndex(Int(char), in: -2) }
            return call.returnNextOverSnapshot()
        }
    }

    /// cmap:mappings() → every mapping as `{codePoint, glyphID}`, sorted by code point (one call
    /// instead of a pairs loop and a sort, for checks over every character).
    static let mappings: LuaFunction = { L in
        LuaCall.run(L, "mappings") { call in
            let m = try cmap(call, method: true).bestUnicodeSubtable()?.mapping() ?? [:]
            let s = call.stack
            s.pushTable(arrayCount: Int32(clamping: m.count))
            for (i, (char, glyph)) in m.sorted(by: { $0.key < $1.key }).enumerated() {
                s.pushTable(arrayCount: 2)
                s.push(Int(char)); s.setIndex(1, in: -2)
                s.push(glyph); s.setIndex(2, in: -2)
                s.setIndex(i + 1, in: -2)
            }
            return 1
        }
    }

    static let tostring: LuaFunction = { L in
        LuaCall.run(L, "__tostring") { call in
            let c = try cmap(call, method: true)
            let count = try c.bestUnicodeSubtable()?.mapping().count ?? 0
            call.stack.push("<cmap: \(c.records.count) subtables, \(count) characters>")
            return 1
        }
    }
}
