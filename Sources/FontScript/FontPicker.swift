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
/// Installed families whose name matches `filter` (letters in order, case ignored: "djvs" finds
/// DejaVu Sans; prefixes first, then substrings, then the rest) are listed with their styles and,
/// where the terminal shows pictures, a sample of each; the user types a number, and the chosen
/// family's regular face comes back opened (nil for no choice). `choose = n` picks without
/// asking (scripts, tests). It is a numbered list read as a line, not a live filter as you type.
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
            if let chosen = try call.intOption(2, "choose") {
                guard (1...families.count).contains(chosen) else { throw LuaArgumentError(2, "choose = \(chosen): there are \(families.count) matches") }
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
        let best = family.faces.min { (regularRank($0.style), $0.weight == 400 ? 0 : 1, $0.path) < (regularRank($1.style), $1.weight == 400 ? 0 : 1, $1.path) }!
        let font = try Font(path: best.path)
        guard font.faces.indices.contains(best.faceIndex) else { throw FontError("face \(best.faceIndex) is not in the file", path: best.path) }
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
