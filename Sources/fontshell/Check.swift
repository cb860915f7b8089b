import JSONText
import ArgumentParser
import FontModel
import FontScript
import LuaBridge
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `fontshell check [FONT|GLOB ...]`: the Lua checks (Sources/FontScript/Checks, plus --checks
/// folders) over every font, on every core, reported as text, JSON, SARIF or JUnit.
struct Check: FontShellCommand {
    static let judges = true

    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract:
            "Run font checks (Lua files, docs/checks.md) over fonts: text, json, sarif or junit reports; --fix applies the fixes checks offer.",
        discussion: """
            Exit status: 0 when no check failed, 1 when a check failed or could not run (a broken check, a font that does not open, a fix that failed), 2 for wrong arguments.

            Profiles: default (every check), fontbakery (the checks fontbakery also has), or an area: names, metrics, glyphs, kerning, layout, flags, outlines, structure.
            """
    )

    @Argument(help: "Fonts, folders or globs ('fonts/**/*.{ttf,otf}'); default: DejaVu Sans.") var fonts: [String] = []
    @Option(help: "default, fontbakery, or an area of checks.") var profile = "default"
    @Option(
        name: .customLong("checks"),
        help: ArgumentHelp(
            "A folder of more checks (<area>/<id>.lua); repeatable. Its checks replace shipped ones with the same id.", valueName: "dir"))
    var checkFolders: [String] = []
    @Option(
        name: [.customShort("c"), .customLong("only")], help: ArgumentHelp("Run only this check or area (repeatable).", valueName: "id"))
    var only: [String] = []
    @Option(help: "text, json, sarif or junit.") var format: ReportFormat = .text
    @Option(
        name: [.customShort("o"), .customLong("output")],
        help: ArgumentHelp("Write the report to this file (atomically) instead of stdout.", valueName: "file"))
    var output: String?
    @Flag(help: "Apply the fixes checks offer and save each fixed font beside it (Name.fixed.ttf).") var fix = false
    @Flag(help: "With --fix: replace the input fonts.") var inPlace = false
    @Flag(help: "List the checks and exit.") var list = false
    @OptionGroup var batch: BatchOptionGroup

    enum ReportFormat: String, ExpressibleByArgument, CaseIterable { case text, json, sarif, junit }

    func validate() throws {
        if inPlace && !fix { throw ValidationError("--in-place goes with --fix") }
    }

    func outcome() throws -> Outcome {
        guard let shipped = CheckModule.shippedDirectory() else {
            throw Trouble("the shipped checks are not found (set FONTSHELL_CHECKS to Sources/FontScript/Checks)")
        }
        for dir in checkFolders where !FileGlob.hasWildcard(dir) && FileGlob.fileKind(dir) != .directory {
            throw Trouble("--checks \(dir): not a folder")
        }
        let folders = [shipped] + checkFolders
        let catalog = try loadCatalog(folders)
        // An id or area that names no check would run nothing and pass: refuse it by name.
        let ids = catalog.compactMap { $0["id"] as? String }
        let areas = Set(ids.compactMap { $0.split(separator: "/").first.map(String.init) })
        for wanted in only where !ids.contains(wanted) && !areas.contains(wanted) {
            var message = "--only \(wanted): no check or area has this id"
            if let near = closestName(to: wanted, in: ids + areas.sorted()) { message += "; did you mean '\(near)'?" }
            throw Trouble(message + " (fontshell check --list shows them)")
        }
        let profiles = ["default", "all", "fontbakery"] + areas.sorted()
        guard profiles.contains(profile) else {
            var message = "--profile \(profile): not a profile"
            if let near = closestName(to: profile, in: profiles) { message += "; did you mean '\(near)'?" }
            throw Trouble(message + " (profiles: \(profiles.joined(separator: ", ")))")
        }
        if list {
            for c in catalog where selectedByProfile(c) {
                let id = c["id"] as? String ?? "?"
                if let broken = c["broken"] as? String { print("\(id)  BROKEN: \(broken)"); continue }
                let fb = (c["fontbakery"] as? String).map { "  [fontbakery: \($0)]" } ?? ""
                let fixable = c["fix"] as? Bool == true ? "  (fix)" : ""
                print("\(id)  \(c["severity"] as? String ?? "")  \(c["title"] as? String ?? "")\(fixable)\(fb)")
            }
            return .done
        }
        let (paths, sizes, unmatched) = try batchFiles(
            fonts.isEmpty ? [defaultFontPath] : fonts, shard: batch.shard, label: "fontshell check")
        if let output {
            // The workers open the fonts, not this process: the report must not replace one.
            for p in paths { AtomicFile.protectInput(p) }
            if AtomicFile.isInput(output) {
                throw Trouble("refusing to write the report over \(output): it is one of the fonts being checked")
            }
        }
        if paths.isEmpty && !unmatched.isEmpty && batch.shard == nil {
            // Nothing to check at all: trouble, said once, not a report of failed fonts.
            throw Trouble(unmatched.map { "\($0): no file matches" }.joined(separator: ", "))
        }
        var records: [[String: Any]] = unmatched.map { ["path": $0, "ok": false, "error": "no file matches this pattern"] }
        let progress = BatchProgress(total: paths.count, label: "fontshell check", quiet: batch.quiet)
        let worker = ["check", profile, fix ? "fix" : "-", inPlace ? "in-place" : "-", String(folders.count)] + folders + only
        let runner = BatchRunner(
            workerArguments: worker, jobs: min(batch.jobs ?? BatchOptions.cores, max(paths.count, 1)), timeout: batch.timeout)
        let report = CheckReport(catalog: catalog, colour: output == nil && isatty(1) == 1)
        var text = ""
        for r in records { text += report.text(for: r) }
        if format == .text && output == nil { print(text, terminator: ""); text = "" }
        try runner.run(paths: paths, sizes: sizes, progress: progress) { _, record in
            let object =
                JSONText.parse(record.json) as? [String: Any]
                ?? ["path": "?", "ok": false, "error": "unreadable record: \(record.json.prefix(200))"]
            records.append(object)
            if format == .text {
                let part = report.text(for: object)
                if output == nil { progress.clearBar(); print(part, terminator: ""); fflush(nil) } else { text += part }
            }
        }
        let document: String
        switch format {
        case .text: document = text + report.summary(records)
        case .json: document = report.json(records)
        case .sarif: document = report.sarif(records)
        case .junit: document = report.junit(records)
        }
        if let output {
            do { try AtomicFile.write(Array(document.utf8), to: output) } catch {
                throw Trouble("cannot write \(output): \(error)")
            }
        } else {
            print(document, terminator: document.hasSuffix("\n") ? "" : "\n")
        }
        let failed = records.contains { ($0["ok"] as? Bool) == false }
        return failed ? .findings : .done
    }

    func selectedByProfile(_ c: [String: Any]) -> Bool {
        let id = c["id"] as? String ?? ""
        if !only.isEmpty && !only.contains(where: { id == $0 || id.hasPrefix($0 + "/") }) { return false }
        switch profile {
        case "default", "all": return true
        case "fontbakery": return c["fontbakery"] != nil || c["broken"] != nil
        default: return id.hasPrefix(profile + "/")
        }
    }

    /// The checks' descriptions, read once in this process (for --list and the reports' rules).
    func loadCatalog(_ folders: [String]) throws -> [[String: Any]] {
        let lua = LuaState()
        try FontScript.install(in: lua)
        let s = lua.stack
        try lua.load("return fontshell.json(check.list(...))", name: "=(check list)")
        s.push(strings: folders)
        try lua.call(arguments: 1, results: 1)
        let json = s.string(at: -1) ?? "[]"
        return (JSONText.parse(json) as? [Any])?.compactMap { $0 as? [String: Any] } ?? []
    }
}
