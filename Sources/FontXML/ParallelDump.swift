import Dispatch
import FontModel
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `fontshell dump` of a face as it is in its file, on every core: the tables are shared out by
/// their likely cost, and each thread opens the file itself (a Face is never shared between
/// threads; opening is lazy and the file mapped once per opening), while the calling thread
/// writes the tables out in order as they are made. The document is exactly
/// `TTX.dump(face, tags:)`'s.
extension TTX {
    /// `progress` is told, as each table is written, the estimated cost written of the total
    /// and the table waited for next (for a progress bar).
    public static func dump(
        path: String, face index: Int, tags requested: [Tag]?, piece: (String) throws -> Void,
        progress: ((_ done: Int, _ total: Int, _ next: Tag?) -> Void)? = nil
    ) throws {
        let font = try Font(path: path)
        guard index >= 0, index < font.faces.count else { throw FontError("the file has no face \(index)") }
        let face = font.faces[index]
        let tags = (requested ?? face.tags).sorted(by: { $0.description < $1.description })
        for tag in tags where !face.has(tag) { throw FontError("the face has no '\(tag)' table") }
        let workers = min(Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), tags.count)
        guard workers > 1 else { return try dump(face, tags: requested, piece: piece) }

        // Longest first, each to the least loaded thread.
        var groups = [[Int]](repeating: [], count: workers), loads = [Int](repeating: 0, count: workers)
        let costs = tags.map { (face.storedLength($0) ?? 0) * dumpCostPerByte($0) }
        for k in tags.indices.sorted(by: { costs[$0] > costs[$1] }) {
            let g = loads.indices.min(by: { loads[$0] < loads[$1] }) ?? 0
            groups[g].append(k); loads[g] += costs[k]
        }
        // Each thread takes its tables in document order, so the calling thread can write them
        // out as they come (the kernel's copy into the file overlaps the other tables' work).
        for g in groups.indices { groups[g].sort() }
        // What the calling thread writes from the face comes first: the face then belongs to
        // the first worker alone.
        let head = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<ttFont sfntVersion=\"\(sfntVersionText(face.sfntVersion))\">\n"
        let order = requested == nil ? try glyphOrder(face) : nil
        let results = DumpResults(count: tags.count)
        let shared = SharedFont(font: font), assigned = groups
        let running = DispatchGroup()
        defer { running.wait() }   // also when writing fails: no worker outlives the call
        for g in assigned.indices {
            DispatchQueue.global().async(group: running) {
                // The Font is kept while its face is used (a face holds its font weakly).
                let opened = Result { g == 0 ? shared.font : try Font(path: path) }
                for k in assigned[g] { results.set(k, opened.flatMap { font in Result { try table(tags[k], of: font.faces[index]) } }) }
            }
        }
        try piece(head)
        if let order { try piece(order) }
        let totalCost = costs.reduce(0, +)
        var costDone = 0
        for k in tags.indices {
            progress?(costDone, totalCost, tags[k])
            try piece("\n")
            try piece(try results.take(k))
            costDone += costs[k]
        }
        progress?(totalCost, totalCost, nil)
        try piece("\n</ttFont>\n")
    }

    /// About how long a byte of the table takes to dump, in nanoseconds, as measured on the
    /// bench fonts (`Scripts/bench 3 dump`): layout tables are dense with structure, images are
    /// hex, bitmap locators name a glyph every few bytes.
    static func dumpCostPerByte(_ tag: Tag) -> Int {
        switch tag {
        case "GPOS", "GDEF": 400
        case "GSUB", "cmap": 250
        case "MATH", "BASE", "JSTF", "HVAR", "VVAR", "COLR": 200
        case "CFF ", "CFF2", "gvar": 110
        case "hmtx", "vmtx", "kern", "cvt ", "fpgm", "prep": 90
        case "glyf": 60
        case "loca": 2
        case "EBDT", "CBDT", "bdat", "sbix", "SVG ", "DSIG": 8
        case "EBLC", "CBLC", "bloc": 900
        default: 100
        }
    }

    /// The font the calling thread opened, handed to the one worker that uses it.
    private struct SharedFont: @unchecked Sendable { let font: Font }

    /// Each table's element (or error), set from the worker threads and taken, in order, by the
    /// thread writing the document, which waits for each.
    private final class DumpResults: @unchecked Sendable {
        private var items: [Result<String, Error>?]
        private let ready: [DispatchSemaphore]
        private let lock = PosixLock()
        init(count: Int) {
            items = Array(repeating: nil, count: count)
            ready = (0..<count).map { _ in DispatchSemaphore(value: 0) }
        }
        func set(_ k: Int, _ r: Result<String, Error>) {
            lock.withLock { items[k] = r }
            ready[k].signal()
        }
        /// The element once it is made, handed over and dropped here (the document is never held twice).
        func take(_ k: Int) throws -> String {
            ready[k].wait()
            let r = lock.withLock { () -> Result<String, Error>? in
                defer { items[k] = nil }; return items[k]
            }
            guard let r else { throw FontError("a table's dump did not run") }
            return try r.get()
        }
    }
}
