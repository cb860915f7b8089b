import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FontModel
import FontScript

/// `fontshell instance FONT wght=700 -o OUT`: a static font at one location of a variable
/// font, or with --all every named instance into a folder.
struct InstanceCommand: FontShellCommand {
    static let configuration = CommandConfiguration(
        commandName: "instance",
        abstract: "Make static instances of a variable font (TrueType or CFF2): one location, or every named instance (--all).",
        discussion: """
            Coordinates are user values by axis tag (wght=700 wdth=75); axes not given stay at \
            their default, or stay variable when a range is given or with --partial. Outlines get gvar's deltas, advances the phantom points', metrics \
            MVAR's, control values cvar's, GPOS and GDEF their variation deltas; the variation \
            tables are dropped, STAT keeps the values that hold there, and the instance is \
            renamed (family, style, full and PostScript names, RIBBI bits) unless --keep-names. \
            Without -o, lists the axes and named instances.
            """)

    @Argument(help: "Variable font to read.") var input: String
    @Argument(
        help:
            "Coordinates: AXIS=VALUE, e.g. wght=700 wdth=75; AXIS=MIN:MAX keeps the axis variable over that range (a range without the default moves it to the nearest end), and the axes not named variable too."
    ) var coordinates: [String] = []
    @Option(name: [.short, .customLong("output")], help: "Font file to write; with --all, a folder.") var output: String?
    @Flag(help: "Every named instance (fvar), one file each, named by PostScript name, into the -o folder.") var all = false
    @Flag(help: "Refuse coordinates outside an axis's range instead of clamping them.") var strict = false
    @Flag(help: "Leave the names as they are (only unused variation names are pruned, as fontTools does).") var keepNames = false
    @Flag(help: "Do not set the overlap flags on glyphs (fontTools' --no-overlap-flag).") var noOverlapFlags = false
    @Flag(
        help:
            "Rewrite GPOS as fontTools does (value formats, anchor formats, pair classes) instead of patching its values in place: slower, table-for-table identical to fontTools."
    ) var rewriteLayout = false
    @Flag(help: "Write a CFF2 font's instance as CFF (version 1), for software that reads only CFF (fontTools' --downgrade-cff2).")
    var downgradeCff2 = false
    @Flag(
        help:
            "Pin only the axes given; the others stay variable (fontTools' default for axes left out). Without it they are pinned at their default."
    ) var partial = false
    @Flag(
        help:
            "In a partial instance, list every point in gvar instead of leaving out those a reader infers within half a unit (fontTools' --no-optimize)."
    ) var noOptimize = false
    @Flag(help: "Allow OUTPUT to be INPUT.") var overwrite = false
    @OptionGroup var selection: FaceSelection

    /// The plain command lines, read without ArgumentParser's reflection (QuickCommandLine).
    static var quickCommandLine: QuickCommandLine<InstanceCommand> {
        QuickCommandLine(
            defaults: {
                var command = InstanceCommand()
                command.coordinates = []
                command.output = nil
                (command.all, command.strict, command.keepNames, command.noOverlapFlags) = (false, false, false, false)
                (command.rewriteLayout, command.downgradeCff2, command.partial, command.noOptimize, command.overwrite) = (
                    false, false, false, false, false
                )
                command.selection = FaceSelection.unselected
                return command
            },
            options: [
                .value(["-o", "--output"]) { $0.output = $1 },
                .value(["--face"]) { $0.selection.face = $1 },
                .flag(["--all"]) { $0.all = true },
                .flag(["--strict"]) { $0.strict = true },
                .flag(["--keep-names"]) { $0.keepNames = true },
                .flag(["--no-overlap-flags"]) { $0.noOverlapFlags = true },
                .flag(["--rewrite-layout"]) { $0.rewriteLayout = true },
                .flag(["--downgrade-cff2"]) { $0.downgradeCff2 = true },
                .flag(["--partial"]) { $0.partial = true },
                .flag(["--no-optimize"]) { $0.noOptimize = true },
                .flag(["--overwrite"]) { $0.overwrite = true },
            ],
            operands: { command, operands in
                guard let input = operands.first else { return false }
                command.input = input
                command.coordinates = Array(operands.dropFirst())
                return true
            })
    }

