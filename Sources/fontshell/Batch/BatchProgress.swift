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
/// Otherwise plain lines: each failure, a count every 10 seconds, and the summary. Work done
/// within a third of a second draws no bar (it would only flicker; FONTSHELL_PROGRESS_DELAY
/// sets another wait in seconds, which tests use to see the bar of short work).
final class BatchProgress {
    var total: Int
    let label: String
    /// What is counted ("fonts", "slices", "instances"); "%" shows done/total (of any unit,
    /// e.g. bytes) as a percentage.
    let unit: String
    let live: Bool
    let quiet: Bool
    var done = 0, failed = 0
    let started = monotonicSeconds()
    let delay = getenv("FONTSHELL_PROGRESS_DELAY").flatMap { Double(String(cString: $0)) } ?? 0.3
    lazy var lastDraw = started + delay - 0.1
    /// What is being worked on, shown at the bar's end (set with `update`).
    var current: String?
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
    /// `force`: draw now (what is being worked on changed, and may take long), still not in
    /// the first moments.
    func tick(running: @autoclosure () -> [String], force: Bool = false) {
        guard live || !quiet else { return }
        let t = monotonicSeconds()
        if live, t - lastDraw >= 0.1 || (force && t - started >= delay) {
            lastDraw = t
            draw(current: running().first ?? current)
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

    /// Work a command counts itself (slices, instances, bytes): `done` of `total` so far, and
    /// what it is doing now when that says more.
    func update(done: Int, total: Int, current: String? = nil) {
        self.done = done
        self.total = total
        let changed = current != nil && current != self.current
        if let current { self.current = current }
        tick(running: [], force: changed)
    }

    func done(summary: Bool = true) {
        clearBar()
        if summary && !quiet { line("\(label): \(status()) in \(fixedPoint(monotonicSeconds() - started, 1)) s") }
    }

    func status() -> String {
        let elapsed = max(monotonicSeconds() - started, 1e-6)
        if unit == "%" { return "\(percent) %" }
        var s = "\(done)/\(total) \(unit), \(failed) failed"
        if done > 0 { s += ", " + fixedPoint(Double(done) / elapsed, 1) + " \(unit)/s" }
        return s
    }

    func draw(current: String?) {
        let width = 24
        let filled = total == 0 ? width : width * done / total
        let elapsed = max(monotonicSeconds() - started, 1e-6)
        let rate = Double(done) / elapsed
        var text = "\r\u{1B}[2K[" + String(repeating: "#", count: filled) + String(repeating: "·", count: width - filled) + "] "
        text += unit == "%" ? "\(percent) %" : "\(done)/\(total)"
        if failed > 0 { text += " · \u{1B}[31m\(failed) failed\u{1B}[0m" }
        if done > 0 {
            if unit != "%" { text += " · " + fixedPoint(rate, 1) + "/s" }
            text += " · ETA " + BatchProgress.duration(Double(total - done) / max(rate, 1e-9))
        }
        if let current { text += " · " + String(current.suffix(40)) }
        put(text)
        barShown = true
    }

    var percent: Int { total == 0 ? 100 : Int(Double(done) * 100 / Double(total)) }

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
        /// A save's progress reported to this bar (a WOFF2's compression, from the saving thread).
        var saveProgress: SaveProgress { { done, total in self.update(done: done, total: total) } }
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
