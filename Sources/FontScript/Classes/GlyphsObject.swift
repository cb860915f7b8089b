import FontModel
import LuaBridge

/// Lua class `Glyphs`: the glyphs of a face by name (`glyphs.A`) or 0-based id (`glyphs[36]`);
/// `#glyphs` counts them and `for id, g in pairs(glyphs)` walks them in id order. A name the
/// face lacks is an error saying what to try; `glyphs:get(name)` gives nil instead.
enum GlyphsObject {
    static let className = "Glyphs"
    static var classID: Int32 { ScriptClass.glyphs.rawValue }

    static var luaClass: LuaClass {
        var c = LuaClass(
            id: classID, name: className,
            summary: "glyphs by name or 0-based id: glyphs.A, glyphs[36], glyphs:get('A') (nil if none), #glyphs, pairs(glyphs)", get: get)
        c.methods = ["get": getOrNil, "advances": advances, "blanks": blanks, "names": names]
        c.len = length
        c.pairs = pairs
        c.tostring = tostring
        return c
    }

    static let get: LuaFunction = { L in
        LuaCall.run(L, "Glyphs") { call in
            let ref = try call.trustedSelf(className, as: FacePart.self).face
            let face = try ref.get()
            if call.stack.type(at: 2) == .number {
                let id = try call.integer(2)
                guard id >= 0, id < (try face.glyphCount) else { call.stack.pushNil(); return 1 }
                GlyphObject.push(call.stack, ref, id)
            } else {
                let name = try call.string(2)
                guard let id = try face.glyphID(named: name) else { throw LuaBridgeError(try missingGlyphMessage(name, face)) }
                GlyphObject.push(call.stack, ref, id)
            }
            return 1
        }
    }

    /// glyphs:get(name or id) → the glyph, or nil when the face has none by that name or id.
    static let getOrNil: LuaFunction = { L in
        LuaCall.run(L, "get") { call in
            let ref = try call.methodSelf(className, as: FacePart.self).face
            let face = try ref.get()
            let id: Int?
            if call.stack.type(at: 2) == .number {
                let n = try call.integer(2), count = try face.glyphCount
                id = n >= 0 && n < count ? n : nil
            } else {
                id = try face.glyphID(named: try call.string(2))
            }
            if let id { GlyphObject.push(call.stack, ref, id) } else { call.stack.pushNil() }
            return 1
        }
    }

    /// "no glyph named 'a'", with what to try: a CID-keyed font names its glyphs cid00001...,
    /// and a character is found through the cmap.
    static func missingGlyphMessage(_ name: String, _ face: Face, orNil: Bool = true) throws -> String {
        var message = "no glyph named '\(name)'"
        let cid = (try? face.cff)??.isCIDKeyed ?? false
        if name.unicodeScalars.count == 1 {
            message +=
                cid
                ? " (a CID-keyed font names its glyphs cid00001...: try face:glyphFor('\(name)'))"
                : " (for the glyph of a character: face:glyphFor('\(name)'))"
        } else if cid {
            message += " (a CID-keyed font names its glyphs cid00001...)"
        }
        return orNil ? message + "; glyphs:get(name) gives nil instead of this error" : message
    }

    /// glyphs:advances() → every advance in one list: `[id + 1]` is glyph id's advance. For checks
    /// and scripts that read every glyph's width (a Glyph object per glyph costs more).
    static let advances: LuaFunction = { L in
        LuaCall.run(L, "advances") { call in
            let face = try call.methodSelf(className, as: FacePart.self).face.get()
            let hmtx = try face.hmtx
            return try pushPerGlyph(call.stack, count: try face.glyphCount) { call.stack.push(try hmtx.advance($0)) }
        }
    }

    /// glyphs:names() → every glyph name in one list: `[id + 1]` is glyph id's name.
    static let names: LuaFunction = { L in
        LuaCall.run(L, "names") { call in
            let face = try call.methodSelf(className, as: FacePart.self).face.get()
            return try pushPerGlyph(call.stack, count: try face.glyphCount) { call.stack.push(try face.glyphName($0)) }
        }
    }

    /// Pushes a list of one value per glyph (`push` pushes glyph id's, stored at `[id + 1]`); 1.
    static func pushPerGlyph(_ s: LuaStack, count: Int, _ push: (Int) throws -> Void) throws -> Int32 {
        s.pushTable(arrayCount: Int32(clamping: count))
        for id in 0..<count {
            try push(id)
            s.setIndex(id + 1, in: -2)
        }
        return 1
    }

    /// glyphs:blanks() → the set of glyphs that draw nothing, `{[id] = true}`: empty outlines
    /// (`Glyph.bounds` is nil for them) and composites made only of such glyphs (a no-break
    /// space drawn as a reference to the space has a bounding box in its header, but no ink).
    static let blanks: LuaFunction = { L in
        LuaCall.run(L, "blanks") { call in
            let face = try call.methodSelf(className, as: FacePart.self).face.get()
            let s = call.stack
            s.pushTable()
            var known: [Int: Bool] = [:]
            for id in 0..<(try face.glyphCount) where try isBlank(face, id, &known, depth: 0) {
                s.push(true)
                s.setIndex(id, in: -2)
            }
            return 1
        }
    }

    static func isBlank(_ face: Face, _ id: Int, _ known: inout [Int: Bool], depth: Int) throws -> Bool {
        if let k = known[id] { return k }
        var blank = try face.glyphBounds(id) == nil
        // Composites nest at most a few levels in real fonts; a deeper (or looping) one is ink.
        if !blank, depth < 8, let glyf = try face.glyf {
            let glyph = try glyf.glyph(id)
            if glyph.isComposite {
                blank = true
                for c in glyph.components where !(try isBlank(face, c.glyphID, &known, depth: depth + 1)) { blank = false; break }
            }
        }
        known[id] = blank
        return blank
    }

    static let length: LuaFunction = { L in
        LuaCall.run(L, "__len") { call in
            call.stack.push(try call.methodSelf(className, as: FacePart.self).face.get().glyphCount)
            return 1
        }
    }

    /// pairs(glyphs) → iterator over (id, Glyph) from 0 in id order.
    static let pairs: LuaFunction = { L in
        LuaCall.run(L, "__pairs") { call in
            _ = try call.methodSelf(className, as: FacePart.self)
            call.stack.push(function: next)
            call.stack.pushValue(at: 1)
            call.stack.push(-1)
            return 3
        }
    }

    static let next: LuaFunction = { L in
        LuaCall.run(L, "next") { call in
            let ref = try call.object(1, classID, className, as: FacePart.self).face
            let id = try call.integer(2) + 1
            guard id < (try ref.get().glyphCount) else { call.stack.pushNil(); return 1 }
            call.stack.push(id)
            GlyphObject.push(call.stack, ref, id)
            return 2
        }
    }

    static let tostring: LuaFunction = { L in
        LuaCall.run(L, "__tostring") { call in
            call.stack.push("<glyphs: \(try call.methodSelf(className, as: FacePart.self).face.get().glyphCount)>")
            return 1
        }
    }
}
