import ArgumentParser
import FontScript

/// The batch options `run --each` and `check` share, declared once for ArgumentParser. Their
/// names are `BatchOptions.table`'s (which `run`'s quick reader and the words after its script
/// are read by); `QuickCommandLineTests` checks that the declarations and the table agree.
struct BatchOptionGroup: ParsableArguments {
    @Option(name: [.customShort("j"), .long], help: "Workers (default: every core).")
    var jobs: Int?
    @Option(
        help: ArgumentHelp(
            "Only share i of n of the sorted fonts (i from 1 to n), or auto/n from JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID.",
            valueName: "i/n"))
    var shard: String?
    @Option(help: ArgumentHelp("Stop a font's job after this many seconds and record it as failed.", valueName: "seconds"))
    var timeout: Double?
    @Flag(help: "No progress or failure lines on stderr.")
    var quiet = false

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("-j wants a number of workers ≥ 1, got \(jobs)") }
        if let timeout, timeout <= 0 { throw ValidationError("--timeout wants seconds > 0, got \(timeout)") }
    }

    /// Every property at its default, for readers other than ArgumentParser (which cannot read
    /// a property it has not parsed).
    static var defaults: BatchOptionGroup {
        var group = BatchOptionGroup()
        (group.jobs, group.shard, group.timeout, group.quiet) = (nil, nil, nil, false)
        return group
    }
}
