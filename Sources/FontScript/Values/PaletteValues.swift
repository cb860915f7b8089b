import FontModel
import LuaBridge

/// Lua view of CPAL, a read-only copy: `face.CPAL` (palettes of colours as "#RRGGBBAA", their
/// types and name IDs, the entries' name IDs). Edit it through TTX (`face:fuse`).
enum PaletteValues {
    static let fields: [(name: String, push: @Sendable (LuaStack, Face) throws -> Void)] = [("CPAL", pushCPAL)]

    static func pushCPAL(_ s: LuaStack, _ face: Face) throws {
        guard let cpal = try face.table(CPALTable.self) else { s.pushNil(); return }
        s.pushTable(fieldCount: 6)
        s.push(cpal.version); s.setField("version", in: -2)
        s.push(cpal.entryCount); s.setField("numPaletteEntries", in: -2)
        s.pushTable(arrayCount: Int32(cpal.palettes.count))
        for (k, palette) in cpal.palettes.enumerated() {
            _ = s.reserve(4)
            s.push(strings: palette.map(\.hex))
            s.setIndex(k + 1, in: -2)
        }
        s.setField("palettes", in: -2)
        if !cpal.paletteTypes.isEmpty { s.push(integers: cpal.paletteTypes.map(Int.init)); s.setField("paletteTypes", in: -2) }
        if !cpal.paletteLabels.isEmpty { s.push(integers: cpal.paletteLabels); s.setField("paletteLabels", in: -2) }
        if !cpal.entryLabels.isEmpty { s.push(integers: cpal.entryLabels); s.setField("entryLabels", in: -2) }
    }
}
