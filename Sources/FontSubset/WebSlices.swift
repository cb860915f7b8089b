#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FontModel
import Dispatch

/// How to cut a face into web slices.
public struct SliceOptions: Sendable {
    /// Characters per slice when the slices are not given (a Unicode block larger than this is
    /// split; smaller neighbouring blocks are not merged, so a slice stays one script).
    public var charactersPerSlice = 500
    /// The slices themselves, e.g. frequency-ordered (a file of one range list per line).
    public var slices: [[UInt32]]?
    /// Brotli quality of each WOFF2.
    public var quality = 11
    /// File names are `<baseName>.<n>.woff2`, the CSS `<baseName>.css`.
    public var baseName: String?
    /// The CSS font-family; default the face's family name.
    public var family: String?
    /// Called with (slices made, slices in all) as they are made, from the worker threads.
    public var progress: (@Sendable (Int, Int) -> Void)?

    public init() {}

    /// One slice per non-empty line: "U+4E00-4E3F,U+3000" (comments after '#').
    public static func parseSliceFile(_ text: String) throws -> [[UInt32]] {
        var out: [[UInt32]] = []
        for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let content = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
            guard content.contains(where: { $0 != " " && $0 != "\t" && $0 != "\r" }) else { continue }
            do { out.append(try SubsetRequest.parseUnicodes(content)) } catch let e as FontError {
                throw FontError("slice file line \(n + 1): \(e.message)")
            }
        }
        return out
    }
}

/// What a slicing wrote.
public struct SliceReport: CustomStringConvertible {
    public var folder: String
    public var files: [(name: String, bytes: Int, characters: Int)] = []
    public var css: String
    public var cssFile: String
    /// Characters of the slices the face has no glyph for (left out of every slice).
    public var skipped = 0

    public var totalBytes: Int { files.reduce(0) { $0 + $1.bytes } }

    public var description: String {
        var lines = [
            "wrote \(files.count) WOFF2 slices (\(totalBytes) bytes, \(files.reduce(0) { $0 + $1.characters }) characters) and \(cssFile) to \(folder)"
        ]
        if skipped > 0 { lines.append("\(skipped) characters of the slices are not in the face: left out") }
        if let big = files.max(by: { $0.bytes < $1.bytes }) { lines.append("largest slice: \(big.name), \(big.bytes) bytes") }
        return lines.joined(separator: "\n")
    }
}

/// Cuts a face into WOFF2 files by Unicode range and writes the CSS `@font-face` rules that let
/// a browser fetch only the slices a page uses (the way Google Fonts serves CJK). Every slice is
/// a HarfBuzz subset of the same face (layout closure included, so a slice shapes its own text);
/// slices are made on every core.
public enum WebSlicer {
    public static func slice(_ face: Face, into folder: String, options: SliceOptions = SliceOptions()) throws -> SliceReport {
        guard options.charactersPerSlice > 0 else { throw FontError("characters per slice must be at least 1") }
        let mapped = try face.cmap?.bestUnicodeSubtable()?.mapping() ?? [:]
        guard !mapped.isEmpty else { throw FontError("the face maps no Unicode characters: nothing to slice") }
        var skipped = 0
        let groups: [[UInt32]]
        if let given = options.slices {
            groups = given.map { slice in
                let kept = slice.filter { mapped[$0] != nil }
                skipped += slice.count - kept.count
                return kept
            }.filter { !$0.isEmpty }
        } else {
            groups = defaultSlices(mapped.keys.sorted(), perSlice: options.charactersPerSlice)
        }
        guard !groups.isEmpty else { throw FontError("none of the slices' characters is in the face") }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // File names come from the font or an option: made safe, so every file lands in `folder`.
        let named = options.baseName ?? (((try? face.postScriptName) ?? nil) ?? "font")
        let base = SafeFileName.from(named)
        let family = options.family ?? (((try? face.familyName) ?? nil) ?? named)
        let source = try SubsetSource(face)

        // Each slice: subset, WOFF2, written atomically; the first error wins.
        let outcomes = Outcomes(count: groups.count)
        options.progress?(0, groups.count)
        DispatchQueue.concurrentPerform(iterations: groups.count) { k in
            let outcome = Result { () throws -> Int in
                var request = SubsetRequest()
                request.unicodes = groups[k]
                let result = try Subsetter.subset(source, request)
                let report = try result.font.save(
                    to: folder + "/" + fileName(base, k),
                    options: SaveOptions(format: .woff2, woff2: WOFF2Options(quality: options.quality), followSymlinks: false))
                return report.bytesWritten
            }
            outcomes.set(k, outcome)
            options.progress?(outcomes.finished, groups.count)
        }
        var report = SliceReport(folder: folder, css: "", cssFile: base + ".css", skipped: skipped)
        for (k, outcome) in outcomes.items.enumerated() {
            switch outcome {
            case .success(let bytes): report.files.append((fileName(base, k), bytes, groups[k].count))
            case .failure(let error): throw error
            case nil: throw FontError("slice \(k) was not made")
            }
        }
        report.css = css(family: family, face: face, files: report.files.map(\.name), groups: groups)
        try AtomicFile.write(Array(report.css.utf8), to: folder + "/" + report.cssFile, followSymlinks: false)
        return report
    }

    /// Each slice's outcome, filled in from the worker threads.
    final class Outcomes: @unchecked Sendable {
        private(set) var items: [Result<Int, Error>?]
        private let lock = PosixLock()
        init(count: Int) { items = Array(repeating: nil, count: count) }
        func set(_ k: Int, _ outcome: Result<Int, Error>) { lock.withLock { items[k] = outcome } }
        var finished: Int { lock.withLock { items.count { $0 != nil } } }
    }

