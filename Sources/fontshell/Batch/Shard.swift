/// `--shard i/n`: this machine's share of a batch, a contiguous run of the sorted file list, so
/// the shards' JSON lines concatenated in shard order are exactly one whole run's lines.
/// `i` counts from 0. `auto/n` (or `auto`) takes `i` from the scheduler running this copy:
/// a Kubernetes Indexed Job's `JOB_COMPLETION_INDEX`, or a Slurm array's
/// `SLURM_ARRAY_TASK_ID` (less `SLURM_ARRAY_TASK_MIN`), with `n` from
/// `SLURM_ARRAY_TASK_COUNT` when not given.
struct Shard: Equatable {
    let index: Int
    let count: Int

    /// The files of this shard: file k of N belongs to shard ⌊k·n/N⌋.
    func select<T>(_ items: [T]) -> [T] {
        Array(items[bound(items.count, index)..<bound(items.count, index + 1)])
    }

    /// ⌊total·k/n⌋ in double width: with k and n up to Int.max the product does not fit an Int
    /// (the quotient, at most `total`, always does).
    private func bound(_ total: Int, _ k: Int) -> Int {
        count.dividingFullWidth(total.multipliedFullWidth(by: k)).quotient
    }

    static func parse(_ text: String, environment: [String: String]) throws -> Shard {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard (1...2).contains(parts.count) else { throw ShardError("--shard wants i/n (0 ≤ i < n) or auto/n, got '\(text)'") }
        var count: Int?
        if parts.count == 2 {
            guard let n = Int(parts[1]), n >= 1 else { throw ShardError("--shard \(text): n must be a whole number ≥ 1") }
            count = n
        }
        let index: Int
        if parts[0] == "auto" {
            if let k = environment["JOB_COMPLETION_INDEX"] {
                guard let i = Int(k) else { throw ShardError("--shard auto: JOB_COMPLETION_INDEX is '\(k)', not a number") }
                index = i
            } else if let id = environment["SLURM_ARRAY_TASK_ID"] {
                let min = environment["SLURM_ARRAY_TASK_MIN"] ?? "0"
                guard let i = Int(id), let m = Int(min) else { throw ShardError("--shard auto: SLURM_ARRAY_TASK_ID '\(id)' or SLURM_ARRAY_TASK_MIN '\(min)' is not a number") }
                let (difference, overflow) = i.subtractingReportingOverflow(m)
                guard !overflow else { throw ShardError("--shard auto: SLURM_ARRAY_TASK_ID '\(id)' less SLURM_ARRAY_TASK_MIN '\(min)' is out of range") }
                index = difference
                if count == nil, let c = environment["SLURM_ARRAY_TASK_COUNT"] { count = Int(c) }
            } else {
                throw ShardError("--shard auto: neither JOB_COMPLETION_INDEX (Kubernetes Indexed Job) nor SLURM_ARRAY_TASK_ID (Slurm array) is set; give the index, e.g. --shard 0/\(count ?? 4)")
            }
        } else {
            guard let i = Int(parts[0]) else { throw ShardError("--shard wants i/n (0 ≤ i < n) or auto/n, got '\(text)'") }
            index = i
        }
        guard let n = count else { throw ShardError("--shard \(text): how many shards? Give auto/n (SLURM_ARRAY_TASK_COUNT is not set)") }
        guard (0..<n).contains(index) else { throw ShardError("--shard \(text): index \(index) is outside 0..<\(n) (indices count from 0)") }
        return Shard(index: index, count: n)
    }
}

struct ShardError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}