    func outcome() throws -> Outcome {
        let font = try Font(path: input)
        let face = try selection.face(in: font)
        guard let fvar = try face.table(FvarTable.self) else {
            throw FontError("not a variable font (no 'fvar' table)", path: input)
        }
        guard let output else {
            printLine(try Self.describe(face, fvar))
            return .done
        }
        if downgradeCff2 && !face.has("CFF2") {
            throw FontError(
                "--downgrade-cff2: the font's outlines are \(face.has("glyf") ? "TrueType" : "not CFF2"); there is no CFF2 to write as CFF",
                path: input)
        }
        var options = InstanceOptions(
            clamp: !strict, updateNames: !keepNames, setOverlapFlags: !noOverlapFlags, rewriteLayout: rewriteLayout,
            downgradeCFF2: downgradeCff2, partial: partial, optimizeDeltas: !noOptimize)
        if all {
            guard coordinates.isEmpty else { throw FontError("--all makes every named instance; give no coordinates with it") }
            try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
            let names = try face.name
            // PostScript outlines are .otf by convention, TrueType ones .ttf.
            let fileExtension = face.has("CFF2") ? ".otf" : ".ttf"
            let tags = fvar.axes.map(\.tag.trimmed)
            // Names in use, compared as a case-insensitive file system (macOS) would.
            var used = Set<String>()
            let progress = BatchProgress(total: fvar.instances.count, label: "fontshell instance", unit: "instances")
            defer { progress.done(summary: false) }
            for (i, named) in fvar.instances.enumerated() {
                progress.update(done: i, total: fvar.instances.count)
                options.coordinates = [:]
                for (tag, value) in zip(tags, named.coordinates) { options.coordinates[tag] = value }
                let result = try face.instance(options)
                let fileName = Self.distinctFileName(
                    result.postScriptName ?? names.string(named.subfamilyNameID) ?? "instance-\(i)",
                    coordinates: zip(tags, named.coordinates).map { "\($0)\(Face.short($1))" },
                    index: i, used: &used)
                let path = (output.hasSuffix("/") ? output : output + "/") + fileName + fileExtension
                try write(result, to: path, from: font, derivedName: true, progress: progress)
            }
            return .done
        }
        (options.coordinates, options.ranges) = try Self.parseCoordinates(coordinates)
        // A range keeps the font variable: the axes not named then stay variable too, as
        // fontTools keeps them (pinning them at their defaults needs them named).
        if !options.ranges.isEmpty { options.partial = true }
        let result = try face.instance(options)
        try write(result, to: output, from: font, partial: options.partial)
        return .done
    }

    /// A file name for an instance from its PostScript name, made safe (SafeFileName) and
    /// distinct from the names already `used`: two named instances with one PostScript name
    /// (a font's mistake, or a name table that ran out) get their coordinates appended, then
    /// their index, so no instance replaces another.
    static func distinctFileName(_ name: String, coordinates: [String], index: Int, used: inout Set<String>) -> String {
        let base = SafeFileName.from(name, fallback: "instance-\(index)")
        for candidate in [base, SafeFileName.from(([base] + coordinates).joined(separator: "-")), "\(base)-\(index)"] {
            if used.insert(candidate.lowercased()).inserted { return candidate }
        }
        var k = 2
        while !used.insert("\(base)-\(index)-\(k)".lowercased()).inserted { k += 1 }
        return "\(base)-\(index)-\(k)"
    }

