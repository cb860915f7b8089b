import CFreeType
import CHarfBuzz
import FontModel
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One glyph placed by HarfBuzz, in pixels (y up, as HarfBuzz and FreeType count).
struct ShapedGlyph {
    var id: UInt32
    /// Index of the first character of the glyph's cluster in the shaped text.
    var cluster: Int
    var xAdvance: Double, yAdvance: Double
    var xOffset: Double, yOffset: Double
}

/// How text is shaped: OpenType features and segment properties (guessed from the text when nil).
public struct ShapingOptions: Sendable {
    /// HarfBuzz feature strings: "kern=0", "-liga", "ss01", "+smcp".
    public var features: [String] = []
    public var direction: String?
    public var script: String?
    public var language: String?
    public init() {}
}

/// A face loaded into FreeType (rasterizing) and HarfBuzz (shaping) from sfnt bytes: the face
/// as it is in memory, edits included (an unedited face is read straight from its mapped file).
final class RenderFont {
    private var library: FT_Library?
    private var ftFace: FT_Face?
    private var hbFont: OpaquePointer?
    private var stroker: FT_Stroker?
    /// What FreeType and HarfBuzz read from (the mapped file or an edited face's view); it
    /// must outlive both.
    private let owner: AnyObject
    /// FreeType's stream over an edited face's view (nil for a mapped file).
    private let stream: UnsafeMutablePointer<FT_StreamRec>?
    private var pixelSize = 0.0
    let name: String
    /// The face has colour glyphs FreeType can draw: bitmap strikes (CBDT, sbix) or COLR
    /// layers (version 0; FreeType 2.12 does not paint COLR version 1, drawn as plain outlines).
    private(set) var hasColor = false
    /// A face of bitmap strikes alone cannot be scaled by FreeType: the nearest strike is drawn
    /// (`strikePixels`, its size) and scaled to the size asked for.
    private var bitmapOnly = false
    private var strikePixels = 0.0
    /// Glyphs with colour that FreeType 2.12 does not draw, with the form it has: "COLR v1
    /// paint" (it draws version 0 layers only) or "SVG" (no SVG renderer). They are drawn as
    /// plain outlines, and previews say so.
    private(set) var colorNotDrawn: [UInt32: String] = [:]

    /// Loads a model face: unedited, straight from its mapped file; edited, as the writer lays it
    /// out (`Font.standalone(face:)`), read in place, so the preview also proves the writer.
    convenience init(face: Face) throws {
        let bitmaps = (face.has("CBDT") && face.has("CBLC")) || face.has("sbix")
        guard face.hasOutlines || bitmaps else {
            let name = (try? face.postScriptName) ?? nil
            throw RenderError(
                "face \(name ?? String(face.index)) has no outlines (no glyf, CFF or CFF2 table) and no colour bitmaps (CBDT, sbix): nothing to draw"
            )
        }
        let name = ((try? face.postScriptName) ?? nil) ?? "face \(face.index)"
        guard let font = face.font else { throw RenderError("the font of face \(face.index) was closed") }
        if face.isEdited {
            let view: StandaloneFace
            do { view = try font.standalone(face: face) } catch {
                throw RenderError("\(name): cannot lay out the edited face for rendering: \(error)")
            }
            try self.init(view: view, name: name)
        } else {
            try self.init(bytes: UnsafeRawBufferPointer(font.bytes.buffer), faceIndex: face.index, name: name, owner: font.bytes)
        }
        colorNotDrawn = Self.colorNotDrawn(in: face)
    }

    /// See `colorNotDrawn`: COLR version 1 glyphs without version 0 layers and SVG glyphs, less
    /// those FreeType colours anyway (layers, a bitmap). A table that cannot be read adds
    /// nothing (the glyph is drawn as its outline either way).
    static func colorNotDrawn(in face: Face) -> [UInt32: String] {
        let colr = try? face.table(ColrTable.self), svg = try? face.table(SVGTable.self)
        guard colr != nil || svg != nil, let drawn = try? face.colorDrawnByFreeType() else { return [:] }
        var out: [UInt32: String] = [:]
        let glyphCount = (try? face.glyphCount) ?? 0
        if let painted = try? colr?.paintOnlyGlyphs() {
            for id in painted where id < glyphCount && !drawn(id) { out[UInt32(id)] = "COLR v1 paint" }
        }
        if let svg {
            // Ranges merged first, so overlapping documents cost no more than the glyphs they cover.
            // (A document whose range runs backwards, or starts past the glyphs, covers none.)
            let ranges = svg.documents.filter { $0.firstGlyph <= $0.lastGlyph && Int($0.firstGlyph) < glyphCount }
                .map { Int($0.firstGlyph)...min(Int($0.lastGlyph), glyphCount - 1) }.sorted { $0.lowerBound < $1.lowerBound }
            var next = 0
            for range in ranges {
                let start = max(range.lowerBound, next)
                guard start <= range.upperBound else { continue }
                for id in start...range.upperBound where out[UInt32(id)] == nil && !drawn(id) { out[UInt32(id)] = "SVG" }
                next = range.upperBound + 1
            }
        }
        return out
    }

