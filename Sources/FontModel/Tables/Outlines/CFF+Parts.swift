/// The parts of a CFF table as written out by TTX dumps (FontXML's `CFF+TTX.swift`): DICTs as
/// (operator, operands) with reals as numbers, strings, subroutines, the encoding and FDSelect.
/// Operators are the spec's, two-byte ones as 1200 + the second byte.
public enum CFFNumber: Equatable, Sendable {
    case int(Int)
    case real(Double)
}

public struct CFFDictEntry: Equatable, Sendable {
    public var op: Int
    public var operands: [CFFNumber]
    public init(op: Int, operands: [CFFNumber]) { self.op = op; self.operands = operands }
}

extension CFFTable {
    public var majorVersion: Int { Int(data.bytes[data.bytes.startIndex]) }
    public var minorVersion: Int { Int(data.bytes[data.bytes.startIndex + 1]) }

    public var topDictEntries: [CFFDictEntry] { Self.entries(topDict) }
    /// The FDArray's font DICTs (CID-keyed fonts), in order.
    public var fontDictEntries: [[CFFDictEntry]] { fontDicts.map(Self.entries) }
    /// Private DICTs: one per font DICT, or the Top DICT's alone.
    public var privateDictEntries: [[CFFDictEntry]] { privates.map { Self.entries($0.dict) } }

    /// Each Private DICT's local subroutines (empty without any).
    public var localSubrBytes: [[[UInt8]]] {
        privates.map { p in p.localSubrs.map { $0.items.map { Array(data.bytes[$0]) } } ?? [] }
    }

    public var globalSubrBytes: [[UInt8]] { globalSubrs.items.map { Array(data.bytes[$0]) } }

    /// A string's bytes (Latin-1 in practice): a standard string or one of the String INDEX.
    public func stringBytes(sid: Int) -> [UInt8]? {
        guard sid >= 0 else { return nil }
        if sid < cffStandardStrings.count { return Array(cffStandardStrings[sid].utf8) }
        return string(sid: sid).map { Array($0.utf8) }
    }

    /// The FDSelect format (0 or 3) of a CID-keyed font.
    public var fdSelectFormat: Int? { fdSelectRange.map { Int(data.bytes[$0.lowerBound]) } }

    /// A custom encoding's code → glyph id pairs (supplements included); nil for the predefined
    /// Standard (0) and Expert (1) encodings.
    public func customEncoding() throws -> [(code: Int, glyph: Int)]? {
        guard let range = encodingRange else { return nil }
        var r = try data.sub(range.lowerBound, range.count)
        let format = try r.u8()
        var pairs: [(Int, Int)] = []
        switch format & 0x7F {
        case 0:
            let count = Int(try r.u8())
            for g in 1...max(1, count) where g <= count { pairs.append((Int(try r.u8()), g)) }
        case 1:
            let ranges = Int(try r.u8())
            var g = 1
            for _ in 0..<ranges {
                let first = Int(try r.u8()), left = Int(try r.u8())
                for k in 0...left { pairs.append((first + k, g)); g += 1 }
            }
        default: throw r.error("unknown CFF encoding format \(format)", at: 0)
        }
        if format & 0x80 != 0 {
            // Supplements map more codes to glyphs named by SID.
            let count = Int(try r.u8())
            let names = try glyphNames()
            for _ in 0..<count {
                let code = Int(try r.u8()), sid = Int(try r.u16())
                if let name = string(sid: sid), let g = names.firstIndex(of: name) { pairs.append((code, g)) }
            }
        }
        return pairs
    }

    static func entries(_ dict: CFFDict) -> [CFFDictEntry] {
        dict.entries.map { entry in
            CFFDictEntry(
                op: entry.op,
                operands: entry.operands.map { operand in
                    switch operand {
                    case .int(let v): .int(v)
                    case .real(let raw): .real(Self.realValue(raw))
                    }
                })
        }
    }

    /// A DICT real from its nibbles (the leading 30 byte included).
    static func realValue(_ raw: [UInt8]) -> Double {
        var text = ""
        for byte in raw.dropFirst() {
            for nibble in [byte >> 4, byte & 0xF] {
                switch nibble {
                case 0...9: text += String(nibble)
                case 0xA: text += "."
                case 0xB: text += "E"
                case 0xC: text += "E-"
                case 0xE: text += "-"
                default: return Double(text) ?? 0
                }
            }
        }
        return Double(text) ?? 0
    }
}
