/// Embedded bitmap strikes, read and written as a pair of tables: a location table (EBLC, or
/// CBLC for colour) lists per strike (one ppem size) which glyphs have a bitmap and where its
/// data lies, and a data table (EBDT, or CBDT) holds the data: metrics, then bits, a PNG
/// (CBDT formats 17–19) or components. Neither table can be read or written without the
/// other, so both are one value here. Written back in fontTools' layout (data in strike and
/// index-subtable order; offsets, index sizes and glyph ranges recomputed).
public struct EmbeddedBitmaps: Equatable, Sendable {
    /// Which pair of tables.
    public enum Kind: Sendable {
        /// EBLC/EBDT; CBLC/CBDT; and Apple's bloc/bdat, EBLC/EBDT under their original tags.
        case monochrome, color, apple
        public var locatorTag: Tag {
            switch self {
            case .monochrome: "EBLC"
            case .color: "CBLC"
            case .apple: "bloc"
            }
        }
        public var dataTag: Tag {
            switch self {
            case .monochrome: "EBDT"
            case .color: "CBDT"
            case .apple: "bdat"
            }
        }
        /// Image formats the data table may hold.
        public var imageFormats: Set<UInt16> { self == .color ? [1, 2, 5, 6, 7, 8, 9, 17, 18, 19] : [1, 2, 5, 6, 7, 8, 9] }
    }

    public var kind: Kind
    /// 16.16 versions of the two tables (2.0 for EBLC/EBDT, 3.0 for CBLC/CBDT).
    public var locatorVersion: UInt32
    public var dataVersion: UInt32
    public var strikes: [Strike]

    public init(kind: Kind, locatorVersion: UInt32, dataVersion: UInt32, strikes: [Strike]) {
        self.kind = kind; self.locatorVersion = locatorVersion; self.dataVersion = dataVersion; self.strikes = strikes
    }

    /// One size: its line metrics, glyph ranges and bitmaps.
    public struct Strike: Equatable, Sendable {
        public var hori: ByteRecord
        public var vert: ByteRecord
        public var colorRef: UInt32
        /// As read; recomputed from the index subtables when written.
        public var startGlyphIndex: UInt16
        public var endGlyphIndex: UInt16
        public var ppemX: UInt8
        public var ppemY: UInt8
        public var bitDepth: UInt8
        /// 1: horizontal metrics, 2: vertical.
        public var flags: Int8
        public var indexSubtables: [IndexSubtable]
        /// Each glyph's bitmap, by glyph id, in the order the index subtables first list them.
        public var glyphOrder: [UInt16]
        public var glyphs: [UInt16: BitmapGlyph]

        public init(
            hori: ByteRecord, vert: ByteRecord, colorRef: UInt32 = 0, startGlyphIndex: UInt16 = 0, endGlyphIndex: UInt16 = 0, ppemX: UInt8,
            ppemY: UInt8,
            bitDepth: UInt8, flags: Int8, indexSubtables: [IndexSubtable] = [], glyphOrder: [UInt16] = [],
            glyphs: [UInt16: BitmapGlyph] = [:]
        ) {
            self.hori = hori; self.vert = vert; self.colorRef = colorRef; self.startGlyphIndex = startGlyphIndex;
            self.endGlyphIndex = endGlyphIndex
            self.ppemX = ppemX; self.ppemY = ppemY; self.bitDepth = bitDepth; self.flags = flags
            self.indexSubtables = indexSubtables; self.glyphOrder = glyphOrder; self.glyphs = glyphs
        }
    }

    /// A run of glyphs whose data has one image format, located one way (index formats 1–5).
    public struct IndexSubtable: Equatable, Sendable {
        public var indexFormat: UInt16
        public var imageFormat: UInt16
        /// As read; recomputed from the glyph ids when written.
        public var firstGlyphIndex: UInt16
        public var lastGlyphIndex: UInt16
        /// Formats 2 and 5: every image has this size (shorter data is padded).
        public var imageSize: UInt32?
        /// Formats 2 and 5: the metrics all the glyphs share (big metrics).
        public var metrics: ByteRecord?
        /// The glyphs with a bitmap here, in order (glyphs with empty data are left out).
        public var glyphIDs: [UInt16]

