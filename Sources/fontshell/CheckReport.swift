import JSONText
import FontModel
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `fontshell check`'s reports from the workers' records (one per font:
/// `{path, ok, faces, seconds, results = [{id, face, status, messages, fix, after}], error,
/// fixError, saved}`) and the checks' descriptions (`check.list()`).
struct CheckReport {
    let catalog: [[String: Any]]
    let colour: Bool

    var byID: [String: [String: Any]] {
        Dictionary(catalog.compactMap { c in (c["id"] as? String).map { ($0, c) } }, uniquingKeysWith: { a, _ in a })
    }

    static let order = ["error": 0, "fail": 1, "warn": 2, "skip": 3, "pass": 4]

    func paint(_ text: String, _ code: String) -> String { colour ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }

    func results(_ record: [String: Any]) -> [[String: Any]] { record["results"] as? [[String: Any]] ?? [] }

    // MARK: text

    /// One font's findings: failures, errors and warnings with their messages, then counts.
    func text(for record: [String: Any]) -> String {
        let path = record["path"] as? String ?? "?"
        var out = paint(path, "1") + "\n"
        if let error = record["error"] as? String {
            return out + "  " + paint("ERROR", "35") + "  the font could not be checked: \(error)\n"
        }
        let faces = record["faces"] as? Int ?? 1
        var counts: [String: Int] = [:]
        let sorted = results(record).sorted {
            (CheckReport.order[$0["status"] as? String ?? ""] ?? 9, $0["id"] as? String ?? "", $0["face"] as? Int ?? 0)
                < (CheckReport.order[$1["status"] as? String ?? ""] ?? 9, $1["id"] as? String ?? "", $1["face"] as? Int ?? 0)
        }
        // The counts are the font's as given; findings a fix repaired are counted again for the
        // fixed file, so both states are said (the total sums the fonts as given too).
        var repaired: [String: Int] = [:]
        for r in sorted {
            let status = r["status"] as? String ?? "?"
            counts[status, default: 0] += 1
            if r["after"] as? String == "pass" { repaired[status, default: 0] += 1 }
            guard status == "fail" || status == "warn" || status == "error" else { continue }
            let label = status == "fail" ? paint("FAIL ", "31") : status == "warn" ? paint("WARN ", "33") : paint("ERROR", "35")
            let face = faces > 1 ? " (face \(r["face"] as? Int ?? 0))" : ""
            out += "  \(label)  \(r["id"] as? String ?? "?")\(face)\n"
            for m in r["messages"] as? [String] ?? [] {
                out += "         " + m.replacing("\n", with: "\n         ") + "\n"
            }
            if let fix = r["fix"] as? String {
                out += "         " + paint("fixed:", "32") + " \(fix) → now \(r["after"] as? String ?? "?")\n"
            }
            if let fixError = r["fixError"] as? String { out += "         " + paint("fix failed:", "31") + " \(fixError)\n" }
        }
        out +=
            "  \(counts["fail"] ?? 0) failed, \(counts["warn"] ?? 0) warnings, \(counts["error"] ?? 0) errors, "
            + "\(counts["pass"] ?? 0) passed, \(counts["skip"] ?? 0) skipped"
        if let s = JSONText.number(record["seconds"]) { out += " (" + fixedPoint(s, 2) + " s)" }
        out += "\n"
        let fixed = repaired.values.reduce(0, +)
        if let saved = record["saved"] as? String {
            let failing = (counts["fail"] ?? 0) - (repaired["fail"] ?? 0), warning = (counts["warn"] ?? 0) - (repaired["warn"] ?? 0)
            out += "  \(fixed) fixed in \(saved), which has \(failing) failed, \(warning) warnings\n"
        } else if fixed > 0 {
            out += "  \(fixed) fixed, but the fixed font was not saved\n"
        }
        if let e = record["fixError"] as? String { out += "  " + paint("not saved:", "31") + " \(e)\n" }
        return out
    }

    func summary(_ records: [[String: Any]]) -> String {
        var counts: [String: Int] = [:]
        for r in records { for x in results(r) { counts[x["status"] as? String ?? "?", default: 0] += 1 } }
        let unchecked = records.filter { $0["error"] != nil }.count
        let failing = records.filter { ($0["ok"] as? Bool) == false }.count
        let tally =
            "\(counts["fail"] ?? 0) failed, \(counts["warn"] ?? 0) warnings, \(counts["error"] ?? 0) errors, "
            + "\(counts["pass"] ?? 0) passed, \(counts["skip"] ?? 0) skipped"
        var s = "\(records.count) fonts, \(failing) with failures: " + tally
        // What the saved .fixed files hold: the failures and warnings a fix did not repair.
        let saved = records.filter { $0["saved"] != nil }
        if !saved.isEmpty {
            var left: [String: Int] = [:], fixed = 0
            for r in saved {
                for x in results(r) {
                    let status = x["status"] as? String ?? "?"
                    if x["after"] as? String == "pass" { fixed += 1 } else { left[status, default: 0] += 1 }
                }
            }
            // "with failures" then speaks of the fonts as they are left (the exit status's view).
            s =
                "\(records.count) fonts: " + tally + "; \(fixed) fixed in \(saved.count) saved file\(saved.count == 1 ? "" : "s"), "
                + "which \(saved.count == 1 ? "has" : "have") \(left["fail"] ?? 0) failed, \(left["warn"] ?? 0) warnings; \(failing) with failures left"
        }
        if unchecked > 0 { s += "; \(unchecked) could not be checked" }
        return s + "\n"
    }

    // MARK: JSON

    func json(_ records: [[String: Any]]) -> String {
        let document: [String: Any] = ["tool": "fontshell", "version": FontShellVersion.string, "checks": catalog, "fonts": records]
        return serialize(document, pretty: true)
    }

    func serialize(_ value: Any, pretty: Bool) -> String {
        JSONText.write(value, pretty: pretty) + "\n"
    }

    // MARK: SARIF 2.1.0 (GitHub code scanning)

    func sarif(_ records: [[String: Any]]) -> String {
        let ids = catalog.compactMap { $0["id"] as? String }
        let index = Dictionary(ids.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        let rules: [[String: Any]] = catalog.map { c in
            var rule: [String: Any] = ["id": c["id"] as? String ?? "?"]
            rule["name"] = (c["id"] as? String ?? "").split(separator: "/").last.map(String.init) ?? ""
            rule["shortDescription"] = ["text": c["title"] as? String ?? (c["broken"] as? String ?? "")]
            rule["fullDescription"] = ["text": (c["rationale"] as? String ?? "").replacing("\n", with: " ")]
            rule["defaultConfiguration"] = ["level": c["severity"] as? String == "warn" ? "warning" : "error"]
            var properties: [String: Any] = [:]
            if let fb = c["fontbakery"] as? String { properties["fontbakery"] = fb }
            if let area = (c["id"] as? String)?.split(separator: "/").first { properties["tags"] = [String(area)] }
            rule["properties"] = properties
            return rule
        }
        var results: [[String: Any]] = []
        for record in records {
            let path = record["path"] as? String ?? "?"
            let location: [String: Any] = ["physicalLocation": ["artifactLocation": ["uri": sarifURI(path)], "region": ["startLine": 1]]]
            if let error = record["error"] as? String {
                results.append([
                    "ruleId": "fontshell/open", "level": "error", "message": ["text": "the font could not be checked: \(error)"],
                    "locations": [location],
                ])
                continue
            }
            let faces = record["faces"] as? Int ?? 1
            for r in self.results(record) {
                let status = r["status"] as? String ?? ""
                guard status == "fail" || status == "warn" || status == "error" else { continue }
                let id = r["id"] as? String ?? "?"
                var text = (r["messages"] as? [String] ?? []).joined(separator: "; ")
                if text.isEmpty { text = byID[id]?["title"] as? String ?? id }
                if faces > 1 { text = "face \(r["face"] as? Int ?? 0): " + text }
                var result: [String: Any] = [
                    "ruleId": id, "level": status == "warn" ? "warning" : "error",
                    "message": ["text": text], "locations": [location],
                ]
                if let i = index[id] { result["ruleIndex"] = i }
                results.append(result)
            }
        }
        let run: [String: Any] = [
            "tool": [
                "driver": [
                    "name": "fontshell", "version": FontShellVersion.string, "semanticVersion": FontShellVersion.string,
                    "informationUri": "https://github.com/fontshell/fontshell", "rules": rules,
                ]
            ],
            "results": results,
            "columnKind": "unicodeCodePoints",
        ]
        return serialize(["$schema": "https://json.schemastore.org/sarif-2.1.0.json", "version": "2.1.0", "runs": [run]], pretty: true)
    }

    /// A relative URI reference for a path (absolute paths become file: URIs).
    func sarifURI(_ path: String) -> String {
        let encoded = percentEncodedPath(path)
        let relative = encoded.hasPrefix("./") ? String(encoded.dropFirst(2)) : encoded
        return path.hasPrefix("/") ? "file://" + encoded : relative
    }

    // MARK: JUnit XML

    func junit(_ records: [[String: Any]]) -> String {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        var suites = ""
        var total = 0, totalFailures = 0, totalErrors = 0, totalSkipped = 0
        for record in records {
            let path = record["path"] as? String ?? "?"
            var cases = ""
            var tests = 0, failures = 0, errors = 0, skipped = 0
            if let error = record["error"] as? String {
                tests = 1; errors = 1
                cases += "    <testcase classname=\"\(xml(path))\" name=\"open\"><error message=\"\(xml(error))\"/></testcase>\n"
            }
            let faces = record["faces"] as? Int ?? 1
            for r in results(record) {
                tests += 1
                let id = r["id"] as? String ?? "?"
                let name = faces > 1 ? "\(id) (face \(r["face"] as? Int ?? 0))" : id
                let messages = (r["messages"] as? [String] ?? []).joined(separator: "\n")
                let seconds = 0
                cases += "    <testcase classname=\"\(xml(path))\" name=\"\(xml(name))\" time=\"\(seconds)\""
                switch r["status"] as? String {
                case "fail":
                    failures += 1
                    cases += "><failure message=\"\(xml(firstLine(messages)))\" type=\"fail\">\(xml(messages))</failure></testcase>\n"
                case "error":
                    errors += 1
                    cases += "><error message=\"\(xml(firstLine(messages)))\" type=\"error\">\(xml(messages))</error></testcase>\n"
                case "skip":
                    skipped += 1
                    cases += "><skipped message=\"\(xml(firstLine(messages)))\"/></testcase>\n"
                case "warn":
                    // JUnit has no warnings: the case passes and says why it warned.
                    cases += "><system-out>\(xml("WARN: " + messages))</system-out></testcase>\n"
                default:
                    cases += "/>\n"
                }
            }
            let seconds = JSONText.number(record["seconds"]) ?? 0
            suites +=
                "  <testsuite name=\"\(xml(path))\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"\(skipped)\" time=\"\(seconds)\">\n"
            suites += cases + "  </testsuite>\n"
            total += tests; totalFailures += failures; totalErrors += errors; totalSkipped += skipped
        }
        out +=
            "<testsuites name=\"fontshell check\" tests=\"\(total)\" failures=\"\(totalFailures)\" errors=\"\(totalErrors)\" skipped=\"\(totalSkipped)\">\n"
        return out + suites + "</testsuites>\n"
    }

    func firstLine(_ s: String) -> String { String(s.split(separator: "\n", omittingEmptySubsequences: false).first ?? "") }

    // Like FontDiff.quoted in shape (a switch over scalars), with XML's escapes instead of quoting's.
    /// Text for XML attributes and content: markup escaped, characters XML 1.0 forbids dropped.
    func xml(_ s: String) -> String {
        var out = ""
        for u in s.unicodeScalars {
            switch u {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\n": out += "&#10;"
            case "\t", "\r": out.unicodeScalars.append(u)
            case _ where u.value < 0x20 || u.value == 0xFFFE || u.value == 0xFFFF: continue
            default: out.unicodeScalars.append(u)
            }
        }
        return out
    }
}
