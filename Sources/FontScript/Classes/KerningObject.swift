import FontModel
import LuaBridge

/// What a KerningPairs userdata holds: the pairs (worked out row by row as they are read) and
/// the face's glyph names.
final class KerningBox {
    let pairs: KerningPairs
    let face: FaceRef
    init(_ pairs: KerningPairs, face: FaceRef) { self.pairs = pairs; self.face = face }

    /// The face's glyph names, read when a name is first needed (counting needs none).
    private var cachedNames: [String]?
    var names: [String] {
        get throws {
            if let cachedNames { return cachedNames }
            let names = try face.get().glyphNames()
            cachedNames = names
            return names
        }
    }
    func name(_ id: Int) throws -> String { glyphName(id, in: try names) }
}

/// Lua class `KerningPairs` (`face:kerningPairs()`): every kerned pair of a face, class kerning
/// expanded as it is read, so a font whose classes spell out a million pairs costs no more
/// memory than its table. Reads like a list: `#kp`, `kp[i]` → `{"A", "V", -87}`, `ipairs(kp)`;
/// `for left, right, value in kp:each()` walks without making a table per pair;
/// `kp:row("A")` → `{V = -87, ...}`; `kp.source` is "GPOS", "kern" or "".
enum KerningObject {
    static let className = "KerningPairs"
    static var classID: Int32 { ScriptClass.kerning.rawValue }

    // Declared as every class is (ImageObject's is the same shape): id, name, fields, methods.
    static var luaClass: LuaClass {
        var c = LuaClass(
            id: classID, name: className,
            summary:
                "every kerned pair, class pairs expanded on demand: #kp, kp[i] → {left, right, value}, ipairs(kp), kp:each(), kp:row('A'), kp.source",
            get: get)
        c.fields = Field.names
        c.methods = ["each": each, "row": row, "beyond": beyond, "selfPairs": selfPairs]
        c.len = length
        c.tostring = tostring
        return c
    }

    static func push(_ s: LuaStack, _ box: KerningBox) { s.push(object: box, classID: classID) }

    /// The fields, by name, in the order the bridge numbers them (from 1).
    enum Field: String, ClassFields {
        case source
    }
    static let fields = Field.allCases

    static let get: LuaFunction = { L in
        LuaCall.run(L, className) { call in
            let box = try call.trustedSelf(className, as: KerningBox.self)
            let s = call.stack
            if s.type(at: 2) == .number {
                let i = try call.integer(2)
                guard i >= 1, i <= box.pairs.count else { s.pushNil(); return 1 }
                let p = box.pairs[i - 1]
                s.pushTable(arrayCount: 3)
                s.push(try box.name(p.left)); s.setIndex(1, in: -2)
                s.push(try box.name(p.right)); s.setIndex(2, in: -2)
                s.push(p.value); s.setIndex(3, in: -2)
                return 1
            }
            switch fields.numbered(try call.integer(3)) {
            case .source?: s.push(box.pairs.source)
            case nil: throw unknownField(className, s.describe(at: 2), luaClass.fields + luaClass.methods.keys)
            }
            return 1
        }
    }

    static let length: LuaFunction = { L in
        LuaCall.run(L, "__len") { call in
            call.stack.push(try call.methodSelf(className, as: KerningBox.self).pairs.count)
            return 1
        }
    }

    /// kp:each() → iterator giving left, right, value (glyph names, font units) in order. The
    /// generic `for` hands the first value (the left name) back as its control, so the position
    /// lives in the state: a table {kp, pairs given so far}.
    static let each: LuaFunction = { L in
        LuaCall.run(L, "each") { call in
            _ = try call.methodSelf(className, as: KerningBox.self)
            let s = call.stack
            s.push(function: next)
            s.pushTable(arrayCount: 2)
            s.pushValue(at: 1); s.setIndex(1, in: -2)
            s.push(0); s.setIndex(2, in: -2)
            return 2
        }
    }

