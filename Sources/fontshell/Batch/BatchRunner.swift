import FontScript
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs one job per font on `jobs` worker processes (`fontshell batch-worker …`), each font
/// handed to the next free worker, so a slow font never holds the others up. Processes, not
/// threads: a script that loops or a font that crashes a library takes one worker down, which
/// is killed (past `timeout`) or reaped, recorded as that font's failure, and replaced.
/// Records are handed back in the order of `paths`, whatever order the workers finish in.
final class BatchRunner {
    let workerArguments: [String]
    let jobs: Int
    let timeout: Double?
    /// Workers started before the file list was known (`prestart`), handed to `run`.
    private var prestarted: [Worker] = []

    init(workerArguments: [String], jobs: Int, timeout: Double?) {
        self.workerArguments = workerArguments
        self.jobs = max(1, jobs)
        self.timeout = timeout
    }

    /// Starts the workers now, so their start-up (loading the program, a few milliseconds
    /// each) overlaps the parent's glob instead of following it. Workers that get no font
    /// (fewer fonts than workers, or no run at all) see their task pipe close and exit.
    func prestart() throws {
        while prestarted.count < jobs { prestarted.append(try spawn()) }
    }

    deinit { for w in prestarted { stop(w, kill: false) } }

    /// Fonts handed to a worker ahead of the one it is reading, so it never waits for the
    /// parent between fonts: about `queuedSeconds` of work at the average time per font seen so
    /// far, at least 2 (slow fonts such as checks, so the last ones are not stuck behind a busy
    /// worker) and at most 64. While every worker has half that queued, the parent sleeps a
    /// millisecond before collecting results, taking them in batches: waking for every font
    /// cost the two cores about a fifth of the work.
    static let minimumDepth = 2, maximumDepth = 64
    /// The longest result line a worker may send (a script's whole return value, as JSON).
    static let maximumRecordBytes = 256 << 20
    static let queuedSeconds = 0.004

    final class Worker {
        let pid: pid_t
        let taskFD: Int32, resultFD: Int32
        var buffer: [UInt8] = []
        /// Fonts sent and not yet answered, in the order the worker takes them.
        var queue: [Int] = []
        /// When the worker started on the first of them.
        var started = 0.0
        /// Fonts it has answered for.
        var answered = 0
        init(pid: pid_t, taskFD: Int32, resultFD: Int32) { self.pid = pid; self.taskFD = taskFD; self.resultFD = resultFD }
    }