    /// Loads a font file (the UI font for captions).
    convenience init(path: String) throws {
        let font: Font
        do { font = try Font(path: path) } catch { throw RenderError("cannot open the UI font: \(error)") }
        try self.init(face: font.faces[0])
    }

    private init(bytes: UnsafeRawBufferPointer, faceIndex: Int, name: String, owner: AnyObject) throws {
        self.owner = owner
        self.name = name
        stream = nil
        guard FT_Init_FreeType(&library) == 0, let library else { throw RenderError("FreeType could not start") }
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: FT_Byte.self),
            FT_New_Memory_Face(library, base, FT_Long(bytes.count), FT_Long(faceIndex), &ftFace) == 0
        else {
            throw RenderError("\(name): FreeType cannot load the face")
        }
        noteColor()
        let blob = hb_blob_create(
            UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self), UInt32(bytes.count), HB_MEMORY_MODE_READONLY, nil, nil)
        let hbFace = hb_face_create(blob, UInt32(faceIndex))
        hbFont = hb_font_create(hbFace)
        hb_face_destroy(hbFace)
        hb_blob_destroy(blob)
    }

    /// An edited face, read in place: FreeType through a stream over the laid-out view,
    /// HarfBuzz table by table, so nothing unchanged is copied.
    private init(view: StandaloneFace, name: String) throws {
        owner = view
        self.name = name
        let stream = UnsafeMutablePointer<FT_StreamRec>.allocate(capacity: 1)
        stream.initialize(to: FT_StreamRec())
        stream.pointee.size = UInt(view.length)
        stream.pointee.descriptor.pointer = Unmanaged.passUnretained(view).toOpaque()
        stream.pointee.read = { stream, offset, buffer, count in
            guard let stream, let pointer = stream.pointee.descriptor.pointer else { return count == 0 ? 1 : 0 }
            let view = Unmanaged<StandaloneFace>.fromOpaque(pointer).takeUnretainedValue()
            if count == 0 { return offset <= UInt(view.length) ? 0 : 1 }   // a seek: 0 is success
            guard let buffer else { return 0 }
            return UInt(view.read(from: Int(offset), count: Int(count), into: buffer))
        }
        self.stream = stream
        guard FT_Init_FreeType(&library) == 0, let library else { throw RenderError("FreeType could not start") }
        var args = FT_Open_Args()
        args.flags = FT_UInt(FT_OPEN_STREAM)
        args.stream = stream
        guard FT_Open_Face(library, &args, 0, &ftFace) == 0 else { throw RenderError("\(name): FreeType cannot load the edited face") }
        noteColor()
        let hbFace = hb_face_create_for_tables(
            { _, tag, user in
                guard let user else { return nil }
                let view = Unmanaged<StandaloneFace>.fromOpaque(user).takeUnretainedValue()
                guard let bytes = view.table(Tag(tag)), let base = bytes.baseAddress else { return nil }
                return hb_blob_create(base.assumingMemoryBound(to: CChar.self), UInt32(bytes.count), HB_MEMORY_MODE_READONLY, nil, nil)
            }, Unmanaged.passUnretained(view).toOpaque(), nil)
        hbFont = hb_font_create(hbFace)
        hb_face_destroy(hbFace)
    }

    deinit {
        if let hbFont { hb_font_destroy(hbFont) }
        if let stroker { FT_Stroker_Done(stroker) }
        if let ftFace { FT_Done_Face(ftFace) }
        if let library { FT_Done_FreeType(library) }
        stream?.deinitialize(count: 1)
        stream?.deallocate()
    }

    /// Draws and shapes at a location of a variable face (user coordinates by axis tag; an
    /// empty set leaves the default). Coordinates outside an axis's range are refused.
    func vary(_ face: Face, _ coordinates: [String: Double]) throws {
        guard !coordinates.isEmpty else { return }
        let location: VariationLocation
        do { location = try face.location(coordinates, clamp: false) } catch { throw RenderError("variations: \(error)") }
        guard let ftFace else { return }
        if (try? face.table(AvarTable.self))??.hasVersion2Mappings == true {
            // FreeType 2.12 and HarfBuzz 6 (Debian 12) apply only avar 1 to design coordinates:
            // an avar 2 font gets the normalized coordinates the model computed (both engines
            // take them as final, after avar).
            var blend = location.normalized.map { FT_Fixed(($0 * Fixed.scale).rounded()) }
            guard FT_Set_Var_Blend_Coordinates(ftFace, FT_UInt(blend.count), &blend) == 0 else {
                throw RenderError("\(name): FreeType cannot set the variation coordinates")
            }
            var coords = location.normalized.map { Int32(($0 * F2Dot14.scale).rounded()) }
            hb_font_set_var_coords_normalized(hbFont, &coords, UInt32(coords.count))
            return
        }
        var design = location.user.map { FT_Fixed(($0 * Fixed.scale).rounded()) }
        guard FT_Set_Var_Design_Coordinates(ftFace, FT_UInt(design.count), &design) == 0 else {
            throw RenderError("\(name): FreeType cannot set the variation coordinates")
        }
        var variations = zip(location.tags, location.user).map { hb_variation_t(tag: $0.0.rawValue, value: Float($0.1)) }
        hb_font_set_variations(hbFont, &variations, UInt32(variations.count))
    }

    private func noteColor() {
        guard let ftFace else { return }
        let flags = ftFace.pointee.face_flags
        hasColor = flags & FT_Long(FT_FACE_FLAG_COLOR) != 0
        bitmapOnly = flags & FT_Long(FT_FACE_FLAG_SCALABLE) == 0
    }

    private func setSize(_ px: Double) throws {
        guard px != pixelSize else { return }
        guard let ftFace else { return }
        if bitmapOnly {
            // The smallest strike at least as large (scaled down looks best), else the largest.
            let sizes = (0..<Int(ftFace.pointee.num_fixed_sizes)).map { Double(ftFace.pointee.available_sizes[$0].y_ppem) / 64 }
            guard
                let best = sizes.indices.filter({ sizes[$0] >= px }).min(by: { sizes[$0] < sizes[$1] })
                    ?? sizes.indices.max(by: { sizes[$0] < sizes[$1] }),
                FT_Select_Size(ftFace, FT_Int(best)) == 0
            else {
                throw RenderError("\(name): FreeType cannot select a bitmap strike for \(px) px")
            }
            strikePixels = sizes[best]
        } else if FT_Set_Char_Size(ftFace, 0, FT_F26Dot6((px * 64).rounded()), 72, 72) != 0 {
            throw RenderError("\(name): FreeType cannot set size \(px) px")
        }
        hb_font_set_scale(hbFont, Int32((px * 64).rounded()), Int32((px * 64).rounded()))
        pixelSize = px
    }

    /// Shapes one line of text at `px` pixels per em.
    func shape(_ text: [Unicode.Scalar], px: Double, options: ShapingOptions) throws -> [ShapedGlyph] {
        try setSize(px)
        guard let buffer = hb_buffer_create() else { throw RenderError("HarfBuzz could not allocate a buffer") }
        defer { hb_buffer_destroy(buffer) }
        let codepoints = text.map(\.value)
        codepoints.withUnsafeBufferPointer { hb_buffer_add_utf32(buffer, $0.baseAddress, Int32($0.count), 0, Int32($0.count)) }
        if let d = options.direction {
            let direction = hb_direction_from_string(d, -1)
            guard direction != HB_DIRECTION_INVALID else { throw RenderError("direction '\(d)' is not one of ltr, rtl, ttb, btt") }
            hb_buffer_set_direction(buffer, direction)
        }
        if let s = options.script { hb_buffer_set_script(buffer, hb_script_from_string(s, -1)) }
        if let l = options.language { hb_buffer_set_language(buffer, hb_language_from_string(l, -1)) }
        hb_buffer_guess_segment_properties(buffer)
        var features: [hb_feature_t] = []
        for f in options.features {
            var feature = hb_feature_t()
            guard hb_feature_from_string(f, -1, &feature) != 0 else {
                throw RenderError("feature '\(f)' is not HarfBuzz feature syntax (e.g. \"kern=0\", \"-liga\", \"ss01\")")
            }
            features.append(feature)
        }
        features.withUnsafeBufferPointer { hb_shape(hbFont, buffer, $0.baseAddress, UInt32($0.count)) }
        var count: UInt32 = 0
        guard let infos = hb_buffer_get_glyph_infos(buffer, &count), let positions = hb_buffer_get_glyph_positions(buffer, &count) else {
            return []
        }
        return (0..<Int(count)).map { i in
            let p = positions[i]
            return ShapedGlyph(
                id: infos[i].codepoint, cluster: Int(infos[i].cluster),
                xAdvance: Double(p.x_advance) / 64, yAdvance: Double(p.y_advance) / 64,
                xOffset: Double(p.x_offset) / 64, yOffset: Double(p.y_offset) / 64)
        }
    }

    /// A colour glyph drawn at `px` with its origin at (x, y) in image pixels (y down): the
    /// image and where its top left goes; nil for a glyph without colour (drawn by `rasterize`).
    func colorGlyph(_ glyphID: UInt32, px: Double, x: Double, y: Double) throws -> (image: Image, x: Int, y: Int)? {
        guard hasColor else { return nil }
        try setSize(px)
        guard let ftFace else { return nil }
        let empty = (image: Image(width: 0, height: 0, background: .clear), x: 0, y: 0)
        guard FT_Load_Glyph(ftFace, glyphID, Int32(FT_LOAD_COLOR) | Int32(FT_LOAD_NO_HINTING)) == 0, let slot = ftFace.pointee.glyph else {
            // A bitmap face's glyph without an image in the strike (a space) draws nothing.
            return bitmapOnly ? empty : nil
        }
        if slot.pointee.format == FT_GLYPH_FORMAT_OUTLINE {
            // COLR layers come out of FreeType's renderer as one blended BGRA bitmap.
            guard FT_Render_Glyph(slot, FT_RENDER_MODE_NORMAL) == 0 else {
                throw RenderError("\(name): FreeType cannot render glyph \(glyphID)")
            }
        }
        let bitmap = slot.pointee.bitmap
        guard slot.pointee.format == FT_GLYPH_FORMAT_BITMAP, bitmap.pixel_mode == UInt8(FT_PIXEL_MODE_BGRA.rawValue) else {
            // Not in colour: an outline glyph is drawn by `rasterize`; a bitmap face has nothing else.
            return bitmapOnly ? empty : nil
        }
        guard bitmap.rows > 0, bitmap.width > 0, let buffer = bitmap.buffer, bitmap.pitch > 0 else { return empty }
        let width = Int(bitmap.width), rows = Int(bitmap.rows), pitch = Int(bitmap.pitch)
        var premultiplied = [UInt8](repeating: 0, count: width * rows * 4)   // RGBA, premultiplied
        for row in 0..<rows {
            for col in 0..<width {
                let s = row * pitch + col * 4, d = (row * width + col) * 4
                premultiplied[d] = buffer[s + 2]; premultiplied[d + 1] = buffer[s + 1]; premultiplied[d + 2] = buffer[s];
                premultiplied[d + 3] = buffer[s + 3]
            }
        }
        var left = Double(slot.pointee.bitmap_left), top = Double(slot.pointee.bitmap_top)
        var image = ColorBitmap(width: width, height: rows, premultiplied: premultiplied)
        if bitmapOnly, strikePixels > 0, abs(strikePixels - px) > 0.01 {
            // A bitmap strike scaled to the size asked for.
            let scale = px / strikePixels
            image = image.scaled(by: scale)
            left *= scale; top *= scale
        }
        return (image.straight(), Int((x + left).rounded()), Int((y - top).rounded()))
    }

    /// Rasterizes a glyph with its origin at (x, y) in image pixels (y down) and adds its
    /// coverage to `mask`. `strokeRadius` > 0 draws the glyph grown by that radius (the outside
    /// border of FreeType's stroker) instead: what a stroke style paints under the fill.
    func rasterize(
        _ glyphID: UInt32, px: Double, x: Double, y: Double, hinting: Bool, strokeRadius: Double = 0, into mask: inout CoverageMask
    ) throws {
        try setSize(px)
        guard let ftFace, let library else { return }
        let flags = hinting ? Int32(FT_LOAD_DEFAULT) | Int32(FT_LOAD_NO_BITMAP) : Int32(FT_LOAD_NO_HINTING) | Int32(FT_LOAD_NO_BITMAP)
        guard FT_Load_Glyph(ftFace, glyphID, flags) == 0 else { throw RenderError("\(name): FreeType cannot load glyph \(glyphID)") }
        guard let slot = ftFace.pointee.glyph, slot.pointee.format == FT_GLYPH_FORMAT_OUTLINE else {
            throw RenderError("\(name): glyph \(glyphID) has no outline (bitmap-only faces are not drawn)")
        }
        var glyph: FT_Glyph?
        guard FT_Get_Glyph(slot, &glyph) == 0, glyph != nil else { throw RenderError("\(name): cannot copy glyph \(glyphID)") }
        defer { FT_Done_Glyph(glyph) }
        if strokeRadius > 0 {
            if stroker == nil { FT_Stroker_New(library, &stroker) }
            FT_Stroker_Set(stroker, FT_Fixed((strokeRadius * 64).rounded()), FT_STROKER_LINECAP_ROUND, FT_STROKER_LINEJOIN_ROUND, 0)
            guard FT_Glyph_StrokeBorder(&glyph, stroker, 0, 1) == 0 else {
                throw RenderError("\(name): FreeType cannot stroke glyph \(glyphID)")
            }
        }
        // Whole pixels place the bitmap; the fraction moves the outline (sub-pixel positioning).
        let ox = hinting ? x.rounded() : x.rounded(.down), oy = hinting ? y.rounded() : y.rounded(.down)
        var shift = FT_Vector(x: FT_Pos(((x - ox) * 64).rounded()), y: FT_Pos((-(y - oy) * 64).rounded()))
        guard FT_Glyph_To_Bitmap(&glyph, FT_RENDER_MODE_NORMAL, &shift, 1) == 0, let rendered = glyph else {
            throw RenderError("\(name): FreeType cannot render glyph \(glyphID)")
        }
        let bitmapGlyph = UnsafeMutableRawPointer(rendered).assumingMemoryBound(to: FT_BitmapGlyphRec.self).pointee
        let bitmap = bitmapGlyph.bitmap
        guard bitmap.rows > 0, bitmap.width > 0, let buffer = bitmap.buffer, bitmap.pitch > 0 else { return }
        let bytes = UnsafeBufferPointer(start: buffer, count: Int(bitmap.rows) * Int(bitmap.pitch))
        mask.add(
            bytes, width: Int(bitmap.width), rows: Int(bitmap.rows), pitch: Int(bitmap.pitch),
            at: Int(ox) + Int(bitmapGlyph.left), Int(oy) - Int(bitmapGlyph.top))
    }
}

