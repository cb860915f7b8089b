import CZlib
import FontModel
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a terminal can show a picture.
public enum TerminalImageProtocol: String, Sendable, CaseIterable {
    /// kitty's graphics protocol (kitty, Ghostty, Konsole).
    case kitty
    /// iTerm2's inline images (iTerm2, WezTerm, mintty, VS Code, Warp).
    case iterm
    /// DEC sixel (xterm -ti vt340, foot, mlterm, Windows Terminal).
    case sixel
    /// Unicode upper half blocks, two pixels a cell, in 24-bit or 256 colours: any terminal.
    case blocks
    /// Pictures off (FONTSHELL_IMAGES=off, or not a terminal).
    case none
}

/// What a terminal offers for pictures, and how big it is.
public struct TerminalInfo: Sendable, Equatable {
    public var imageProtocol: TerminalImageProtocol
    public var trueColor: Bool
    /// Inside tmux: escape sequences for the outer terminal go through its passthrough.
    public var tmux: Bool
    public var columns: Int
    /// Text lines the terminal shows (0: not known); a picture is kept within them, less two
    /// for the caption and the prompt.
    public var rows: Int
    /// One cell in pixels (from the terminal when it says, else 8 x 16).
    public var cellWidth: Int
    public var cellHeight: Int

    public init(
        imageProtocol: TerminalImageProtocol, trueColor: Bool = true, tmux: Bool = false, columns: Int = 80, rows: Int = 0,
        cellWidth: Int = 8, cellHeight: Int = 16
    ) {
        self.imageProtocol = imageProtocol; self.trueColor = trueColor; self.tmux = tmux
        self.columns = columns; self.rows = rows; self.cellWidth = cellWidth; self.cellHeight = cellHeight
    }

    /// The most cells a picture `width` × `height` pixels may be wide and still fit the
    /// terminal's height (Int.max when the height is not known). Half blocks draw two pixel
    /// rows a line at one pixel a cell; the other protocols fill cells of `cellWidth` × `cellHeight`.
    public func columnsFittingHeight(width: Int, height: Int) -> Int {
        guard rows > 0, width > 0, height > 0 else { return Int.max }
        let lines = max(1, rows - 2)
        if imageProtocol == .blocks { return max(1, 2 * lines * width / height) }
        return max(1, lines * cellHeight * width / (height * cellWidth))
    }
}

/// Pictures in the terminal, where the user types: detection (environment first, then a query
/// answered within 250 ms, as timg and chafa do) and the four encodings.
public enum TerminalGraphics {
    /// What the environment says, without asking the terminal; nil when it does not say.
    /// `FONTSHELL_IMAGES` (off, kitty, iterm, sixel, blocks) overrides everything.
    public static func fromEnvironment(_ env: [String: String]) -> TerminalImageProtocol? {
        if let forced = env["FONTSHELL_IMAGES"]?.lowercased() {
            if ["off", "no", "0", "none", "false"].contains(forced) { return TerminalImageProtocol.none }
            if let p = TerminalImageProtocol(rawValue: forced) { return p }
        }
        let term = env["TERM"] ?? "", program = env["TERM_PROGRAM"] ?? ""
        // tmux swallows graphics unless passthrough is allowed: blocks, unless forced above.
        if env["TMUX"] != nil || term.hasPrefix("tmux") || term.hasPrefix("screen") { return .blocks }
        if env["KITTY_WINDOW_ID"] != nil || term.contains("kitty") || term.contains("ghostty") || program == "ghostty" { return .kitty }
        if env["KONSOLE_VERSION"] != nil { return .kitty }
        if ["iTerm.app", "WezTerm", "vscode", "WarpTerminal", "mintty"].contains(program) || term == "mintty" { return .iterm }
        if term.hasPrefix("foot") || term.hasPrefix("mlterm") || env["WT_SESSION"] != nil { return .sixel }
        if term == "dumb" || term.isEmpty { return TerminalImageProtocol.none }
        return nil
    }

