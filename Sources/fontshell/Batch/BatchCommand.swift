import JSONText
import ArgumentParser
import FontScript
import LuaBridge
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The fonts of a batch: patterns expanded, sorted, this shard's share; patterns that match
/// nothing are returned too, to be reported (by shard 0 only, so shards concatenate cleanly).
func batchFiles(_ patterns: [String], shard: String?, label: String) throws -> (paths: [String], sizes: [Int], unmatched: [String]) {
    // Every pattern's files in one list, sorted, so a file named twice is listed once (no
    // hashing: the sort is needed anyway).
    var found: [(file: FileGlob.Match, pattern: Int)] = []
    for (k, p) in patterns.enumerated() { found += FileGlob.expand(p).map { ($0, k) } }
    let sorted = FileGlob.sortedByBytes(found) { $0.file.path }
    var paths: [String] = [], sizes: [Int] = []
    var matched = [Bool](repeating: false, count: patterns.count)
    var i = 0
    while i < sorted.count {
        paths.append(sorted[i].item.file.path)
        sizes.append(sorted[i].item.file.size)
        matched[sorted[i].item.pattern] = true
        var next = i + 1
        while next < sorted.count, FileGlob.compareBytes(sorted[next].key, sorted[i].key) == 0 {
            matched[sorted[next].item.pattern] = true
            next += 1
        }
        i = next
    }
    var unmatched = patterns.indices.filter { !matched[$0] }.map { patterns[$0] }
    if let shard {
        let s = try Shard.parse(shard, environment: ProcessInfo.processInfo.environment)
        paths = s.select(paths)
        sizes = s.select(sizes)
        if s.index != 0 { unmatched = [] }
    }
    return (paths, sizes, unmatched)
}

/// `fontshell run SCRIPT --each GLOB ...`: returns the exit status (0: every font passed).
func runBatch(script: String, arguments: [String], options: BatchOptions, sandboxed: Bool) -> Int32 {
    do {
        // A script that does not compile fails once, not once per font.
        guard let source = readFile(script) else {
            printError("fontshell run: cannot open \(script) (\(String(cString: strerror(errno))))")
            return 1
        }
        let lua = LuaState()
        do { try lua.load(bytes: strippingHashLine(source), name: "@" + script, textOnly: sandboxed) } catch let e as LuaError {
            printError("fontshell run: \(e.message)")
            return 1
        }
        let runner = BatchRunner(
            workerArguments: ["script", script, sandboxed ? "sandbox" : "full"] + arguments,
            jobs: options.jobs ?? BatchOptions.cores, timeout: options.timeout)
        try runner.prestart()
        let (paths, sizes, unmatched) = try batchFiles(options.each, shard: options.shard, label: "fontshell run")
        let jsonl = options.jsonl || isatty(1) == 0
        var failed = false
        for p in unmatched {
            failed = true
            printRecord(FontJob.failure(path: p, seconds: 0, error: "no file matches this pattern").json, jsonl: jsonl)
        }
        if unmatched.count == options.each.count && paths.isEmpty && options.shard == nil {
            printError("fontshell run: no fonts to run over")
            return 1
        }
        let progress = BatchProgress(total: paths.count, label: "fontshell run", quiet: options.quiet)
        try runner.run(paths: paths, sizes: sizes, progress: progress) { _, record in
            if record.failed { failed = true }
            progress.clearBar()   // a result line never starts where the bar stands
            printRecord(record.json, jsonl: jsonl)
        }
        return failed ? 1 : 0
    } catch {
        printError("fontshell run: \(error)")
        return 2
    }
}

/// One record on stdout: the JSON line, or on a terminal a readable line.
func printRecord(_ json: String, jsonl: Bool) {
    if jsonl {
        // puts: C's stdout, as print uses, without print's casts from Any (records are our own
        // JSON, with no NUL); flushed by the batch runner after each round of results.
        puts(json)
        return
    }
    guard let object = JSONText.parse(json) as? [String: Any] else { print(json); return }
    let path = object["path"] as? String ?? "?"
    var line = path
    if object["ok"] as? Bool == false {
        line += "  \u{1B}[31mFAILED\u{1B}[0m  " + (object["error"] as? String ?? "")
    } else {
        if let s = JSONText.number(object["seconds"]) { line += "  " + fixedPoint(s, 3) + " s" }
        for key in object.keys.sorted() where !["path", "ok", "seconds", "faces", "printed", "traceback"].contains(key) {
            line += "  \(key)=" + compactJSON(object[key] as Any)
        }
    }
    print(line)
    for p in object["printed"] as? [String] ?? [] { print("    " + p) }
    fflush(nil)
}