        public init(
            indexFormat: UInt16, imageFormat: UInt16, firstGlyphIndex: UInt16 = 0, lastGlyphIndex: UInt16 = 0, imageSize: UInt32? = nil,
            metrics: ByteRecord? = nil, glyphIDs: [UInt16]
        ) {
            self.indexFormat = indexFormat; self.imageFormat = imageFormat; self.firstGlyphIndex = firstGlyphIndex;
            self.lastGlyphIndex = lastGlyphIndex
            self.imageSize = imageSize; self.metrics = metrics; self.glyphIDs = glyphIDs
        }
    }

    /// One glyph's bitmap data.
    public struct BitmapGlyph: Equatable, Sendable {
        public var imageFormat: UInt16
        /// Small metrics (formats 1, 2, 8, 17) or big (6, 7, 9, 18); none for 5 and 19.
        public var metrics: ByteRecord?
        /// The image: bits (formats 1–7) or a PNG (17–19); empty for composites.
        public var imageData: [UInt8]
        /// Formats 8 and 9: other glyphs' bitmaps placed at offsets.
        public var components: [Component]

        public init(imageFormat: UInt16, metrics: ByteRecord? = nil, imageData: [UInt8] = [], components: [Component] = []) {
            self.imageFormat = imageFormat; self.metrics = metrics; self.imageData = imageData; self.components = components
        }

        public struct Component: Equatable, Sendable {
            public var glyph: UInt16
            public var xOffset: Int8
            public var yOffset: Int8
            public init(glyph: UInt16, xOffset: Int8, yOffset: Int8) { self.glyph = glyph; self.xOffset = xOffset; self.yOffset = yOffset }
        }

        /// The metrics record this image format carries, if any.
        public static func metricsLayout(_ format: UInt16) -> ByteRecord.Layout? {
            switch format {
            case 1, 2, 8, 17: .smallGlyphMetrics
            case 6, 7, 9, 18: .bigGlyphMetrics
            default: nil
            }
        }
    }

    /// A record of byte-sized numbers (line metrics, glyph metrics), named as fontTools names them.
    public struct ByteRecord: Equatable, Sendable {
        public enum Layout: Sendable {
            case lineMetrics, smallGlyphMetrics, bigGlyphMetrics
            public var names: [String] {
                switch self {
                case .lineMetrics:
                    [
                        "ascender", "descender", "widthMax", "caretSlopeNumerator", "caretSlopeDenominator", "caretOffset",
                        "minOriginSB", "minAdvanceSB", "maxBeforeBL", "minAfterBL", "pad1", "pad2",
                    ]
                case .smallGlyphMetrics: ["height", "width", "BearingX", "BearingY", "Advance"]
                case .bigGlyphMetrics:
                    ["height", "width", "horiBearingX", "horiBearingY", "horiAdvance", "vertBearingX", "vertBearingY", "vertAdvance"]
                }
            }
            /// Which fields are uint8 (the others int8).
            public var unsigned: [Bool] {
                switch self {
                case .lineMetrics: [false, false, true] + Array(repeating: false, count: 9)
                case .smallGlyphMetrics: [true, true, false, false, true]
                case .bigGlyphMetrics: [true, true, false, false, true, false, false, true]
                }
            }
            public var xmlName: String {
                switch self {
                case .lineMetrics: "sbitLineMetrics"
                case .smallGlyphMetrics: "SmallGlyphMetrics"
                case .bigGlyphMetrics: "BigGlyphMetrics"
                }
            }
            public func range(_ field: Int) -> ClosedRange<Int> { unsigned[field] ? 0...255 : -128...127 }
        }
        public let layout: Layout
        public var values: [Int]

        public init(_ layout: Layout, values: [Int]) { self.layout = layout; self.values = values }

        static func read(_ layout: Layout, _ r: inout BinaryReader) throws -> ByteRecord {
            ByteRecord(layout, values: try layout.unsigned.map { $0 ? Int(try r.u8()) : Int(try r.i8()) })
        }

        func write(_ w: inout BinaryWriter) throws {
            for (i, v) in values.enumerated() {
                guard layout.range(i).contains(v) else {
                    throw FontError("\(layout.xmlName) \(layout.names[i]) = \(v) does not fit a byte (\(layout.range(i)))")
                }
                w.u8(UInt8(truncatingIfNeeded: v))
            }
        }
    }

    // MARK: reading