    private func write(
        _ result: InstanceResult, to path: String, from font: Font, derivedName: Bool = false, partial: Bool? = nil,
        progress: BatchProgress? = nil
    ) throws {
        let partial = partial ?? self.partial
        if let original = font.path, Font.sameFile(original, path), !overwrite {
            throw FontError("refusing to overwrite the input file; save elsewhere or pass --overwrite", path: path)
        }
        progress?.clearBar()
        for w in result.warnings { printError("fontshell instance: warning: \(w)") }
        // .otf is for PostScript (CFF) outlines and .ttf for TrueType ones: a mismatch is legal but misleads.
        let ext = FileGlob.fileExtension(path)
        if let outlines = result.font.faces.first, ext == "otf" || ext == "ttf" {
            let trueType = outlines.has("glyf")
            if trueType && ext == "otf" {
                printError("fontshell instance: warning: the instance has TrueType outlines; '.ttf' is their usual extension")
            }
            if !trueType && ext == "ttf" {
                printError("fontshell instance: warning: the instance has CFF outlines; '.otf' is their usual extension")
            }
        }
        let report = try result.font.save(to: path, options: SaveOptions(overwriteInput: overwrite, followSymlinks: !derivedName))
        // Each axis as it was treated: pinned (its value), narrowed (its range) or kept whole.
        let ranges = (try? Self.parseCoordinates(coordinates).ranges) ?? [:]
        var parts: [String] = [], kept: [String] = []
        for (tag, value) in zip(result.location.tags.map(\.trimmed), result.location.user) {
            if let r = ranges[tag] {
                parts.append("\(tag)=\(Face.short(r.lowerBound)):\(Face.short(r.upperBound))")
            } else if partial && !coordinates.contains(where: { $0.hasPrefix(tag + "=") }) {
                kept.append(tag)
            } else {
                parts.append("\(tag)=\(Face.short(value))")
            }
        }
        var at = parts.joined(separator: " ")
        if !kept.isEmpty { at += " (keeps \(kept.joined(separator: ", ")) variable)" }
        printLine("\(path): \(result.postScriptName ?? "instance") at \(at), \(report.bytesWritten) bytes")
    }

    /// "wght=700" → ["wght": 700]; "wdth=75:100" → a range.
    static func parseCoordinates(_ items: [String]) throws -> (values: [String: Double], ranges: [String: ClosedRange<Double>]) {
        var values: [String: Double] = [:], ranges: [String: ClosedRange<Double>] = [:]
        for item in items {
            let parts = item.split(separator: "=", maxSplits: 1).map { String($0.trimmingSpaces) }
            let fields = parts.count == 2 ? parts[1].split(separator: ":", omittingEmptySubsequences: false) : []
            let bounds = fields.compactMap { Double($0.trimmingSpaces) }.filter(\.isFinite)
            guard parts.count == 2, !parts[0].isEmpty, (1...2).contains(bounds.count), bounds.count == fields.count else {
                throw FontError("expected AXIS=VALUE or AXIS=MIN:MAX (e.g. wght=700, wght=300:700), got '\(item)'")
            }
            guard values[parts[0]] == nil && ranges[parts[0]] == nil else { throw FontError("axis '\(parts[0])' is given twice") }
            if bounds.count == 1 { values[parts[0]] = bounds[0]; continue }
            guard bounds[0] <= bounds[1] else { throw FontError("axis '\(parts[0])': the range \(parts[1]) runs backwards") }
            ranges[parts[0]] = bounds[0]...bounds[1]
        }
        return (values, ranges)
    }

    static func describe(_ face: Face, _ fvar: FvarTable) throws -> String {
        let names = try face.name
        var lines = ["axes:"]
        for a in fvar.axes {
            lines.append(
                "  \(a.tag.trimmed)  \(Face.short(a.minimum))…\(Face.short(a.maximum)), default \(Face.short(a.defaultValue))  \(names.string(a.nameID) ?? "")\(a.isHidden ? " (hidden)" : "")"
            )
        }
        lines.append("named instances:")
        for i in fvar.instances {
            let at = zip(fvar.axes, i.coordinates).map { "\($0.0.tag.trimmed)=\(Face.short($0.1))" }.joined(separator: " ")
            lines.append("  \(names.string(i.subfamilyNameID) ?? "#\(i.subfamilyNameID)")  \(at)")
        }
        lines.append("make one with: fontshell instance FONT AXIS=VALUE … -o OUT.ttf, or --all -o FOLDER")
        return lines.joined(separator: "\n")
    }
}