func compactJSON(_ value: Any) -> String {
    if let s = value as? String { return s }
    return JSONText.write(value)
}

/// `fontshell batch-worker MODE ...`: a worker of a batch run (started by the command itself).
/// Reads "index TAB path" lines on fd 4, writes "index TAB failed TAB json" lines on fd 3; its
/// stdin is /dev/null and its stdout goes to stderr, so a script's io.read and io.write cannot
/// take tasks or break the records.
struct BatchWorker: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch-worker", abstract: "A worker of a batch run (internal).", shouldDisplay: false)
    @Argument(parsing: .captureForPassthrough) var arguments: [String] = []
    static let resultDescriptor: Int32 = 3, taskDescriptor: Int32 = 4

    func run() throws {
        let status = BatchWorker.serve(arguments)
        if status != 0 { throw ExitCode(status) }
    }

    /// Serves tasks until stdin ends; returns the exit status (2: bad arguments).
    static func serve(_ arguments: [String]) -> Int32 {
        guard let mode = arguments.first else { return 2 }
        let job: (String) -> FontJob.Record
        switch mode {
        case "script" where arguments.count >= 3:
            let script = arguments[1], sandboxed = arguments[2] == "sandbox", args = Array(arguments.dropFirst(3))
            guard let source = readFile(script) else {
                printError("fontshell batch-worker: cannot read \(script)")
                return 2
            }
            let runner = FontJob.Runner(script: source, scriptPath: script, arguments: args, sandboxed: sandboxed)
            job = { runner.run(fontPath: $0) }
        case "check" where arguments.count >= 5:
            // check PROFILE fix|- in-place|- N FOLDER... ONLY...
            let profile = arguments[1], fix = arguments[2] == "fix", inPlace = arguments[3] == "in-place"
            guard let n = Int(arguments[4]), arguments.count >= 5 + n else { return 2 }
            let folders = Array(arguments[5..<(5 + n)]), only = Array(arguments[(5 + n)...])
            job = { CheckModule.run(fontPath: $0, directories: folders, profile: profile, only: only, fix: fix, inPlace: inPlace) }
        default:
            return 2
        }
        fflush(nil)
        dup2(2, 1)
        // What the script starts (os.execute, io.popen) gets neither channel: a child left
        // running must not hold the results open, nor read tasks.
        _ = fcntl(resultDescriptor, F_SETFD, FD_CLOEXEC)
        _ = fcntl(taskDescriptor, F_SETFD, FD_CLOEXEC)
        guard let tasks = fdopen(taskDescriptor, "r") else { return 2 }
        // Each result is written as soon as its font is done: a worker that dies or is killed
        // has then sent everything before the font it was reading, which is the one blamed.
        var buffer: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(buffer) }
        while true {
            let n = getline(&buffer, &capacity, tasks)
            guard n > 0, let buffer else { break }
            let line = String(decoding: UnsafeRawBufferPointer(start: buffer, count: buffer[n - 1] == 10 ? n - 1 : n), as: UTF8.self)
            guard let tab = line.firstIndex(of: "\t"), let index = Int(line[..<tab]) else { continue }
            let record = job(String(line[line.index(after: tab)...]))
            fflush(nil)
            let out = Array("\(index)\t\(record.failed ? 1 : 0)\t\(record.json)\n".utf8)
            var sent = 0
            while sent < out.count {
                let n = out[sent...].withUnsafeBytes { write(resultDescriptor, $0.baseAddress, $0.count) }
                if n < 0 { if errno == EINTR { continue }; return 1 }
                sent += n
            }
        }
        return 0
    }
}

/// Ends the process (inside a ParsableCommand, `exit` names ArgumentParser's own).
func exitProcess(_ status: Int32) -> Never { exit(status) }