    /// The protocol from an answer to `query`: kitty's graphics reply, else sixel in the DA1
    /// attributes (4), else half blocks.
    public static func fromReply(_ reply: String) -> TerminalImageProtocol {
        if reply.contains("_Gi=31;OK") { return .kitty }
        if let start = reply.firstRange(of: "\u{1B}[?"), let end = reply[start.upperBound...].firstIndex(of: "c") {
            let attributes = reply[start.upperBound..<end].split(separator: ";")
            if attributes.contains("4") { return .sixel }
        }
        return .blocks
    }

    /// A kitty graphics query (a 1x1 image it answers OK to) followed by primary device
    /// attributes, which every terminal answers: the reply ends at DA1's "c".
    public static let query = "\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\\u{1B}[c"

    nonisolated(unsafe) private static var cached: TerminalInfo?

    /// The terminal on stdout, worked out once per process.
    public static func current() -> TerminalInfo {
        if let cached { return cached }
        var env: [String: String] = [:]
        for key in ["FONTSHELL_IMAGES", "TERM", "TERM_PROGRAM", "TMUX", "KITTY_WINDOW_ID", "KONSOLE_VERSION", "WT_SESSION", "COLORTERM"] {
            if let v = getenv(key) { env[key] = String(cString: v) }
        }
        var info = TerminalInfo(imageProtocol: .none)
        info.trueColor = ["truecolor", "24bit"].contains(env["COLORTERM"]?.lowercased() ?? "") || env["TERM_PROGRAM"] != nil
        info.tmux = env["TMUX"] != nil
        var size = winsize()
        if ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
            info.columns = Int(size.ws_col)
            info.rows = Int(size.ws_row)
            if size.ws_xpixel > 0 && size.ws_ypixel > 0 && size.ws_row > 0 {
                info.cellWidth = max(1, Int(size.ws_xpixel) / Int(size.ws_col))
                info.cellHeight = max(1, Int(size.ws_ypixel) / Int(size.ws_row))
            }
        }
        if isatty(1) == 0 {
            info.imageProtocol = .none
        } else if let p = fromEnvironment(env) {
            info.imageProtocol = p
        } else {
            info.imageProtocol = ask(query, deadline: 0.25).map(fromReply) ?? .blocks
        }
        cached = info
        return info
    }

    /// Writes `request` to the controlling terminal and reads its reply up to DA1's final "c",
    /// for at most `deadline` seconds, with echo and line editing off; nil when it stays silent.
    /// What came by the deadline is flushed; a reply still on its way is taken out of the
    /// REPL's input later (`lateReplyExpected`, `takingLateReplies`).
    static func ask(_ request: String, deadline: Double) -> String? {
        let fd = open("/dev/tty", O_RDWR | O_NOCTTY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var saved = termios()
        guard tcgetattr(fd, &saved) == 0 else { return nil }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        guard tcsetattr(fd, TCSANOW, &raw) == 0 else { return nil }
        defer { tcsetattr(fd, TCSANOW, &saved) }
        _ = request.utf8CString.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count - 1) }
        var reply: [UInt8] = []
        var start = timespec()
        clock_gettime(CLOCK_MONOTONIC, &start)
        while true {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            let elapsed = Double(now.tv_sec - start.tv_sec) + Double(now.tv_nsec - start.tv_nsec) / 1e9
            let left = Int32(max(0, (deadline - elapsed) * 1000))
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard left > 0, poll(&poller, 1, left) > 0 else { break }
            var chunk = [UInt8](repeating: 0, count: 256)
            let n = read(fd, &chunk, chunk.count)
            guard n > 0 else { break }
            reply += chunk.prefix(n)
            // DA1's reply: ESC [ ? ... c
            if let esc = reply.lastIndex(of: 0x1B), esc + 2 < reply.count, reply[esc + 1] == UInt8(ascii: "["),
                reply[esc + 2] == UInt8(ascii: "?"), reply.last == UInt8(ascii: "c")
            {
                return String(decoding: reply, as: UTF8.self)
            }
        }
        tcflush(fd, TCIFLUSH)
        // DA1's answer is still on its way (a slow link): the REPL's key reader takes it off
        // the input (`takingLateReplies`), so the user does not find it typed at the prompt.
        lateReplyDeadline = monotonicSeconds() + lateReplyWindow
        return reply.isEmpty ? nil : String(decoding: reply, as: UTF8.self)
    }

    /// How long after a query timed out its reply is still expected, and until when.
    static let lateReplyWindow = 30.0
    nonisolated(unsafe) static var lateReplyDeadline: Double?

    static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// Whether a timed-out query's reply may still arrive (for 30 s after it).
    public static var lateReplyExpected: Bool {
        guard let deadline = lateReplyDeadline else { return false }
        if monotonicSeconds() < deadline { return true }
        lateReplyDeadline = nil
        return false
    }

    /// What the line editor should get of a burst of input that began with ESC while a reply
    /// was expected: the burst without the replies. DA1's answer ends the wait; a late kitty
    /// answer still switches the pictures to kitty's protocol.
    public static func takingLateReplies(from burst: [UInt8]) -> [UInt8] {
        let (rest, answered, kitty) = removingReplies(burst)
        if answered { lateReplyDeadline = nil }
        if kitty, var info = cached, info.imageProtocol == .blocks { info.imageProtocol = .kitty; cached = info }
        return rest
    }

    /// `bytes` without the terminal's replies to `query` (kitty's `ESC _ G … ESC \` and DA1's
    /// `ESC [ ? … c`); whether DA1's answer was among them, and whether kitty answered OK.
    public static func removingReplies(_ bytes: [UInt8]) -> (rest: [UInt8], answered: Bool, kitty: Bool) {
        var rest: [UInt8] = [], answered = false, kitty = false
        var i = 0
        while i < bytes.count {
            if bytes[i] == 0x1B, i + 2 < bytes.count, bytes[i + 1] == UInt8(ascii: "["), bytes[i + 2] == UInt8(ascii: "?") {
                var j = i + 3
                while j < bytes.count, bytes[j] == UInt8(ascii: ";") || (0x30...0x39).contains(bytes[j]) { j += 1 }
                if j < bytes.count, bytes[j] == UInt8(ascii: "c") { answered = true; i = j + 1; continue }
            }
            if bytes[i] == 0x1B, i + 2 < bytes.count, bytes[i + 1] == UInt8(ascii: "_"), bytes[i + 2] == UInt8(ascii: "G") {
                var j = i + 3
                while j + 1 < bytes.count, !(bytes[j] == 0x1B && bytes[j + 1] == UInt8(ascii: "\\")) { j += 1 }
                if j + 1 < bytes.count {
                    if String(decoding: bytes[i..<j], as: UTF8.self).hasSuffix(";OK") { kitty = true }
                    i = j + 2
                    continue
                }
            }
            rest.append(bytes[i])
            i += 1
        }
        return (rest, answered, kitty)
    }

    // MARK: encodings

    /// The escape sequences (or half-block text) that show `image` on a terminal like `info`,
    /// at most `columns` cells wide (default: the image's own width, within the terminal), and
    /// no taller than the terminal (as timg and chafa fit pictures).
    public static func encode(_ image: Image, for info: TerminalInfo, columns: Int? = nil) -> String {
        let fitting = info.columnsFittingHeight(width: image.width, height: image.height)
        let widest = max(1, min(columns ?? info.columns, info.columns, fitting))
        let naturalColumns = max(1, (image.width + info.cellWidth - 1) / info.cellWidth)
        let cells = min(naturalColumns, widest)
        let text: String
        switch info.imageProtocol {
        case .none: return ""
        case .kitty: text = kitty(image, columns: cells < naturalColumns || columns != nil ? cells : nil)
        case .iterm: text = iterm(image, columns: cells < naturalColumns || columns != nil ? cells : nil)
        case .sixel: text = sixel(cells < naturalColumns ? scaled(image, width: cells * info.cellWidth) : image)
        case .blocks:
            // One image column a cell: the picture shrunk to the columns it may take.
            let blockColumns = min(columns ?? info.columns, info.columns, image.width, fitting)
            text = halfBlocks(scaled(image, width: max(1, blockColumns)), trueColor: info.trueColor)
            return text
        }
        return info.tmux ? tmuxPassthrough(text) : text
    }

    static let escape = "\u{1B}"

    /// kitty: RGBA, zlib-compressed, base64 in chunks of 4096; q=2 so the terminal sends no reply.
    static func kitty(_ image: Image, columns: Int?) -> String {
        let packed = zlibCompress(image.pixels)
        let data = base64(packed)
        var out = ""
        var offset = data.startIndex
        var first = true
        while offset < data.endIndex || first {
            let end = data.index(offset, offsetBy: 4096, limitedBy: data.endIndex) ?? data.endIndex
            let more = end < data.endIndex ? 1 : 0
            let control =
                first
                ? "a=T,f=32,o=z,s=\(image.width),v=\(image.height),q=2\(columns.map { ",c=\($0)" } ?? ""),m=\(more)"
                : "m=\(more)"
            out += "\(escape)_G\(control);\(data[offset..<end])\(escape)\\"
            offset = end
            first = false
        }
        return out + "\n"
    }

    /// iTerm2: the PNG file itself, base64, with the width in cells when it must shrink.
    static func iterm(_ image: Image, columns: Int?) -> String {
        guard let png = try? image.pngBytes() else { return "" }
        return
            "\(escape)]1337;File=inline=1;size=\(png.count);preserveAspectRatio=1\(columns.map { ";width=\($0)" } ?? ""):\(base64(png))\u{07}\n"
    }

    /// Sixel with a fixed 6x6x6 colour cube (216 registers), composed over white; bands of six
    /// rows, each colour's run-length-coded row, "$" back to the start, "-" to the next band.
    static func sixel(_ image: Image) -> String {
        let w = image.width, h = image.height
        func level(_ v: Int) -> Int { (v * 5 + 127) / 255 }
        var index = [UInt8](repeating: 0, count: w * h)
        for i in 0..<(w * h) {
            let a = Int(image.pixels[4 * i + 3])
            func over(_ c: Int) -> Int { (c * a + 255 * (255 - a)) / 255 }
            index[i] = UInt8(
                36 * level(over(Int(image.pixels[4 * i]))) + 6 * level(over(Int(image.pixels[4 * i + 1])))
                    + level(over(Int(image.pixels[4 * i + 2]))))
        }
        var out = "\(escape)P0;1;0q\"1;1;\(w);\(h)"
        var used = Set<UInt8>(index)
        for c in used.sorted() {
            let r = Int(c) / 36, g = (Int(c) / 6) % 6, b = Int(c) % 6
            out += "#\(c);2;\(r * 20);\(g * 20);\(b * 20)"
        }
        used.removeAll()
        var band = 0
        while band < h {
            var colours = Set<UInt8>()
            for y in band..<min(band + 6, h) { for x in 0..<w { colours.insert(index[y * w + x]) } }
            var firstColour = true
            for c in colours.sorted() {
                if !firstColour { out += "$" }
                firstColour = false
                out += "#\(c)"
                var run = 0, runChar: Character = "?"
                func flush() {
                    guard run > 0 else { return }
                    out += run > 3 ? "!\(run)\(runChar)" : String(repeating: runChar, count: run)
                }
                for x in 0..<w {
                    var bits = 0
                    for k in 0..<6 where band + k < h && index[(band + k) * w + x] == c { bits |= 1 << k }
                    let ch = Character(Unicode.Scalar(UInt8(63 + bits)))
                    if ch == runChar { run += 1 } else { flush(); runChar = ch; run = 1 }
                }
                flush()
            }
            out += "-"
            band += 6
        }
        return out + "\(escape)\\\n"
    }

    /// Upper half blocks: the top pixel the foreground, the bottom one the background.
    static func halfBlocks(_ image: Image, trueColor: Bool) -> String {
        var out = ""
        func colour(_ x: Int, _ y: Int) -> (Int, Int, Int) {
            guard y < image.height else { return (255, 255, 255) }
            let i = 4 * (y * image.width + x), a = Int(image.pixels[i + 3])
            func over(_ c: UInt8) -> Int { (Int(c) * a + 255 * (255 - a)) / 255 }
            return (over(image.pixels[i]), over(image.pixels[i + 1]), over(image.pixels[i + 2]))
        }
        func code(_ c: (Int, Int, Int), background: Bool) -> String {
            if trueColor { return "\(background ? 48 : 38);2;\(c.0);\(c.1);\(c.2)" }
            func l(_ v: Int) -> Int { (v * 5 + 127) / 255 }
            return "\(background ? 48 : 38);5;\(16 + 36 * l(c.0) + 6 * l(c.1) + l(c.2))"
        }
        var y = 0
        while y < image.height {
            for x in 0..<image.width {
                out += "\(escape)[\(code(colour(x, y), background: false));\(code(colour(x, y + 1), background: true))m\u{2580}"
            }
            out += "\(escape)[0m\n"
            y += 2
        }
        return out
    }

    /// Each escape sequence wrapped for tmux's passthrough (ESC doubled inside).
    static func tmuxPassthrough(_ text: String) -> String {
        "\(escape)Ptmux;" + text.replacing(escape, with: escape + escape) + "\(escape)\\"
    }

    /// A box-filtered copy `width` pixels wide (aspect kept); the image itself when not wider.
    public static func scaled(_ image: Image, width: Int) -> Image {
        guard width > 0, image.width > width else { return image }
        let height = max(1, image.height * width / image.width)
        var out = Image(width: width, height: height)
        for y in 0..<height {
            let y0 = y * image.height / height, y1 = max(y0 + 1, (y + 1) * image.height / height)
            for x in 0..<width {
                let x0 = x * image.width / width, x1 = max(x0 + 1, (x + 1) * image.width / width)
                var sum = [0, 0, 0, 0]
                for yy in y0..<y1 { for xx in x0..<x1 { for c in 0..<4 { sum[c] += Int(image.pixels[4 * (yy * image.width + xx) + c]) } } }
                let n = (y1 - y0) * (x1 - x0)
                for c in 0..<4 { out.pixels[4 * (y * width + x) + c] = UInt8(sum[c] / n) }
            }
        }
        return out
    }

    static func zlibCompress(_ data: [UInt8]) -> [UInt8] {
        var length = compressBound(uLong(data.count))
        var out = [UInt8](repeating: 0, count: Int(length))
        let status = data.withUnsafeBufferPointer { i in
            out.withUnsafeMutableBufferPointer { o in compress2(o.baseAddress, &length, i.baseAddress, uLong(data.count), 6) }
        }
        return status == Z_OK ? Array(out.prefix(Int(length))) : []
    }

    static func base64(_ data: [UInt8]) -> String {
        let table = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var out = [UInt8]()
        out.reserveCapacity((data.count + 2) / 3 * 4)
        var i = 0
        while i + 3 <= data.count {
            let v = Int(data[i]) << 16 | Int(data[i + 1]) << 8 | Int(data[i + 2])
            out += [table[v >> 18], table[(v >> 12) & 63], table[(v >> 6) & 63], table[v & 63]]
            i += 3
        }
        let rest = data.count - i
        if rest == 1 {
            let v = Int(data[i]) << 16
            out += [table[v >> 18], table[(v >> 12) & 63], UInt8(ascii: "="), UInt8(ascii: "=")]
        } else if rest == 2 {
            let v = Int(data[i]) << 16 | Int(data[i + 1]) << 8
            out += [table[v >> 18], table[(v >> 12) & 63], table[(v >> 6) & 63], UInt8(ascii: "=")]
        }
        return String(decoding: out, as: UTF8.self)
    }
}
