import FontModel
import FontScript
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a long command says on stderr while it works (a batch run's fonts, slices, instances).
/// On a terminal: one bar redrawn in place (done / total, failures, rate, time left) and each
/// failure on a line of its own above it; the bar is cleared before anything else is printed.
/// Otherwise plain lines: each failure, a count every 10 seconds, and the summary.
final class BatchProgress {
    var total: Int
    let label: String
    /// What is counted ("fonts", "slices", "instances").
    let unit: String
    let live: Bool
    let quiet: Bool
    var done = 0, failed = 0
    let started = now()
    var lastDraw = 0.0
    lazy var lastLine = started
    var doneAtLastLine = 0
    var barShown = false

    init(total: Int, label: String, unit: String = "fonts", quiet: Bool = false) {
        self.total = total
        self.label = label
        self.unit = unit
        self.quiet = quiet
        let term = getenv("TERM").map { String(cString: $0) } ?? ""
        live = !quiet && isatty(2) == 1 && term != "dumb"
    }

    func finished(path: String, record: FontJob.Record) {
        done += 1
        guard record.failed else { return }
        failed += 1
        // A font whose job ran but found problems (failed checks) is in the report, not here.
        if !quiet, let error = BatchProgress.errorText(record.json) { line("\(label): \(path): \(error)") }
    }

    /// `running`: the fonts the workers are reading, asked for only when a line or bar is drawn.
    func tick(running: @autoclosure () -> [String]) {
        guard live || !quiet else { return }
        let t = now()
        if live, t - lastDraw >= 0.1 {
            lastDraw = t
            draw(current: running().first)
        } else if !live, !quiet, t - lastLine >= 10, done < total {
            // A count when it moved; when it did not, once a minute, what it waits for.
            guard done != doneAtLastLine || t - lastLine >= 60 else { return }
            lastLine = t
            var text = "\(label): \(status())"
            if done == doneAtLastLine, let first = running().first { text += "; still running \(first)" }
            doneAtLastLine = done
            line(text)
        }
    }

    /// Work a command counts itself (slices, instances): `done` of `total` so far.
    func update(done: Int, total: Int) {
        self.done = done
        self.total = total
        tick(running: [])
    }

    func done(summary: Bool = true) {
        clearBar()
        if summary && !quiet { line("\(label): \(status()) in \(fixedPoint(now() - started, 1)) s") }
    }

    func status() -> String {
        let elapsed = max(now() - started, 1e-6)
        var s = "\(done)/\(total) \(unit), \(failed) failed"
        if done > 0 { s += ", " + fixedPoint(Double(done) / elapsed, 1) + " \(unit)/s" }
        return s
    }

    func draw(current: String?) {
        let width = 24
        let filled = total == 0 ? width : width * done / total
        let elapsed = max(now() - started, 1e-6)
        let rate = Double(done) / elapsed
        var text = "\r\u{1B}[2K[" + String(repeating: "#", count: filled) + String(repeating: "·", count: width - filled) + "] "
        text += "\(done)/\(total)"
        if failed > 0 { text += " · \u{1B}[31m\(failed) failed\u{1B}[0m" }
        if done > 0 {
            text += " · " + fixedPoint(rate, 1) + "/s"
            text += " · ETA " + BatchProgress.duration(Double(total - done) / max(rate, 1e-9))
        }
        if let current { text += " · " + String(current.suffix(40)) }
        put(text)
        barShown = true
    }

    func clearBar() {
        if barShown { put("\r\u{1B}[2K"); barShown = false }
    }

    func line(_ text: String) {
        clearBar()
        put(text + "\n")
    }

    func put(_ text: String) {
        fflush(nil)
        let bytes = Array(text.utf8)
        bytes.withUnsafeBytes { _ = write(2, $0.baseAddress, $0.count) }
    }

    /// The progress of work other threads report (a slice made on any core), one at a time.
    final class Shared: @unchecked Sendable {
        let progress: BatchProgress
        private let lock = PosixLock()
        init(_ progress: BatchProgress) { self.progress = progress }
        func update(done: Int, total: Int) { lock.withLock { progress.update(done: done, total: total) } }
    }

    static func duration(_ s: Double) -> String {
        guard s.isFinite else { return "?" }
        let t = Int(s.rounded())
        return t >= 3600 ? "\(t / 3600) h \(t % 3600 / 60) min" : t >= 60 ? "\(t / 60) min \(t % 60) s" : "\(t) s"
    }

    /// The `error` field of a record, for the failure line (a light scan; records are ours).
    static func errorText(_ json: String) -> String? {
        guard let range = json.firstRange(of: "\"error\":\"") else { return nil }
        var out = ""
        var escaped = false
        for c in json[range.upperBound...] {
            if escaped { out.append(c == "n" ? " " : c); escaped = false; continue }
            if c == "\\" { escaped = true; continue }
            if c == "\"" { break }
            out.append(c)
        }
        return out
    }
}
