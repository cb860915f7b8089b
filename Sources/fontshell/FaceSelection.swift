import ArgumentParser
import FontModel

/// `--face`, with one meaning in every command: a 0-based face index or a PostScript name.
/// Without it each command uses its documented default (every face, or the first).
struct FaceSelection: ParsableArguments {
    @Option(help: "Face of a collection: 0-based index or PostScript name (without it, the command's default: see its overview).")
    var face: String?

    /// No face given (for QuickCommandLine, which sets properties without parsing).
    static var unselected: FaceSelection {
        var selection = FaceSelection()
        selection.face = nil
        return selection
    }

    /// The selected face, or `fallback` when none was given.
    func faces(in font: Font, otherwise fallback: [Face]) throws -> [Face] {
        guard let face else { return fallback }
        if let i = Int(face) {
            guard font.faces.indices.contains(i) else {
                throw FontError(
                    "no face \(i): the font has \(font.faces.count) face\(font.faces.count == 1 ? "" : "s") (0...\(font.faces.count - 1))",
                    path: font.path)
            }
            return [font.faces[i]]
        }
        guard let f = font.face(named: face) else { throw FontError("no face named '\(face)'", path: font.path) }
        return [f]
    }

    /// The selected face, or the first.
    func face(in font: Font) throws -> Face {
        guard let first = try faces(in: font, otherwise: Array(font.faces.prefix(1))).first else {
            throw FontError("the font has no faces", path: font.path)
        }
        return first
    }
}
