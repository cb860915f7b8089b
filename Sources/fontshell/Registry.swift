import JSONText
import ArgumentParser
import FontRegistry
import FontScript
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `fontshell registry ...`: the platform font registry (fontconfig on Linux, CoreText on macOS).
struct Registry: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "registry",
        abstract: "Register, list, find and unregister fonts (fontconfig on Linux, CoreText on macOS).",
        subcommands: [List.self, Find.self, Missing.self, Register.self, Unregister.self, Repair.self, System.self]
    )

    struct Output: ParsableArguments {
        @Flag(help: "Print JSON instead of a table.") var json = false
    }

    struct List: Subcommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List installed fonts.")
        @Option(help: "Only fonts FontShell registered at this scope (user or process).") var scope: String?
        @Option(help: "Only this family.") var family: String?
        @OptionGroup var output: Output
        func outcome() throws -> Outcome {
            let fonts = try makeRegistry().list(scope: try scope.map(RegistryScope.init(name:)), family: family)
            try show(fonts, json: output.json)
            return .done
        }
    }

    struct Find: Subcommand {
        static let configuration = CommandConfiguration(
            commandName: "find", abstract: "Find a font by exact PostScript or full name (exit 1 if not found).")
        @Argument var name: String
        @OptionGroup var output: Output
        func outcome() throws -> Outcome {
            guard let found = try makeRegistry().find(name) else {
                if output.json { print("null") } else { printError("not found: \(name)") }
                return .findings
            }
            try show([found], json: output.json)
            return .done
        }
    }

    struct Missing: Subcommand {
        static let configuration = CommandConfiguration(
            commandName: "missing", abstract: "Which of these names cannot be found, and what would be used instead (exit 1 if any).")
        @Argument var names: [String]
        @OptionGroup var output: Output
        func outcome() throws -> Outcome {
            let missing = try makeRegistry().missing(names)
            if output.json {
                print(try json(missing))
            } else {
                for m in missing {
                    print("\(m.name)\tmissing; falls back to \(m.fallback.map { "\($0.postScriptName) (\($0.path))" } ?? "nothing")")
                }
            }
            return missing.isEmpty ? .done : .findings
        }
    }

    struct Register: Subcommand {
        static let configuration = CommandConfiguration(
            commandName: "register", abstract: "Install a font for the user (copied to $XDG_DATA_HOME/fonts/fontshell) or this process.")
        @Argument var path: String
        @Option(help: "user (default, as in Lua) or process.") var scope = "user"
        @Flag(help: "Replace a font FontShell registered under the same PostScript name.") var replace = false
        @OptionGroup var output: Output
        func outcome() throws -> Outcome {
            try show(try makeRegistry().register(path: path, scope: try RegistryScope(name: scope), replace: replace), json: output.json)
            return .done
        }
    }

    struct Unregister: Subcommand {
        static let configuration = CommandConfiguration(
            commandName: "unregister", abstract: "Remove a font FontShell registered (by path or PostScript name).")
        @Argument var pathOrName: String
        @OptionGroup var output: Output
        func outcome() throws -> Outcome {
            try show(try makeRegistry().unregister(pathOrName), json: output.json)
            return .done
        }
    }

    struct Repair: Subcommand {
        static let configuration = CommandConfiguration(
            commandName: "repair",
            abstract: "Adopt fonts in FontShell's folder that its record lacks; forget records of files that are gone.",
            discussion: "Nothing is deleted: a file that cannot be adopted (not a valid font, or a name clash) is listed with the reason.")
        @OptionGroup var output: Output
        func outcome() throws -> Outcome {
            let report = try makeRegistry().repair()
            if output.json { print(try json(report)); return .done }
            if let kept = report.damagedRecordKeptAs {
                print("the record could not be read: kept as \(kept), rebuilt from the fonts folder")
            }
            for f in report.adopted { print("adopted   \(f.path) (\(f.postScriptNames.joined(separator: ", ")))") }
            for f in report.forgotten { print("forgotten \(f.path) (\(f.postScriptNames.joined(separator: ", "))): the file is gone") }
            for f in report.leftAlone { print("left      \(f.path): \(f.reason)") }
            if report.adopted.isEmpty && report.forgotten.isEmpty && report.leftAlone.isEmpty && report.damagedRecordKeptAs == nil {
                print("nothing to repair: the record matches the folder")
            }
            return .done
        }
    }

    struct System: Subcommand {
        static let configuration = CommandConfiguration(
            commandName: "system", abstract: "The platform's UI font of a design: default, serif, monospaced, rounded.")
        @Option var design = "default"
        @OptionGroup var output: Output
        func outcome() throws -> Outcome {
            guard let font = try makeRegistry().systemFont(design: design) else {
                printError("no \(design) font is installed")
                return .findings
            }
            try show([font], json: output.json)
            return .done
        }
    }
}

extension Registry {
    /// The registry's subcommands speak as "fontshell registry: …".
    protocol Subcommand: FontShellCommand {}
}

extension Registry.Subcommand {
    static var messageName: String { "registry" }
}

private func json<T: Encodable>(_ value: T) throws -> String {
    try JSONText.write(encoding: value, pretty: true)
}

private func show(_ fonts: [FontDescriptor], json asJSON: Bool) throws {
    if asJSON { print(try json(fonts)); return }
    let header = ["PostScript name", "family", "style", "weight", "scope", "path"]
    let rows = fonts.map {
        [
            $0.postScriptName, $0.family, $0.style, String($0.weight), $0.scope ?? "system",
            $0.path + ($0.faceIndex > 0 ? "#\($0.faceIndex)" : ""),
        ]
    }
    let widths = header.indices.map { i in ([header[i]] + rows.map { $0[i] }).map(\.count).max() ?? 0 }
    for row in [header] + rows {
        print(
            row.enumerated().map { i, cell in
                i == row.count - 1 ? cell : cell + String(repeating: " ", count: max(0, widths[i] - cell.count))
            }.joined(separator: "  "))
    }
}
