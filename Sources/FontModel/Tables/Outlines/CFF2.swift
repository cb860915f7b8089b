/// `CFF2`, the variable CFF: a Top DICT, 32-bit-count INDEXes, Font DICTs with Private DICTs
/// (each may name a default vsindex), FDSelect, an ItemVariationStore, and charstrings whose
/// `blend` operators hold each value's deltas. Outlines and bounds at any location
/// (`outline(_:at:)`); a glyph copy (`copyCharString`) is the one edit, and the table is saved
/// as it was read until then. `instanced(at:)` (CFF2Instance.swift) writes a new table with
/// every blend evaluated.
public final class CFF2Table: DecodableTable {
    public static let tableTag: Tag = "CFF2"

    /// Points into `sourceBytes`, which this table keeps alive.
    let data: BinaryReader
    var sourceBytes: FontBytes?
    public func keepSource(_ bytes: FontBytes) { sourceBytes = bytes }
    let topDict: CFFDict
    let globalSubrs: CFFIndex
    let charStrings: CFFIndex
    /// FD index of each glyph (all 0 without FDSelect).
    let fdSelect: [UInt8]
    let fdSelectRange: Range<Int>?
    let fontDicts: [CFFDict]
    let privates: [CFFTable.Private]
    /// The variation store (nil when the table has none: then blend has no deltas to add).
    public let store: ItemVariationStore?
    /// Charstrings replaced by glyph copies.
    var charStringOverrides: [Int: [UInt8]] = [:]
    public var isEdited: Bool { !charStringOverrides.isEmpty }

    static let topCharStrings = 17, topFDArray = 1236, topFDSelect = 1237, topVStore = 24, topMaxStack = 25, privateVSIndex = 22

    public var glyphCount: Int { charStrings.items.count }

    /// `axisCount`: fvar's; nil (no fvar) takes the store's own region axis count.
    init(reader: BinaryReader, axisCount: Int?) throws {
        data = reader
        var r = reader
        let major = try r.u8(); _ = try r.u8()
        guard major == 2 else { throw r.error("CFF2 major version \(major) is not 2", at: 0) }
        let headerSize = Int(try r.u8())
        let topLength = Int(try r.u16())
        guard headerSize >= 5 else { throw r.error("CFF2 header size \(headerSize) is below 5", at: 2) }
        topDict = try CFFDict.read(reader.sub(headerSize, topLength))
        globalSubrs = try CFFIndex.read(reader, at: headerSize + topLength, wideCount: true)
        guard let charStringsOffset = topDict.int(Self.topCharStrings) else { throw r.error("CFF2 Top DICT has no CharStrings") }
        charStrings = try CFFIndex.read(reader, at: charStringsOffset, wideCount: true)
        guard let fdArrayOffset = topDict.int(Self.topFDArray) else { throw r.error("CFF2 Top DICT has no FDArray") }
        let fdIndex = try CFFIndex.read(reader, at: fdArrayOffset, wideCount: true)
        fontDicts = try fdIndex.items.map { try CFFDict.read(reader.sub($0.lowerBound, $0.count)) }
        guard !fontDicts.isEmpty else { throw r.error("CFF2 FDArray is empty", at: fdArrayOffset) }
        if let fdSelectOffset = topDict.int(Self.topFDSelect) {
            let (select, length) = try CFFTable.readFDSelect(
                reader, at: fdSelectOffset, glyphCount: charStrings.items.count, fdCount: fontDicts.count)
            fdSelect = select
            fdSelectRange = fdSelectOffset..<fdSelectOffset + length
        } else {
            fdSelect = []; fdSelectRange = nil
        }
        privates = try fontDicts.map { try CFFTable.readPrivate(reader, $0, wideCount: true) }
        if let storeOffset = topDict.int(Self.topVStore) {
            // The store follows a 16-bit length.
            var axes = axisCount
            if axes == nil {
                // Format, then the region list's offset (from the store), which starts with the axis count.
                let regionList = Int(try reader.u32(at: storeOffset + 4))
                axes = Int(try reader.u16(at: storeOffset + 2 + regionList))
            }
            store = try ItemVariationStore(reader, at: storeOffset + 2, axisCount: axes ?? 0, what: "CFF2")
        } else {
            store = nil
        }
    }

    public static func decode(_ reader: BinaryReader, face: Face) throws -> CFF2Table {
        try CFF2Table(reader: reader, axisCount: try face.table(FvarTable.self)?.axes.count)
    }

