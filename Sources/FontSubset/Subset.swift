import CHarfBuzzSubset
import FontModel

/// What to keep when subsetting a face. Unicodes and glyphs add up; HarfBuzz's subsetter then
/// adds what they need: composite components, CFF subroutines, and (with `layoutClosure`)
/// every glyph GSUB can turn them into.
public struct SubsetRequest: Sendable {
    /// Characters to keep (each scalar of the text).
    public var text: String = ""
    public var unicodes: [UInt32] = []
    /// Glyph IDs to keep.
    public var glyphs: [Int] = []
    /// Layout features to keep; nil keeps HarfBuzz's default list, ["*"] keeps every feature.
    public var features: [String]?
    /// Tables HarfBuzz drops by default to keep anyway; "name" keeps every name record (by
    /// default only IDs 0-6 stay).
    public var keep: [String] = []
    /// Follow GSUB to the glyphs the kept ones can become (off: only what was asked for).
    public var layoutClosure = true
    /// Keep glyph IDs (glyphs not kept become empty) instead of renumbering.
    public var retainGlyphIDs = false
    /// Keep TrueType instructions and CFF hints.
    public var hinting = true

    public init() {}

    /// All scalars asked for, text and unicodes together.
    public var codepoints: [UInt32] { text.unicodeScalars.map(\.value) + unicodes }

    /// "a,b,37,uni00E9" → glyph IDs: names looked up in `names` (the face's glyph order), IDs
    /// as written (the subsetter refuses IDs past the face's glyphs).
    public static func parseGlyphs(_ text: String, names: [String]) throws -> [Int] {
        var byName: [String: Int]?
        return try text.split(separator: ",").map { item in
            let s = String(item.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
            if !s.isEmpty, s.allSatisfy(\.isASCII), s.allSatisfy(\.isNumber) {
                guard let id = Int(s) else { throw FontError("glyph \(s): past any glyph ID") }
                return id
            }
            if byName == nil { byName = Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a }) }
            guard let id = byName?[s] else {
                var message = "no glyph named '\(s)'"
                if let near = closestName(to: s, in: names) { message += "; did you mean '\(near)'?" }
                throw FontError(message)
            }
            return id
        }
    }

    /// "U+0020-007E,U+3000,41" → scalars. Refuses empty or open ends ("U+0041-", "-"),
    /// ranges backwards or past U+10FFFF, and surrogate code points (U+D800-DFFF are not
    /// characters: a range across them leaves them out, one inside them is an error).
    public static func parseUnicodes(_ text: String) throws -> [UInt32] {
        var out: [UInt32] = []
        for part in text.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }) {
            func value(_ s: Substring) throws -> UInt32 {
                var hex = s.uppercased()
                if hex.hasPrefix("U+") { hex.removeFirst(2) } else if hex.hasPrefix("0X") { hex.removeFirst(2) }
                // Hex digits only: UInt32(_:radix:) would also take a sign ("+41").
                guard !hex.isEmpty, hex.count <= 8, hex.allSatisfy(\.isHexDigit), let v = UInt32(hex, radix: 16), v <= 0x10FFFF else {
                    throw FontError("unicode \"\(s)\" in \"\(part)\": write hex, e.g. U+0041 or 41, up to U+10FFFF")
                }
                return v
            }
            let ends = part.split(separator: "-", omittingEmptySubsequences: false)
            guard ends.count <= 2, ends.allSatisfy({ !$0.isEmpty }) else {
                throw FontError("unicode range \"\(part)\": give both ends, e.g. U+0020-007E")
            }
            let low = try value(ends[0]), high = ends.count == 2 ? try value(ends[1]) : low
            guard low <= high else { throw FontError("unicode range \"\(part)\" runs backwards") }
            let surrogates: ClosedRange<UInt32> = 0xD800...0xDFFF
            if surrogates.contains(low) && surrogates.contains(high) {
                throw FontError("unicode \"\(part)\": U+D800-DFFF are surrogates, not characters; no font maps them")
            }
            if low < surrogates.lowerBound && high > surrogates.upperBound {
                out.append(contentsOf: low..<surrogates.lowerBound)
                out.append(contentsOf: (surrogates.upperBound + 1)...high)
            } else {
                out.append(
                    contentsOf: max(
                        low, surrogates.contains(low) ? surrogates.upperBound + 1 : low)...min(
                            high, surrogates.contains(high) ? surrogates.lowerBound - 1 : high))
            }
        }
        return out
    }
}