    /// Runs every path (`sizes`: their file sizes); `emit` gets each record in path order as
    /// soon as its turn comes.
    func run(paths: [String], sizes: [Int], progress: BatchProgress, emit: (Int, FontJob.Record) -> Void) throws {
        signal(SIGPIPE, SIG_IGN)
        WorkerGroups.endOnSignals()
        // Largest files first, so a big collection does not start last and hold up the end.
        var pending =
            paths.indices.map { ($0, sizes[$0]) }
            .sorted { $0.1 > $1.1 || ($0.1 == $1.1 && $0.0 < $1.0) }.map(\.0).reversed() as [Int]   // taken from the end
        var finished = [FontJob.Record?](repeating: nil, count: paths.count)   // records waiting for their turn
        var emitted = 0
        var workers = prestarted
        prestarted = []
        var timed = 0, timedSeconds = 0.0
        var emptyEndings = 0
        var depth: Int {
            guard timed >= 8 else { return BatchRunner.minimumDepth }
            let perFont = max(timedSeconds / Double(timed), 1e-6)
            return min(BatchRunner.maximumDepth, max(BatchRunner.minimumDepth, Int(BatchRunner.queuedSeconds / perFont)))
        }
        var chunk = [UInt8](repeating: 0, count: 65536)   // what one read takes from a worker
        // Idle workers at the end see their task pipe close and exit, flushing what they wrote.
        defer { for w in workers { stop(w, kill: !w.queue.isEmpty) } }

        func complete(_ index: Int, _ record: FontJob.Record) {
            progress.finished(path: paths[index], record: record)
            finished[index] = record
            while emitted < paths.count, let r = finished[emitted] {
                finished[emitted] = nil
                emit(emitted, r)
                emitted += 1
            }
        }
        /// A worker that ended or was stopped: the font it was reading fails with `reason`, the
        /// ones queued behind it go back to be handed out again.
        func lose(_ w: Worker, _ reason: String) {
            guard let head = w.queue.first else { return }
            complete(head, FontJob.failure(path: paths[head], seconds: monotonicSeconds() - w.started, error: reason))
            pending += w.queue.dropFirst().reversed()
            w.queue = []
        }

        // The task protocol is one line per font: a path with a line break cannot be sent.
        for (i, path) in paths.enumerated() where BatchRunner.hasLineBreak(path) {
            pending.removeAll { $0 == i }
            complete(
                i,
                FontJob.failure(
                    path: path, seconds: 0, error: "the path has a line break, which batch runs cannot pass to a worker; rename the file"))
        }

        while emitted < paths.count {
            // Hand out work: fill the workers' queues, start new workers while all are busy.
            func fill(_ w: Worker) {
                let n = min(depth - w.queue.count, pending.count)
                guard n > 0 else { return }
                let batch = Array(pending.suffix(n).reversed())
                if send(batch, paths, to: w) { pending.removeLast(n) }
            }
            for w in workers { fill(w) }
            while workers.count < jobs, !pending.isEmpty, workers.allSatisfy({ !$0.queue.isEmpty }) {
                let w = try spawn()
                workers.append(w)
                fill(w)
            }
            progress.tick(running: workers.compactMap { $0.queue.first.map { paths[$0] } })

            let wellSupplied = depth / 2
            if wellSupplied >= 4, workers.count == jobs, workers.allSatisfy({ $0.queue.count >= wellSupplied }) {
                var pause = timespec(tv_sec: 0, tv_nsec: 1_000_000)
                nanosleep(&pause, nil)
            }
            var fds = workers.map { pollfd(fd: $0.resultFD, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&fds, nfds_t(fds.count), 100)
            if ready < 0 && errno != EINTR { throw BatchError("poll failed: \(String(cString: strerror(errno)))") }
            var gone: [Worker] = []
            for (k, w) in workers.enumerated() where fds[k].revents != 0 {
                let n = read(w.resultFD, &chunk, chunk.count)
                if n > 0 {
                    w.buffer += chunk[0..<n]
                    var start = 0
                    var garbled = false
                    while let newline = BatchRunner.lineBreak(in: w.buffer, from: start) {
                        let line = w.buffer[start..<newline]
                        start = newline + 1
                        // Anything but the record of the font at the head of its queue means
                        // the channel was written by something else (a script can open fd 3):
                        // the worker can no longer be believed.
                        guard let (index, record) = BatchRunner.parseResult(line), w.queue.first == index else { garbled = true; break }
                        w.queue.removeFirst()
                        w.answered += 1
                        let finishedAt = monotonicSeconds()
                        timed += 1; timedSeconds += finishedAt - w.started
                        w.started = finishedAt
                        complete(index, record)
                    }
                    w.buffer.removeSubrange(..<start)
                    if garbled || w.buffer.count > BatchRunner.maximumRecordBytes {
                        stop(w, kill: true)
                        lose(
                            w,
                            garbled
                                ? "the worker's result channel carried something other than a result (did the script write to file descriptor 3?); the worker was stopped"
                                : "the worker's result is over \(BatchRunner.maximumRecordBytes >> 20) MiB without a line end (did the script write to file descriptor 3?); the worker was stopped"
                        )
                        gone.append(w)
                    }
                } else if n == 0 || (errno != EINTR && errno != EAGAIN) {
                    // The worker ended: the font it was reading failed with the reason.
                    let reason = stop(w, kill: false)
                    // Workers that end before taking any font would be replaced for ever.
                    if w.answered == 0 && w.queue.isEmpty {
                        emptyEndings += 1
                        if emptyEndings >= 8 { throw BatchError("the workers end before taking a font (the last \(reason))") }
                    }
                    lose(w, "the worker running this font \(reason)")
                    gone.append(w)
                }
            }
            fflush(nil)   // the records of this round reach stdout together
            if let timeout {
                for w in workers where !gone.contains(where: { $0 === w }) {
                    guard !w.queue.isEmpty, monotonicSeconds() - w.started > timeout else { continue }
                    stop(w, kill: true)
                    lose(w, "timed out after \(formatSeconds(timeout)) s (--timeout); the worker was stopped")
                    gone.append(w)
                }
            }
            workers.removeAll { w in gone.contains { $0 === w } }
        }
        progress.done()
    }

    /// "index\tfailed\tjson" → the record. Read as bytes: the parent does this for every font
    /// while two workers want both cores, so each microsecond here is one they lose.
    static func parseResult(_ line: ArraySlice<UInt8>) -> (Int, FontJob.Record)? {
        var index = 0, k = line.startIndex
        while k < line.endIndex, k - line.startIndex < 18, (48...57).contains(line[k]) {
            index = index * 10 + Int(line[k] - 48)
            k += 1
        }
        guard k > line.startIndex, line.endIndex - k >= 3, line[k] == 9, line[k + 2] == 9 else { return nil }
        return (index, FontJob.Record(json: String(decoding: line[(k + 3)...], as: UTF8.self), failed: line[k + 1] == UInt8(ascii: "1")))
    }

    /// Whether `path` has a line break, which a task line cannot carry.
    static func hasLineBreak(_ path: String) -> Bool {
        path.utf8.withContiguousStorageIfAvailable { $0.count > 0 && memchr($0.baseAddress!, 10, $0.count) != nil }
            ?? path.utf8.contains(10)
    }

    /// Where the next line break is in `bytes` from `start` (memchr: records are a few hundred bytes).
    static func lineBreak(in bytes: [UInt8], from start: Int) -> Int? {
        guard start < bytes.count else { return nil }
        return bytes.withUnsafeBufferPointer { b in
            memchr(b.baseAddress! + start, 10, b.count - start).map { b.baseAddress!.distance(to: $0.assumingMemoryBound(to: UInt8.self)) }
        }
    }

    /// Hands fonts to a worker: one line each ("index TAB path"), in one write.
    func send(_ indices: [Int], _ paths: [String], to w: Worker) -> Bool {
        var lines: [UInt8] = []
        lines.reserveCapacity(indices.count * 80)
        for i in indices {
            lines += String(i).utf8
            lines.append(9)
            lines += paths[i].utf8
            lines.append(10)
        }
        var sent = 0
        while sent < lines.count {
            let n = lines[sent...].withUnsafeBytes { write(w.taskFD, $0.baseAddress, $0.count) }
            if n < 0 { if errno == EINTR { continue }; return false }
            sent += n
        }
        if w.queue.isEmpty { w.started = monotonicSeconds() }
        w.queue += indices
        return true
    }

    /// Stops (or reaps) a worker and says how it ended.
    @discardableResult
    func stop(_ w: Worker, kill force: Bool) -> String {
        if force { kill(-w.pid, SIGKILL) }
        close(w.taskFD)
        close(w.resultFD)
        // Wait for the worker without reaping it (its pid, and so its group's id, stays taken),
        // then end what is left in its group: children a script started and left running.
        var info = siginfo_t()
        while waitid(P_PID, id_t(w.pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
        kill(-w.pid, SIGKILL)
        WorkerGroups.remove(w.pid)
        var status: Int32 = 0
        while waitpid(w.pid, &status, 0) < 0 && errno == EINTR {}
        let signalled = status & 0x7f
        if signalled != 0 && signalled != 0x7f {
            let name = strsignal(signalled).map { String(cString: $0) } ?? "signal \(signalled)"
            return "was killed by signal \(signalled) (\(name)\(signalled == SIGKILL ? "; out of memory?" : ""))"
        }
        return "exited with status \((status >> 8) & 0xff)"
    }

    func spawn() throws -> Worker {
        let tasks = try makePipe(), results = try makePipe()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // The script's stdin is /dev/null (a script that reads it must not swallow the tasks),
        // results go out on fd 3 and tasks come in on fd 4.
        // (The ends are first copied above 9, so neither dup2 can overwrite the other's source.)
        let resultEnd = fcntl(results.write, F_DUPFD_CLOEXEC, 10), taskEnd = fcntl(tasks.read, F_DUPFD_CLOEXEC, 10)
        defer { close(resultEnd); close(taskEnd) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, resultEnd, BatchWorker.resultDescriptor)
        posix_spawn_file_actions_adddup2(&actions, taskEnd, BatchWorker.taskDescriptor)
        // Its own process group, so a timeout or an interrupt ends what the script started too.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        let executable = FontScript.executablePath()
        let argv = [executable, "batch-worker"] + workerArguments
        var cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { for p in cArgs { free(p) } }
        // A crashing worker's backtrace would fill the batch's stderr: the failure line says
        // which font and how the worker ended (SWIFT_BACKTRACE set by the user is kept).
        var environment: [UnsafeMutablePointer<CChar>?] = []
        var index = 0
        while let entry = environ[index] { environment.append(entry); index += 1 }
        let quietCrash = strdup("SWIFT_BACKTRACE=enable=no")
        defer { free(quietCrash) }
        if getenv("SWIFT_BACKTRACE") == nil { environment.append(quietCrash) }
        environment.append(nil)
        var pid: pid_t = 0
        let status = posix_spawnp(&pid, executable, &actions, &attributes, &cArgs, &environment)
        close(tasks.read)
        close(results.write)
        guard status == 0 else {
            close(tasks.write); close(results.read)
            throw BatchError("cannot start a worker (\(executable)): \(String(cString: strerror(status)))")
        }
        WorkerGroups.add(pid)
        return Worker(pid: pid, taskFD: tasks.write, resultFD: results.read)
    }

    /// A pipe whose ends are closed in other children (each worker gets only its own two).
    func makePipe() throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw BatchError("cannot make a pipe: \(String(cString: strerror(errno)))") }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return (fds[0], fds[1])
    }
}

func formatSeconds(_ s: Double) -> String {
    s == s.rounded() ? String(Int(s)) : String(s)
}

/// The process groups of the running workers, so that an interrupt or termination of the
/// parent ends them and everything their scripts started (each worker has its own group, so
/// a terminal's Ctrl-C reaches only the parent). Read from a signal handler: a fixed array of
/// pids, changed only outside the handler.
enum WorkerGroups {
    static let capacity = 4096
    nonisolated(unsafe) static let pids: UnsafeMutablePointer<pid_t> = {
        let p = UnsafeMutablePointer<pid_t>.allocate(capacity: capacity)
        p.initialize(repeating: 0, count: capacity)
        return p
    }()

    static func add(_ pid: pid_t) {
        for k in 0..<capacity where pids[k] == 0 { pids[k] = pid; return }
    }

    static func remove(_ pid: pid_t) {
        for k in 0..<capacity where pids[k] == pid { pids[k] = 0 }
    }

    /// SIGINT, SIGTERM and SIGHUP kill every worker group, then end the parent as the signal
    /// would. They are unblocked too: a parent started with them blocked (some launchers do)
    /// could not otherwise be stopped without leaving its workers behind.
    static func endOnSignals() {
        _ = pids
        var set = sigset_t()
        sigemptyset(&set)
        for sig in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&set, sig) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        for sig in [SIGINT, SIGTERM, SIGHUP] {
            signal(sig) { sig in
                for k in 0..<WorkerGroups.capacity where WorkerGroups.pids[k] != 0 { kill(-WorkerGroups.pids[k], SIGKILL) }
                signal(sig, SIG_DFL)
                raise(sig)
            }
        }
    }
}
