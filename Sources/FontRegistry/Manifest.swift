#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FontModel

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
        do { return try JSONDecoder().decode(Manifest.self, from: data) } catch {
            throw RegistryError("cannot read the registry manifest \(path): \(error)")
        }
    }

    func save(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = try encoder.encode(self)
        do { try AtomicFile.write([UInt8](data), to: path) } catch {
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
