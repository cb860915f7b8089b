/// `MVAR`, metrics variations for font-wide values: each record names a metric by tag ('xhgt'
/// is OS/2.sxHeight) and the ItemVariationStore item whose deltas move it. Read-only;
/// instancing applies the deltas to the tables they name and drops it.
public final class MvarTable: DecodableTable {
    public static let tableTag: Tag = "MVAR"

    public struct Record: Sendable {
        public var tag: Tag
        public var outer: Int
        public var inner: Int
    }

    public let records: [Record]
    public let store: ItemVariationStore?
    public var isEdited: Bool { false }
    let bytes: [UInt8]

    /// The table and field each MVAR tag moves (the spec's value tags; 'gsp0'… for gasp are
    /// left alone: gasp ranges are not metrics a static font keeps varying).
    public static let targets: [Tag: (table: Tag, field: String)] = [
        "hasc": ("OS/2", "sTypoAscender"), "hdsc": ("OS/2", "sTypoDescender"), "hlgp": ("OS/2", "sTypoLineGap"),
        "hcla": ("OS/2", "usWinAscent"), "hcld": ("OS/2", "usWinDescent"),
        "vasc": ("vhea", "ascent"), "vdsc": ("vhea", "descent"), "vlgp": ("vhea", "lineGap"),
        "hcrs": ("hhea", "caretSlopeRise"), "hcrn": ("hhea", "caretSlopeRun"), "hcof": ("hhea", "caretOffset"),
        "vcrs": ("vhea", "caretSlopeRise"), "vcrn": ("vhea", "caretSlopeRun"), "vcof": ("vhea", "caretOffset"),
        "xhgt": ("OS/2", "sxHeight"), "cpht": ("OS/2", "sCapHeight"),
        "sbxs": ("OS/2", "ySubscriptXSize"), "sbys": ("OS/2", "ySubscriptYSize"),
        "sbxo": ("OS/2", "ySubscriptXOffset"), "sbyo": ("OS/2", "ySubscriptYOffset"),
        "spxs": ("OS/2", "ySuperscriptXSize"), "spys": ("OS/2", "ySuperscriptYSize"),
        "spxo": ("OS/2", "ySuperscriptXOffset"), "spyo": ("OS/2", "ySuperscriptYOffset"),
        "strs": ("OS/2", "yStrikeoutSize"), "stro": ("OS/2", "yStrikeoutPosition"),
        "unds": ("post", "underlineThickness"), "undo": ("post", "underlinePosition"),
    ]

    init(records: [Record], store: ItemVariationStore?, bytes: [UInt8]) {
        self.records = records; self.store = store; self.bytes = bytes
    }

    public static func decode(_ reader: BinaryReader, face: Face) throws -> MvarTable {
        var r = reader
        let major = try r.u16()
        _ = try r.u16()
        guard major == 1 else { throw r.error("MVAR major version \(major) is not 1", at: 0) }
        try r.skip(2)
        let recordSize = Int(try r.u16()), count = Int(try r.u16()), storeOffset = Int(try r.u16())
        guard recordSize >= 8 else { throw r.error("MVAR value records are \(recordSize) bytes; at least 8 expected", at: 6) }
        _ = try reader.sub(12, count * recordSize)
        var records: [Record] = []
        for i in 0..<count {
            var e = try reader.sub(12 + i * recordSize, recordSize)
            records.append(Record(tag: try e.tag(), outer: Int(try e.u16()), inner: Int(try e.u16())))
        }
        let axisCount = try face.table(FvarTable.self)?.axes.count ?? 0
        let store = storeOffset == 0 ? nil : try ItemVariationStore(reader, at: storeOffset, axisCount: axisCount, what: "MVAR")
        return MvarTable(records: records, store: store, bytes: Array(reader.bytes))
    }

    public func encode() throws -> [UInt8] { bytes }
}

extension MvarTable: ShapeDescribed {
    /// As fontTools' otData: value records of 8 bytes (a longer ValueRecordSize is kept as hexdata).
    // swift-format-ignore
    public static let shape: Shape = .record(FontModel.Record("MVAR", [
        Member("Version", .scalar(.version32), ttx: .hex8),
        Member("Reserved", .scalar(.uint16)),
        Member("ValueRecordSize", .scalar(.uint16)),
        Member("ValueRecordCount", .scalar(.uint16)),
        Member("VarStore", .offset16(.record(GDEFTable.variationStore))),
        Member("ValueRecord", .record(FontModel.Record("ValueRecord", [
            Member("ValueTag", .scalar(.tag)),
            Member("VarIdx", .scalar(.uint32)),
        ])), count: "ValueRecordCount"),
    ]))

    public static func isDescribable(_ reader: BinaryReader) -> Bool { (try? reader.u16(at: 6)) == 8 }
}
