import FontModel

/// avar in TTX, as fontTools writes it: `<version major= minor=/>`, then per fvar axis a
/// `<segment axis=>` of `<mapping from= to=/>` in F2Dot14 text, sorted. Version 2 adds the
/// axis index map as `<VarIdxMap Format=>` of `<Map index= outer= inner=/>` (`<Map index=/>`
/// for no variation) and the `<VarStore>` over the axes, as an otData table.
extension TTX {
    static let avarConverter = Converter(
        dump: { face in
            guard let avar = try face.table(AvarTable.self), let fvar = try face.table(FvarTable.self) else { return nil }
            func f2dot14(_ v: Double) -> String { text(v, as: F2Dot14.self) }
            var out = "  <avar>\n    <version major=\"\(avar.majorVersion)\" minor=\"0\"/>\n"
            for (axis, map) in zip(fvar.axes, avar.maps) {
                out += "    <segment axis=\"\(xmlEscaped(axis.tag.description))\">\n"
                for p in map.sorted(by: { $0.from < $1.from }) {
                    out += "      <mapping from=\"\(f2dot14(p.from))\" to=\"\(f2dot14(p.to))\"/>\n"
                }
                out += "    </segment>\n"
            }
            let (indexMap, store) = avar.version2Parts
            if let indexMap {
                out += "    <VarIdxMap Format=\"\(indexMap.format)\">\n"
                for (k, v) in indexMap.entries.enumerated() {
                    out +=
                        v == 0xFFFF_FFFF
                        ? "      <Map index=\"\(k)\"/>\n" : "      <Map index=\"\(k)\" outer=\"\(v >> 16)\" inner=\"\(v & 0xFFFF)\"/>\n"
                }
                out += "    </VarIdxMap>\n"
            }
            if let store {
                let value = try store.withUnsafeBytes {
                    try StructureCodec.decode(BinaryReader($0), CFF2Table.storeShape, name: "avar VarStore")
                }
                var writer = StructuredWriter(names: try face.glyphNames())
                try writer.element("VarStore", value, CFF2Table.storeShape, .plain, indent: 4, index: nil)
                out += writer.out.string
            }
            return out + "  </avar>\n"
        },
        fuse: { element, face, apply in
            func fail(_ message: String, _ e: XMLElement) -> XMLError { XMLError(message, line: e.line, column: e.column) }
            guard let fvar = try face.table(FvarTable.self) else {
                throw fail("avar needs the face's fvar axes; the face has no fvar", element)
            }
            var segments: [String: AvarTable.SegmentMap] = [:]
            var major = 1, indexMap: [UInt8]?, store: [UInt8]?
            for e in element.children {
                switch e.name {
                case "version":
                    guard let m = e.value("major").flatMap({ Int($0) }), m == 1 || m == 2 else {
                        throw fail("avar versions 1 and 2 are known (major=\"1\" or \"2\")", e)
                    }
                    major = m
                case "VarIdxMap":
                    // Read as the described DeltaSetIndexMap (COLR's VarIndexMap) is; written back packed.
                    let entries = try StructuredReader(face: face).value(.indexMap, e)
                    do { indexMap = try StructureCodec.encode(entries, .indexMap, name: "avar VarIdxMap") } catch let error as FontError {
                        throw fail(error.message, e)
                    }
                case "VarStore":
                    guard case .record(let record) = CFF2Table.storeShape else { continue }
                    let fields = try StructuredReader(face: face).fields(record, e)
                    do { store = try StructureCodec.encode(.record(fields), CFF2Table.storeShape, name: "avar VarStore") } catch let error
                        as FontError
                    {
                        throw fail(error.message, e)
                    }
                case "segment":
                    let axis = try e.attribute("axis")
                    guard fvar.axes.contains(where: { $0.tag.description == axis }) else { throw fail("'\(axis)' is not an fvar axis", e) }
                    guard segments[axis] == nil else { throw fail("a second segment for axis '\(axis)'", e) }
                    var map: [Double: Double] = [:]
                    for m in e.children {
                        guard m.name == "mapping" else { throw fail("<\(m.name)> in <segment>: expected <mapping from= to=/>", m) }
                        func value(_ key: String) throws -> Double {
                            let text = try m.attribute(key)
                            guard let v = Double(text.trimmingWhitespace()), (-2...2).contains(v) else {
                                throw fail("\(key)=\"\(text)\" is not an F2Dot14 value (-2…2)", m)
                            }
                            return F2Dot14(clamping: v).value
                        }
                        let from = try value("from")
                        guard map[from] == nil else { throw fail("a second mapping from \(from)", m) }
                        map[from] = try value("to")
                    }
                    segments[axis] = map.sorted { $0.key < $1.key }.map { (from: $0.key, to: $0.value) }
                default: throw fail("<\(e.name)> in <avar>: expected <version>, <segment>, <VarIdxMap> or <VarStore>", e)
                }
            }
            let maps = fvar.axes.map { segments[$0.tag.description] ?? [] }
            for (axis, map) in zip(fvar.axes, maps) {
                for (a, b) in zip(map, map.dropFirst()) where b.to < a.to {
                    throw fail("axis '\(axis.tag)': mappings must not go down (\(a.from) → \(a.to), then \(b.from) → \(b.to))", element)
                }
            }
            if major == 1, let extra = element.children.first(where: { $0.name == "VarIdxMap" || $0.name == "VarStore" }) {
                throw fail("<\(extra.name)> belongs to avar version 2; this says version 1", extra)
            }
            let table = major == 2 ? try AvarTable.version2(maps: maps, indexMap: indexMap, store: store) : AvarTable(maps: maps)
            if apply { face.setRawTable("avar", try table.encode()) }
        })
}

extension AvarTable: TTXTable { static var ttx: TTX.Converter { TTX.avarConverter } }
