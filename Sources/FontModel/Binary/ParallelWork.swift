import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Independent per-item work spread over the cores (instancing's per-glyph work): the items
/// are cut into a few chunks per core, which run at once; the results come back in item order,
/// and the first failing chunk's error (by item order) is thrown. The body may only read state
/// shared between chunks (tables decoded before the call), never decode or edit.
enum ParallelWork {
    static let cores = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))

    /// `body` over `0..<count` in chunks, results joined in order. Fewer than
    /// `minimumPerChunk` items per chunk run on the calling thread alone.
    static func map<T>(_ count: Int, minimumPerChunk: Int = 32, _ body: (Range<Int>) throws -> [T]) throws -> [T] {
        let chunks = min(cores * 4, count / max(1, minimumPerChunk))
        guard cores > 1, chunks > 1 else { return try body(0..<count) }
        let results = ChunkResults<T>(chunks)
        withoutActuallyEscaping(body) { body in
            // The body runs only until concurrentPerform returns, and reads only.
            let shared = SharedBody(run: body)
            DispatchQueue.concurrentPerform(iterations: chunks) { k in
                results.set(k, Result { try shared.run((k * count / chunks)..<((k + 1) * count / chunks)) })
            }
        }
        return try results.joined()
    }

    private struct SharedBody<T>: @unchecked Sendable {
        let run: (Range<Int>) throws -> [T]
    }

    /// Each chunk's outcome, set from the worker threads.
    private final class ChunkResults<T>: @unchecked Sendable {
        private var items: [Result<[T], Error>?]
        private let lock = PosixLock()
        init(_ count: Int) { items = Array(repeating: nil, count: count) }
        func set(_ k: Int, _ outcome: Result<[T], Error>) { lock.withLock { items[k] = outcome } }
        func joined() throws -> [T] {
            var all: [T] = []
            all.reserveCapacity(items.reduce(0) { $0 + ((try? $1?.get())?.count ?? 0) })
            for item in items {
                guard let item else { throw FontError("a parallel chunk did not run") }
                all += try item.get()
            }
            return all
        }
    }
}
