import Foundation
import Testing
@testable import FontModel
@testable import FontXML

/// Hostile TTX: each used to crash, take quadratic time or change the text silently.
@Suite struct HostileXMLTests {
    func expectXMLError(_ bytes: [UInt8], _ expected: String, line: Int? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            _ = try TTX.parse(bytes: bytes)
            Issue.record("parsed without error", sourceLocation: sourceLocation)
        } catch let e as XMLError {
            #expect(e.message.contains(expected), "\(e)", sourceLocation: sourceLocation)
            if let line { #expect(e.line == line, "\(e)", sourceLocation: sourceLocation) }
        } catch {
            Issue.record("\(error)", sourceLocation: sourceLocation)
        }
    }

    @Test func deepNestingIsRefusedNotAStackOverflow() {
        let depth = 50_000
        let xml = String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth)
        expectXMLError(Array(xml.utf8), "nested deeper than 256")
    }

    @Test func attributeFloodIsRefusedQuickly() {
        let attributes = (0..<80_000).map { "a\($0)=\"1\"" }.joined(separator: " ")
        expectXMLError(Array("<ttFont \(attributes)/>".utf8), "more than 256 attributes")
    }

    @Test func invalidUTF8NULAndOtherEncodingsAreErrorsWithPositions() {
        let head = Array("<ttFont>\n<name>\n<namerecord nameID=\"1\" platformID=\"3\" platEncID=\"1\" langID=\"0x409\">".utf8)
        let tail = Array("</namerecord>\n</name>\n</ttFont>\n".utf8)
        expectXMLError(head + [0x41, 0xFF, 0x42] + tail, "invalid UTF-8", line: 3)
        expectXMLError(head + [0x41, 0x00, 0x42] + tail, "NUL", line: 3)
        expectXMLError(head + Array("A&#0;B".utf8) + tail, "not a character XML allows", line: 3)
        expectXMLError(Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<ttFont/>".utf8), "ISO-8859-1", line: 1)
        #expect((try? TTX.parse(bytes: Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?><ttFont/>".utf8))) != nil)
    }

    @Test func aNameWithInvalidBytesLeavesTheFaceAsItWas() throws {
        let font = try Font(path: corpus["dejavu-sans"] ?? "")
        let face = font.faces[0]
        let before = try face.name.string(1)
        let xml = Array(
            "<ttFont><name><namerecord nameID=\"1\" platformID=\"3\" platEncID=\"1\" langID=\"0x409\">Bad\u{FF}</namerecord></name></ttFont>"
                .utf8
        )
        .map { $0 == 0xBF ? 0xFF : $0 }   // U+00FF's second byte made invalid
        #expect(throws: XMLError.self) { try TTX.fuse(TTX.parse(bytes: xml), into: face) }
        #expect(try face.name.string(1) == before)
        #expect(!face.isEdited)
    }
}

extension HostileXMLTests {
    @Test func unknownChildElementsAreErrorsNotDropped() throws {
        let font = try Font(path: corpus["dejavu-sans"] ?? "")
        let xml = """
            <ttFont><cmap><tableVersion version="0"/>
            <cmap_format_4 platformID="3" platEncID="1" language="0"><map code="0x41" name="A"/><mapp code="0x42" name="B"/></cmap_format_4>
            </cmap></ttFont>
            """
        #expect { try TTX.fuse(xml, into: font.faces[0]) } throws: {
            "\($0)".contains("<mapp> in <cmap_format_4>: expected <map>") && "\($0)".hasPrefix("2:")
        }
    }
}

extension HostileXMLTests {
    /// A number far beyond any field ("1e300") once trapped converting it to Int64: in a field
    /// table's fixed-point field, its version pair, and a structured table's Fixed member.
    @Test func hugeNumbersAreRefusedNotATrap() throws {
        let dejavu = try Font(path: corpus["dejavu-sans"] ?? "").faces[0]
        for (xml, expected) in [
            ("<ttFont><head><fontRevision value=\"1e300\"/></head></ttFont>", "fontRevision value '1e300' is not a Fixed"),
            ("<ttFont><head><tableVersion value=\"-1e300\"/></head></ttFont>", "tableVersion value '-1e300' is not a version"),
            ("<ttFont><post><italicAngle value=\"1e300\"/></post></ttFont>", "italicAngle value '1e300' is not a Fixed"),
        ] {
            #expect { try TTX.fuse(xml, into: dejavu) } throws: { "\($0)".contains(expected) }
        }
        #expect(!dejavu.isEdited)

        let inter = try Font(path: corpus["inter-vf"] ?? "").faces[0]
        let stat = try TTX.dump(inter, tags: ["STAT"])
        let hostile = stat.replacingOccurrences(of: "<Value value=\"100.0\"/>", with: "<Value value=\"1e300\"/>")
        #expect(hostile != stat)
        #expect { try TTX.fuse(hostile, into: inter) } throws: { "\($0)".contains("<Value> value '1e300' is not a Fixed") }
    }
}
