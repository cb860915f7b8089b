#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FontModel
import JSONText

/// What FontShell installed at user scope, so it only ever removes its own fonts. Kept as JSON
/// next to the fonts folder: `$XDG_DATA_HOME/fontshell/registered.json`.
struct Manifest: Codable {
    struct Entry: Codable, Equatable {
        var path: String
        var source: String
        var postScriptNames: [String]
        var checksum: String
        var date: String
    }
    var fonts: [Entry] = []

    static func load(from path: String) throws -> Manifest {
        guard let data = FileManager.default.contents(atPath: path) else { return Manifest() }
        do { return try JSONDecoder().decode(Manifest.self, from: data) } catch let error as DecodingError {
            throw RegistryError(
                "cannot read the registry manifest \(path): \(Self.explain(error)); fix or remove it (fontshell registry repair rebuilds it from the fonts folder)"
            )
        } catch {
            throw RegistryError("cannot read the registry manifest \(path): \(error)")
        }
    }

    /// A decoding error as a sentence naming where in the JSON it is ("fonts[2].checksum is
    /// missing"), not Swift's dump of coding paths.
    static func explain(_ error: DecodingError) -> String {
        func place(_ path: [CodingKey]) -> String {
            let text = path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return text.hasPrefix(".") ? String(text.dropFirst()) : (text.isEmpty ? "the top level" : text)
        }
        switch error {
        case .keyNotFound(let key, let context): return "\(place(context.codingPath + [key])) is missing"
        case .typeMismatch(let type, let context):
            return
                "\(place(context.codingPath)) is not \(type == String.self ? "a string" : type == [Entry].self ? "a list" : "of the expected type \(type)")"
        case .valueNotFound(_, let context): return "\(place(context.codingPath)) is null"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "it is not valid JSON" : "\(place(context.codingPath)) is damaged"
        @unknown default: return "\(error)"
        }
    }

    func save(to path: String) throws {
        let text = try JSONText.write(encoding: self, pretty: true) + "\n"
        do { try AtomicFile.write(Array(text.utf8), to: path) } catch {
            throw RegistryError("cannot write the registry manifest \(path): \(error)")
        }
    }

    func entry(named name: String) -> Entry? { fonts.first { $0.postScriptNames.contains(name) || $0.path == name } }
}

/// A content fingerprint (FNV-1a 64) to recognise the same file registered twice.
func fingerprint(_ path: String) -> String? {
    guard let data = FileManager.default.contents(atPath: path) else { return nil }
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in data { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    return String(hash, radix: 16) + "-" + String(data.count)
}

func timestamp() -> String {
    Date().formatted(.iso8601)
}
