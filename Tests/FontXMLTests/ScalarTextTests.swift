import Foundation
import Testing
@testable import FontModel
@testable import FontXML

/// The one scalar leaf of the description language in TTX: a field table's field and a
/// structured table's member write and read their values the same way.
@Suite struct ScalarTextTests {
    /// The scalar formats both ways, as ttx writes them.
    @Test func everyFormatRoundTrips() {
        let cases: [(Int64, FieldKind, TTXFormat, String)] = [
            (0x0001_8000, .fixed, .plain, "1.5"),
            (-8192, .f2dot14, .plain, "-0.5"),
            (0x4142_0000, .tag, .plain, "AB\\x00\\x00"),
            (0x5F0F_3CF5, .uint32, .hex, "0x5f0f3cf5"),
            (0x0001_0000, .version32, .hex8, "0x00010000"),
            (0b1000_0001, .uint16, .binary, "00000000 10000001"),
            (-15 << 16 | 0x4CCD, .fixed, .exactFloat, "-14.699996948242188"),
            (120, .uint16, .deciPoints, "12.0"),
            (8192, .f2dot14, .angle, "90.0"),
            (2, .uint8, .names(["pad", "repeat", "reflect"]), "reflect"),
            (3_761_282_135, .longDateTime, .plain, "Fri Mar 10 08:35:35 2023"),
        ]
        for (raw, kind, format, text) in cases {
            #expect(TTX.scalarText(raw, kind, format) == text, "\(kind) \(format)")
            #expect(TTX.scalarValue(text, kind, format) == raw, "\(kind) \(format) from \(text)")
        }
        // head's dates as fontTools reads them: a value before 1970 is moved on by 0x7C259DC0 s (Unix time, nearly).
        #expect(TTX.scalarText(1_678_437_335, .longDateTime, .headDate) == "Fri Mar 10 07:15:35 2023")
        // Nothing traps on a value far outside any field.
        for (kind, format) in [(FieldKind.fixed, TTXFormat.plain), (.f2dot14, .plain), (.fixed, .exactFloat), (.uint16, .deciPoints)] {
            #expect(TTX.scalarValue("1e300", kind, format) == nil)
            #expect(TTX.scalarValue("nan", kind, format) == nil)
        }
        #expect(TTX.scalarText(Int64.min, .longDateTime, .plain).hasSuffix("1970"))
    }

    /// A structured member named differently in TTX (`ttxName:`) is written and read under that
    /// name, its counts and errors too.
    @Test func aStructuredMemberUsesItsTTXName() throws {
        let record = Record(
            "Demo",
            [
                Member("ItemCount", .scalar(.uint16)),
                Member("Items", .scalar(.uint16), count: "ItemCount", ttxName: "Item"),
                Member("Angle", .scalar(.f2dot14), ttx: .angle, ttxName: "Slant"),
                Member("Vendor", .scalar(.tag)),
            ])
        var fields = StructFields()
        fields["Items"] = .list([.int(3), .int(4)])
        fields["Angle"] = .int(8192)
        fields["Vendor"] = .int(0x4142_0020)
        var writer = StructuredWriter(names: [])
        try writer.members(record, fields, indent: 0)
        let text = String(decoding: writer.out.bytes, as: UTF8.self)
        #expect(text.contains("<Item index=\"1\" value=\"4\"/>"))
        #expect(text.contains("<Slant value=\"90.0\"/>"))
        #expect(text.contains("<Vendor value=\"AB\\x00 \"/>"), "a NUL in a tag survives the XML")
        #expect(!text.contains("<Items") && !text.contains("<Angle"))

        let face = try Font(path: try #require(corpus["dejavu-sans"])).faces[0]
        #expect(try StructuredReader(face: face).fields(record, try TTX.parse("<Demo>\(text)</Demo>")) == fields)
        let withoutSlant = text.replacingOccurrences(of: "<Slant value=\"90.0\"/>", with: "")
        #expect { try StructuredReader(face: face).fields(record, try TTX.parse("<Demo>\(withoutSlant)</Demo>")) } throws: {
            "\($0)".contains("<Demo> lacks <Slant>")
        }
    }
}
