import Foundation
import Testing

/// A font file truncated by another program while FontShell has it mapped: reads past the new
/// end used to kill the process with SIGBUS. Now they read zeros, nothing is saved from them,
/// and the command fails naming the file.
@Suite struct TruncatedFontTests {
    @Test func truncationWhileOpenIsAnErrorNotSIGBUS() throws {
        let tmp = try TemporaryFolder()
        let font = tmp.file("victim.ttf"), out = tmp.file("out.ttf")
        try FileManager.default.copyItem(atPath: dejavuPath, toPath: font)
        let script = try tmp.write(
            "truncate.lua",
            """
            local f = fontshell.open(arg[1])
            local face = f.faces[1]
            local count = face.glyphCount
            local h = assert(io.open(arg[1], "r+")); h:close()
            os.execute("truncate -s 4096 '" .. arg[1] .. "'")
            local read = 0
            for i = 0, count - 1 do
              if pcall(function() return face.glyphs[i].bounds end) then read = read + 1 end
            end
            print("read", read)
            local ok, e = pcall(function() return f:save(arg[2]) end)
            print("save", ok, e)
            """)
        let r = try runFontshell(["run", script, font, out])
        #expect(r.status == 1, "\(r)")   // not 135 (SIGBUS) or a crash
        #expect(r.out.contains("read"), "\(r.out)")
        #expect(r.out.contains("save\tfalse") && r.out.contains("truncated"), "\(r.out)")
        #expect(r.err.contains("victim.ttf: truncated by another program while open"), "\(r.err)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }
}