    static func fileName(_ base: String, _ k: Int) -> String { "\(base).\(k).woff2" }

    /// What Google Fonts serves as its `latin` slice: ASCII and Latin-1, the Œ œ ı ʻ ʼ ˆ ˚ ˜ and
    /// combining marks English text meets, general punctuation (— “ ” ’ …), € ™ ↑ ↓ − ∕ and the
    /// BOM and replacement character. An English page then fetches one file.
    static let latinSlice: [ClosedRange<UInt32>] = [
        0x20...0x7E, 0xA0...0xFF, 0x131...0x131, 0x152...0x153, 0x2BB...0x2BC, 0x2C6...0x2C6, 0x2DA...0x2DA, 0x2DC...0x2DC,
        0x304...0x304, 0x308...0x308, 0x329...0x329, 0x2000...0x206F, 0x20AC...0x20AC, 0x2122...0x2122, 0x2191...0x2191,
        0x2193...0x2193, 0x2212...0x2212, 0x2215...0x2215, 0xFEFF...0xFEFF, 0xFFFD...0xFFFD,
    ]

    /// Control characters (C0, DEL, C1): mapped by some fonts, never drawn on a page.
    static func isControl(_ c: UInt32) -> Bool { c < 0x20 || (0x7F...0x9F).contains(c) }

    /// The face's Latin characters (`latinSlice`) first, as one slice, then the rest in Unicode
    /// block order, each block split into slices of at most `perSlice` characters. (Blocks are
    /// approximated as 128-code-point pages below U+3000 and the CJK ranges above it, which keeps
    /// scripts apart.) Control characters are left out.
    static func defaultSlices(_ characters: [UInt32], perSlice: Int) -> [[UInt32]] {
        let drawn = characters.filter { !isControl($0) }
        let latin = drawn.filter { c in latinSlice.contains { $0.contains(c) } }
        guard !latin.isEmpty, latin.count <= perSlice else { return blockSlices(drawn, perSlice: perSlice) }
        let latinSet = Set(latin)
        return [latin] + blockSlices(drawn.filter { !latinSet.contains($0) }, perSlice: perSlice)
    }

    static func blockSlices(_ characters: [UInt32], perSlice: Int) -> [[UInt32]] {
        func block(_ c: UInt32) -> UInt32 {
            switch c {
            case 0..<0x100: return 0   // Latin-1 with ASCII: one slice everyone needs
            case 0x3000..<0x3100: return 0x3000   // CJK punctuation, kana
            case 0x3400..<0x4DC0: return 0x3400   // CJK extension A
            case 0x4E00..<0xA000: return 0x4E00   // CJK unified ideographs
            case 0xAC00..<0xD7B0: return 0xAC00   // Hangul syllables
            case 0x20000..<0x30000: return 0x20000   // CJK extensions B and on
            default: return c & ~0x7F
            }
        }
        var slices: [[UInt32]] = []
        var current: [UInt32] = []
        var currentBlock: UInt32?
        for c in characters {
            let b = block(c)
            if (currentBlock != nil && b != currentBlock && current.count >= perSlice / 4) || current.count == perSlice {
                slices.append(current); current = []
            }
            currentBlock = b
            current.append(c)
        }
        if !current.isEmpty { slices.append(current) }
        return slices
    }

    /// "U+20-7E, U+A0" for a sorted list of characters.
    static func unicodeRange(_ characters: [UInt32]) -> String {
        var parts: [String] = []
        var i = 0
        let sorted = characters.sorted()
        while i < sorted.count {
            var j = i
            while j + 1 < sorted.count && sorted[j + 1] == sorted[j] + 1 { j += 1 }
            let first = "U+" + String(sorted[i], radix: 16, uppercase: true)
            parts.append(i == j ? first : first + "-" + String(sorted[j], radix: 16, uppercase: true))
            i = j + 1
        }
        return parts.joined(separator: ", ")
    }

    static func css(family: String, face: Face, files: [String], groups: [[UInt32]]) -> String {
        let os2 = try? face.os2
        let weight = os2.map { $0.int("usWeightClass") } ?? 400
        let italic = os2.map { $0.int("fsSelection") & 1 != 0 } ?? false
        var out =
            "/* \(files.count) slices of \(cssComment(family)), written by FontShell: a browser fetches only the slices whose characters a page uses. */\n"
        for (file, group) in zip(files, groups) {
            out += """
                @font-face {
                  font-family: \(cssString(family));
                  font-style: \(italic ? "italic" : "normal");
                  font-weight: \(weight);
                  font-display: swap;
                  src: url(\(cssString(file))) format("woff2");
                  unicode-range: \(unicodeRange(group));
                }

                """
        }
        return out
    }

    /// A CSS string: quotes and backslashes escaped, and every control character (a line
    /// break ends a string and starts live CSS) written as a hex escape.
    static func cssString(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"", "\\": out += "\\" + String(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: out += "\\" + String(scalar.value, radix: 16) + " "
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// Text inside a /* comment */: "*/" cannot end it early, control characters become spaces.
    static func cssComment(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar == "/" && out.hasSuffix("*") { out += " " }
            out.unicodeScalars.append(scalar.value < 0x20 || scalar.value == 0x7F ? " " : scalar)
        }
        return out
    }
}
