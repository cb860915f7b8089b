/// A problem to show the user as one message (file, position, what is wrong). FontError,
/// XMLError, RenderError and RegistryError adopt it, so the command has one error path.
public protocol ToolError: Error, CustomStringConvertible {}

/// Every problem the font model reports: which file, face, table and offset, and what is wrong.
/// Reading never traps on bad data; it throws one of these.
public struct FontError: ToolError, Equatable, Sendable {
    public var path: String?
    public var face: Int?
    public var table: String?
    public var offset: Int?
    public var message: String

    public init(_ message: String, path: String? = nil, face: Int? = nil, table: String? = nil, offset: Int? = nil) {
        self.message = message
        self.path = path
        self.face = face
        self.table = table
        self.offset = offset
    }

    public var description: String {
        var parts: [String] = []
        if let path { parts.append(path) }
        if let face { parts.append("face \(face)") }
        if let table { parts.append("table '\(table)'") }
        if let offset { parts.append("offset \(offset)") }
        return parts.isEmpty ? message : parts.joined(separator: ": ") + ": " + message
    }

    /// Fills in context the thrower did not know (the reader knows the offset, the face knows its index).
    func adding(path: String? = nil, face: Int? = nil, table: String? = nil) -> FontError {
        var copy = self
        if copy.path == nil { copy.path = path }
        if copy.face == nil { copy.face = face }
        if copy.table == nil { copy.table = table }
        return copy
    }
}

/// Runs `body`, adding file/face/table context to any FontError it throws.
@inline(__always)
func withContext<T>(path: String? = nil, face: Int? = nil, table: String? = nil, _ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as FontError {
        throw error.adding(path: path, face: face, table: table)
    }
}