/// A colour glyph's pixels, premultiplied (so scaling averages colour by coverage).
struct ColorBitmap {
    var width: Int, height: Int
    var premultiplied: [UInt8]

    /// Scaled by area averaging (each output pixel the mean of the source area it covers), what
    /// a strike of 109 px drawn at 24 px needs; upward it repeats pixels.
    func scaled(by scale: Double) -> ColorBitmap {
        let w = max(1, Int((Double(width) * scale).rounded())), h = max(1, Int((Double(height) * scale).rounded()))
        var out = [UInt8](repeating: 0, count: w * h * 4)
        let sx = Double(width) / Double(w), sy = Double(height) / Double(h)
        for oy in 0..<h {
            let y0 = Int(Double(oy) * sy), y1 = max(y0 + 1, min(height, Int((Double(oy + 1) * sy).rounded(.up))))
            for ox in 0..<w {
                let x0 = Int(Double(ox) * sx), x1 = max(x0 + 1, min(width, Int((Double(ox + 1) * sx).rounded(.up))))
                var sum = (0, 0, 0, 0)
                for y in y0..<min(y1, height) {
                    for x in x0..<min(x1, width) {
                        let i = (y * width + x) * 4
                        sum.0 += Int(premultiplied[i]); sum.1 += Int(premultiplied[i + 1]); sum.2 += Int(premultiplied[i + 2]);
                        sum.3 += Int(premultiplied[i + 3])
                    }
                }
                let n = max(1, (min(y1, height) - y0) * (min(x1, width) - x0)), d = (oy * w + ox) * 4
                out[d] = UInt8(sum.0 / n); out[d + 1] = UInt8(sum.1 / n); out[d + 2] = UInt8(sum.2 / n); out[d + 3] = UInt8(sum.3 / n)
            }
        }
        return ColorBitmap(width: w, height: h, premultiplied: out)
    }

    /// As an Image (straight alpha), transparent where the glyph has no ink.
    func straight() -> Image {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for i in stride(from: 0, to: pixels.count, by: 4) {
            let a = Int(premultiplied[i + 3])
            guard a > 0 else { continue }
            for k in 0..<3 { pixels[i + k] = UInt8(min(255, (Int(premultiplied[i + k]) * 255 + a / 2) / a)) }
            pixels[i + 3] = UInt8(a)
        }
        return Image(width: width, height: height, pixels: pixels)
    }
}
