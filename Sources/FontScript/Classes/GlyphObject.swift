import FontModel
import LuaBridge
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Lua class `Glyph`: one glyph of a face (a face and a 0-based id). Outline, metrics and names;
/// `advance`, `lsb`, `contours` and `instructions` are writable; `g:copyFrom(other, {metrics=true})`.
enum GlyphObject {
    static let className = "Glyph"
    static var classID: Int32 { ScriptClass.glyph.rawValue }

    static var luaClass: LuaClass {
        var c = LuaClass(
            id: classID, name: className,
            summary: "a glyph: g.name, g.advance, g.bounds, g.contours, g:copyFrom(other, {metrics=true, layout=true})", get: get)
        c.fields = Field.names
        c.set = set
        c.methods = [
            "copyFrom": copyFrom, "contoursAt": VariationMethods.contoursAt, "advanceAt": VariationMethods.advanceAt,
            "deltas": VariationMethods.deltas, "contourAreas": OutlineMethods.contourAreas, "overlaps": OutlineMethods.overlaps,
            "missingExtrema": OutlineMethods.missingExtrema,
        ]
        c.tostring = tostring
        return c
    }

    /// A glyph is its face's reference plus the glyph id as the userdata payload.
    static func push(_ stack: LuaStack, _ face: FaceRef, _ id: Int) { stack.push(object: face, classID: classID, payload: id) }

    /// The fields, by name, in the order the bridge numbers them (from 1): `get` and `set`
    /// switch on the case, so a field is named once, here.
    enum Field: String, ClassFields {
        case id, name, unicodes, advance, lsb, bounds, contours, components, instructions, isComposite, face, color
    }
    static let fields = Field.allCases

    static let get: LuaFunction = { L in
        LuaCall.run(L, "Glyph") { call in
            let ref = try call.trustedSelf(className, as: FaceRef.self)
            let id = call.payload(1)
            let s = call.stack
            guard let field = fields.numbered(try call.integer(3)) else {
                throw unknownField(className, s.describe(at: 2), luaClass.fields + luaClass.methods.keys)
            }
            if field == .id { s.push(id); return 1 }   // the hot read, which needs no open face
            let face = try ref.get()
            switch field {
            case .id: s.push(id)
            case .name: s.push(try face.glyphName(id))
            case .unicodes: s.push(integers: try face.cmap?.characters(for: id).map { Int($0) } ?? [])
            case .advance: s.push(try face.hmtx.advance(id))
            case .lsb: s.push(try face.hmtx.sideBearing(id))
            case .bounds: s.push(bounds: try face.glyphBounds(id))
            case .contours: try pushContours(s, face, id)
            case .components: try pushComponents(s, face, id)
            case .instructions: s.push(bytes: try face.glyf?.glyph(id).instructions ?? [])
            case .isComposite: s.push(try face.glyf?.glyph(id).isComposite ?? false)
            case .face: FaceObject.push(s, ref)
            case .color:
                // How the glyph is coloured ("COLR v0, 2 layers", "CBDT bitmap" …); nil for none.
                let forms = try face.colorForms(id)
                if forms.isEmpty { s.pushNil() } else { s.push(forms.joined(separator: "; ")) }
            }
            return 1
        }
    }

    static let set: LuaFunction = { L in
        LuaCall.run(L, "Glyph") { call in
            let ref = try call.trustedSelf(className, as: FaceRef.self)
            let id = call.payload(1)
            let face = try ref.get()
            guard let field = fields.numbered(try call.integer(4)) else {
                throw unknownField(className, call.stack.describe(at: 2), luaClass.fields)
            }
            switch field {
            case .advance: try face.hmtx.setAdvance(id, try call.integer(3))
            case .lsb: try face.hmtx.setSideBearing(id, try call.integer(3))
            case .contours:
                guard try face.glyf != nil else {
                    throw LuaBridgeError("setting contours needs TrueType outlines (glyf); this face has CFF")
                }
                try face.setContours(id, try readContours(call, 3))
            case .instructions:
                guard let glyf = try face.glyf else { throw LuaBridgeError("instructions exist only in TrueType outlines (glyf)") }
                var glyph = try glyf.glyph(id)
                glyph.instructions = try call.bytes(3)
                try glyf.setGlyph(id, glyph)
            default:
                throw LuaBridgeError("Glyph.\(call.stack.describe(at: 2)) is read-only (writable: advance, lsb, contours, instructions)")
            }
            return 0
        }
    }

    /// Contours as lists of {x=, y=, on=}. CFF outlines are given the same way, cubic curves as
    /// two off-curve control points before their on-curve end point.
    static func pushContours(_ s: LuaStack, _ face: Face, _ id: Int) throws {
        pushPoints(s, try face.outlinePoints(id))
    }

    /// Contours as a list of lists of {x=, y=, on=}.
    static func pushPoints(_ s: LuaStack, _ contours: [[GlyphPoint]]) {
        s.pushTable(arrayCount: Int32(contours.count))
        for (i, contour) in contours.enumerated() {
            s.pushTable(arrayCount: Int32(contour.count))
            for (j, point) in contour.enumerated() {
                s.pushTable(fieldCount: 3)
                s.push(point.x); s.setField("x", in: -2)
                s.push(point.y); s.setField("y", in: -2)
                s.push(point.onCurve); s.setField("on", in: -2)
                s.setIndex(j + 1, in: -2)
            }
            s.setIndex(i + 1, in: -2)
        }
    }

