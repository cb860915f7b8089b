#if !canImport(CoreText)
import CFontconfig
import FontModel
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// The registry over fontconfig, the one every Linux desktop uses. User-scope fonts are copied to
/// `$XDG_DATA_HOME/fonts/fontshell/` (default `~/.local/share/fonts/fontshell/`), the cache of that
/// folder is rebuilt so other applications see them at their next scan, and a manifest records
/// what FontShell installed. Process-scope fonts are added to this process's configuration only.
public final class FontconfigRegistry: FontRegistry {
    private var config: OpaquePointer
    /// Files registered at process scope in this process.
    private var processFiles: [String: [String]] = [:]
    public let fontsFolder: String
    let manifestPath: String

    public init() throws {
        guard FcInit() != 0, let config = FcConfigGetCurrent() else { throw RegistryError("fontconfig could not load its configuration") }
        self.config = config
        let env = ProcessInfo.processInfo.environment
        let home = env["HOME"] ?? "/"
        let dataHome = env["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.local/share"
        fontsFolder = dataHome + "/fonts/fontshell"
        manifestPath = dataHome + "/fontshell/registered.json"
    }

    // MARK: register / unregister

    public func register(path: String, scope: RegistryScope, replace: Bool) throws -> [FontDescriptor] {
        let names = try validatedPostScriptNames(path)
        switch scope {
        case .session:
            throw RegistryError("the session scope is not available on this platform (CoreText only); use process or user")
        case .process:
            let absolute = absolutePath(path)
            if processFiles[absolute] != nil { throw RegistryError("\(path) is already registered in this process") }
            try refuseTakenNames(names, replace: replace, replacing: nil)
            guard FcConfigAppFontAddFile(config, absolute) != 0 else { throw RegistryError("fontconfig refused \(path)") }
            processFiles[absolute] = names
            return try names.compactMap { try find($0) }
        case .user:
            return try withManifestLock {
                var manifest = try Manifest.load(from: manifestPath)
                guard let checksum = fingerprint(path) else { throw RegistryError("cannot read \(path)") }
                if let same = manifest.fonts.first(where: { $0.checksum == checksum }) {
                    throw RegistryError("\(path) is already registered (as \(same.path))")
                }
                // The same bytes already in our folder but not recorded (a registration killed
                // between copy and record, or an older FontShell's race): adopt that copy.
                if let orphan = orphans(of: manifest).first(where: { fingerprint($0) == checksum }) {
                    manifest.fonts.append(
                        Manifest.Entry(
                            path: orphan, source: absolutePath(path), postScriptNames: names, checksum: checksum, date: timestamp()))
                    try manifest.save(to: manifestPath)
                    rescanFontsFolder()
                    return try names.compactMap { try find($0) }
                }
                let replaced = try refuseTakenNames(names, replace: replace, replacing: manifest)
                for entry in replaced { try remove(entry, from: &manifest) }
                try FileManager.default.createDirectory(atPath: fontsFolder, withIntermediateDirectories: true)
                let target = uniqueTarget(for: path)
                do {
                    // Atomic: a killed copy leaves no truncated font for fontconfig to find.
                    guard let bytes = FileManager.default.contents(atPath: path) else { throw RegistryError("cannot read \(path)") }
                    try AtomicFile.write([UInt8](bytes), to: target)
                } catch {
                    throw RegistryError("cannot copy \(path) into \(fontsFolder): \(error)")
                }
                manifest.fonts.append(
                    Manifest.Entry(path: target, source: absolutePath(path), postScriptNames: names, checksum: checksum, date: timestamp()))
                try manifest.save(to: manifestPath)
                rescanFontsFolder()
                return try names.compactMap { try find($0) }
            }
        }
    }

    /// Runs `body` holding an exclusive lock on the manifest (a lock file beside it), so
    /// concurrent registrations in several processes each see the others' entries.
    private func withManifestLock<T>(_ body: () throws -> T) throws -> T {
        try FileManager.default.createDirectory(atPath: folder(of: manifestPath), withIntermediateDirectories: true)
        let fd = open(manifestPath + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw RegistryError("cannot open the registry lock \(manifestPath).lock: \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else { throw RegistryError("cannot lock the registry manifest: \(String(cString: strerror(errno)))") }
        }
        defer { flock(fd, LOCK_UN) }
        return try body()
    }

    public func unregister(_ pathOrName: String) throws -> [FontDescriptor] {
        try withManifestLock { try unregisterLocked(pathOrName) }
    }

    private func unregisterLocked(_ pathOrName: String) throws -> [FontDescriptor] {
        var manifest = try Manifest.load(from: manifestPath)
        let absolute = absolutePath(pathOrName)
        if let (file, _) = processFiles.first(where: { $0.key == absolute || $0.value.contains(pathOrName) }) {
            throw RegistryError(
                "\(file) was registered for this process only; fontconfig cannot remove one font from a process (it goes when the process ends)"
            )
        }
        guard
            let entry = manifest.fonts.first(where: {
                $0.path == absolute || $0.source == absolute || $0.postScriptNames.contains(pathOrName)
            })
        else {
            if let other = try find(pathOrName) ?? list(scope: nil, family: nil).first(where: { $0.path == absolute }) {
                throw RegistryError("\(other.postScriptName) (\(other.path)) was not registered by FontShell; refusing to remove it")
            }
            throw RegistryError("no font registered by FontShell matches '\(pathOrName)'")
        }
        let removed = try entry.postScriptNames.compactMap { try find($0) }
        try remove(entry, from: &manifest)
        try manifest.save(to: manifestPath)
        return removed
    }

    public func repair() throws -> RegistryRepair {
        try withManifestLock {
            var report = RegistryRepair()
            var manifest: Manifest
            do { manifest = try Manifest.load(from: manifestPath) } catch {
                // A damaged record is kept beside it, not overwritten, and rebuilt from the folder.
                let kept = manifestPath + ".damaged-\(getpid())-\(Int(Date().timeIntervalSince1970))"
                guard rename(manifestPath, kept) == 0 else { throw error }
                report.damagedRecordKeptAs = kept
                manifest = Manifest()
            }
            for entry in manifest.fonts where access(entry.path, F_OK) != 0 && errno == ENOENT {
                report.forgotten.append(.init(path: entry.path, postScriptNames: entry.postScriptNames))
            }
            manifest.fonts.removeAll { entry in report.forgotten.contains { $0.path == entry.path } }
            for file in orphans(of: manifest) {
                do {
                    let names = try validatedPostScriptNames(file)
                    if let holder = manifest.fonts.first(where: { !Set($0.postScriptNames).isDisjoint(with: names) }) {
                        report.leftAlone.append(
                            .init(path: file, reason: "its PostScript names are already registered by FontShell as \(holder.path)"))
                        continue
                    }
                    guard let checksum = fingerprint(file) else { throw RegistryError("cannot read it") }
                    manifest.fonts.append(
                        Manifest.Entry(path: file, source: file, postScriptNames: names, checksum: checksum, date: timestamp()))
                    report.adopted.append(.init(path: file, postScriptNames: names))
                } catch {
                    report.leftAlone.append(.init(path: file, reason: "\(error)"))
                }
            }
            if !report.adopted.isEmpty || !report.forgotten.isEmpty || report.damagedRecordKeptAs != nil {
                try manifest.save(to: manifestPath)
                rescanFontsFolder()
            }
            return report
        }
    }

    /// Regular files in our folder that the manifest does not list (dot files, such as
    /// fontconfig's .uuid and unfinished saves, are not fonts).
    private func orphans(of manifest: Manifest) -> [String] {
        let listed = Set(manifest.fonts.map(\.path))
        return listFolder(fontsFolder).filter { !$0.hasPrefix(".") }.map { fontsFolder + "/" + $0 }.filter { path in
            var info = stat()
            return !listed.contains(path) && lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
        }.sorted()
    }

    /// Refuses PostScript names that are already installed (by anyone), unless `replace` and the
    /// holder is a font FontShell installed; returns those to replace.
    @discardableResult
    private func refuseTakenNames(_ names: [String], replace: Bool, replacing manifest: Manifest?) throws -> [Manifest.Entry] {
        var toReplace: [Manifest.Entry] = []
        for name in names {
            guard let holder = try find(name) else { continue }
            if replace, let entry = manifest?.fonts.first(where: { $0.path == holder.path }) {
                if !toReplace.contains(entry) { toReplace.append(entry) }
                continue
            }
            if holder.path.hasPrefix(fontsFolder + "/") && !holder.registeredByFontShell {
                throw RegistryError(
                    "PostScript name \(name) is held by \(holder.path), a file in FontShell's folder that its record does not list "
                        + "(left by an interrupted registration, or copied there by hand); run `fontshell registry repair` to adopt it")
            }
            let how = holder.registeredByFontShell ? "registered by FontShell" : "installed"
            throw RegistryError(
                "PostScript name \(name) is already \(how) at \(holder.path)"
                    + (holder.registeredByFontShell && !replace ? " (pass replace = true to replace it)" : ""))
        }
        return toReplace
    }

    /// Deletes an entry's file, but only a regular file directly inside FontShell's folder whose
    /// content is still what was registered: a manifest edited to point elsewhere, or a file
    /// replaced since, is never deleted.
    private func remove(_ entry: Manifest.Entry, from manifest: inout Manifest) throws {
        var info = stat()
        if lstat(entry.path, &info) == 0 {
            let inside = realpath(folder(of: entry.path), nil).map { p in
                defer { free(p) }; return String(cString: p)
            }
            let ours = realpath(fontsFolder, nil).map { p in
                defer { free(p) }; return String(cString: p)
            }
            guard let inside, let ours, inside == ours, !entry.path.split(separator: "/").contains("..") else {
                throw RegistryError(
                    "the manifest entry for \(entry.postScriptNames.joined(separator: ", ")) points at \(entry.path), outside \(fontsFolder); refusing to delete it (remove the entry from \(manifestPath) by hand)"
                )
            }
            guard (info.st_mode & S_IFMT) == S_IFREG else {
                throw RegistryError("\(entry.path) is not a regular file; refusing to delete it")
            }
            guard fingerprint(entry.path) == entry.checksum else {
                throw RegistryError("\(entry.path) was replaced by another file since FontShell registered it; refusing to delete it")
            }
            do { try FileManager.default.removeItem(atPath: entry.path) } catch {
                throw RegistryError("cannot remove \(entry.path): \(error)")
            }
        }
        manifest.fonts.removeAll { $0.path == entry.path }
        rescanFontsFolder()
    }

    /// The file's name in our folder, numbered when a different file already has that name.
    private func uniqueTarget(for path: String) -> String {
        let name = String(path.split(separator: "/").last ?? "font")
        let dot = name.lastIndex(of: ".")
        let stem = dot.map { String(name[..<$0]) } ?? name, ext = dot.map { String(name[$0...]) } ?? ""
        var target = fontsFolder + "/" + name
        var n = 1
        while FileManager.default.fileExists(atPath: target) {
            target = fontsFolder + "/" + stem + "-\(n)" + ext
            n += 1
        }
        return target
    }

    private func folder(of path: String) -> String {
        path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
    }

    /// Rebuilds the cache of our folder (so other applications see the change at their next scan)
    /// and reloads this process's configuration.
    private func rescanFontsFolder() {
        if FileManager.default.fileExists(atPath: fontsFolder), let cache = FcDirCacheRescan(fontsFolder, config) {
            FcDirCacheUnload(cache)
        }
        reload()
    }

    /// Reloads the configuration and font list, keeping this process's process-scope fonts.
    /// (FcInitBringUptoDate would wait for fontconfig's 30-second rescan interval.)
    private func reload() {
        _ = FcInitReinitialize()
        if let current = FcConfigGetCurrent() { config = current }
        for file in processFiles.keys { _ = FcConfigAppFontAddFile(config, file) }
    }

    // MARK: queries

    public func list(scope: RegistryScope?, family: String?) throws -> [FontDescriptor] {
        let pattern = FcPatternCreate()
        defer { FcPatternDestroy(pattern) }
        if let family { _ = FcPatternAddString(pattern, "family", family) }
        var all = fontList(pattern)
        if let scope { all = all.filter { $0.scope == scope.rawValue } }
        return all.sorted { ($0.family, $0.postScriptName) < ($1.family, $1.postScriptName) }
    }

    public func find(_ name: String) throws -> FontDescriptor? {
        for key in ["postscriptname", "fullname"] {
            let pattern = FcPatternCreate()
            defer { FcPatternDestroy(pattern) }
            _ = FcPatternAddString(pattern, key, name)
            if let match = fontList(pattern).first { return match }
        }
        return nil
    }

    public func missing(_ names: [String]) throws -> [MissingFont] {
        try names.compactMap { name in try find(name) == nil ? MissingFont(name: name, fallback: bestMatch(family: name)) : nil }
    }

    public func systemFont(design: String) throws -> FontDescriptor? {
        switch design {
        case "default": return bestMatch(family: "sans-serif")
        case "serif": return bestMatch(family: "serif")
        case "monospaced": return bestMatch(family: "monospace")
        case "rounded":
            // fontconfig has no generic rounded family: look for an installed "Rounded" family.
            return fontList(FcPatternCreate(), destroy: true).first { $0.family.lowercased().contains("rounded") }
        default:
            throw RegistryError("unknown design '\(design)' (default, serif, monospaced or rounded)")
        }
    }

    /// fontconfig compares configuration and font folder times in whole seconds, so a change made
    /// within the second the configuration was loaded is reported by a later call.
    public func changed() -> Bool {
        guard FcConfigUptoDate(config) == 0 else { return false }
        reload()
        return true
    }

    /// What fontconfig would draw for a family name (after its substitutions), as a renderer falls back.
    private func bestMatch(family: String) -> FontDescriptor? {
        let pattern = FcPatternCreate()
        defer { FcPatternDestroy(pattern) }
        _ = FcPatternAddString(pattern, "family", family)
        _ = FcConfigSubstitute(config, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        var result = FcResultMatch
        guard let match = FcFontMatch(config, pattern, &result) else { return nil }
        defer { FcPatternDestroy(match) }
        return descriptor(match, registered: manifestFiles())
    }

    private func fontList(_ pattern: OpaquePointer?, destroy: Bool = false) -> [FontDescriptor] {
        defer { if destroy { FcPatternDestroy(pattern) } }
        guard let objects = FcObjectSetCreate() else { return [] }
        defer { FcObjectSetDestroy(objects) }
        for key in ["family", "style", "fullname", "postscriptname", "file", "index", "weight", "width"] {
            _ = FcObjectSetAdd(objects, key)
        }
        guard let set = FcFontList(config, pattern, objects) else { return [] }
        defer { FcFontSetDestroy(set) }
        var out: [FontDescriptor] = []
        let registered = manifestFiles()
        for i in 0..<Int(set.pointee.nfont) {
            if let p = set.pointee.fonts[i], let d = descriptor(p, registered: registered) { out.append(d) }
        }
        return out
    }

    private func descriptor(_ p: OpaquePointer, registered: Set<String>) -> FontDescriptor? {
        func string(_ key: String) -> String? {
            var value: UnsafeMutablePointer<FcChar8>?
            guard FcPatternGetString(p, key, 0, &value) == FcResultMatch, let value else { return nil }
            return String(cString: value)
        }
        func integer(_ key: String) -> Int {
            var value: Int32 = 0
            if FcPatternGetInteger(p, key, 0, &value) == FcResultMatch { return Int(value) }
            var real = 0.0
            return FcPatternGetDouble(p, key, 0, &real) == FcResultMatch ? Int(real) : 0
        }
        guard let file = string("file") else { return nil }
        let ps = string("postscriptname") ?? ""
        // "user" only for files the manifest lists: a font copied into the folder by hand is not ours.
        let ours = file.hasPrefix(fontsFolder + "/") && registered.contains(file) ? "user" : (processFiles[file] != nil ? "process" : nil)
        return FontDescriptor(
            postScriptName: ps, fullName: string("fullname") ?? ps, family: string("family") ?? "",
            style: string("style") ?? "", weight: openTypeWeight(integer("weight")), width: integer("width"),
            path: file, faceIndex: integer("index"), scope: ours, registeredByFontShell: ours != nil)
    }

    /// Paths the manifest lists (read once per query batch is cheap: the manifest is small).
    private func manifestFiles() -> Set<String> {
        Set(((try? Manifest.load(from: manifestPath))?.fonts ?? []).map(\.path))
    }

    private func absolutePath(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }
}
#endif

/// fontconfig's weight scale (80 regular, 200 bold) as OpenType/CSS weight (400, 700): what a
/// type engineer reads in OS/2.usWeightClass and a web developer in font-weight.
func openTypeWeight(_ fontconfigWeight: Int) -> Int {
    let w = Int(FcWeightToOpenType(Int32(fontconfigWeight)))
    return w < 0 ? fontconfigWeight : w
}
