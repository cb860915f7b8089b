import ArgumentParser
import FontModel
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `fontshell validate FONT`: the checks of `Validator`, exit 0 clean, 1 warnings, 2 errors.
struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "validate", abstract: "Check a font before shipping (exit status: 0 clean, 1 warnings, 2 errors).")

    @Argument(help: "Font file.") var font: String
    @Flag(help: "Print the findings as JSON.") var json = false

    func run() throws {
        let findings: [Finding]
        do {
            findings = Validator.validate(try Font(path: font))
        } catch {
            printError("fontshell validate: \(error)")
            throw ExitCode(2)
        }
        if json {
            struct Item: Encodable { let check: String; let severity: String; let face: Int?; let message: String }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            let items = findings.map { Item(check: $0.check, severity: $0.severity.rawValue, face: $0.face, message: $0.message) }
            print(String(decoding: try encoder.encode(items), as: UTF8.self))
        } else {
            for f in findings { print(f) }
            let errors = findings.filter { $0.severity == .error }.count
            print("\(font): \(errors) errors, \(findings.count - errors) warnings (\(Validator.checks.count) checks)")
        }
        let worst = findings.map(\.severity).max()
        if worst == .error { throw ExitCode(2) }
        if worst == .warning { throw ExitCode(1) }
    }
}
