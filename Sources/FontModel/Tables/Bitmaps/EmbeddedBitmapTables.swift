/// EBLC/EBDT, CBLC/CBDT and Apple's bloc/bdat as the registry lists them. A table of a pair is
/// never read alone: decoding one reads both (`EmbeddedBitmaps.read`), which is how `validate`
/// finds damage in either, and `diff` compares the pair once. Edits go through `EmbeddedBitmaps.write(to:)`,
/// which replaces both tables' bytes, so these keep the bytes they were read from.
public protocol EmbeddedBitmapsPart: DecodableTable, FaceDiffableTable {
    static var kind: EmbeddedBitmaps.Kind { get }
    var bytes: [UInt8] { get }
    init(bytes: [UInt8])
}

extension EmbeddedBitmapsPart {
    public static func decode(_ reader: BinaryReader, face: Face) throws -> Self {
        _ = try EmbeddedBitmaps.read(from: face, kind)
        return Self(bytes: Array(reader.bytes))
    }
    public var isEdited: Bool { false }
    public func encode() throws -> [UInt8] { bytes }
    public static var diffGroup: Tag { kind.dataTag }
    public static func differences(_ a: Face, _ b: Face) throws -> [Difference] { try EmbeddedBitmapsDiff.compare(a, b, kind) }
}

// Six small types alike but for tag and kind, on purpose: the registry knows a table by its type.
public final class EBLCTable: EmbeddedBitmapsPart {
    public static let tableTag: Tag = "EBLC", kind = EmbeddedBitmaps.Kind.monochrome
    public let bytes: [UInt8]
    public init(bytes: [UInt8]) { self.bytes = bytes }
}

public final class EBDTTable: EmbeddedBitmapsPart {
    public static let tableTag: Tag = "EBDT", kind = EmbeddedBitmaps.Kind.monochrome
    public let bytes: [UInt8]
    public init(bytes: [UInt8]) { self.bytes = bytes }
}

public final class CBLCTable: EmbeddedBitmapsPart {
    public static let tableTag: Tag = "CBLC", kind = EmbeddedBitmaps.Kind.color
    public let bytes: [UInt8]
    public init(bytes: [UInt8]) { self.bytes = bytes }
}

public final class CBDTTable: EmbeddedBitmapsPart {
    public static let tableTag: Tag = "CBDT", kind = EmbeddedBitmaps.Kind.color
    public let bytes: [UInt8]
    public init(bytes: [UInt8]) { self.bytes = bytes }
}

public final class BlocTable: EmbeddedBitmapsPart {
    public static let tableTag: Tag = "bloc", kind = EmbeddedBitmaps.Kind.apple
    public let bytes: [UInt8]
    public init(bytes: [UInt8]) { self.bytes = bytes }
}

public final class BdatTable: EmbeddedBitmapsPart {
    public static let tableTag: Tag = "bdat", kind = EmbeddedBitmaps.Kind.apple
    public let bytes: [UInt8]
    public init(bytes: [UInt8]) { self.bytes = bytes }
}
