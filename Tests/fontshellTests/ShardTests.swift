import Foundation
import Testing
@testable import fontshell
import FontScript

/// `--shard i/n` read from untrusted text and environment variables: any number parses to a
/// shard or a clear error, never a trap, and shards partition the list.
@Suite struct ShardTests {
    @Test func hugeIndicesAndCountsDoNotOverflow() throws {
        let items = Array(0..<10)
        for text in ["4611686018427387904/9223372036854775807", "9223372036854775806/9223372036854775807", "1/9223372036854775807"] {
            let shard = try Shard.parse(text, environment: [:])
            #expect(shard.select(items).count <= 1, "\(text)")
        }
        // Shards of a huge n still partition the list.
        let n = Int.max
        let starts = [1, n / 3, n / 2, n]
        for k in starts { #expect(try Shard.parse("\(k)/\(n)", environment: [:]).select(items).count <= 1) }
        // Every split of a small list, concatenated, is the list.
        for n in 1...12 {
            let joined = try (1...n).flatMap { try Shard.parse("\($0)/\(n)", environment: [:]).select(items) }
            #expect(joined == items)
        }
    }

    @Test func badSpellingsAreErrors() {
        for text in [
            "", "/", "1/", "/2", "-1/2", "0/2", "3/2", "0/0", "1/0", "0/-1", "a/b", "0/99999999999999999999", "99999999999999999999/1",
            "0/1/2", "auto",
        ] {
            #expect(throws: ShardError.self, "\(text)") { _ = try Shard.parse(text, environment: [:]) }
        }
        let slurm = ["SLURM_ARRAY_TASK_ID": "-9223372036854775808", "SLURM_ARRAY_TASK_MIN": "9223372036854775807"]
        #expect(throws: ShardError.self) { _ = try Shard.parse("auto/4", environment: slurm) }
        #expect(throws: ShardError.self) {
            _ = try Shard.parse("auto", environment: ["SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "x"])
        }
        #expect(
            (try? Shard.parse(
                "auto", environment: ["SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_MIN": "4", "SLURM_ARRAY_TASK_COUNT": "3"]))
                == Shard(index: 1, count: 3))
    }
}
