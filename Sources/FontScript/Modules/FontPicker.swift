import FontModel
import FontRegistry
import FontRender
import LuaBridge
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `registry.pick([filter [, {choose = n, samples = true}]])`: a font picker for the terminal.
/// Installed families whose name matches the filter (letters in order, case ignored: "djvs"
/// finds DejaVu Sans; prefixes first, then substrings, then the rest). On a terminal it is live:
/// typing narrows the list, arrows move, the selected family's sample is drawn (where the
/// terminal shows pictures), Enter opens it, Esc cancels; the screen is restored after. Elsewhere
/// (stdin or stdout not a terminal) the matches are numbered and a typed number is read. The
/// chosen family's regular face comes back opened (nil for none); `choose = n` picks the n-th
/// match without asking (scripts, tests).
enum FontPicker {
    static let pick: LuaFunction = { L in
        LuaCall.run(L, "pick") { call in
            try call.options(2, ["choose", "samples", "limit"])
            let filter = call.isNoneOrNil(1) ? "" : try call.string(1)
            let limit = try call.intOption(2, "limit") ?? 20
            guard limit >= 1 else { throw LuaArgumentError(2, "limit must be at least 1") }
            let families = ranked(try RegistryModule.registry().list(scope: nil, family: nil), filter: filter).prefix(limit)
            guard !families.isEmpty else {
                print("no installed family matches '\(filter)'")
                call.stack.pushNil()
                return 1
            }
            let choice: Int?
            if try call.intOption(2, "choose") == nil, isatty(0) != 0, isatty(1) != 0 {
                let all = ranked(try RegistryModule.registry().list(scope: nil, family: nil), filter: "")
                guard let family = live(all, filter: filter, limit: limit, samples: try call.boolOption(2, "samples", default: true)) else {
                    call.stack.pushNil(); return 1
                }
                let (font, face) = try open(family)
                FaceObject.push(call.stack, try FaceRef(FontHandle(font, path: font.path ?? ""), face.index))
                return 1
            } else if let chosen = try call.intOption(2, "choose") {
                guard (1...families.count).contains(chosen) else {
                    throw LuaArgumentError(2, "choose = \(chosen): there are \(families.count) matches")
                }
                choice = chosen
            } else {
                let terminal = TerminalGraphics.current()
                let samples = try call.boolOption(2, "samples", default: true) && terminal.imageProtocol != .none
                for (k, family) in families.enumerated() {
                    print("\(k + 1)".padding(toLength: 4) + family.name + "  (" + family.styles.joined(separator: ", ") + ")")
                    if samples, let face = try? open(family), let image = try? sample(face.face, family.name) {
                        print(TerminalGraphics.encode(image, for: terminal), terminator: "")
                        withExtendedLifetime(face.font) {}
                    }
                }
                print("pick 1-\(families.count) (Enter: none): ", terminator: "")
                fflush(nil)
                choice = readLine().flatMap { Int($0.filter { !$0.isWhitespace }) }.flatMap { (1...families.count).contains($0) ? $0 : nil }
            }
            guard let choice else { call.stack.pushNil(); return 1 }
            let (font, face) = try open(families[families.startIndex + choice - 1])
            let handle = FontHandle(font, path: font.path ?? "")
            FaceObject.push(call.stack, try FaceRef(handle, face.index))
            return 1
        }
    }

