import Foundation
import Testing

/// Ctrl-C (SIGINT) stops `run` and `-e` with "interrupted" and status 130, in coroutines too.
@Suite struct InterruptTests {
    /// Starts fontshell, sends SIGINT once it has had time to enter the loop, returns status and stderr.
    func interrupt(_ args: [String]) throws -> (status: Int32, err: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: fontshellBinary)
        p.arguments = args
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        Thread.sleep(forTimeInterval: 0.7)
        kill(p.processIdentifier, SIGINT)
        let deadline = Date().addingTimeInterval(10)
        while p.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if p.isRunning { kill(p.processIdentifier, SIGKILL); p.waitUntilExit(); return (-1, "still running 10 s after SIGINT") }
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (p.terminationStatus, text)
    }

    @Test func interruptStopsALoopInAChunk() throws {
        let r = try interrupt(["-e", "while true do end"])
        #expect(r.status == 130, "\(r)")
        #expect(r.err.contains("interrupted"))
    }

    @Test func interruptStopsALoopInsideACoroutine() throws {
        let r = try interrupt(["-e", "local co = coroutine.wrap(function() while true do end end); co()"])
        #expect(r.status == 130, "\(r)")
    }

    @Test func interruptIsNotSwallowedByPcall() throws {
        let r = try interrupt(["-e", "while true do pcall(function() while true do end end) end"])
        #expect(r.status == 130, "\(r)")
    }

    @Test func interruptStopsAScript() throws {
        let tmp = try TemporaryFolder()
        let script = try tmp.write("loop.lua", "local n = 0\nwhile true do n = n + 1 end\n")
        let r = try interrupt(["run", script])
        #expect(r.status == 130, "\(r)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp.path) == ["loop.lua"])
    }
}
