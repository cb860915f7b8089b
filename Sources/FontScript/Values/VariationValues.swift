import FontModel
import LuaBridge

/// Lua views of avar and cvar, read-only copies: `face.avar` (each axis's map as {from, to}
/// pairs, by axis tag) and `face.cvar` (tuples: peak, and start/end for an intermediate region,
/// by axis tag; deltas by cvt index). Edit them through TTX (`face:fuse`).
enum VariationValues {
    static let fields: [(name: String, push: @Sendable (LuaStack, Face) throws -> Void)] = [("avar", pushAvar), ("cvar", pushCvar)]

    static func pushAvar(_ s: LuaStack, _ face: Face) throws {
        guard let avar = try face.table(AvarTable.self) else { s.pushNil(); return }
        let tags = try face.table(FvarTable.self)?.axes.map(\.tag.trimmed) ?? []
        s.pushTable(fieldCount: 2)
        s.push(avar.majorVersion); s.setField("version", in: -2)
        s.pushTable(fieldCount: Int32(avar.maps.count))
        for (axis, map) in avar.maps.enumerated() {
            _ = s.reserve(6)
            s.pushTable(arrayCount: Int32(map.count))
            for (k, pair) in map.enumerated() {
                s.pushTable(arrayCount: 2)
                s.push(pair.from); s.setIndex(1, in: -2)
                s.push(pair.to); s.setIndex(2, in: -2)
                s.setIndex(k + 1, in: -2)
            }
            s.setField(axis < tags.count ? tags[axis] : "axis\(axis)", in: -2)
        }
        s.setField("maps", in: -2)
    }

    static func pushCvar(_ s: LuaStack, _ face: Face) throws {
        guard let cvar = try face.table(CvarTable.self) else { s.pushNil(); return }
        let tags = try face.table(FvarTable.self)?.axes.map(\.tag.trimmed) ?? []
        func axisName(_ i: Int) -> String { i < tags.count ? tags[i] : "axis\(i)" }
        s.pushTable(arrayCount: Int32(cvar.variations.count))
        for (k, tuple) in cvar.variations.enumerated() {
            _ = s.reserve(6)
            s.pushTable(fieldCount: 4)
            for (name, values) in [("peak", Optional(tuple.peak)), ("start", tuple.start), ("end", tuple.end)] {
                guard let values else { continue }
                s.pushTable(fieldCount: Int32(values.count))
                for (i, v) in values.enumerated() { s.push(v); s.setField(axisName(i), in: -2) }
                s.setField(name, in: -2)
            }
            // Deltas by cvt index as instructions number them (0-based), as a map.
            s.pushTable(fieldCount: Int32(tuple.x.count))
            for (point, delta) in zip(tuple.points ?? Array(tuple.x.indices), tuple.x) { s.push(delta); s.setIndex(point, in: -2) }
            s.setField("deltas", in: -2)
            s.setIndex(k + 1, in: -2)
        }
    }
}