    /// The live picker on the terminal; the chosen family, or nil when cancelled.
    static func live(_ all: [Family], filter initial: String, limit: Int, samples: Bool) -> Family? {
        var saved = termios()
        guard tcgetattr(0, &saved) == 0 else { return nil }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG)
        guard tcsetattr(0, TCSANOW, &raw) == 0 else { return nil }
        let terminal = TerminalGraphics.current()
        func out(_ text: String) { print(text, terminator: ""); fflush(nil) }
        out("\u{1B}[?1049h")   // the alternate screen: the REPL's screen comes back untouched
        defer { out("\u{1B}[?1049l"); tcsetattr(0, TCSANOW, &saved) }
        var filter = initial, selected = 0
        var opened: [String: (Font, Face)] = [:]
        while true {
            let matches = Array(filterFamilies(all, filter).prefix(limit))
            selected = min(selected, max(0, matches.count - 1))
            var screen =
                "\u{1B}[H\u{1B}[2J"
                + "pick a font: \(filter)\u{2581}   (type to filter, \u{2191}\u{2193} to move, Enter to open, Esc to cancel)\r\n\r\n"
            for (k, family) in matches.enumerated() {
                screen +=
                    (k == selected ? "\u{1B}[7m> " : "  ") + family.name + "  (" + family.styles.prefix(4).joined(separator: ", ")
                    + (family.styles.count > 4 ? ", …" : "") + ")\u{1B}[0m\r\n"
            }
            if matches.isEmpty { screen += "  (no family matches)\r\n" }
            out(screen)
            if samples, terminal.imageProtocol != .none, matches.indices.contains(selected) {
                let family = matches[selected]
                if opened[family.name] == nil, let pair = try? open(family) { opened[family.name] = pair }
                if let (_, face) = opened[family.name], let image = try? sample(face, family.name) {
                    out("\r\n" + TerminalGraphics.encode(image, for: terminal, columns: 60).replacing("\n", with: "\r\n"))
                }
            }
            var byte: UInt8 = 0
            guard read(0, &byte, 1) == 1 else { return nil }
            switch byte {
            case Key.enter, Key.lineFeed: return matches.indices.contains(selected) ? matches[selected] : nil
            case Key.controlC, Key.controlD: return nil
            case Key.delete, Key.backspace: if !filter.isEmpty { filter.removeLast(); selected = 0 }
            case Key.escape:
                // An arrow is ESC [ A/B; ESC alone (nothing follows at once) cancels.
                var next = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
                guard poll(&next, 1, 50) > 0 else { return nil }
                var seq: [UInt8] = [0, 0]
                guard read(0, &seq, 2) == 2, seq[0] == UInt8(ascii: "[") else { return nil }
                if seq[1] == UInt8(ascii: "A") { selected = max(0, selected - 1) }
                if seq[1] == UInt8(ascii: "B") { selected += 1 }
            case Key.printable: filter.append(Character(Unicode.Scalar(byte))); selected = 0
            default: break
            }
        }
    }

    /// The bytes a terminal in raw mode sends for the keys the picker reads.
    enum Key {
        static let controlC: UInt8 = 3, controlD: UInt8 = 4, backspace: UInt8 = 8, lineFeed: UInt8 = 10, enter: UInt8 = 13
        static let escape: UInt8 = 27, delete: UInt8 = 127
        static let printable: ClosedRange<UInt8> = 32...126
    }

    static func filterFamilies(_ all: [Family], _ filter: String) -> [Family] {
        ranked(all.flatMap(\.faces), filter: filter)
    }

    struct Family {
        var name: String
        var styles: [String]
        var faces: [FontDescriptor]
    }

    /// Families matching `filter`, best first: a prefix, then a substring, then the letters in order.
    static func ranked(_ fonts: [FontDescriptor], filter: String) -> [Family] {
        var byName: [String: [FontDescriptor]] = [:]
        for d in fonts where !d.family.isEmpty { byName[d.family, default: []].append(d) }
        let needle = filter.lowercased()
        func score(_ name: String) -> Int? {
            let hay = name.lowercased()
            if needle.isEmpty { return 3 }
            if hay.hasPrefix(needle) { return 0 }
            if hay.contains(needle) { return 1 }
            var rest = Substring(hay)
            for c in needle {
                guard let i = rest.firstIndex(of: c) else { return nil }
                rest = rest[rest.index(after: i)...]
            }
            return 2
        }
        return byName.compactMap { name, faces -> (Int, Family)? in
            guard let s = score(name) else { return nil }
            let styles = Array(Set(faces.map(\.style))).sorted { a, b in (regularRank(a), a) < (regularRank(b), b) }
            return (s, Family(name: name, styles: styles, faces: faces))
        }.sorted { ($0.0, $0.1.name) < ($1.0, $1.1.name) }.map(\.1)
    }

    static func regularRank(_ style: String) -> Int { ["Regular", "Book", "Roman", "Normal"].contains(style) ? 0 : 1 }

    /// The family's regular face (else its first), opened.
    static func open(_ family: Family) throws -> (font: Font, face: Face) {
        let best = family.faces.min {
            (regularRank($0.style), $0.weight == 400 ? 0 : 1, $0.path) < (regularRank($1.style), $1.weight == 400 ? 0 : 1, $1.path)
        }!
        let font = try Font(path: best.path)
        guard font.faces.indices.contains(best.faceIndex) else {
            throw FontError("face \(best.faceIndex) is not in the file", path: best.path)
        }
        return (font, font.faces[best.faceIndex])
    }

    static func sample(_ face: Face, _ name: String) throws -> Image {
        var options = PreviewOptions()
        options.size = 22
        options.margin = 4
        return try Preview.text(face, name, options: options).image
    }
}

extension String {
    fileprivate func padding(toLength n: Int) -> String { count >= n ? self : self + String(repeating: " ", count: n - count) }
}
