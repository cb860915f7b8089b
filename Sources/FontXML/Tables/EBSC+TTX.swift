import FontModel

/// EBSC in TTX, as fontTools writes it: `<header version= numSizes=/>`, then per size a
/// `<bitmapScaleTable index=>` of its two `<sbitLineMetrics direction=>` (as in EBLC) and
/// `<ppemX>`, `<ppemY>`, `<substitutePpemX>`, `<substitutePpemY>`.
extension TTX {
    static let ebscConverter = Converter(
        dump: { face in
            guard let ebsc = try face.table(EBSCTable.self) else { return nil }
            var out = "  <EBSC>\n    <header version=\"\(BitmapXML.versionText(ebsc.version))\" numSizes=\"\(ebsc.scales.count)\"/>\n"
            for (k, s) in ebsc.scales.enumerated() {
                out += "    <bitmapScaleTable index=\"\(k)\">\n"
                out += BitmapXML.record(s.hori, indent: "      ", attributes: " direction=\"hori\"")
                out += BitmapXML.record(s.vert, indent: "      ", attributes: " direction=\"vert\"")
                for (name, v) in zip(EBSCTable.Scale.sizeNames, s.sizes) { out += "      <\(name) value=\"\(v)\"/>\n" }
                out += "    </bitmapScaleTable>\n"
            }
            return out + "  </EBSC>\n"
        },
        fuse: { element, face, apply in
            let x = BitmapXML.Reader(face: face)
            var version: UInt32 = 0x0002_0000
            var scales: [EBSCTable.Scale] = []
            for e in element.children {
                switch e.name {
                case "header": version = try x.version(e)
                case "bitmapScaleTable":
                    var hori: EmbeddedBitmaps.ByteRecord?, vert: EmbeddedBitmaps.ByteRecord?
                    var sizes = [UInt8?](repeating: nil, count: 4)
                    for c in e.children {
                        if c.name == "sbitLineMetrics" {
                            let record = try x.record(.lineMetrics, c)
                            switch c.value("direction") {
                            case "hori": hori = record
                            case "vert": vert = record
                            default: throw x.fail("direction=\"\(c.value("direction") ?? "")\": expected hori or vert", c)
                            }
                        } else if let i = EBSCTable.Scale.sizeNames.firstIndex(of: c.name) {
                            sizes[i] = UInt8(try x.number(c, "value", 0...255))
                        } else {
                            throw x.fail(
                                "<\(c.name)> in <bitmapScaleTable>: expected <sbitLineMetrics> or \(EBSCTable.Scale.sizeNames.map { "<\($0)>" }.joined(separator: ", "))",
                                c)
                        }
                    }
                    guard let hori, let vert else {
                        throw x.fail("<bitmapScaleTable> needs <sbitLineMetrics direction=\"hori\"> and \"vert\"", e)
                    }
                    if let missing = sizes.firstIndex(of: nil) {
                        throw x.fail("<bitmapScaleTable> needs <\(EBSCTable.Scale.sizeNames[missing])>", e)
                    }
                    scales.append(EBSCTable.Scale(hori: hori, vert: vert, sizes: sizes.map { $0 ?? 0 }))
                default: throw x.fail("<\(e.name)> in <EBSC>: expected <header> or <bitmapScaleTable>", e)
                }
            }
            let bytes: [UInt8]
            do { bytes = try EBSCTable(version: version, scales: scales).encode() } catch let error as FontError {
                throw x.fail(error.message, element)
            }
            if apply { face.setRawTable("EBSC", bytes) }
        })
}

extension EBSCTable: TTXTable { static var ttx: TTX.Converter { TTX.ebscConverter } }
