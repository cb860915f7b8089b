import FontModel
import FontRender
import LuaBridge
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `show(x [, {width =, protocol =, size =, from =, count =}])`: a picture in the terminal,
/// where the user types. An Image as it is; a Glyph drawn large with its points and metrics; a
/// Face (or Font: its first face) as a specimen; `face.glyphs` as a grid (from `from`, `count`
/// glyphs, default the first 100). The protocol is the terminal's (kitty, iTerm2, sixel, or
/// half blocks; `TerminalGraphics.current`), `protocol =` forces one; nothing is drawn when
/// stdout is not a terminal or FONTSHELL_IMAGES=off (a note on stderr says so).
/// The pictures themselves come from `preview.glyph`, `preview.glyphs`, `preview.specimen`.
enum Show {
    /// The kind the preview functions mark their information tables with (missing characters,
    /// measurements, statistics), so `show(preview.text(face, "Hi"))` takes the Image alone
    /// (`LuaCall.options` leaves such a table out).
    static let previewInfo = "PreviewInfo"

    static let show: LuaFunction = { L in
        LuaCall.run(L, "show") { call in
            try call.options(2, ["width", "protocol", "size", "from", "count"])
            let image = try picture(call, 1, optionsAt: 2)
            var terminal = TerminalGraphics.current()
            if let name = try call.stringOption(2, "protocol") {
                guard let p = TerminalImageProtocol(rawValue: name) else {
                    throw LuaArgumentError(
                        2, "protocol \"\(name)\": choose " + TerminalImageProtocol.allCases.map(\.rawValue).joined(separator: ", "))
                }
                terminal.imageProtocol = p
            }
            if terminal.imageProtocol == .none {
                let note =
                    "show: pictures are off here (stdout is not a terminal, or FONTSHELL_IMAGES=off); save one instead: preview.glyph(g):save(\"g.png\")\n"
                _ = note.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
                return 0
            }
            let width = try call.intOption(2, "width")
            if let width, width < 1 { throw LuaArgumentError(2, "width is in terminal cells, at least 1") }
            let text = TerminalGraphics.encode(image, for: terminal, columns: width)
            print(text, terminator: "")
            fflush(nil)
            return 0
        }
    }

    /// The Image for argument `i`: an Image, or the picture of a Glyph, Face, Font or Glyphs.
    static func picture(_ call: LuaCall, _ i: Int32, optionsAt o: Int32) throws -> Image {
        let s = call.stack
        switch s.classInfo(at: i)?.name {
        case ImageObject.className?:
            return try call.object(i, ImageObject.classID, ImageObject.className, as: ImageBox.self).image
        case GlyphObject.className?:
            let ref = try call.object(i, GlyphObject.classID, GlyphObject.className, as: FaceRef.self)
            return try Preview.glyphPicture(try ref.get(), glyph: call.payload(i), size: Double(try call.intOption(o, "size") ?? 360))
        case FaceObject.className?:
            return try Preview.specimen(try call.object(i, FaceObject.classID, FaceObject.className, as: FaceRef.self).get())
        case FontObject.className?:
            let font = try call.object(i, FontObject.classID, FontObject.className, as: FontHandle.self).get()
            return try Preview.specimen(font.faces[0])
        case GlyphsObject.className?:
            let face = try call.object(i, GlyphsObject.classID, GlyphsObject.className, as: FacePart.self).face.get()
            let from = try call.intOption(o, "from") ?? 0, count = try call.intOption(o, "count") ?? 100
            let total = try face.glyphCount
            guard from >= 0, from < total else { throw LuaArgumentError(o, "from = \(from): glyphs are 0...\(total - 1)") }
            guard count >= 1 else { throw LuaArgumentError(o, "count must be at least 1") }
            return try Preview.glyphGrid(
                face, glyphs: Array(from..<min(total, from + count)), cellSize: Double(try call.intOption(o, "size") ?? 48))
        default:
            throw LuaArgumentError(i, "show takes an Image, a Glyph, a Face, a Font or face.glyphs, not \(s.describe(at: i))")
        }
    }
}
