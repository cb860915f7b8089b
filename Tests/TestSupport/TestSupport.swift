import Foundation

// What every test target shares: the repository and its corpus, temporary folders, running
// programs, and the oracles (fontTools, ots-sanitize). Foundation only, no Testing: a failure
// here is a thrown TestSupportError, which the calling test records.

public struct TestSupportError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// The repository this test was built from.
public let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// The shared corpus (`../shared/corpus/fonts.tsv`), read so tests follow the list.
public enum Corpus {
    public static let fonts: [(id: String, path: String)] = {
        let tsv = repositoryRoot.appendingPathComponent("../shared/corpus/fonts.tsv").standardized.path
        guard let text = try? String(contentsOfFile: tsv, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            let cols = line.split(separator: "\t").map(String.init)
            guard cols.count >= 3, !cols[0].hasPrefix("#") else { return nil }
            return (cols[0], cols[2])
        }
    }()
    /// The path of corpus font `id`, or a path that names the missing id (opening it fails with that name).
    public static func path(_ id: String) -> String { fonts.first { $0.id == id }?.path ?? "missing-corpus-font-\(id)" }
    public static let dejavu = path("dejavu-sans"), wqy = path("wqy-zenhei"), noto = path("noto-cjk")
    /// fontTools' view of a font as JSON (Tests/Oracles/fonttools_check.py).
    public static let oracle = repositoryRoot.appendingPathComponent("Tests/Oracles/fonttools_check.py").path
    /// Fonts fontTools builds for what the corpus lacks (Tests/Oracles/make_test_fonts.py).
    public static let builder = repositoryRoot.appendingPathComponent("Tests/Oracles/make_test_fonts.py").path
}

/// Peers' conformance data, fetched by `../shared/corpus/conformance.sh` (Scripts/test runs it):
/// the Adobe OpenType Test Suite fonts with fontTools' expected dumps, fontTools' table and
/// feaLib test data, the instancer tests.
public enum Conformance {
    public static let folder =
        ProcessInfo.processInfo.environment["FONTSHELL_CONFORMANCE"].flatMap { $0.isEmpty ? nil : $0 }
        ?? NSHomeDirectory() + "/.cache/fontshell/conformance"

    /// AOTS fonts that have an expected dump of `tag` (`name.ttx.GDEF` beside `name.otf`). Missing
    /// data is a failure, not a skip: the suite is the oracle.
    public static func aots(expecting tag: String) throws -> [(font: String, expected: String)] {
        let aots = folder + "/aots"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: aots)) ?? []
        let pairs = names.filter { $0.hasSuffix(".ttx." + tag) }.sorted().map { name in
            (aots + "/" + name.dropLast(".ttx.\(tag)".count) + ".otf", aots + "/" + name)
        }
        guard !pairs.isEmpty else {
            throw TestSupportError("no AOTS conformance data in \(aots): run ../shared/corpus/conformance.sh (Scripts/test does)")
        }
        return pairs
    }
}

/// A fresh folder per test, removed afterwards.
public final class TemporaryFolder {
    public let path: String
    public init() throws {
        path = NSTemporaryDirectory() + "fontshell-test-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    public func file(_ name: String) -> String { path + "/" + name }
    /// Writes `text` to `name` in the folder; its path.
    @discardableResult
    public func write(_ name: String, _ text: String) throws -> String {
        try text.write(toFile: file(name), atomically: true, encoding: .utf8)
        return file(name)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
}

public struct ProcessResult {
    public var status: Int32
    public var out: String
    public var err: String
}

/// Runs a program (a path, or a name found on PATH) and collects its status and output;
/// `input` goes to its standard input, `environment` is added to this process's.
@discardableResult
public func run(_ program: String, _ arguments: [String], input: String? = nil, environment: [String: String] = [:]) throws -> ProcessResult
{
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = [program] + arguments
    p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let out = Pipe(), err = Pipe(), stdin = Pipe()
    p.standardOutput = out
    p.standardError = err
    p.standardInput = stdin
    try p.run()
    if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
    try stdin.fileHandleForWriting.close()
    // Both pipes drained at once: a program that fills one while we wait on the other would hang.
    let errData = Drained()
    let done = DispatchSemaphore(value: 0)
    let errHandle = err.fileHandleForReading
    DispatchQueue.global().async {
        errData.data = errHandle.readDataToEndOfFile()
        done.signal()
    }
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    done.wait()
    p.waitUntilExit()
    return ProcessResult(
        status: p.terminationStatus, out: String(decoding: outData, as: UTF8.self), err: String(decoding: errData.data, as: UTF8.self))
}

/// The error pipe's bytes, written by the draining thread before it signals and read after.
private final class Drained: @unchecked Sendable {
    var data = Data()
}

/// fontTools' view of a font, as JSON decoded to Foundation objects.
public func fontTools(_ arguments: String...) throws -> Any { try fontTools(arguments) }

public func fontTools(_ arguments: [String]) throws -> Any {
    let r = try run("python3", [Corpus.oracle] + arguments)
    guard r.status == 0 else { throw TestSupportError("fontTools check failed: \(r.err.suffix(2000))") }
    return try JSONSerialization.jsonObject(with: Data(r.out.utf8))
}

/// ots-sanitize's verdict on one face of a collection (or the whole font). Its arguments are
/// `font_file [dest_font_file] [font_index]`: the sanitized copy goes to a scratch file.
public func otsAccepts(_ path: String, face: Int? = nil) throws -> (Bool, String) {
    let scratch = NSTemporaryDirectory() + "ots-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    let r = try run("ots-sanitize", [path, scratch] + (face.map { [String($0)] } ?? []))
    return (r.status == 0, r.out + r.err)
}

/// python3 (fontTools as the oracle) with these arguments: its standard output, then its error.
public func python(_ arguments: [String]) throws -> String {
    let r = try run("python3", arguments)
    return r.out + r.err
}

public func fileSize(_ path: String) -> Int {
    ((try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? NSNumber)?.intValue ?? -1
}