    /// The face's strikes of one kind, or nil when it has neither table. A face with one of
    /// the pair and not the other is an error.
    public static func read(from face: Face, _ kind: Kind) throws -> EmbeddedBitmaps? {
        let locator = try face.reader(for: kind.locatorTag), data = try face.reader(for: kind.dataTag)
        if locator == nil && data == nil { return nil }
        guard let locator else {
            throw FontError("the face has \(kind.dataTag) but no \(kind.locatorTag) to locate its bitmaps", table: kind.dataTag.description)
        }
        guard let data else {
            throw FontError(
                "the face has \(kind.locatorTag) but no \(kind.dataTag) holding its bitmaps", table: kind.locatorTag.description)
        }
        let strikes = try face.context(kind.locatorTag) { try readLocations(locator) }
        var bitmaps = EmbeddedBitmaps(kind: kind, locatorVersion: strikes.version, dataVersion: 0, strikes: [])
        try face.context(kind.dataTag) {
            var r = data
            bitmaps.dataVersion = try r.u32()
            bitmaps.strikes = try strikes.located.map { try readGlyphs($0.strike, $0.ranges, data, kind) }
        }
        return bitmaps
    }

    /// A strike as the location table gives it, with each glyph's byte range in the data table.
    typealias Located = (strike: Strike, ranges: [[Range<Int>]])

    /// Index subtables and glyph entries one table may hold, all strikes together. Strikes and
    /// subtables can share their bytes, so a small damaged table could otherwise ask for
    /// billions (real fonts: Noto Color Emoji 3,500, WenQuanYi Zen Hei about 190,000).
    static let entryLimit = 1 << 22

    static func readLocations(_ table: BinaryReader) throws -> (version: UInt32, located: [Located]) {
        var r = table
        var entries = 0
        let version = try r.u32(), count = Int(try r.u32())
        guard count <= (table.count - 8) / 48 else {
            throw table.error("\(count) strike records (48 bytes each) do not fit the table (\(table.count) bytes)", at: 4)
        }
        var located: [Located] = []
        for _ in 0..<count {
            let arrayOffset = Int(try r.u32())
            _ = try r.u32()   // indexTablesSize: recomputed
            let subtableCount = Int(try r.u32()), colorRef = try r.u32()
            let hori = try ByteRecord.read(.lineMetrics, &r), vert = try ByteRecord.read(.lineMetrics, &r)
            let start = try r.u16(), end = try r.u16(), ppemX = try r.u8(), ppemY = try r.u8(), bitDepth = try r.u8(), flags = try r.i8()
            guard subtableCount <= table.count / 8 else {
                throw table.error("\(subtableCount) index subtables do not fit the table", at: r.offset - 40)
            }
            var subtables: [IndexSubtable] = [], ranges: [[Range<Int>]] = []
            for k in 0..<subtableCount {
                var entry = table
                try entry.seek(arrayOffset + 8 * k)
                let first = try entry.u16(), last = try entry.u16(), additional = Int(try entry.u32())
                var sub = table
                try sub.seek(arrayOffset + additional)
                let (subtable, glyphRanges) = try readIndexSubtable(&sub, first: first, last: last)
                entries += 1 + subtable.glyphIDs.count
                guard entries <= entryLimit else {
                    throw table.error(
                        "more than \(entryLimit) index subtables and glyph entries: the table is damaged", at: arrayOffset + 8 * k)
                }
                subtables.append(subtable); ranges.append(glyphRanges)
            }
            let strike = Strike(
                hori: hori, vert: vert, colorRef: colorRef, startGlyphIndex: start, endGlyphIndex: end, ppemX: ppemX, ppemY: ppemY,
                bitDepth: bitDepth, flags: flags, indexSubtables: subtables, glyphOrder: [], glyphs: [:])
            located.append((strike, ranges))
        }
        return (version, located)
    }