/// A subset: the new font in memory, and how its glyphs relate to the face's.
public struct SubsetResult {
    /// The subset as a font file (sfnt bytes, opened); save it as anything.
    public let font: Font
    /// Old glyph ID → new glyph ID, for every glyph kept.
    public let glyphMap: [Int: Int]
    /// Glyphs kept that were not asked for (neither a requested glyph, nor the glyph cmap maps a
    /// requested character to, nor .notdef): composite components and the GSUB closure.
    public let closure: [Int]
    /// Requested characters the face has no glyph for.
    public let missing: [UInt32]
}

/// A face opened once for HarfBuzz's subsetter, to cut many subsets from (a web slice does, on
/// every core: HarfBuzz faces are safe to read from several threads, and this holds everything
/// it reads). An unedited face is read from its file in place; an edited one as the writer lays
/// it out.
public final class SubsetSource: @unchecked Sendable {
    let hbFace: OpaquePointer?
    let name: String
    let glyphCount: Int
    /// What the HarfBuzz face reads: the font's mapping, or the laid-out edited face.
    private let owners: [AnyObject]

    public init(_ face: Face) throws {
        guard let font = face.font else { throw FontError("the face's font is closed") }
        name = ((try? face.postScriptName) ?? nil) ?? "face \(face.index)"
        glyphCount = try face.glyphCount
        if face.isEdited {
            let laidOut = try font.standalone(face: face)
            owners = [laidOut]
            hbFace = hb_face_create_for_tables(
                { _, tag, user in
                    guard let user else { return nil }
                    let view = Unmanaged<StandaloneFace>.fromOpaque(user).takeUnretainedValue()
                    guard let bytes = view.table(Tag(tag)), let base = bytes.baseAddress else { return nil }
                    return hb_blob_create(base.assumingMemoryBound(to: CChar.self), UInt32(bytes.count), HB_MEMORY_MODE_READONLY, nil, nil)
                }, Unmanaged.passUnretained(laidOut).toOpaque(), nil)
        } else {
            owners = [font.bytes]
            let bytes = font.bytes.buffer
            let blob = hb_blob_create(
                bytes.baseAddress?.assumingMemoryBound(to: CChar.self), UInt32(bytes.count), HB_MEMORY_MODE_READONLY, nil, nil)
            hbFace = hb_face_create(blob, UInt32(face.index))
            hb_blob_destroy(blob)
        }
    }

    deinit { hb_face_destroy(hbFace) }
}

public enum Subsetter {
    /// Subsets one face through HarfBuzz's subsetter (the library hb-subset uses, so the same
    /// request gives the same bytes).
    public static func subset(_ face: Face, _ request: SubsetRequest) throws -> SubsetResult {
        try subset(SubsetSource(face), request)
    }

