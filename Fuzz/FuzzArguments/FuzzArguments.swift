import FontModel
import FontScript
import FontSubset

/// libFuzzer target: the text parsers of command lines and option files, which take what a
/// user (or a script building command lines) types: subset requests (--unicodes ranges, a
/// slices file, --glyphs lists) and batch options (--shard with Kubernetes/Slurm variables,
/// run's words with --each, -j, --timeout). The first byte picks the parser; the rest is the
/// text. Errors are the expected outcome; a trap (overflow, bad index) is the bug.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzArguments(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size > 0 else { return 0 }
    let text = String(decoding: UnsafeBufferPointer(start: data + 1, count: size - 1), as: UTF8.self)
    switch data[0] % 5 {
    case 0:
        // At most a few million scalars: a range list is bounded by U+10FFFF per item.
        if let scalars = try? SubsetRequest.parseUnicodes(String(text.prefix(64))) {
            precondition(scalars.allSatisfy { $0 <= 0x10FFFF && !(0xD800...0xDFFF).contains($0) })
        }
    case 1:
        _ = try? SliceOptions.parseSliceFile(String(text.prefix(256)))
    case 2:
        // Names map to their index; numbers are IDs as written (never negative: no sign is read).
        if let ids = try? SubsetRequest.parseGlyphs(text, names: [".notdef", "A", "a", "uni00E9", "f_i"]) {
            precondition(ids.allSatisfy { $0 >= 0 })
        }
    case 3:
        // "shard|JOB_COMPLETION_INDEX|SLURM_ARRAY_TASK_ID|SLURM_ARRAY_TASK_MIN|SLURM_ARRAY_TASK_COUNT"
        let parts = text.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        var environment: [String: String] = [:]
        for (k, key) in ["JOB_COMPLETION_INDEX", "SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_COUNT"].enumerated()
        where k + 1 < parts.count && !parts[k + 1].isEmpty { environment[key] = parts[k + 1] }
        if let shard = try? Shard.parse(parts.first ?? "", environment: environment) {
            precondition(shard.index >= 0 && shard.index < shard.count)
            let items = Array(0..<37)
            precondition(shard.select(items).count <= items.count)
        }
    default:
        var options = BatchOptions()
        _ = try? options.absorb(text.split(separator: " ").map(String.init))
    }
    return 0
}

// SwiftPM links an executable's entry point (main) as fuzz_arguments_main: hand libFuzzer's driver the target.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> Int32
) -> Int32

@_cdecl("fuzz_arguments_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    var count = argc
    var arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
    return runFuzzerDriver(&count, &arguments) { data, size in fuzzArguments(data, size) }
}