    static func readContours(_ call: LuaCall, _ arg: Int32) throws -> [[GlyphPoint]] {
        let s = call.stack
        guard s.type(at: arg) == .table else { throw LuaBridgeError("contours must be a list of contours, each a list of {x=, y=, on=}") }
        return try s.items(ofListAt: arg) { c in
            guard s.type(at: -1) == .table else { throw LuaBridgeError("contour \(c) must be a list of points") }
            return try s.items(ofListAt: -1) { k in
                func coordinate(_ key: String) throws -> Int {
                    try s.withField(key, in: -1) { _ in
                        guard let v = s.integer(at: -1), (-32768...32767).contains(v) else {
                            throw LuaBridgeError("contour \(c) point \(k): \(key) must be an integer in -32768...32767")
                        }
                        return v
                    }
                }
                guard s.type(at: -1) == .table else { throw LuaBridgeError("contour \(c) point \(k) must be a table {x=, y=, on=}") }
                let x = try coordinate("x"), y = try coordinate("y")
                let on = s.withField("on", in: -1) { type in type == .nil || s.truthy(at: -1) }
                return GlyphPoint(x: x, y: y, onCurve: on)
            }
        }
    }

    static func pushComponents(_ s: LuaStack, _ face: Face, _ id: Int) throws {
        let components = try face.glyf?.glyph(id).components ?? []
        s.pushTable(arrayCount: Int32(components.count))
        for (i, c) in components.enumerated() {
            s.pushTable(fieldCount: 6)
            s.push(c.glyphID); s.setField("glyph", in: -2)
            s.push(try face.glyphName(c.glyphID)); s.setField("name", in: -2)
            if c.flags & GlyphComponent.argsAreXYValues != 0 {
                s.push(c.arg1); s.setField("x", in: -2)
                s.push(c.arg2); s.setField("y", in: -2)
            } else {
                s.push(c.arg1); s.setField("parentPoint", in: -2)
                s.push(c.arg2); s.setField("childPoint", in: -2)
            }
            s.push(Int(c.flags)); s.setField("flags", in: -2)
            s.pushTable(fieldCount: 4)
            for (key, v) in [("xx", c.transform.xx), ("xy", c.transform.xy), ("yx", c.transform.yx), ("yy", c.transform.yy)] {
                s.push(Double(v) / F2Dot14.scale); s.setField(key, in: -2)
            }
            s.setField("transform", in: -2)
            s.setIndex(i + 1, in: -2)
        }
    }

    /// g:copyFrom(other [, {metrics = true, layout = false}]): this glyph takes other's outline
    /// (and by default its advance and lsb; with `layout`, its behaviour in GDEF, GSUB and GPOS).
    /// Both glyphs must be in the same face.
    static let copyFrom: LuaFunction = { L in
        LuaCall.run(L, "copyFrom") { call in
            let target = try call.methodSelf(className, as: FaceRef.self)
            let source = try call.object(2, classID, className, as: FaceRef.self)
            try call.options(3, ["metrics", "layout"])
            let metrics = try call.boolOption(3, "metrics", default: true)
            let layout = try call.boolOption(3, "layout", default: false)
            guard source.isSame(as: target) else {
                throw LuaArgumentError(2, "glyph from another face; copyFrom works within one face")
            }
            let face = try target.get()
            try face.copyOutline(from: call.payload(2), to: call.payload(1), metrics: metrics)
            if layout { try face.copyLayout(from: call.payload(2), to: call.payload(1)) }
            warnIfShared(face)
            return 0
        }
    }

    /// Faces already warned about, so a loop over glyphs warns once.
    nonisolated(unsafe) static var warnedFaces = Set<ObjectIdentifier>()

    /// Glyph edits through one face of a collection change every face sharing its glyph data:
    /// say so (once per face) on stderr.
    static func warnIfShared(_ face: Face) {
        let others = face.facesSharingGlyphData
        guard !others.isEmpty, warnedFaces.insert(ObjectIdentifier(face)).inserted else { return }
        let message =
            "fontshell: warning: face \(face.index) shares its glyph data with face\(others.count > 1 ? "s" : "") \(others.map(String.init).joined(separator: ", ")); this edit changes them too (face:unshare() gives it its own copy)\n"
        fflush(nil)
        let bytes = Array(message.utf8)
        bytes.withUnsafeBytes { _ = write(2, $0.baseAddress, $0.count) }
    }

    static let tostring: LuaFunction = { L in
        LuaCall.run(L, "__tostring") { call in
            let ref = try call.methodSelf(className, as: FaceRef.self)
            let id = call.payload(1)
            guard ref.handle.isOpen else { call.stack.push("<Glyph \(id): font closed>"); return 1 }
            let face = try ref.get()
            call.stack.push("<Glyph \(id) '\(try face.glyphName(id))' advance \(try face.hmtx.advance(id))>")
            return 1
        }
    }
}
