/// What every typed table is, and the one list of them by tag. Adding a table: write its type
/// in `Tables/` (a `FieldTable` or `StructuredTable` subclass gets Lua, XML and diff from its
/// description), then add it to `TableRegistry.types` below (docs/architecture.md).

/// Anything that lives in a table slot and can be re-encoded when edited.
public protocol FontTable: AnyObject {
    /// True once anything in the table changed since it was read.
    var isEdited: Bool { get }
    func encode() throws -> [UInt8]
    /// The encoding as pieces, so large unchanged runs can be copied from the file (glyf, CFF).
    func encodeChunks() throws -> [ByteChunk]
    /// What of the table was re-encoded, for the save report ("lookups 3, 5 changed"); nil
    /// says nothing beyond the tag.
    var encodingSummary: String? { get }
}

extension FontTable {
    public var encodingSummary: String? { nil }

    /// Tables that can borrow most of their bytes from the file (glyf, CFF) implement their own.
    public func encodeChunks() throws -> [ByteChunk] { [.owned(try encode())] }
}

/// A table kept by hand in the model (for speed, or for the instancer) that also has a
/// description: dumps and fusing read and write it through the description, as they do a
/// `StructuredTable` (HVAR, VVAR). The escape hatch the other way round: the description is
/// the table's public face, the hand-written type its fast path.
public protocol ShapeDescribed {
    static var shape: Shape { get }
    /// Whether these bytes can be read by the description (what it cannot say: MVAR's records
    /// longer than 8 bytes); when not, the table is dumped as hexdata.
    static func isDescribable(_ reader: BinaryReader) -> Bool
}

extension ShapeDescribed {
    public static func isDescribable(_ reader: BinaryReader) -> Bool { true }
}

/// A table that can be decoded from its bytes in the context of its face.
public protocol DecodableTable: FontTable {
    static var tableTag: Tag { get }
    static func decode(_ reader: BinaryReader, face: Face) throws -> Self
    /// Called once after decoding with the bytes the table was read from. Tables that keep
    /// reading them lazily (glyphs, charstrings) hold on to them, so they outlive their Font
    /// and Face; the rest ignore them. A requirement rather than a protocol to cast to: a cast
    /// that fails scans every conformance in the program, once per table type per process.
    func keepSource(_ bytes: FontBytes)
    /// The table as `ShapeDescribed` (HVAR …), nil for the rest. A requirement for the same
    /// reason: asking every type with `is ShapeDescribed.Type` took 12M instructions, a third
    /// of a `fontshell -e` start.
    static var shapeDescribed: ShapeDescribed.Type? { get }
}

extension DecodableTable {
    public func keepSource(_ bytes: FontBytes) {}
    public static var shapeDescribed: ShapeDescribed.Type? { nil }
}

extension DecodableTable where Self: ShapeDescribed {
    public static var shapeDescribed: ShapeDescribed.Type? { Self.self }
}

extension FieldTable: DecodableTable {
    public static func decode(_ reader: BinaryReader, face: Face) throws -> Self {
        try self.init(reader: reader)
    }
}

/// Every table FontShell decodes, by tag. Tables not listed are kept as bytes (and dumped as
/// hex), which is also what happens to a listed table that fails to decode when only its
/// bytes are needed.
public enum TableRegistry {
    /// In the order the documentation lists them.
    public static let types: [any DecodableTable.Type] = [
        HeadTable.self, HheaTable.self, VheaTable.self, MaxpTable.self, OS2Table.self, PostTable.self,
        NameTable.self, CmapTable.self, HmtxTable.self, VmtxTable.self, LocaTable.self, GlyfTable.self,
        CFFTable.self, CFF2Table.self, GvarTable.self,
        GDEFTable.self, GSUBTable.self, GPOSTable.self, KernTable.self, MATHTable.self, BASETable.self, JSTFTable.self,
        FvarTable.self, AvarTable.self, STATTable.self, HvarTable.self, VvarTable.self, MvarTable.self, CvarTable.self, ColrTable.self,
        CvtTable.self, FpgmTable.self, PrepTable.self, GaspTable.self, DSIGTable.self, FFTMTable.self, VORGTable.self, CPALTable.self,
        EBLCTable.self, EBDTTable.self, CBLCTable.self, CBDTTable.self, BlocTable.self, BdatTable.self, BhedTable.self, TTFATable.self,
        LtagTable.self,
        FeatureNameTable.self, MorxTable.self, MortTable.self, CIDToGlyphTable.self, GlyphToCIDTable.self, AnchorPointsTable.self,
        TrakTable.self, GlyphPropertiesTable.self,
        OpticalBoundsTable.self,
        LigatureCaretsTable.self, BaselineTable.self, EBSCTable.self, MetaTable.self, SVGTable.self, SbixTable.self, HdmxTable.self,
        LTSHTable.self, VDMXTable.self, FeatTable.self, SillTable.self, GlocTable.self, GlatTable.self, SilfTable.self,
        TSI0Table.self, TSI1Table.self, TSI2Table.self, TSI3Table.self, TSI5Table.self,
        TSIVTable.self, TSIBTable.self, TSIDTable.self, TSIJTable.self, TSIPTable.self, TSISTable.self, TSICTable.self,
    ]

    static let byTag: [Tag: any DecodableTable.Type] = Dictionary(uniqueKeysWithValues: types.map { ($0.tableTag, $0) })

    public static func type(for tag: Tag) -> (any DecodableTable.Type)? { byTag[tag] }

    /// Tables of fixed fields (head, hhea …): `face.hhea.ascender` in Lua, one element per field in XML.
    public static let fieldTableTags: [Tag] = types.filter { $0 is FieldTable.Type }.map { $0.tableTag }

    /// Tables described as records, offsets and arrays (GDEF …).
    public static let structuredTags: [Tag] = types.filter { $0 is StructuredTable.Type }.map { $0.tableTag }

    /// Hand-written tables that have a description for XML (`ShapeDescribed`).
    public static let shapeDescribedTags: [Tag] = types.filter { $0.shapeDescribed != nil && !($0 is StructuredTable.Type) }.map {
        $0.tableTag
    }

    /// Tables reachable by name from Lua and field paths: the field tables, then the structured ones.
    public static var describedTags: [Tag] { fieldTableTags + structuredTags }
}
