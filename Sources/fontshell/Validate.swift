import JSONText
import ArgumentParser
import FontModel
import FontScript
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `fontshell validate FONT`: the checks of `Validator`, exit 0 clean, 1 warnings, 2 errors.
struct Validate: FontShellCommand {
    static let judges = true

    static let configuration = CommandConfiguration(
        commandName: "validate", abstract: "Check a font before shipping (exit status: 0 clean, 1 warnings, 2 errors).")

    @Argument(help: "Font file.") var font: String
    @Flag(help: "Print the findings as JSON.") var json = false

    func outcome() throws -> Outcome {
        let findings = Validator.validate(try Font(path: font))
        if json {
            let items = findings.map {
                ["check": $0.check, "severity": $0.severity.rawValue, "face": $0.face as Any, "message": $0.message]
            }
            print(JSONText.write(items, pretty: true))
        } else {
            for f in findings { print(f) }
            let errors = findings.filter { $0.severity == .error }.count
            print("\(font): \(errors) errors, \(findings.count - errors) warnings (\(Validator.checks.count) checks)")
        }
        switch findings.map(\.severity).max() {
        case .error: return .errors
        case .warning: return .findings
        default: return .done
        }
    }
}
