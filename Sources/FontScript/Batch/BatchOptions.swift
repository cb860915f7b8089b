#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The command-line options of batch runs (`run --each`, `check`), read from untrusted text
// and environment variables: here, in a library, so a fuzz target can reach them.

/// The options of a batch run, from `run`'s own options or, since everything after the script
/// is the script's, from the words after it up to `--` when one of them is `--each`.
public struct BatchOptions: Equatable, Sendable {
    public var each: [String] = []
    public var jobs: Int?
    public var shard: String?
    public var timeout: Double?
    public var jsonl = false
    public var quiet = false

    public init(
        each: [String] = [], jobs: Int? = nil, shard: String? = nil, timeout: Double? = nil, jsonl: Bool = false, quiet: Bool = false
    ) {
        self.each = each; self.jobs = jobs; self.shard = shard; self.timeout = timeout; self.jsonl = jsonl; self.quiet = quiet
    }

    /// One batch option's spellings; `takesValue` false for a flag; `runOnly` for the two that
    /// only `run` has (`check` takes its fonts as operands and writes reports, not lines).
    public struct Option: Sendable {
        public let names: [String]
        public let takesValue: Bool
        public let runOnly: Bool
    }

    /// Every batch option, once: `absorb` reads the words after `run`'s script by it, `run`'s
    /// quick reader is made from it, and the commands' ArgumentParser declarations
    /// (`BatchOptionGroup`, `run`'s `--each` and `--jsonl`) are tested against it.
    public static let table: [Option] = [
        Option(names: ["--each"], takesValue: true, runOnly: true),
        Option(names: ["-j", "--jobs"], takesValue: true, runOnly: false),
        Option(names: ["--shard"], takesValue: true, runOnly: false),
        Option(names: ["--timeout"], takesValue: true, runOnly: false),
        Option(names: ["--jsonl"], takesValue: false, runOnly: true),
        Option(names: ["--quiet"], takesValue: false, runOnly: false),
    ]

    static func option(named name: String) -> Option? { table.first { $0.names.contains(name) } }

    /// Takes batch options out of the script's words when `--each` is among them (before any
    /// `--`); returns the script's arguments.
    public mutating func absorb(_ words: [String]) throws -> [String] {
        let head = words.prefix { $0 != "--" }
        guard !each.isEmpty || head.contains(where: { $0 == "--each" || $0.hasPrefix("--each=") }) else { return words }
        var rest: [String] = []
        var i = 0
        while i < words.count {
            var word = words[i]
            if word == "--" { rest += words[(i + 1)...]; break }
            var value: String?
            if let eq = word.firstIndex(of: "="), word.hasPrefix("--"), BatchOptions.option(named: String(word[..<eq]))?.takesValue == true
            {
                value = String(word[word.index(after: eq)...])
                word = String(word[..<eq])
            }
            if let option = BatchOptions.option(named: word) {
                if option.takesValue && value == nil {
                    guard i + 1 < words.count else { throw BatchError("\(word) needs a value") }
                    value = words[i + 1]
                    i += 1
                }
                try set(word, value)
            } else {
                rest.append(word)
            }
            i += 1
        }
        return rest
    }

    /// Sets the option named `option` (any of its spellings) from `value` (nil for a flag).
    public mutating func set(_ option: String, _ value: String?) throws {
        let value = value ?? ""
        switch option {
        case "--jsonl": jsonl = true
        case "--quiet": quiet = true
        case "--each": each.append(value)
        case "-j", "--jobs":
            guard let n = Int(value), n >= 1 else { throw BatchError("\(option) wants a number of workers ≥ 1, got '\(value)'") }
            jobs = n
        case "--shard": shard = value
        case "--timeout":
            guard let t = Double(value), t > 0 else { throw BatchError("--timeout wants seconds > 0, got '\(value)'") }
            timeout = t
        default: throw BatchError("\(option) is not a batch option")
        }
    }

    /// The cores this process may use.
    public static var cores: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }
}

/// `--shard i/n`: this machine's share of a batch, a contiguous run of the sorted file list, so
/// the shards' JSON lines concatenated in shard order are exactly one whole run's lines.
/// `i` counts from 1 to n, as Jest's, Playwright's and Vitest's `--shard` do (`index` here
/// from 0). `auto/n` (or `auto`) takes the index from the scheduler running this copy, which
/// counts from 0:
/// a Kubernetes Indexed Job's `JOB_COMPLETION_INDEX`, or a Slurm array's
/// `SLURM_ARRAY_TASK_ID` (less `SLURM_ARRAY_TASK_MIN`), with `n` from
/// `SLURM_ARRAY_TASK_COUNT` when not given.
public struct Shard: Equatable, Sendable {
    public let index: Int
    public let count: Int

    public init(index: Int, count: Int) { self.index = index; self.count = count }

    /// The files of this shard: file k of N belongs to shard ⌊k·n/N⌋.
    public func select<T>(_ items: [T]) -> [T] {
        Array(items[bound(items.count, index)..<bound(items.count, index + 1)])
    }

    /// ⌊total·k/n⌋ in double width: with k and n up to Int.max the product does not fit an Int
    /// (the quotient, at most `total`, always does).
    private func bound(_ total: Int, _ k: Int) -> Int {
        count.dividingFullWidth(total.multipliedFullWidth(by: k)).quotient
    }

    public static func parse(_ text: String, environment: [String: String]) throws -> Shard {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard (1...2).contains(parts.count) else { throw ShardError("--shard wants i/n (1 ≤ i ≤ n) or auto/n, got '\(text)'") }
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
                guard let i = Int(id), let m = Int(min) else {
                    throw ShardError("--shard auto: SLURM_ARRAY_TASK_ID '\(id)' or SLURM_ARRAY_TASK_MIN '\(min)' is not a number")
                }
                let (difference, overflow) = i.subtractingReportingOverflow(m)
                guard !overflow else {
                    throw ShardError("--shard auto: SLURM_ARRAY_TASK_ID '\(id)' less SLURM_ARRAY_TASK_MIN '\(min)' is out of range")
                }
                index = difference
                if count == nil, let c = environment["SLURM_ARRAY_TASK_COUNT"] { count = Int(c) }
            } else {
                throw ShardError(
                    "--shard auto: neither JOB_COMPLETION_INDEX (Kubernetes Indexed Job) nor SLURM_ARRAY_TASK_ID (Slurm array) is set; give the share, e.g. --shard 1/\(count ?? 4)"
                )
            }
        } else {
            guard let i = Int(parts[0]) else { throw ShardError("--shard wants i/n (1 ≤ i ≤ n) or auto/n, got '\(text)'") }
            guard let n = count, (1...n).contains(i) else {
                throw ShardError(
                    "--shard \(text): share \(i) is outside 1…\(count ?? 1) (shares count from 1, as Jest's and Playwright's --shard do)")
            }
            index = i - 1
        }
        guard let n = count else { throw ShardError("--shard \(text): how many shards? Give auto/n (SLURM_ARRAY_TASK_COUNT is not set)") }
        guard (0..<n).contains(index) else {
            throw ShardError("--shard \(text): the scheduler's index \(index) is outside 0..<\(n) (its indices count from 0)")
        }
        return Shard(index: index, count: n)
    }
}

public struct ShardError: Error, CustomStringConvertible {
    public let description: String
    public init(_ d: String) { description = d }
}

public struct BatchError: Error, CustomStringConvertible {
    public let description: String
    public init(_ d: String) { description = d }
}
