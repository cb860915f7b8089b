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

/// Every writer of the command goes through the guarded atomic path.
@Suite struct WriterGuardTests {
    @Test func noCommandWritesOverItsInputFont() throws {
        let tmp = try TemporaryFolder()
        let font = tmp.file("input.ttf")
        try FileManager.default.copyItem(atPath: dejavuPath, toPath: font)
        let before = try Data(contentsOf: URL(fileURLWithPath: font))
        for args in [
            ["dump", font, "-o", font], ["preview", font, "Hi", "-o", font],
            ["preview", "--compare", font, dejavuPath, "Hi", "-o", font], ["diff", font, dejavuPath, "--png", font, "Hi"],
            ["save", font, font], ["edit", font, "-o", font, "--caps"],
        ] {
            let r = try runFontshell(args)
            #expect(r.status != 0, "\(args)")
            #expect(r.err.contains("refusing to overwrite"), "\(args): \(r.err)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: font)) == before, "\(args) changed the input")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp.path) == ["input.ttf"])
    }

    @Test func dumpToADeviceOrThroughASymlinkBehaves() throws {
        let tmp = try TemporaryFolder()
        let r = try runFontshell(["dump", dejavuPath, "-t", "hhea", "-o", "/dev/full"])
        #expect(r.status != 0 && r.err.contains("not a regular file"), "\(r.err)")
        let real = tmp.file("real.ttx"), link = tmp.file("link.ttx")
        _ = try tmp.write("real.ttx", "old")
        #expect(symlink(real, link) == 0)
        let ok = try runFontshell(["dump", dejavuPath, "-t", "hhea", "-o", link])
        #expect(ok.status == 0, "\(ok.err)")
        #expect(try String(contentsOfFile: real, encoding: .utf8).contains("<hhea>"))
        #expect((try FileManager.default.attributesOfItem(atPath: link)[.type] as? FileAttributeType) == .typeSymbolicLink)
    }
}