    /// One index subtable at the reader's position: the glyphs it lists and their data ranges.
    static func readIndexSubtable(_ r: inout BinaryReader, first: UInt16, last: UInt16) throws -> (IndexSubtable, [Range<Int>]) {
        let at = r.offset
        let indexFormat = try r.u16(), imageFormat = try r.u16(), dataOffset = Int(try r.u32())
        var subtable = IndexSubtable(
            indexFormat: indexFormat, imageFormat: imageFormat, firstGlyphIndex: first, lastGlyphIndex: last,
            imageSize: nil, metrics: nil, glyphIDs: [])
        var ranges: [Range<Int>] = []
        func rangeError(_ a: Int, _ b: Int) -> FontError { r.error("an index subtable's glyph data runs backwards (\(a) to \(b))", at: at) }
        switch indexFormat {
        case 1, 3:
            guard first <= last else {
                throw r.error("index subtable format \(indexFormat): glyphs \(first)…\(last) run backwards", at: at)
            }
            let n = Int(last) - Int(first) + 1
            let offsets = try (0...n).map { _ in indexFormat == 1 ? Int(try r.u32()) : Int(try r.u16()) }
            for i in 0..<n where offsets[i] != offsets[i + 1] {
                // fontTools leaves out glyphs whose data is empty (or runs backwards).
                guard offsets[i] < offsets[i + 1] else { continue }
                subtable.glyphIDs.append(first + UInt16(i))
                ranges.append(dataOffset + offsets[i]..<dataOffset + offsets[i + 1])
            }
        case 2, 5:
            let size = try r.u32()
            subtable.imageSize = size
            subtable.metrics = try ByteRecord.read(.bigGlyphMetrics, &r)
            if indexFormat == 2 {
                guard first <= last else { throw r.error("index subtable format 2: glyphs \(first)…\(last) run backwards", at: at) }
                subtable.glyphIDs = Array(first...last)
            } else {
                let count = Int(try r.u32())
                guard count <= r.remaining / 2 else {
                    throw r.error("index subtable format 5: \(count) glyphs do not fit the table", at: at)
                }
                subtable.glyphIDs = try (0..<count).map { _ in try r.u16() }
            }
            ranges = subtable.glyphIDs.indices.map { dataOffset + $0 * Int(size)..<dataOffset + ($0 + 1) * Int(size) }
        case 4:
            let count = Int(try r.u32())
            guard count < r.remaining / 4 else { throw r.error("index subtable format 4: \(count) glyphs do not fit the table", at: at) }
            var pairs: [(UInt16, Int)] = []
            for _ in 0...count { pairs.append((try r.u16(), Int(try r.u16()))) }
            for i in 0..<count {
                guard pairs[i].1 <= pairs[i + 1].1 else { throw rangeError(pairs[i].1, pairs[i + 1].1) }
                subtable.glyphIDs.append(pairs[i].0)
                ranges.append(dataOffset + pairs[i].1..<dataOffset + pairs[i + 1].1)
            }
        default:
            throw r.error("index subtable format \(indexFormat) is not defined (1–5 are)", at: at)
        }
        return (subtable, ranges)
    }

    /// Reads each located glyph's data, as fontTools keeps it: one bitmap per glyph per strike.
    static func readGlyphs(_ strike: Strike, _ ranges: [[Range<Int>]], _ data: BinaryReader, _ kind: Kind) throws -> Strike {
        var strike = strike
        var decoded: [Range<Int>: BitmapGlyph] = [:]
        for (subtable, glyphRanges) in zip(strike.indexSubtables, ranges) {
            guard kind.imageFormats.contains(subtable.imageFormat) else {
                throw FontError("image format \(subtable.imageFormat) is not defined for \(kind.dataTag)")
            }
            for (glyph, range) in zip(subtable.glyphIDs, glyphRanges) {
                let bitmap: BitmapGlyph
                if let known = decoded[range] {
                    bitmap = known
                } else {
                    var r = try data.sub(range.lowerBound, range.count)
                    bitmap = try readGlyph(&r, format: subtable.imageFormat)
                    decoded[range] = bitmap
                }
                if strike.glyphs.updateValue(bitmap, forKey: glyph) == nil { strike.glyphOrder.append(glyph) }
            }
        }
        return strike
    }

    static func readGlyph(_ r: inout BinaryReader, format: UInt16) throws -> BitmapGlyph {
        var glyph = BitmapGlyph(imageFormat: format, metrics: nil, imageData: [], components: [])
        if let layout = BitmapGlyph.metricsLayout(format) { glyph.metrics = try .read(layout, &r) }
        switch format {
        case 8, 9:
            if format == 8 { try r.skip(1) }   // pad
            let count = Int(try r.u16())
            glyph.components = try (0..<count).map { _ in
                BitmapGlyph.Component(glyph: try r.u16(), xOffset: try r.i8(), yOffset: try r.i8())
            }
        case 17, 18, 19:
            let length = Int(try r.u32())
            guard length <= r.remaining else { throw r.error("a format \(format) image says \(length) bytes, \(r.remaining) follow") }
            glyph.imageData = try r.bytes(length)
        default:
            glyph.imageData = try r.bytes(r.remaining)
        }
        return glyph
    }

