import FontModel

/// Where a registration lives: this process only, the user's fonts (persistent), or the login
/// session (CoreText only).
public enum RegistryScope: String, CaseIterable, Sendable {
    case process, user, session

    public init(name: String) throws {
        guard let scope = RegistryScope(rawValue: name) else {
            throw RegistryError("unknown scope '\(name)' (use process or user\(RegistryScope.sessionAvailable ? " or session" : ""))")
        }
        self = scope
    }

    static var sessionAvailable: Bool {
        #if canImport(CoreText)
        true
        #else
        false
        #endif
    }
}

/// One installed face as the registry sees it.
public struct FontDescriptor: Equatable, Sendable, Codable {
    public var postScriptName: String
    public var fullName: String
    public var family: String
    public var style: String
    /// OpenType/CSS weight (400 regular, 700 bold) on both platforms (fontconfig's own scale is converted).
    public var weight: Int
    public var width: Int
    public var path: String
    public var faceIndex: Int
    /// "user" or "process" for fonts FontShell registered, else nil (system or another app's).
    public var scope: String?
    public var registeredByFontShell: Bool
}

/// A name that cannot be found, and what a renderer would use instead.
public struct MissingFont: Equatable, Sendable, Codable {
    public var name: String
    public var fallback: FontDescriptor?
}

public struct RegistryError: ToolError, Sendable {
    public let description: String
    public init(_ message: String) { description = message }
}

/// The verbs an app developer uses to install fonts and check what is available: the same on
/// Linux (fontconfig) and macOS (CoreText).
public protocol FontRegistry: AnyObject {
    /// Registers every face of a font file; returns what was registered.
    func register(path: String, scope: RegistryScope, replace: Bool) throws -> [FontDescriptor]
    /// Removes a font FontShell registered, by path or PostScript name; returns what was removed.
    func unregister(_ pathOrName: String) throws -> [FontDescriptor]
    func list(scope: RegistryScope?, family: String?) throws -> [FontDescriptor]
    /// Exact match by PostScript name or full name; never a substitute.
    func find(_ name: String) throws -> FontDescriptor?
    /// The names that cannot be found, each with the font a renderer would fall back to.
    func missing(_ names: [String]) throws -> [MissingFont]
    /// The platform's UI font of a design: "default", "serif", "monospaced", "rounded".
    func systemFont(design: String) throws -> FontDescriptor?
    /// Whether the registry changed since the last call (fonts added or removed by anyone).
    func changed() -> Bool
    /// Brings the record of what FontShell installed back in line with its folder: fonts in the
    /// folder that the record lacks are adopted, entries whose file is gone are forgotten.
    func repair() throws -> RegistryRepair
}

/// What `repair` did. Nothing is ever deleted: a file it cannot adopt is left where it is, with why.
public struct RegistryRepair: Equatable, Sendable, Codable {
    public struct LeftAlone: Equatable, Sendable, Codable {
        public var path: String
        public var reason: String
    }
    /// Files now recorded as registered by FontShell (each with its PostScript names).
    public var adopted: [FontFile] = []
    /// Recorded files that no longer exist, now dropped from the record.
    public var forgotten: [FontFile] = []
    public var leftAlone: [LeftAlone] = []
    /// A record that could not be read, set aside under this name (and rebuilt from the folder).
    public var damagedRecordKeptAs: String?

    public struct FontFile: Equatable, Sendable, Codable {
        public var path: String
        public var postScriptNames: [String]
    }
    public init() {}
}

/// The registry of this platform.
public func makeRegistry() throws -> FontRegistry {
    #if canImport(CoreText)
    return CoreTextRegistry()
    #else
    return try FontconfigRegistry()
    #endif
}

/// What every backend checks before registering: the file is a supported font that the validator
/// finds no errors in (the first error is the reason given). Returns each face's PostScript name.
func validatedPostScriptNames(_ path: String) throws -> [String] {
    let font: Font
    do { font = try Font(path: path) } catch { throw RegistryError("refusing \(path): \(error)") }
    if let problem = Validator.validate(font).first(where: { $0.severity == .error }) {
        throw RegistryError("refusing \(path): \(problem)")
    }
    var names: [String] = []
    for face in font.faces {
        do {
            _ = try face.head; _ = try face.maxp; _ = try face.hhea
            guard let ps = try face.postScriptName, !ps.isEmpty else {
                throw RegistryError("face \(face.index) has no PostScript name (name ID 6)")
            }
            guard try face.glyf != nil || face.cff != nil else {
                throw RegistryError("face \(face.index) has no outlines (glyf or CFF)")
            }
            names.append(ps)
        } catch let e as RegistryError {
            throw RegistryError("refusing \(path): \(e.description)")
        } catch {
            throw RegistryError("refusing \(path): \(error)")
        }
    }
    return names
}
