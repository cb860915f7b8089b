/// `trak` (Apple), tracking: for each direction, named tracks (0 normal, -1 tight, 1 loose …)
/// and for each point size the units to add to every glyph's advance. macOS applies it when
/// text is set; the sizes between those listed are interpolated. Values are as stored:
/// tracks and sizes 16.16, adjustments in font units.
public final class TrakTable: DecodableTable, DiffableTable, Equatable {
    public static let tableTag: Tag = "trak"

    public struct Track: Equatable, Sendable {
        /// 16.16, as stored (-65536 is tight, 0 normal).
        public var value: Int32
        public var nameIndex: UInt16
        /// One adjustment per size of the direction's size table.
        public var adjustments: [Int16]
        public init(value: Int32, nameIndex: UInt16, adjustments: [Int16]) {
            self.value = value; self.nameIndex = nameIndex; self.adjustments = adjustments
        }
    }

    public struct TrackData: Equatable, Sendable {
        /// Point sizes, 16.16.
        public var sizes: [Int32]
        /// In table order.
        public var tracks: [Track]
        public init(sizes: [Int32] = [], tracks: [Track] = []) { self.sizes = sizes; self.tracks = tracks }
        public var isEmpty: Bool { tracks.isEmpty }
    }

    /// 16.16.
    public let version: UInt32
    public let format: UInt16
    public let horizontal: TrackData
    public let vertical: TrackData
    public let isEdited = false

    public init(version: UInt32 = 0x0001_0000, format: UInt16 = 0, horizontal: TrackData, vertical: TrackData) {
        self.version = version; self.format = format; self.horizontal = horizontal; self.vertical = vertical
    }

    public static func == (a: TrakTable, b: TrakTable) -> Bool {
        a.version == b.version && a.format == b.format && a.horizontal == b.horizontal && a.vertical == b.vertical
    }

    public static func decode(_ reader: BinaryReader, face: Face) throws -> TrakTable {
        var r = reader
        let version = try r.u32(), format = try r.u16(), horizontal = Int(try r.u16()), vertical = Int(try r.u16())
        func data(_ offset: Int, _ what: String) throws -> TrackData {
            guard offset != 0 else { return TrackData() }
            var d = try reader.sub(from: offset)
            let trackCount = Int(try d.u16()), sizeCount = Int(try d.u16()), sizeTable = Int(try d.u32())
            guard trackCount <= d.remaining / 8 else {
                throw reader.error("trak \(what): \(trackCount) tracks do not fit the table", at: offset)
            }
            // Tracks may share their values; what they add up to is bounded by the table's size.
            guard trackCount * sizeCount <= 16 * reader.count else {
                throw reader.error(
                    "trak \(what): \(trackCount) tracks of \(sizeCount) sizes are more values than the table could hold", at: offset)
            }
            var sizeReader = try reader.sub(sizeTable, 4 * sizeCount)
            let sizes = try (0..<sizeCount).map { _ in try sizeReader.i32() }
            let tracks = try (0..<trackCount).map { k -> Track in
                let value = try d.i32(), nameIndex = try d.u16(), valuesAt = Int(try d.u16())
                var v = try reader.sub(valuesAt, 2 * sizeCount)
                return Track(value: value, nameIndex: nameIndex, adjustments: try (0..<sizeCount).map { _ in try v.i16() })
            }
            return TrackData(sizes: sizes, tracks: tracks)
        }
        return TrakTable(
            version: version, format: format, horizontal: try data(horizontal, "horizontal data"),
            vertical: try data(vertical, "vertical data"))
    }

    /// As fontTools compiles it: each direction's data four-byte aligned, tracks sorted by value,
    /// sizes ascending (each track's adjustments in the same order).
    public func encode() throws -> [UInt8] {
        var w = BinaryWriter()
        w.u32(version); w.u16(format)
        var blocks: [(offset: Int, bytes: [UInt8])] = []
        var at = 12
        for data in [horizontal, vertical] {
            guard !data.isEmpty else { blocks.append((0, [])); continue }
            let aligned = (at + 3) & ~3
            let bytes = try Self.encode(data, at: aligned)
            blocks.append((aligned, Array(repeating: 0, count: aligned - at) + bytes))
            at = aligned + bytes.count
        }
        try w.u16(blocks[0].offset, "trak horizontal offset"); try w.u16(blocks[1].offset, "trak vertical offset"); w.u16(0)
        for b in blocks { w.append(b.bytes) }
        return w.bytes
    }

    static func encode(_ data: TrackData, at start: Int) throws -> [UInt8] {
        for t in data.tracks where t.adjustments.count != data.sizes.count {
            throw FontError("trak: track \(t.value) has \(t.adjustments.count) values for \(data.sizes.count) sizes", table: "trak")
        }
        let order = data.sizes.indices.sorted { data.sizes[$0] < data.sizes[$1] }
        let tracks = data.tracks.sorted { $0.value < $1.value }
        var w = BinaryWriter()
        let sizeTable = start + 8 + 8 * tracks.count
        try w.u16(tracks.count, "trak track count"); try w.u16(data.sizes.count, "trak size count");
        try w.u32(sizeTable, "trak size table offset")
        var valuesAt = sizeTable + 4 * data.sizes.count
        for t in tracks {
            w.i32(t.value); w.u16(t.nameIndex); try w.u16(valuesAt, "trak values offset")
            valuesAt += 2 * data.sizes.count
        }
        for k in order { w.i32(data.sizes[k]) }
        for t in tracks { for k in order { w.i16(t.adjustments[k]) } }
        return w.bytes
    }

    public func differences(to other: FontTable) -> [Difference]? {
        guard let other = other as? TrakTable else { return nil }
        func items(_ t: TrakTable) -> [(String, String)] {
            var out = [("version", "0x" + String(t.version, radix: 16)), ("format", "\(t.format)")]
            for (direction, data) in [("horizontal", t.horizontal), ("vertical", t.vertical)] {
                for track in data.tracks {
                    let values = zip(data.sizes, track.adjustments).map { "\(Fixed(raw: $0).value)pt:\($1)" }.joined(separator: " ")
                    out.append(("\(direction) track \(Fixed(raw: track.value).value)", "name \(track.nameIndex), \(values)"))
                }
            }
            return out
        }
        return Difference.keyed(table: "trak", items(self), items(other))
    }
}