    // MARK: writing

    /// The two tables' bytes, in fontTools' layout: data in strike and subtable order (a glyph
    /// listed twice in one strike written once), then the location table pointing at it.
    public func encode() throws -> (locator: [UInt8], data: [UInt8]) {
        var data = BinaryWriter()
        data.u32(dataVersion)
        // Each subtable's glyph data ranges, written first: the locator's offsets come from them.
        var located: [[[Range<Int>]]] = []
        for (s, strike) in strikes.enumerated() {
            var written: [UInt16: Range<Int>] = [:], strikeRanges: [[Range<Int>]] = []
            for subtable in strike.indexSubtables {
                var ranges: [Range<Int>] = []
                for glyph in subtable.glyphIDs {
                    if let range = written[glyph] { ranges.append(range); continue }
                    guard let bitmap = strike.glyphs[glyph] else {
                        throw FontError("strike \(s): glyph \(glyph) is listed in \(kind.locatorTag) but has no bitmap in \(kind.dataTag)")
                    }
                    guard bitmap.imageFormat == subtable.imageFormat else {
                        throw FontError(
                            "strike \(s): glyph \(glyph)'s bitmap has image format \(bitmap.imageFormat), its index subtable \(subtable.imageFormat)"
                        )
                    }
                    var bytes = try Self.encode(bitmap)
                    if let size = subtable.imageSize {
                        guard bytes.count <= Int(size) else {
                            throw FontError(
                                "strike \(s): glyph \(glyph)'s image (\(bytes.count) bytes) is larger than its subtable's imageSize \(size)"
                            )
                        }
                        bytes += Array(repeating: 0, count: Int(size) - bytes.count)
                    }
                    let range = data.bytes.count..<data.bytes.count + bytes.count
                    data.append(bytes)
                    written[glyph] = range
                    ranges.append(range)
                }
                strikeRanges.append(ranges)
            }
            located.append(strikeRanges)
        }

        var locator = BinaryWriter()
        locator.u32(locatorVersion)
        try locator.u32(strikes.count, "\(kind.locatorTag) strike count")
        var indexData = BinaryWriter()   // subtable arrays and subtables, after the size tables
        let indexStart = 8 + 48 * strikes.count
        var sizeTables = BinaryWriter()
        for (strike, strikeRanges) in zip(strikes, located) {
            let arrayOffset = indexStart + indexData.bytes.count
            var array = BinaryWriter(), subtables = BinaryWriter()
            var start = UInt16.max, end = UInt16.min
            for (subtable, ranges) in zip(strike.indexSubtables, strikeRanges) {
                guard let first = subtable.glyphIDs.min(), let last = subtable.glyphIDs.max() else {
                    throw FontError("\(kind.locatorTag): an index subtable lists no glyphs")
                }
                start = min(start, first); end = max(end, last)
                array.u16(first); array.u16(last)
                try array.u32(8 * strike.indexSubtables.count + subtables.bytes.count, "\(kind.locatorTag) index subtable offset")
                try Self.encode(subtable, ranges: ranges, first: first, last: last, into: &subtables)
            }
            if strike.indexSubtables.isEmpty { start = 0; end = 0 }
            indexData.append(array.bytes); indexData.append(subtables.bytes)
            try sizeTables.u32(arrayOffset, "\(kind.locatorTag) index subtable array offset")
            try sizeTables.u32(array.bytes.count + subtables.bytes.count, "\(kind.locatorTag) index tables size")
            sizeTables.u32(UInt32(strike.indexSubtables.count)); sizeTables.u32(strike.colorRef)
            try strike.hori.write(&sizeTables); try strike.vert.write(&sizeTables)
            sizeTables.u16(start); sizeTables.u16(end)
            sizeTables.u8(strike.ppemX); sizeTables.u8(strike.ppemY); sizeTables.u8(strike.bitDepth); sizeTables.i8(strike.flags)
        }
        locator.append(sizeTables.bytes); locator.append(indexData.bytes)
        return (locator.bytes, data.bytes)
    }

