#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What kind of file a Font came from.
public enum FontFormat: String, Sendable {
    case trueType = "TrueType"
    case cff = "OpenType CFF"
    case collection = "collection"
}

/// A font file: one sfnt face, or a collection of faces that may share tables.
/// Opening reads only the header and the table directories; tables decode on first use.
public final class Font {
    public let path: String?
    public let bytes: FontBytes
    public let format: FontFormat
    public let faces: [Face]
    /// `ttcf` header version (0x00010000 or 0x00020000) for collections, nil for a single face.
    public let collectionVersion: UInt32?
    /// "woff" or "woff2" when the file was a web font (`bytes` then holds the sfnt or TTC it
    /// wraps), nil for an sfnt.
    public let webFormat: String?
    /// The web file's metadata and private data, written again when saving as WOFF or WOFF2.
    public var webExtras: WebFontExtras?

    /// Tables holding glyph data, shared by the faces of a collection: one object per file offset,
    /// so an edit through any face is seen by every face using the table and it stays shared.
    public static let sharedEditTags: Set<Tag> = ["glyf", "loca", "hmtx", "vmtx", "CFF ", "CFF2", "gvar", "VORG"]

    /// Maps the file at `path` (nothing is read until a table is used).
    public convenience init(path: String) throws {
        try self.init(bytes: FontBytes(mapping: path), path: path)
    }

    /// Opens a font held in memory.
    public convenience init(data: [UInt8], name: String? = nil) throws {
        try self.init(bytes: FontBytes(data), path: name)
    }

    public init(bytes source: FontBytes, path: String?) throws {
        self.path = path
        // A web font is read as the sfnt it wraps: every table decompressed once, here.
        var bytes = source
        let magic = source.count >= 4 ? try? source.reader(0..<4).u32(at: 0) : nil
        if magic == WOFF.signature || magic == WOFF2.signature {
            let woff2 = magic == WOFF2.signature
            let (sfnt, extras) = try withContext(path: path) {
                woff2 ? try WOFF2.decode(BinaryReader(source.buffer)) : try WOFF.decode(BinaryReader(source.buffer))
            }
            bytes = FontBytes(sfnt)
            webFormat = woff2 ? "woff2" : "woff"
            webExtras = extras
        } else {
            webFormat = nil
            webExtras = nil
        }
        self.bytes = bytes
        let (offsets, version) = try withContext(path: path) { try Font.readHeader(bytes) }
        collectionVersion = version
        var sharedSlots: [Int: TableSlot] = [:]
        var faces: [Face] = []
        var claimed: [TableClaim] = []
        for (i, offset) in offsets.enumerated() {
            let faceIndex = version == nil ? nil : i
            let face = try withContext(path: path, face: faceIndex) {
                try Face(
                    offset: offset, index: i, bytes: bytes, path: path,
                    sharedSlots: &sharedSlots, claimed: &claimed)
            }
            faces.append(face)
        }
        self.faces = faces
        try withContext(path: path) { try Font.checkOverlaps(claimed, directories: Font.directoryRanges(bytes, offsets)) }
        if version != nil {
            format = .collection
        } else {
            format = faces[0].sfntVersion == Face.cffVersion ? .cff : .trueType
        }
        for face in faces { face.font = self }
    }

    public var isCollection: Bool { collectionVersion != nil }

    /// The face whose PostScript name (or full name) is `name`.
    public func face(named name: String) -> Face? {
        faces.first { (try? $0.postScriptName) == name } ?? faces.first { (try? $0.fullName) == name }
    }

    // MARK: reading the header

