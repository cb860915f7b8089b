#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The files a batch pattern names: shell globs with `*`, `?`, `[...]`, `{a,b}` alternatives
/// and `**` for any number of folders (`fonts/**/*.{ttf,otf,ttc}`); a folder stands for every
/// font file under it, a plain path for itself. Quoted, so the shell does not expand it first.
/// `**` does not follow links to folders (no cycles) nor enter hidden folders. `batchFiles`
/// sorts the result by bytes and drops duplicates, so every run and every shard sees the same list.
enum FileGlob {
    /// Extensions a folder given alone is searched for (any case).
    static let fontExtensions: Set<String> = ["ttf", "otf", "ttc", "otc", "woff", "woff2"]

    /// A path's extension, lowercased ("" when its last component has none).
    static func fileExtension(_ path: some StringProtocol) -> String {
        let name = path.split(separator: "/").last ?? ""
        return name.lastIndex(of: ".").map { name[name.index(after: $0)...].lowercased() } ?? ""
    }

    /// A regular file a pattern names (links followed), with its size in bytes.
    struct Match {
        let path: String
        let size: Int
    }

    /// The regular files `pattern` names, unsorted and possibly repeated (`sortedByBytes` orders
    /// them, then the caller drops repeats). Folders are told apart by readdir's entry type;
    /// each name that matches is then stat'ed once, relative to its open folder (links
    /// followed: a link to a folder or to nothing is not a file), which also gives its size.
    static func expand(_ pattern: String) -> [Match] {
        var found: [Match] = []
        // Alternatives that differ only in their last component (`*.{ttf,otf}`) are matched in
        // one walk of their folders, not one walk each.
        var groups: [(folder: String, names: [String])] = []
        for alternative in expandBraces(pattern) {
            if !hasWildcard(alternative) {
                switch fileKind(alternative) {
                case .directory: walkFonts(in: alternative, into: &found, depth: 0)
                case .file: if let size = regularFileSize(alternative) { found.append(Match(path: alternative, size: size)) }
                case .none: break
                }
                continue
            }
            let slash = alternative.lastIndex(of: "/")
            let folder = slash.map { String(alternative[...$0]) } ?? ""
            let name = slash.map { String(alternative[alternative.index(after: $0)...]) } ?? alternative
            if let k = groups.firstIndex(where: { $0.folder == folder }) {
                groups[k].names.append(name)
            } else {
                groups.append((folder, [name]))
            }
        }
        for (folder, names) in groups {
            let absolute = folder.hasPrefix("/")
            let parts = folder.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
            // Leading components without wildcards name the folder the search starts in.
            var base: [String] = []
            var rest = parts[...]
            while let first = rest.first, !hasWildcard(first) { base.append(first); rest = rest.dropFirst() }
            let start = (absolute ? "/" : "") + base.joined(separator: "/")
            let directory = start.isEmpty ? "." : start
            if names.contains("**") || (names.count == 1 && !hasWildcard(names[0])) {
                // `**` last, or a plain name below wildcard folders (`*/x.ttf`): one alternative at a time.
                for name in names { match(Array(rest) + [name], last: [], from: 0, in: directory, shown: start, into: &found, depth: 0) }
            } else {
                match(Array(rest), last: names, from: 0, in: directory, shown: start, into: &found, depth: 0)
            }
        }
        return found
    }

    /// Items in the byte order of their paths (what `LC_ALL=C sort` gives), each with its path's
    /// bytes, equal paths kept in their order: every run and every shard sees the same list.
    /// Compared as bytes, which is much cheaper than comparing Strings.
    static func sortedByBytes<Item>(_ items: [Item], path: (Item) -> String) -> [(key: [UInt8], item: Item)] {
        items.map { (key: Array(path($0).utf8), item: $0) }
            .sorted { a, b in compareBytes(a.key, b.key) < 0 }
    }

    /// memcmp order, a shorter prefix first.
    static func compareBytes(_ a: [UInt8], _ b: [UInt8]) -> Int {
        let common = min(a.count, b.count)
        let n =
            common == 0
            ? 0 : a.withUnsafeBufferPointer { x in b.withUnsafeBufferPointer { y in memcmp(x.baseAddress!, y.baseAddress!, common) } }
        return n != 0 ? Int(n) : a.count - b.count
    }

    /// `a{b,c{d,e}}f` → abf, acdf, acef. Unbalanced braces are kept as literal text.
    static func expandBraces(_ pattern: String) -> [String] {
        let chars = Array(pattern)
        guard let open = chars.firstIndex(of: "{") else { return [pattern] }
        var depth = 0
        var commas: [Int] = []
        var close: Int?
        for i in open..<chars.count {
            switch chars[i] {
            case "{": depth += 1
            case "}":
                depth -= 1
                if depth == 0 { close = i }
            case "," where depth == 1: commas.append(i)
            default: break
            }
            if close != nil { break }
        }
        guard let close, !commas.isEmpty else {
            // Not an alternative list: keep the brace, expand what follows it.
            let head = String(chars[...open])
            return expandBraces(String(chars[(open + 1)...])).map { head + $0 }
        }
        let prefix = String(chars[..<open]), suffix = String(chars[(close + 1)...])
        let bounds = [open] + commas + [close]
        var out: [String] = []
        for k in 0..<(bounds.count - 1) {
            let option = String(chars[(bounds[k] + 1)..<bounds[k + 1]])
            out += expandBraces(prefix + option + suffix)
        }
        return out
    }