    static func encode(_ subtable: IndexSubtable, ranges: [Range<Int>], first: UInt16, last: UInt16, into w: inout BinaryWriter) throws {
        let what = "index subtable format \(subtable.indexFormat)"
        func consecutive() throws {
            for (a, b) in zip(ranges, ranges.dropFirst()) where a.upperBound != b.lowerBound {
                throw FontError("\(what): its glyphs' data must be consecutive (a glyph listed twice?)")
            }
        }
        let dataOffset = ranges.map(\.lowerBound).min() ?? 0
        w.u16(subtable.indexFormat); w.u16(subtable.imageFormat); try w.u32(dataOffset, "\(what) image data offset")
        switch subtable.indexFormat {
        case 1, 3:
            try consecutive()
            guard zip(subtable.glyphIDs, subtable.glyphIDs.dropFirst()).allSatisfy({ $0 < $1 }) else {
                throw FontError("\(what): glyph ids must increase")
            }
            // Every glyph from first to last has an offset; those without a bitmap have empty data.
            var offsets: [Int] = [], next = 0
            for (glyph, range) in zip(subtable.glyphIDs, ranges) {
                while offsets.count < Int(glyph - first) { offsets.append(range.lowerBound - dataOffset) }
                offsets.append(range.lowerBound - dataOffset)
                next = range.upperBound - dataOffset
            }
            offsets.append(next)
            for o in offsets { if subtable.indexFormat == 1 { try w.u32(o, "\(what) offset") } else { try w.u16(o, "\(what) offset") } }
            if subtable.indexFormat == 3 && offsets.count % 2 == 1 { w.u16(0) }
        case 2, 5:
            guard let size = subtable.imageSize, let metrics = subtable.metrics else {
                throw FontError("\(what) needs imageSize and BigGlyphMetrics")
            }
            w.u32(size); try metrics.write(&w)
            if subtable.indexFormat == 2 {
                guard subtable.glyphIDs == Array(first...last) else { throw FontError("\(what): glyph ids must be consecutive") }
            } else {
                w.u32(UInt32(subtable.glyphIDs.count))
                for g in subtable.glyphIDs { w.u16(g) }
                if subtable.glyphIDs.count % 2 == 1 { w.u16(0) }
            }
        case 4:
            try consecutive()
            w.u32(UInt32(subtable.glyphIDs.count))
            for (glyph, range) in zip(subtable.glyphIDs, ranges) {
                w.u16(glyph); try w.u16(range.lowerBound - dataOffset, "\(what) offset")
            }
            w.u16(0); try w.u16((ranges.last?.upperBound ?? dataOffset) - dataOffset, "\(what) offset")
        default:
            throw FontError("index subtable format \(subtable.indexFormat) is not defined (1–5 are)")
        }
    }

    /// How many bytes a glyph's data takes (what a fixed-size index subtable's imageSize holds).
    public static func encodedSize(_ glyph: BitmapGlyph) -> Int { (try? encode(glyph).count) ?? 0 }

    static func encode(_ glyph: BitmapGlyph) throws -> [UInt8] {
        var w = BinaryWriter()
        if let layout = BitmapGlyph.metricsLayout(glyph.imageFormat) {
            guard let metrics = glyph.metrics, metrics.layout == layout else {
                throw FontError("a format \(glyph.imageFormat) bitmap needs \(layout.xmlName)")
            }
            try metrics.write(&w)
        }
        switch glyph.imageFormat {
        case 8, 9:
            if glyph.imageFormat == 8 { w.u8(0) }
            try w.u16(glyph.components.count, "bitmap component count")
            for c in glyph.components { w.u16(c.glyph); w.i8(c.xOffset); w.i8(c.yOffset) }
        case 17, 18, 19:
            try w.u32(glyph.imageData.count, "bitmap image length")
            w.append(glyph.imageData)
        default:
            w.append(glyph.imageData)
        }
        return w.bytes
    }

    /// Replaces the face's two tables with this value's encoding.
    public func write(to face: Face) throws {
        let (locator, data) = try encode()
        face.setRawTable(kind.locatorTag, locator)
        face.setRawTable(kind.dataTag, data)
    }
}