    func privateFor(_ id: Int) -> CFFTable.Private {
        let fd = id < fdSelect.count ? Int(fdSelect[id]) : 0
        return privates[min(fd, privates.count - 1)]
    }

    /// The glyph's outline at a normalized location (the default when empty), and its bounds.
    public func outline(_ id: Int, at location: [Double] = []) throws -> (path: [PathCommand], bounds: GlyphBounds?) {
        let result = try run(id, scalars: regionScalars(at: location), record: .path)
        return (result.path, result.bounds)
    }

    /// Each ItemVariationData's region scalars at a normalized location (none without a store).
    func regionScalars(at location: [Double]) -> [[Double]] {
        guard let store else { return [] }
        let regions = store.scalars(at: location)
        return store.data.map { d in d.regionIndexes.map { regions[$0] } }
    }

    enum Recording { case bounds, path, commands }

    func run(_ id: Int, scalars: [[Double]], record: Recording) throws -> CharStringInterpreter.Result {
        let p = privateFor(id)
        let vsindex = p.dict.int(Self.privateVSIndex) ?? 0
        return try withCharString(id) { code in
            var interpreter = CharStringInterpreter(
                data: data, globalSubrs: globalSubrs, code: code, local: p.localSubrs,
                widths: nil, blend: .init(scalars: scalars, vsindex: vsindex), glyph: id, table: "CFF2",
                recordPath: record == .path)
            interpreter.recordCommands = record == .commands
            return try interpreter.run()
        }
    }

    /// Glyph `id`'s charstring as a reader, without copying it: based at its file offset, or at
    /// 0 once an edit replaced it (as `CFFTable.withCharString`).
    func withCharString<T>(_ id: Int, _ body: (BinaryReader) throws -> T) throws -> T {
        guard id >= 0, id < glyphCount else { throw FontError("glyph id \(id) out of range (0..<\(glyphCount))", table: "CFF2") }
        if let edited = charStringOverrides[id] { return try edited.withUnsafeBytes { try body(BinaryReader($0)) } }
        let range = charStrings.items[id]
        return try body(data.sub(range.lowerBound, range.count))
    }

    /// Glyph `target` takes glyph `source`'s charstring. Both must use the same font DICT, or
    /// ones alike in what the charstring reads (its local subroutines, its default vsindex).
    public func copyCharString(from source: Int, to target: Int) throws {
        let bytes = try charString(source)
        _ = try charString(target)
        let fdS = fdIndex(source), fdT = fdIndex(target)
        if fdS != fdT {
            let ps = privateFor(source), pt = privateFor(target)
            let usesLocal = try run(source, scalars: regionScalars(at: []), record: .bounds).usesLocalSubrs
            guard defaultVSIndex(fdS) == defaultVSIndex(fdT), !usesLocal || ps.localSubrs?.range == pt.localSubrs?.range else {
                throw FontError(
                    "cannot copy glyph \(source) onto glyph \(target): they use different font DICTs (\(fdS) and \(fdT)) "
                        + "with different local subroutines or vsindex; copying without subroutines is not supported yet", table: "CFF2")
            }
        }
        guard try charString(target) != bytes else { return }
        charStringOverrides[target] = bytes
        cachedBounds = nil
    }

    /// Bounds of every glyph at the default location, computed once (again after an edit).
    public func allBounds() throws -> [GlyphBounds?] {
        if let cachedBounds { return cachedBounds }
        let all = try (0..<glyphCount).map { try run($0, scalars: regionScalars(at: []), record: .bounds).bounds }
        cachedBounds = all
        return all
    }
    private var cachedBounds: [GlyphBounds?]?

    /// The bytes as read, or once edited the table rebuilt from its parts with the copied
    /// charstrings (CFF2Builder, as a fused table is).
    public func encode() throws -> [UInt8] {
        guard isEdited else { return Array(data.bytes) }
        var builder = CFF2Builder()
        builder.top = topDictEntries
        builder.charStrings = try (0..<glyphCount).map { try charString($0) }
        builder.globalSubrs = globalSubrBytes
        builder.privates = Array(zip(privateDictEntries, localSubrBytes))
        if let format = fdSelectFormat {
            builder.fdSelect = (0..<glyphCount).map(fdIndex)
            builder.fdSelectFormat = format
        }
        builder.store = storeBytes
        return try builder.build()
    }
}

extension CFF2Table: GlyphDataTable {}
