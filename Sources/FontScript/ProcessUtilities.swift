#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FontModel

// What the command line and the Lua side both need of the process, in one place: reading a file
// whole, a script's #! line, the monotonic clock, a line on standard error.

/// A whole file's bytes, or nil with errno set (EFBIG past `limit`): scripts, checks, XML.
public func readFile(_ path: String, limit: Int = Int.max) -> [UInt8]? {
    guard let f = fopen(path, "rb") else { return nil }
    defer { fclose(f) }
    AtomicFile.protectInput(path)   // no write of this process replaces a file it read
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = fread(&buffer, 1, buffer.count, f)
        if n > 0 { bytes.append(contentsOf: buffer[0..<n]) }
        if bytes.count > limit { errno = EFBIG; return nil }
        if n < buffer.count { break }
    }
    return ferror(f) == 0 ? bytes : nil
}

/// A first line starting with '#' (a #! line) is blanked, keeping line numbers.
public func strippingHashLine(_ source: [UInt8]) -> [UInt8] {
    guard source.first == UInt8(ascii: "#") else { return source }
    let end = source.firstIndex(of: UInt8(ascii: "\n")) ?? source.endIndex
    return Array(source[end...])
}

/// Seconds on the monotonic clock (durations in records and batch runs).
public func monotonicSeconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

/// Writes a line to standard output. Swift's `print` takes `Any` and asks each value, at run
/// time, which printing protocols it conforms to: for a command's one report line, that look-up
/// (a scan of the runtime's conformance records) was a twentieth of a `subset` run.
public func printLine(_ text: String) { writeLine(text, to: 1) }

/// Writes a line to standard error, after flushing what Lua and Swift printed to stdout.
public func printError(_ text: String) { writeLine(text, to: 2) }

/// One line written at once to `descriptor`, after what Lua and Swift buffered before it.
private func writeLine(_ text: String, to descriptor: Int32) {
    fflush(nil)
    let line = Array((text + "\n").utf8)
    line.withUnsafeBytes { _ = write(descriptor, $0.baseAddress, $0.count) }
}
