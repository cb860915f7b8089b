import Dispatch
import FontModel
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `fontshell dump` of a face as it is in its file, on every core: the tables are shared out by
/// their likely cost, and each thread opens the file itself (a Face is never shared between
/// threads; opening is lazy and the file mapped once per opening). The document is exactly
/// `TTX.dump(face, tags:)`'s.
extension TTX {
    public static func dump(path: String, face index: Int, tags requested: [Tag]?, piece: (String) throws -> Void) throws {
        let font = try Font(path: path)
        guard index >= 0, index < font.faces.count else { throw FontError("the file has no face \(index)") }
        let face = font.faces[index]
        let tags = (requested ?? face.tags).sorted(by: { $0.description < $1.description })
        for tag in tags where !face.has(tag) { throw FontError("the face has no '\(tag)' table") }
        let workers = min(Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), tags.count)
        guard workers > 1 else { return try dump(face, tags: requested, piece: piece) }

        // Longest first, each to the least loaded thread.
        var groups = [[Int]](repeating: [], count: workers), loads = [Int](repeating: 0, count: workers)
        let costs = tags.map { (face.storedLength($0) ?? 0) * xmlBytesPerByte($0) }
        for k in tags.indices.sorted(by: { costs[$0] > costs[$1] }) {
            let g = loads.indices.min(by: { loads[$0] < loads[$1] }) ?? 0
            groups[g].append(k); loads[g] += costs[k]
        }
        let results = DumpResults(count: tags.count)
        let shared = SharedFace(face: face), assigned = groups
        DispatchQueue.concurrentPerform(iterations: workers) { g in
            do {
                // The first group uses the face already open (no other thread touches it).
                let own = g == 0 ? nil : try Font(path: path)
                let f = own?.faces[index] ?? shared.face
                for k in assigned[g] { results.set(k, .success(try table(tags[k], of: f))) }
            } catch {
                for k in assigned[g] { results.set(k, .failure(error)) }
            }
        }
        try piece("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<ttFont sfntVersion=\"\(sfntVersionText(face.sfntVersion))\">\n")
        if requested == nil { try piece(try glyphOrder(face)) }
        for k in tags.indices {
            try piece("\n")
            try piece(try results.take(k))
        }
        try piece("\n</ttFont>\n")
    }

    /// About how many bytes of XML a byte of the table makes (outlines and instructions many,
    /// images as hex two).
    static func xmlBytesPerByte(_ tag: Tag) -> Int {
        switch tag {
        case "glyf", "hmtx", "vmtx", "kern", "cvt ", "fpgm", "prep": 16
        case "CFF ", "CFF2", "gvar", "GSUB", "GPOS", "GDEF": 12
        case "EBDT", "CBDT", "sbix", "SVG ", "DSIG": 2
        default: 6
        }
    }

    /// The face the calling thread opened, handed to the one worker that uses it.
    private struct SharedFace: @unchecked Sendable { let face: Face }

    /// Each table's element (or error), set from the worker threads.
    private final class DumpResults: @unchecked Sendable {
        private var items: [Result<String, Error>?]
        private let lock = PosixLock()
        init(count: Int) { items = Array(repeating: nil, count: count) }
        func set(_ k: Int, _ r: Result<String, Error>) { lock.withLock { items[k] = r } }
        /// The element, handed over and dropped here (the document is never held twice).
        func take(_ k: Int) throws -> String {
            let r = lock.withLock { () -> Result<String, Error>? in defer { items[k] = nil }; return items[k] }
            guard let r else { throw FontError("a table's dump did not run") }
            return try r.get()
        }
    }
}
