import FontModel

/// VDMX in TTX, as fontTools writes it: `<version>`, `<ratRanges>` of `<ratRange bCharSet=
/// xRatio= yStartRatio= yEndRatio= groupIndex=/>`, and `<groups>` of `<group index=>` holding
/// `<record yPelHeight= yMax= yMin=/>` by height.
extension TTX {
    static let vdmxConverter = Converter(
        dump: { face in
            guard let vdmx = try face.table(VDMXTable.self) else { return nil }
            var out = "  <VDMX>\n    <version value=\"\(vdmx.version)\"/>\n    <ratRanges>\n"
            for r in vdmx.ratios {
                out +=
                    "      <ratRange bCharSet=\"\(r.charSet)\" groupIndex=\"\(r.group)\" xRatio=\"\(r.xRatio)\" yEndRatio=\"\(r.yEndRatio)\" yStartRatio=\"\(r.yStartRatio)\"/>\n"
            }
            out += "    </ratRanges>\n    <groups>\n"
            for (k, g) in vdmx.groups.enumerated() {
                let sorted = g.sorted { $0.yPelHeight < $1.yPelHeight }
                out +=
                    "      <group index=\"\(k)\">\n        <!-- recs=\(sorted.count), startsz=\(sorted.first?.yPelHeight ?? 0), endsz=\(sorted.last?.yPelHeight ?? 0) -->\n"
                for h in sorted { out += "        <record yPelHeight=\"\(h.yPelHeight)\" yMax=\"\(h.yMax)\" yMin=\"\(h.yMin)\"/>\n" }
                out += "      </group>\n"
            }
            return out + "    </groups>\n  </VDMX>\n"
        },
        fuse: { element, face, apply in
            func fail(_ message: String, _ e: XMLElement) -> XMLError { XMLError(message, line: e.line, column: e.column) }
            var version: UInt16 = 1
            var ratios: [VDMXTable.Ratio] = []
            var groups: [[VDMXTable.Height]] = []
            for e in element.children {
                switch e.name {
                case "version": version = UInt16(try integerAttribute(e, "value", 0...1))
                case "ratRanges":
                    ratios = try e.children.map { r in
                        guard r.name == "ratRange" else { throw fail("<\(r.name)> in <ratRanges>: expected <ratRange>", r) }
                        func byte(_ key: String) throws -> UInt8 { UInt8(try integerAttribute(r, key, 0...255)) }
                        return VDMXTable.Ratio(
                            charSet: try byte("bCharSet"), xRatio: try byte("xRatio"), yStartRatio: try byte("yStartRatio"),
                            yEndRatio: try byte("yEndRatio"), group: Int(try integerAttribute(r, "groupIndex", 0...0xFFFF)))
                    }
                case "groups":
                    groups = try e.children.map { g in
                        guard g.name == "group" else { throw fail("<\(g.name)> in <groups>: expected <group index=>", g) }
                        return try g.children.map { h in
                            guard h.name == "record" else {
                                throw fail("<\(h.name)> in <group>: expected <record yPelHeight= yMax= yMin=/>", h)
                            }
                            return VDMXTable.Height(
                                yPelHeight: UInt16(try integerAttribute(h, "yPelHeight", 0...255)),
                                yMax: Int16(try integerAttribute(h, "yMax", -32768...32767)),
                                yMin: Int16(try integerAttribute(h, "yMin", -32768...32767)))
                        }
                    }
                default: throw fail("<\(e.name)> in <VDMX>: expected <version>, <ratRanges> or <groups>", e)
                }
            }
            let bytes: [UInt8]
            do { bytes = try VDMXTable(version: version, ratios: ratios, groups: groups).encode() } catch let error as FontError {
                throw fail(error.message, element)
            }
            if apply { face.setRawTable("VDMX", bytes) }
        })
}

extension VDMXTable: TTXTable { static var ttx: TTX.Converter { TTX.vdmxConverter } }