    public static func subset(_ source: SubsetSource, _ request: SubsetRequest) throws -> SubsetResult {
        let hbFace = source.hbFace, name = source.name, glyphCount = source.glyphCount

        guard let input = hb_subset_input_create_or_fail() else { throw FontError("HarfBuzz could not start a subset (out of memory)") }
        defer { hb_subset_input_destroy(input) }
        let codepoints = request.codepoints
        let unicodeSet = hb_subset_input_unicode_set(input)
        for u in codepoints { hb_set_add(unicodeSet, u) }
        let glyphSet = hb_subset_input_glyph_set(input)
        for g in request.glyphs {
            guard (0..<glyphCount).contains(g) else { throw FontError("glyph \(g) is not in \(name) (glyphs 0...\(glyphCount - 1))") }
            hb_set_add(glyphSet, hb_codepoint_t(g))
        }
        if let features = request.features {
            let set = hb_subset_input_set(input, HB_SUBSET_SETS_LAYOUT_FEATURE_TAG)
            hb_set_clear(set)
            if features.contains("*") { hb_set_invert(set) } else { for f in features { hb_set_add(set, try tag(f, "feature")) } }
        }
        for t in request.keep {
            if t == "name" {
                // Every name ID and language: an empty set inverted is the full set.
                for kind in [HB_SUBSET_SETS_NAME_ID, HB_SUBSET_SETS_NAME_LANG_ID] {
                    let set = hb_subset_input_set(input, kind)
                    hb_set_clear(set)
                    hb_set_invert(set)
                }
            }
            hb_set_del(hb_subset_input_set(input, HB_SUBSET_SETS_DROP_TABLE_TAG), try tag(t, "table"))
        }
        var flags = HB_SUBSET_FLAGS_DEFAULT.rawValue
        if request.retainGlyphIDs { flags |= HB_SUBSET_FLAGS_RETAIN_GIDS.rawValue }
        if !request.hinting { flags |= HB_SUBSET_FLAGS_NO_HINTING.rawValue }
        hb_subset_input_set_flags(input, flags)
        if !request.layoutClosure {
            // Without the closure no substitution target is added: the layout tables keep only
            // lookups among the glyphs asked for.
            hb_set_clear(hb_subset_input_set(input, HB_SUBSET_SETS_LAYOUT_FEATURE_TAG))
        }

        guard let plan = hb_subset_plan_create_or_fail(hbFace, input) else {
            throw FontError("HarfBuzz could not plan a subset of \(name) (it refuses the face or ran out of memory)")
        }
        defer { hb_subset_plan_destroy(plan) }
        guard let result = hb_subset_plan_execute_or_fail(plan) else {
            throw FontError("HarfBuzz could not subset \(name): its subsetter failed on one of the tables")
        }
        defer { hb_face_destroy(result) }
        let blob = hb_face_reference_blob(result)
        defer { hb_blob_destroy(blob) }
        var length: UInt32 = 0
        guard let data = hb_blob_get_data(blob, &length), length > 0 else { throw FontError("HarfBuzz's subset of \(name) came out empty") }
        // Copied once, from HarfBuzz's blob into the storage the font owns.
        let bytes = FontBytes(count: Int(length)) { $0.copyMemory(from: UnsafeRawBufferPointer(start: data, count: Int(length))) }

        // (HarfBuzz 6 has no map iterator: look up every new glyph, which are few where the old
        // ones are many — noto-cjk's 65,535 lookups were a tenth of a subset — and every
        // requested scalar. Flags by glyph ID and sorted scalars instead of sets: hashing a
        // thousand of each was a tenth of our own part of a subset.)
        let newCount = hb_face_get_glyph_count(result)
        var glyphMap = [Int: Int](minimumCapacity: Int(newCount))
        let newToOld = hb_subset_plan_new_to_old_glyph_mapping(plan)
        for new in 0..<newCount where hb_map_has(newToOld, new) != 0 {
            glyphMap[Int(hb_map_get(newToOld, new))] = Int(new)
        }
        var asked = [Bool](repeating: false, count: max(glyphCount, 1))
        asked[0] = true
        for g in request.glyphs { asked[g] = true }   // checked against glyphCount above
        var missing: [UInt32] = []
        var distinct = 0, previous: UInt32?
        let unicodeMap = hb_subset_plan_unicode_to_old_glyph_mapping(plan)
        for u in codepoints.sorted() where u != previous {   // each scalar once
            previous = u
            distinct += 1
            guard hb_map_has(unicodeMap, u) != 0 else {
                missing.append(u)
                continue
            }
            let g = Int(hb_map_get(unicodeMap, u))
            if g < asked.count { asked[g] = true }
        }
        let closure = glyphMap.keys.filter { $0 >= asked.count || !asked[$0] }.sorted()
        // Only .notdef would be left, with an empty cmap that OpenType sanitizers refuse.
        if missing.count == distinct && request.glyphs.isEmpty && distinct > 0 {
            throw FontError("none of the \(distinct) requested characters is in \(name): nothing to keep")
        }
        let subsetFont = try Font(bytes: bytes, path: "subset of \(name)")
        return SubsetResult(font: subsetFont, glyphMap: glyphMap, closure: closure, missing: missing)
    }

    static func tag(_ s: String, _ what: String) throws -> hb_tag_t {
        guard !s.isEmpty, let t = Tag(string: s) else {
            throw FontError("\(what) tag \"\(s)\": a tag is 1 to 4 printable ASCII characters")
        }
        return t.rawValue
    }
}