    /// The iterator's step: reads and advances the count in the state table.
    static let next: LuaFunction = { L in
        LuaCall.run(L, "next") { call in
            let s = call.stack
            guard s.type(at: 1) == .table else { throw LuaArgumentError(1, "the state of kp:each() expected") }
            s.getIndex(1, in: 1)
            let box = try call.object(-1, classID, className, as: KerningBox.self)
            s.pop()
            s.getIndex(2, in: 1)
            let i = s.integer(at: -1) ?? -1
            s.pop()
            guard i >= 0, i < box.pairs.count else { s.pushNil(); return 1 }
            s.push(i + 1); s.setIndex(2, in: 1)
            let p = box.pairs[i]
            s.push(try box.name(p.left))
            s.push(try box.name(p.right))
            s.push(p.value)
            return 3
        }
    }

    /// kp:row(left) → {right = value, ...}: the pairs of one first glyph (name, id or Glyph).
    static let row: LuaFunction = { L in
        LuaCall.run(L, "row") { call in
            let box = try call.methodSelf(className, as: KerningBox.self)
            let left: Int
            if call.stack.type(at: 2) == .number {
                left = try call.integer(2)
            } else if call.stack.isObject(at: 2, classID: GlyphObject.classID) {
                left = call.payload(2)
            } else {
                let name = try call.string(2)
                guard let id = try box.names.firstIndex(of: name) else {
                    throw LuaArgumentError(2, try GlyphsObject.missingGlyphMessage(name, try box.face.get(), orNil: false))
                }
                left = id
            }
            let r = box.pairs.row(for: left)
            let s = call.stack
            s.pushTable(fieldCount: Int32(min(r.rights.count, 1 << 20)))
            for (right, v) in zip(r.rights, r.values) { s.push(v); s.setField(try box.name(right), in: -2) }
            return 1
        }
    }

    /// kp:beyond(limit) → {{left, right, value}, …}: the pairs kerned by more than `limit`
    /// units either way, found in Swift (a check over Roboto's 167,901 pairs makes no table per pair).
    static let beyond: LuaFunction = { L in
        LuaCall.run(L, "beyond") { call in
            let box = try call.methodSelf(className, as: KerningBox.self)
            let limit = try call.number(2)
            guard !limit.isNaN else { throw LuaArgumentError(2, "limit must be a number") }
            try pushPairs(call.stack, box) { _, _, value in abs(Double(value)) > limit }
            return 1
        }
    }

    /// kp:selfPairs() → {{left, right, value}, …}: the pairs that kern a glyph with itself.
    static let selfPairs: LuaFunction = { L in
        LuaCall.run(L, "selfPairs") { call in
            let box = try call.methodSelf(className, as: KerningBox.self)
            try pushPairs(call.stack, box) { left, right, _ in left == right }
            return 1
        }
    }

    /// The pairs `wanted` picks, as a list of {left, right, value} (glyph names), walked row by row.
    static func pushPairs(_ s: LuaStack, _ box: KerningBox, _ wanted: (Int, Int, Int) -> Bool) throws {
        var picked: [(Int, Int, Int)] = []
        for left in box.pairs.lefts {
            let row = box.pairs.row(for: left)
            for (right, value) in zip(row.rights, row.values) where wanted(left, right, value) { picked.append((left, right, value)) }
        }
        s.pushTable(arrayCount: Int32(min(picked.count, 1 << 20)))
        for (i, p) in picked.enumerated() {
            s.pushTable(arrayCount: 3)
            s.push(try box.name(p.0)); s.setIndex(1, in: -2)
            s.push(try box.name(p.1)); s.setIndex(2, in: -2)
            s.push(p.2); s.setIndex(3, in: -2)
            s.setIndex(i + 1, in: -2)
        }
    }

    static let tostring: LuaFunction = { L in
        LuaCall.run(L, "__tostring") { call in
            let box = try call.methodSelf(className, as: KerningBox.self)
            call.stack.push(
                "<KerningPairs: \(box.pairs.count) pairs from \(box.pairs.source.isEmpty ? "no kerning table" : box.pairs.source)>")
            return 1
        }
    }
}