    static func hasWildcard(_ s: some StringProtocol) -> Bool { s.contains { $0 == "*" || $0 == "?" || $0 == "[" } }

    enum Kind { case file, directory }

    /// The size of the regular file at `path` (links followed), nil for anything else.
    static func regularFileSize(_ path: String) -> Int? {
        var st = stat()
        guard stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(st.st_size)
    }

    /// Adds the regular files among `names` in `directory` (spelled `shown/name`), one stat each
    /// relative to the open folder: only the name is looked up, not the folder's whole path.
    static func addRegularFiles(_ names: [String], in directory: String, shown: String, into found: inout [Match]) {
        guard !names.isEmpty else { return }
        let folder = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else { return }
        defer { close(folder) }
        var st = stat()
        for name in names where fstatat(folder, name, &st, 0) == 0 && (st.st_mode & S_IFMT) == S_IFREG {
            found.append(Match(path: join(shown, name), size: Int(st.st_size)))
        }
    }

    static func fileKind(_ path: String) -> Kind? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        if (st.st_mode & S_IFMT) == S_IFDIR { return .directory }
        if (st.st_mode & S_IFMT) == S_IFREG { return .file }
        return nil
    }

    /// Names in a folder with whether each is a real folder (not a link to one) and whether it
    /// is certainly a regular file (not a link), hidden names left out unless `hidden`. The
    /// entry's type comes from readdir where the file system gives it, else from lstat.
    static func entries(of directory: String, hidden: Bool) -> [(name: String, isDirectory: Bool, isFile: Bool)] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var out: [(String, Bool, Bool)] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.baseAddress!.assumingMemoryBound(to: CChar.self))   // NUL-terminated
            }
            if name == "." || name == ".." || (!hidden && name.hasPrefix(".")) { continue }
            switch Int32(entry.pointee.d_type) {
            case Int32(DT_DIR): out.append((name, true, false))
            case Int32(DT_REG): out.append((name, false, true))
            case Int32(DT_UNKNOWN):
                var st = stat()
                guard lstat(directory + "/" + name, &st) == 0 else { continue }
                out.append((name, (st.st_mode & S_IFMT) == S_IFDIR, (st.st_mode & S_IFMT) == S_IFREG))
            default: out.append((name, false, false))   // links (followed when matched), others
            }
        }
        return out
    }

    static func join(_ shown: String, _ name: String) -> String {
        guard let last = shown.utf8.last else { return name }
        return last == UInt8(ascii: "/") ? shown + name : shown + "/" + name
    }

    /// Matches `parts[index...]` below `directory` (`shown` is how results are spelled), then,
    /// when `names` is not empty, a last component matching any of them.
    static func match(
        _ parts: [String], last names: [String], from index: Int, in directory: String, shown: String,
        into found: inout [Match], depth: Int
    ) {
        guard depth < 64 else { return }
        guard index < parts.count else {
            guard !names.isEmpty else { return }
            let hidden = names.contains { $0.hasPrefix(".") }
            let files = entries(of: directory, hidden: hidden).filter { e in
                !e.isDirectory && names.contains { fnmatch($0, e.name, FNM_PERIOD) == 0 }
            }
            addRegularFiles(files.map(\.name), in: directory, shown: shown, into: &found)
            return
        }
        let part = parts[index]
        let last = names.isEmpty && index == parts.count - 1
        if part == "**" {
            // Zero folders, then each folder in turn.
            if last { walkAll(in: directory, shown: shown, into: &found, depth: depth); return }
            match(parts, last: names, from: index + 1, in: directory, shown: shown, into: &found, depth: depth)
            for e in entries(of: directory, hidden: false) where e.isDirectory {
                match(
                    parts, last: names, from: index, in: directory + "/" + e.name, shown: join(shown, e.name), into: &found,
                    depth: depth + 1)
            }
            return
        }
        var files: [String] = []
        for e in entries(of: directory, hidden: part.hasPrefix(".")) where fnmatch(part, e.name, FNM_PERIOD) == 0 {
            let path = directory + "/" + e.name
            if last {
                if !e.isDirectory { files.append(e.name) }
            } else if e.isDirectory || (!e.isFile && fileKind(path) == .directory) {
                match(parts, last: names, from: index + 1, in: path, shown: join(shown, e.name), into: &found, depth: depth + 1)
            }
        }
        addRegularFiles(files, in: directory, shown: shown, into: &found)
    }

    /// `dir/**` at the end of a pattern: every file below.
    static func walkAll(in directory: String, shown: String, into found: inout [Match], depth: Int) {
        guard depth < 64 else { return }
        var files: [String] = []
        for e in entries(of: directory, hidden: false) {
            if e.isDirectory {
                walkAll(in: directory + "/" + e.name, shown: join(shown, e.name), into: &found, depth: depth + 1)
            } else {
                files.append(e.name)
            }
        }
        addRegularFiles(files, in: directory, shown: shown, into: &found)
    }

    /// A folder given alone: the font files below it.
    static func walkFonts(in directory: String, into found: inout [Match], depth: Int) {
        guard depth < 64 else { return }
        var files: [String] = []
        for e in entries(of: directory, hidden: false) {
            if e.isDirectory {
                walkFonts(in: join(directory, e.name), into: &found, depth: depth + 1)
            } else if fontExtensions.contains(fileExtension(e.name)) {
                files.append(e.name)
            }
        }
        addRegularFiles(files, in: directory, shown: directory, into: &found)
    }
}