    /// Face offsets and, for a collection, its version. Unsupported formats are named.
    static func readHeader(_ bytes: FontBytes) throws -> ([Int], UInt32?) {
        guard bytes.count >= 4 else {
            throw FontError("file is too short to be a font (\(bytes.count) bytes)", offset: 0)
        }
        var r = bytes.reader(0..<min(bytes.count, 16))
        let magic = try r.u32()
        switch magic {
        case 0x0001_0000, Face.cffVersion, 0x7472_7565 /* true */:
            return ([0], nil)
        case 0x7474_6366:   // ttcf
            let version = try r.u32()
            guard version == 0x0001_0000 || version == 0x0002_0000 else {
                throw FontError("unknown collection version 0x\(String(version, radix: 16))", offset: 4)
            }
            let count = Int(try r.u32())
            guard count > 0, count <= (bytes.count - 12) / 4 else {
                throw FontError("collection claims \(count) faces, more than the file can hold", offset: 8)
            }
            var table = bytes.reader(12..<12 + 4 * count)
            var offsets: [Int] = []
            for _ in 0..<count { offsets.append(Int(try table.u32())) }
            return (offsets, version)
        case 0x0000_0100: throw FontError("Mac resource-fork fonts (dfont) are not supported yet")
        case 0x7479_7031: throw FontError("'typ1' sfnt-wrapped Type 1 fonts are not supported yet")
        case 0x4F54_544F: return ([0], nil)
        default:
            let prefix = Array(r.bytes.prefix(16))
            if prefix.starts(with: Array("%!PS-AdobeFont".utf8)) || prefix.starts(with: Array("%!FontType1".utf8))
                || prefix.starts(with: [0x80, 0x01])
            {
                throw FontError("PostScript Type 1 fonts are not supported yet")
            }
            throw FontError(
                "not a TrueType/OpenType font or collection (starts with 0x\(String(magic, radix: 16, uppercase: true)))", offset: 0)
        }
    }

    /// The collection header and each face's table directory: no table may overlap them. (A
    /// collection may put a face's directory after another face's tables, as fontTools does.)
    static func directoryRanges(_ bytes: FontBytes, _ offsets: [Int]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        if (try? bytes.reader(0..<4).u32(at: 0)) == 0x7474_6366 { ranges.append(0..<12 + 4 * offsets.count) }
        for o in offsets {
            // Every face's directory was read when its face was made, so these reads are inside the file.
            let n = (try? bytes.reader(o + 4..<o + 6).u16(at: 0)).map(Int.init) ?? 0
            ranges.append(o..<o + 12 + 16 * n)
        }
        return ranges
    }

    /// Refuses tables that overlap a directory or each other (shared offsets are fine).
    static func checkOverlaps(_ claimed: [TableClaim], directories: [Range<Int>]) throws {
        // The directories merged into sorted, disjoint spans, searched by halving: faces of a
        // collection often share one directory, and a linear scan per table was quadratic in
        // the face count.
        var spans: [Range<Int>] = []
        for d in directories.sorted(by: { $0.lowerBound < $1.lowerBound }) where !d.isEmpty {
            if let last = spans.last, d.lowerBound <= last.upperBound {
                spans[spans.count - 1] = last.lowerBound..<max(last.upperBound, d.upperBound)
            } else {
                spans.append(d)
            }
        }
        func directory(overlapping range: Range<Int>) -> Range<Int>? {
            var low = 0, high = spans.count   // the first span ending after range starts
            while low < high {
                let mid = (low + high) / 2
                if spans[mid].upperBound <= range.lowerBound { low = mid + 1 } else { high = mid }
            }
            return low < spans.count && spans[low].overlaps(range) ? spans[low] : nil
        }
        for c in claimed where !c.range.isEmpty {
            if let d = directory(overlapping: c.range) {
                throw FontError(
                    "table data (\(c.range.lowerBound)..<\(c.range.upperBound)) overlaps the table directory at \(d.lowerBound)..<\(d.upperBound)",
                    face: c.face, table: c.tag.description, offset: c.range.lowerBound)
            }
        }
        var distinct: [Int: TableClaim] = [:]
        for c in claimed where !c.range.isEmpty {
            if let other = distinct[c.range.lowerBound], other.range != c.range, other.tag != c.tag {
                throw FontError(
                    "table overlaps '\(other.tag)' at the same offset", face: c.face, table: c.tag.description, offset: c.range.lowerBound)
            }
            distinct[c.range.lowerBound] = c
        }
        let sorted = distinct.values.sorted { $0.range.lowerBound < $1.range.lowerBound }
        for (a, b) in zip(sorted, sorted.dropFirst()) where a.range.upperBound > b.range.lowerBound {
            throw FontError(
                "table data (\(a.range.lowerBound)..<\(a.range.upperBound)) overlaps table '\(b.tag)' at \(b.range.lowerBound)",
                face: a.face, table: a.tag.description, offset: b.range.lowerBound)
        }
    }
}

/// A table's bytes as a face's directory places them, for the overlap check. A struct rather
/// than a tuple: an array of tuples holding a Range has its type built from its mangled name at
/// run time, a scan of the runtime's conformance records at every start.
struct TableClaim {
    let range: Range<Int>
    let tag: Tag
    let face: Int
}
