import FontModel
import LuaBridge

/// What Lua objects hold: a Font that `font:close()` can let go of, and references into it
/// (face by index, glyph by id) that fail cleanly once it is closed.
final class FontHandle: LuaEquatable {
    var font: Font? { didSet { isOpen = font != nil } }
    /// Checked on every access from Lua (cheaper than loading the optional reference).
    private(set) var isOpen = true
    let path: String

    init(_ font: Font, path: String) {
        self.font = font
        self.path = path
    }

    func get() throws -> Font {
        guard let font else { throw closedError }
        return font
    }

    var closedError: LuaBridgeError { LuaBridgeError("attempt to use a closed Font (\(path))") }

    func isSame(as other: AnyObject) -> Bool { self === other }
}

final class FaceRef: LuaEquatable {
    let handle: FontHandle
    let index: Int
    /// Held directly for speed; refused once the handle is closed.
    private let face: Face

    init(_ handle: FontHandle, _ index: Int) throws {
        self.handle = handle
        self.index = index
        let font = try handle.get()
        guard font.faces.indices.contains(index) else { throw LuaBridgeError("no face \(index) in \(handle.path)") }
        face = font.faces[index]
    }

    func get() throws -> Face {
        guard handle.isOpen else { throw handle.closedError }
        return face
    }

    func isSame(as other: AnyObject) -> Bool {
        guard let o = other as? FaceRef else { return false }
        return o.handle === handle && o.index == index
    }
}

/// A part of a face (a table, the name table, the cmap, the glyph set).
final class FacePart: LuaEquatable {
    let face: FaceRef
    let tag: Tag

    init(_ face: FaceRef, _ tag: Tag) {
        self.face = face
        self.tag = tag
    }

    func isSame(as other: AnyObject) -> Bool {
        guard let o = other as? FacePart else { return false }
        return o.face.isSame(as: face) && o.tag == tag
    }
}

/// Lua's view of FontModel errors: the message as the model words it.
extension FontError: LuaMessageError {}

/// "Face has no field 'postscriptname' (did you mean 'postscriptName'?)"
func unknownField(_ className: String, _ key: String, _ known: [String]) -> LuaBridgeError {
    var message = "\(className) has no field '\(key)'"
    if let near = closestName(to: key, in: known) { message += " (did you mean '\(near)'?)" }
    return LuaBridgeError(message)
}

/// A class's own fields: an enum whose cases are the Lua names, numbered by the bridge from 1
/// in case order. The names are the raw values because `"\(case)"` reads a case's name by
/// reflection, 50,000 instructions a case, which every Lua state paid at its start.
protocol ClassFields: RawRepresentable<String>, CaseIterable where AllCases == [Self] {}

extension ClassFields {
    static var names: [String] { allCases.map(\.rawValue) }
}

extension Array where Element: ClassFields {
    /// The field the bridge numbered `n` (from 1); nil past the class's own fields.
    func numbered(_ n: Int) -> Element? { n >= 1 && n <= count ? self[n - 1] : nil }
}
