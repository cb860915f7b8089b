/// `VDMX`, vertical device metrics: for ranges of aspect ratios, the hinted maximum and minimum
/// y (in pixels) of the font's glyphs at each pixel height, so a rasterizer can size lines
/// without running every glyph's instructions.
public final class VDMXTable: DecodableTable, DiffableTable, Equatable {
    public static let tableTag: Tag = "VDMX"

    public struct Ratio: Equatable, Sendable {
        public var charSet: UInt8, xRatio: UInt8, yStartRatio: UInt8, yEndRatio: UInt8
        /// The group of heights it uses.
        public var group: Int
        public init(charSet: UInt8, xRatio: UInt8, yStartRatio: UInt8, yEndRatio: UInt8, group: Int) {
            self.charSet = charSet; self.xRatio = xRatio; self.yStartRatio = yStartRatio; self.yEndRatio = yEndRatio; self.group = group
        }
    }

    public struct Height: Equatable, Sendable {
        public var yPelHeight: UInt16, yMax: Int16, yMin: Int16
        public init(yPelHeight: UInt16, yMax: Int16, yMin: Int16) { self.yPelHeight = yPelHeight; self.yMax = yMax; self.yMin = yMin }
    }

    public let version: UInt16
    public let ratios: [Ratio]
    /// Each group's heights, ascending.
    public let groups: [[Height]]
    public let isEdited = false

    public static func == (a: VDMXTable, b: VDMXTable) -> Bool { a.version == b.version && a.ratios == b.ratios && a.groups == b.groups }

    public init(version: UInt16 = 1, ratios: [Ratio], groups: [[Height]]) {
        self.version = version; self.ratios = ratios; self.groups = groups
    }

    public static func decode(_ reader: BinaryReader, face: Face) throws -> VDMXTable {
        var r = reader
        let version = try r.u16(), groupCount = Int(try r.u16()), ratioCount = Int(try r.u16())
        guard ratioCount <= r.remaining / 6 else {
            throw r.error("VDMX claims \(ratioCount) ratio ranges, more than the table holds", at: 4)
        }
        let ranges = try (0..<ratioCount).map { _ in (try r.u8(), try r.u8(), try r.u8(), try r.u8()) }
        let offsets = try (0..<ratioCount).map { _ in Int(try r.u16()) }
        // Groups follow one another (as fontTools reads them); each ratio names one by offset.
        guard groupCount <= r.remaining / 4 else { throw r.error("VDMX claims \(groupCount) groups, more than the table holds", at: 2) }
        var starts: [Int: Int] = [:]
        let groups = try (0..<groupCount).map { k -> [Height] in
            starts[r.offset] = k
            let count = Int(try r.u16())
            try r.skip(2)   // startsz, endsz: the first and last heights
            guard count <= r.remaining / 6 else {
                throw r.error("VDMX group \(k) claims \(count) heights, more than the table holds", at: r.offset - 4)
            }
            return try (0..<count).map { _ in Height(yPelHeight: try r.u16(), yMax: try r.i16(), yMin: try r.i16()) }
        }
        let ratios = try zip(ranges, offsets).enumerated().map { k, pair -> Ratio in
            guard let group = starts[pair.1] else {
                throw reader.error("VDMX ratio range \(k) points at \(pair.1), where no group starts", at: 6 + 4 * ratioCount + 2 * k)
            }
            return Ratio(charSet: pair.0.0, xRatio: pair.0.1, yStartRatio: pair.0.2, yEndRatio: pair.0.3, group: group)
        }
        return VDMXTable(version: version, ratios: ratios, groups: groups)
    }

    public func encode() throws -> [UInt8] {
        var w = BinaryWriter()
        w.u16(version); try w.u16(groups.count, "VDMX group count"); try w.u16(ratios.count, "VDMX ratio count")
        for r in ratios { w.u8(r.charSet); w.u8(r.xRatio); w.u8(r.yStartRatio); w.u8(r.yEndRatio) }
        var starts: [Int] = []
        var at = 6 + 6 * ratios.count
        for g in groups { starts.append(at); at += 4 + 6 * g.count }
        for r in ratios {
            guard starts.indices.contains(r.group) else {
                throw FontError("VDMX ratio range uses group \(r.group), but there are \(groups.count)", table: "VDMX")
            }
            try w.u16(starts[r.group], "VDMX group offset")
        }
        for g in groups {
            let sorted = g.sorted { $0.yPelHeight < $1.yPelHeight }
            try w.u16(sorted.count, "VDMX height count")
            try w.u8(Int(sorted.first?.yPelHeight ?? 0), "VDMX startsz"); try w.u8(Int(sorted.last?.yPelHeight ?? 0), "VDMX endsz")
            for h in sorted { w.u16(h.yPelHeight); w.i16(h.yMax); w.i16(h.yMin) }
        }
        return w.bytes
    }

    public func differences(to other: FontTable) -> [Difference]? {
        guard let other = other as? VDMXTable else { return nil }
        func items(_ t: VDMXTable) -> [(String, String)] {
            [("version", "\(t.version)")]
                + t.ratios.enumerated().map {
                    (
                        "ratio \($0.offset)",
                        "charset \($0.element.charSet), \($0.element.xRatio):\($0.element.yStartRatio)–\($0.element.yEndRatio), group \($0.element.group)"
                    )
                }
                + t.groups.enumerated().flatMap { k, g in
                    g.map { ("group \(k) height \($0.yPelHeight)", "yMax \($0.yMax), yMin \($0.yMin)") }
                }
        }
        return Difference.keyed(table: "VDMX", items(self), items(other))
    }
}
