import Foundation
@_exported import TestSupport

/// SwiftPM puts the executable next to the test bundle.
let fontshellBinary: String = {
    let products =
        Bundle.main.bundleURL.path.hasSuffix(".xctest") ? Bundle.main.bundleURL.deletingLastPathComponent() : Bundle.main.bundleURL
    return products.appendingPathComponent("fontshell").path
}()

func runFontshell(_ args: [String], input: String? = nil) throws -> ProcessResult {
    try run(fontshellBinary, args, input: input)
}
