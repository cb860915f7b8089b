/// `loca` — where each glyph's data starts in `glyf`. Read as offsets; when `glyf` changes it is
/// recomputed from the new glyph data, short or long as the offsets allow.
public final class LocaTable: DecodableTable {
    public static let tableTag: Tag = "loca"

    /// numGlyphs + 1 byte offsets into glyf, as read.
    public let offsets: [Int]
    public let isShort: Bool
    /// The glyf table built on these offsets; loca is edited exactly when glyf is.
    weak var glyf: GlyfTable?

    init(offsets: [Int], isShort: Bool) {
        self.offsets = offsets
        self.isShort = isShort
    }

    public var isEdited: Bool { glyf?.isEdited ?? false }

    public static func decode(_ reader: BinaryReader, face: Face) throws -> LocaTable {
        let format = try face.head.indexToLocFormat
        let numGlyphs = try face.maxp.numGlyphs
        guard format == 0 || format == 1 else {
            throw FontError("head.indexToLocFormat is \(format), expected 0 (short) or 1 (long)", table: "loca")
        }
        let entrySize = format == 0 ? 2 : 4
        let needed = (numGlyphs + 1) * entrySize
        guard reader.count >= needed else {
            throw reader.error("loca has \(reader.count) bytes, \(numGlyphs) glyphs need \(needed)", at: 0)
        }
        var r = reader
        var offsets = [Int](repeating: 0, count: numGlyphs + 1)
        var previous = 0
        for i in 0...numGlyphs {
            let value = format == 0 ? Int(try r.u16()) * 2 : Int(try r.u32())
            guard value >= previous else {
                throw r.error(
                    "loca runs backwards: glyph \(i) starts at \(value), before glyph \(i - 1) at \(previous)", at: r.offset - entrySize)
            }
            offsets[i] = value
            previous = value
        }
        return LocaTable(offsets: offsets, isShort: format == 0)
    }

    public func encode() throws -> [UInt8] {
        guard let glyf else { throw FontError("loca cannot be written without its glyf table", table: "loca") }
        let compiled = try glyf.compile()
        var w = BinaryWriter(capacity: compiled.offsets.count * 4)
        for o in compiled.offsets {
            if compiled.isShortLoca { try w.u16(o / 2, "short loca offset") } else { try w.u32(o, "loca offset") }
        }
        return w.bytes
    }
}

extension LocaTable: GlyphDataTable {}
