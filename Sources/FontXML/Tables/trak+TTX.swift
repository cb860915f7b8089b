import FontModel

/// trak in TTX, as fontTools writes it: `<version>` (a float), `<format>`, then `<horizData>`
/// and `<vertData>` each holding a `<trackEntry value= nameIndex=>` per track (sorted by value,
/// its name as a comment) of `<track size= value=/>` per point size, sizes sorted.
extension TTX {
    static let trakConverter = Converter(
        dump: { face in
            guard let trak = try face.table(TrakTable.self) else { return nil }
            let names = face.has("name") ? try? face.name : nil
            var out =
                "  <trak>\n    <version value=\"\(pythonFloatText(Double(trak.version) / Fixed.scale))\"/>\n    <format value=\"\(trak.format)\"/>\n"
            for (element, data) in [("horizData", trak.horizontal), ("vertData", trak.vertical)] {
                out += "    <\(element)>\n"
                // As fontTools' mappings: a repeated track or size keeps its last values.
                var tracks: [Int32: (nameIndex: UInt16, values: [Int32: Int16])] = [:]
                for t in data.tracks {
                    var values: [Int32: Int16] = [:]
                    for (size, v) in zip(data.sizes, t.adjustments) { values[size] = v }
                    tracks[t.value] = (t.nameIndex, values)
                }
                out += "      <!-- nTracks=\(tracks.count), nSizes=\(tracks.isEmpty ? 0 : Set(data.sizes).count) -->\n"
                for (value, t) in tracks.sorted(by: { $0.key < $1.key }) {
                    out += "      <trackEntry value=\"\(decimalText(Int64(value), scale: Fixed.scale))\" nameIndex=\"\(t.nameIndex)\">\n"
                    if let name = names?.debugName(Int(t.nameIndex)) { out += "        <!-- \(xmlComment(name)) -->\n" }
                    for (size, v) in t.values.sorted(by: { $0.key < $1.key }) {
                        out += "        <track size=\"\(decimalText(Int64(size), scale: Fixed.scale))\" value=\"\(v)\"/>\n"
                    }
                    out += "      </trackEntry>\n"
                }
                out += "    </\(element)>\n"
            }
            return out + "  </trak>\n"
        },
        fuse: { element, face, apply in
            func fail(_ message: String, _ e: XMLElement) -> XMLError { XMLError(message, line: e.line, column: e.column) }
            func fixed(_ e: XMLElement, _ key: String) throws -> Int32 {
                let text = try e.attribute(key)
                guard let v = TTX.fixedPoint(text, as: Fixed.self) else { throw fail("\(key)=\"\(text)\" is not a 16.16 number", e) }
                return v.raw
            }
            var version: UInt32 = 0x0001_0000, format: UInt16 = 0
            var data: [String: TrakTable.TrackData] = [:]
            for e in element.children {
                switch e.name {
                case "version": version = UInt32(bitPattern: try fixed(e, "value"))
                case "format": format = UInt16(try integerAttribute(e, "value", 0...0xFFFF))
                case "horizData", "vertData":
                    var sizes: [Int32]?
                    var tracks: [TrakTable.Track] = []
                    for t in e.children {
                        guard t.name == "trackEntry" else {
                            throw fail("<\(t.name)> in <\(e.name)>: expected <trackEntry value= nameIndex=>", t)
                        }
                        let value = try fixed(t, "value"), nameIndex = UInt16(try integerAttribute(t, "nameIndex", 0...0xFFFF))
                        var values: [Int32: Int16] = [:]
                        for v in t.children {
                            guard v.name == "track" else { throw fail("<\(v.name)> in <trackEntry>: expected <track size= value=/>", v) }
                            values[try fixed(v, "size")] = Int16(try integerAttribute(v, "value", -32768...32767))
                        }
                        let these = values.keys.sorted()
                        if let sizes, sizes != these {
                            throw fail(
                                "every track gives the same sizes (\(sizes.map { decimalText(Int64($0), scale: Fixed.scale) }.joined(separator: ", "))); this one gives \(these.map { decimalText(Int64($0), scale: Fixed.scale) }.joined(separator: ", "))",
                                t)
                        }
                        sizes = these
                        tracks.removeAll { $0.value == value }
                        tracks.append(TrakTable.Track(value: value, nameIndex: nameIndex, adjustments: these.map { values[$0] ?? 0 }))
                    }
                    data[e.name] = TrakTable.TrackData(sizes: sizes ?? [], tracks: tracks)
                default: throw fail("<\(e.name)> in <trak>: expected <version>, <format>, <horizData> or <vertData>", e)
                }
            }
            let table = TrakTable(
                version: version, format: format, horizontal: data["horizData"] ?? .init(), vertical: data["vertData"] ?? .init())
            let bytes: [UInt8]
            do { bytes = try table.encode() } catch let error as FontError { throw fail(error.message, element) }
            if apply { face.setRawTable("trak", bytes) }
        })
}

extension TrakTable: TTXTable { static var ttx: TTX.Converter { TTX.trakConverter } }
