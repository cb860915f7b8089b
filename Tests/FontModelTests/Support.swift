import Foundation
import Testing
@testable import FontModel

/// The shared corpus (`../shared/corpus/fonts.tsv`), read so tests follow the list.
enum Corpus {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let fonts: [(id: String, path: String)] = {
        let tsv = root.appendingPathComponent("../shared/corpus/fonts.tsv").standardized.path
        guard let text = try? String(contentsOfFile: tsv, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            let cols = line.split(separator: "\t").map(String.init)
            guard cols.count >= 3, !cols[0].hasPrefix("#") else { return nil }
            return (cols[0], cols[2])
        }
    }()
    static func path(_ id: String) -> String { fonts.first { $0.id == id }?.path ?? "missing-corpus-font-\(id)" }
    static let dejavu = path("dejavu-sans"), wqy = path("wqy-zenhei"), noto = path("noto-cjk")
    static let oracle = root.appendingPathComponent("Tests/Oracles/fonttools_check.py").path
    static let builder = root.appendingPathComponent("Tests/Oracles/make_test_fonts.py").path
}

/// A fresh folder per test, removed afterwards.
final class TemporaryFolder {
    let path: String
    init() throws {
        path = NSTemporaryDirectory() + "fontshell-test-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    func file(_ name: String) -> String { path + "/" + name }
    deinit { try? FileManager.default.removeItem(atPath: path) }
}

struct ProcessResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs a program (found on PATH) and collects its output.
@discardableResult
func run(_ program: String, _ arguments: [String], environment: [String: String]? = nil) throws -> ProcessResult {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = [program] + arguments
    if let environment { p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
    let out = Pipe(), err = Pipe()
    p.standardOutput = out
    p.standardError = err
    try p.run()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return ProcessResult(status: p.terminationStatus, stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self))
}

/// fontTools' view of a font, as JSON decoded to Foundation objects.
func fontTools(_ arguments: String...) throws -> Any { try fontTools(arguments) }

func fontTools(_ arguments: [String]) throws -> Any {
    let r = try run("python3", [Corpus.oracle] + arguments)
    guard r.status == 0 else { throw FontError("fontTools check failed: \(r.stderr.suffix(2000))") }
    return try JSONSerialization.jsonObject(with: Data(r.stdout.utf8))
}

/// ots-sanitize's verdict on one face of a collection (or the whole font). Its arguments are
/// `font_file [dest_font_file] [font_index]`: the sanitized copy goes to a scratch file.
func otsAccepts(_ path: String, face: Int? = nil) throws -> (Bool, String) {
    let scratch = NSTemporaryDirectory() + "ots-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    let r = try run("ots-sanitize", [path, scratch] + (face.map { [String($0)] } ?? []))
    return (r.status == 0, r.stdout + r.stderr)
}

func fileSize(_ path: String) -> Int {
    ((try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? NSNumber)?.intValue ?? -1
}

/// The all-caps edit (kept as a test helper name for readability).
func makeAllCaps(_ face: Face) throws { try face.copyCapitalsOntoLowercase() }

/// A small font built by fontTools for what the corpus lacks ("cff", "variable").
func builtFont(_ kind: String, in folder: TemporaryFolder) throws -> String {
    let path = folder.file("built-\(kind).\(kind.hasPrefix("cff") ? "otf" : "ttf")")
    let r = try run("python3", [Corpus.builder, kind, path])
    guard r.status == 0 else { throw FontError("building the \(kind) test font failed: \(r.stderr)") }
    return path
}

/// Peers' conformance data, fetched by `../shared/corpus/conformance.sh` (Scripts/test runs it):
/// the Adobe OpenType Test Suite fonts with fontTools' expected dumps.
enum Conformance {
    static let folder = ProcessInfo.processInfo.environment["FONTSHELL_CONFORMANCE"].flatMap { $0.isEmpty ? nil : $0 }
        ?? NSHomeDirectory() + "/.cache/fontshell/conformance"

    /// AOTS fonts that have an expected dump of `tag` (`name.ttx.GDEF` beside `name.otf`). Missing
    /// data is a failure, not a skip: the suite is the oracle.
    static func aots(expecting tag: String) throws -> [(font: String, expected: String)] {
        let aots = folder + "/aots"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: aots)) ?? []
        let pairs = names.filter { $0.hasSuffix(".ttx." + tag) }.sorted().map { name in
            (aots + "/" + name.dropLast(".ttx.\(tag)".count) + ".otf", aots + "/" + name)
        }
        guard !pairs.isEmpty else {
            throw FontError("no AOTS conformance data in \(aots): run ../shared/corpus/conformance.sh (Scripts/test does)")
        }
        return pairs
    }
}
