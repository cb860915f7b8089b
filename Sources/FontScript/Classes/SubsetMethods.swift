import FontModel
import FontSubset
import LuaBridge

/// face:subset{...} and font:subset{...}: HarfBuzz's subsetter from Lua.
///
///     local small, subset = face:subset{text = "Hello", unicodes = {0x20, "U+3000-303F"},
///                                       glyphs = {"a", 42}, features = {"kern", "liga"},
///                                       keep = {"name"}, layoutClosure = true}
///     small:save("hello.woff2")
///     print(subset.glyphCount, #subset.closure, subset.map[old])  -- old → new glyph IDs
enum SubsetMethods {
    static let keys = ["text", "unicodes", "glyphs", "features", "keep", "layoutClosure", "retainGlyphIDs", "hinting", "face"]

    /// face:subset(options) → Font, subset info.
    static let faceSubset: LuaFunction = { L in
        LuaCall.run(L, "subset") { call in
            let face = try call.methodSelf(FaceObject.className, as: FaceRef.self).get()
            try call.options(2, keys.filter { $0 != "face" }, optional: false)
            return try subset(call, face)
        }
    }

    /// font:subset(options) → Font, subset info; a collection needs `face = i` (0-based).
    static let fontSubset: LuaFunction = { L in
        LuaCall.run(L, "subset") { call in
            let font = try call.methodSelf(FontObject.className, as: FontHandle.self).get()
            try call.options(2, keys, optional: false)
            let index = try call.intOption(2, "face")
            guard index != nil || font.faces.count == 1 else {
                throw LuaArgumentError(
                    2, "this is a collection of \(font.faces.count) faces: say which with face = 0...\(font.faces.count - 1)")
            }
            guard let face = font.faces[safe: index ?? 0] else {
                throw LuaArgumentError(2, "no face \(index ?? 0): faces are numbered 0 to \(font.faces.count - 1)")
            }
            return try subset(call, face)
        }
    }

    static func subset(_ call: LuaCall, _ face: Face) throws -> Int32 {
        let s = call.stack
        var request = SubsetRequest()
        request.text = try call.stringOption(2, "text") ?? ""
        request.unicodes = try list(call, "unicodes") { k in
            if s.type(at: -1) == .number, let v = s.integer(at: -1), (0...0x10FFFF).contains(v) { return [UInt32(v)] }
            if let text = s.string(at: -1) { return try SubsetRequest.parseUnicodes(text) }
            throw LuaArgumentError(2, "unicodes[\(k)]: a code point (0...0x10FFFF) or a string like \"U+0020-007E\"")
        }.flatMap { $0 }
        let names = try face.glyphNames()
        request.glyphs = try list(call, "glyphs") { k in
            if s.type(at: -1) == .number, let v = s.integer(at: -1) { return v }
            if let name = s.string(at: -1), let id = names.firstIndex(of: name) { return id }
            throw LuaArgumentError(2, "glyphs[\(k)]: \(s.describe(at: -1)) is neither a glyph ID nor a glyph name of this face")
        }
        if s.type(at: 2) == .table, s.withField("features", in: 2, { $0 != .nil }) {
            request.features = try list(call, "features") { k in
                guard let f = s.string(at: -1) else { throw LuaArgumentError(2, "features[\(k)] must be a tag string") }
                return f
            }
        }
        request.keep = try list(call, "keep") { k in
            guard let t = s.string(at: -1) else { throw LuaArgumentError(2, "keep[\(k)] must be a table tag string") }
            return t
        }
        request.layoutClosure = try call.boolOption(2, "layoutClosure", default: true)
        request.retainGlyphIDs = try call.boolOption(2, "retainGlyphIDs", default: false)
        request.hinting = try call.boolOption(2, "hinting", default: true)
        guard !request.codepoints.isEmpty || !request.glyphs.isEmpty else {
            throw LuaArgumentError(2, "nothing to keep: give text, unicodes or glyphs")
        }
        let result = try Subsetter.subset(face, request)
        FontObject.push(s, FontHandle(result.font, path: result.font.path ?? "subset"))
        s.pushTable(fieldCount: 4)
        s.pushTable(fieldCount: Int32(result.glyphMap.count))
        for (old, new) in result.glyphMap {
            s.push(old); s.push(new); s.setPair(in: -3)
        }
        s.setField("map", in: -2)
        s.push(strings: result.closure.map { $0 < names.count ? names[$0] : "glyph\($0)" })
        s.setField("closure", in: -2)
        s.push(result.glyphMap.count); s.setField("glyphCount", in: -2)
        s.pushTable(arrayCount: Int32(result.missing.count))
        for (k, u) in result.missing.enumerated() { s.push(Int(u)); s.setIndex(k + 1, in: -2) }
        s.setField("missing", in: -2)
        return 2
    }

    /// The list option `key` (absent: empty), each item read by `body` while on top of the stack.
    static func list<T>(_ call: LuaCall, _ key: String, _ body: (Int) throws -> T) throws -> [T] {
        let s = call.stack
        guard s.type(at: 2) == .table else { return [] }
        return try s.withField(key, in: 2) { type in
            switch type {
            case .nil: return []
            case .table: return try s.items(ofListAt: -1, body)
            default: throw LuaArgumentError(2, "option '\(key)' must be a list, got \(s.describedType(at: -1))")
            }
        }
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
