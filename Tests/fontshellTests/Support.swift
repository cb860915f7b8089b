import Foundation

/// SwiftPM puts the executable next to the test bundle.
let fontshellBinary: String = {
    let products = Bundle.main.bundleURL.path.hasSuffix(".xctest") ? Bundle.main.bundleURL.deletingLastPathComponent() : Bundle.main.bundleURL
    return products.appendingPathComponent("fontshell").path
}()

let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// Runs a program and collects status and output; `input` is piped to stdin.
func runProcess(_ executable: String, _ args: [String], input: String? = nil, environment: [String: String] = [:]) throws -> (status: Int32, out: String, err: String) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: executable)
    p.arguments = args
    p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let out = Pipe(), err = Pipe(), stdin = Pipe()
    p.standardOutput = out; p.standardError = err; p.standardInput = stdin
    try p.run()
    if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
    try stdin.fileHandleForWriting.close()
    let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
}

func runFontshell(_ args: [String], input: String? = nil) throws -> (status: Int32, out: String, err: String) {
    try runProcess(fontshellBinary, args, input: input)
}

final class TemporaryFolder {
    let path: String
    init() throws {
        path = NSTemporaryDirectory() + "fontshell-cli-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    func file(_ name: String) -> String { path + "/" + name }
    func write(_ name: String, _ text: String) throws -> String {
        try text.write(toFile: file(name), atomically: true, encoding: .utf8)
        return file(name)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
}
