import Foundation
import Testing
@testable import FontModel
@_exported import TestSupport

/// The all-caps edit (kept as a test helper name for readability).
func makeAllCaps(_ face: Face) throws { try face.copyCapitalsOntoLowercase() }

/// A small font built by fontTools for what the corpus lacks ("cff", "variable").
func builtFont(_ kind: String, in folder: TemporaryFolder) throws -> String {
    let path = folder.file("built-\(kind).\(kind.hasPrefix("cff") ? "otf" : "ttf")")
    let r = try run("python3", [Corpus.builder, kind, path])
    guard r.status == 0 else { throw FontError("building the \(kind) test font failed: \(r.err)") }
    return path
}
