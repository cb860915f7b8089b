/// Static instances of a variable font (TrueType or CFF2 outlines): every axis pinned, the
/// variation tables applied and dropped, so apps that cannot read variations get the design at
/// that location.
/// Follows fontTools' `varLib.instancer` table by table (its test suite is the oracle), and
/// also renames the instance and sets its style bits, which hb-subset's instancer does not.
public struct InstanceOptions: Sendable {
    /// User coordinates by axis tag; axes left out stay at their default.
    public var coordinates: [String: Double]
    /// Clamp coordinates outside an axis's range (with a warning) instead of refusing them.
    public var clamp: Bool
    /// Give the instance its own names (subfamily from the named instance or STAT, full and
    /// PostScript names) and RIBBI style bits. Off, `name` is only pruned, as fontTools does.
    public var updateNames: Bool
    /// Mark every glyph as possibly overlapping (OVERLAP_SIMPLE / OVERLAP_COMPOUND), as
    /// fontTools does by default, so rasterizers that need it fill overlaps correctly.
    public var setOverlapFlags: Bool
    /// Rewrite GPOS as fontTools does (value formats recomputed, anchors to format 1, pair
    /// classes renumbered) instead of patching its values in place: identical tables to
    /// fontTools', at the cost of a decode and re-encode (see `PositioningPatch`).
    public var rewriteLayout: Bool
    /// Write a CFF2 font's instance as CFF version 1 (`CFF2ToCFF.swift`), for software that
    /// reads only CFF; off, it stays CFF2, as fontTools leaves it by default.
    public var downgradeCFF2: Bool
    /// Pin only the axes given and keep the others variable, as fontTools' instancer treats
    /// axes left out (`PartialInstancer.swift`). Off, axes left out are pinned at their default.
    public var partial: Bool
    /// Axes that stay variable over a narrower range of user values, as fontTools'
    /// `wght=300:700`; a range that leaves out the axis's default moves the default to its
    /// nearest end. The result is a partial instance.
    public var ranges: [String: ClosedRange<Double>]
    /// In a partial instance's gvar, leave out the points a reader infers (IUP) within half a
    /// unit, as fontTools does unless told `--no-optimize`; off, every point is listed.
    public var optimizeDeltas: Bool

    public init(
        coordinates: [String: Double] = [:], clamp: Bool = true, updateNames: Bool = true, setOverlapFlags: Bool = true,
        rewriteLayout: Bool = false, downgradeCFF2: Bool = false, partial: Bool = false, ranges: [String: ClosedRange<Double>] = [:],
        optimizeDeltas: Bool = true
    ) {
        self.coordinates = coordinates; self.clamp = clamp; self.updateNames = updateNames; self.setOverlapFlags = setOverlapFlags
        self.rewriteLayout = rewriteLayout; self.downgradeCFF2 = downgradeCFF2; self.partial = partial; self.ranges = ranges
        self.optimizeDeltas = optimizeDeltas
    }
}

public struct InstanceResult {
    /// A new one-face font holding the instance (not saved).
    public let font: Font
    public let location: VariationLocation
    /// Clamped coordinates and anything else worth telling the user.
    public let warnings: [String]
    /// The instance's PostScript name (after renaming, when names were updated).
    public let postScriptName: String?
}

extension Face {
    /// The tables a full instance drops: what only a variable font needs.
    public static let variationTags: Set<Tag> = ["fvar", "avar", "gvar", "cvar", "HVAR", "VVAR", "MVAR"]

    /// A static instance of this face at a location (see `InstanceOptions`). This face is not
    /// changed; its edits are carried into the instance.
    public func instance(_ options: InstanceOptions = InstanceOptions()) throws -> InstanceResult {
        guard let font else { throw FontError("the face is no longer part of an open font", path: path) }
        // A range keeps the font variable: the axes not named then stay variable too, as
        // fontTools keeps them (pinning them at their defaults needs them named).
        var options = options
        if !options.ranges.isEmpty { options.partial = true }
        var location = try self.location(options.coordinates, clamp: options.clamp)
        let (limits, userRanges) = try axisLimits(options, location)
        if limits != nil && options.downgradeCFF2 {
            throw FontError(
                "a partial instance stays variable, and CFF (version 1) cannot vary: downgrading CFF2 needs every axis pinned",
                path: path, face: faceLabel)
        }
        // A narrowed axis whose range leaves out the default has a new default (its origin).
        let moved = userRanges.filter { $0.value.origin != location.user[$0.key] }
        if !moved.isEmpty {
            var coordinates = options.coordinates
            for (a, r) in moved { coordinates[location.tags[a].trimmed] = r.origin }
            location = try self.location(coordinates, clamp: options.clamp)
        }

        // Work on a copy: the original face and its file stay as they are. An unedited face of
        // a single font is its file, so the copy reads the same bytes (what the instancer
        // changes lives in the copy's tables); a face of a collection, or one with edits, is
        // laid out on its own first.
        let data: FontBytes
        if !font.isCollection && !isEdited {
            data = font.bytes
        } else {
            let view = try font.standalone(face: self)
            data = FontBytes(count: view.length) { _ = view.read(from: 0, count: view.length, into: $0.baseAddress!) }
        }
        let copy = try Font(bytes: data, path: path.map { "\($0) (instance)" })
        let target = copy.faces[0]
        let loc = location.normalized

        // fontTools sets the overlap flags on static instances only.
        if has("glyf") { try instanceGlyphs(into: target, at: loc, overlapFlags: options.setOverlapFlags && limits == nil) }
        if let cff2 = try cff2 { try instancePostScriptGlyphs(cff2, into: target, at: loc) }
        try instanceControlValues(into: target, at: loc)
        try instanceMetrics(into: target, at: loc)
        try instanceLayout(into: target, at: loc, rewrite: options.rewriteLayout, limits: limits)
        try instanceFeatureVariations(into: target, at: loc, limits: limits)
        if let limits {
            let fvar = try keepVariations(
                into: target, limits: limits, location: location, userRanges: userRanges,
                optimizeDeltas: options.optimizeDeltas)
            let pinned = Set(location.tags.indices.filter { limits.pins[$0] != nil }.map { location.tags[$0] })
            // (location() refuses an fvar with a repeated tag; the first range would win anyway.)
            let narrowed = Dictionary(userRanges.map { (location.tags[$0.key], $0.value) }, uniquingKeysWith: { a, _ in a })
            try instanceStyleAttributes(into: target, location: location, pinned: pinned, narrowed: narrowed, fvar: fvar)
        } else {
            try instanceStyleAttributes(into: target, location: location, pinned: nil, narrowed: [:], fvar: nil)
            for tag in Face.variationTags where target.has(tag) { target.removeTable(tag) }
        }

        if let os2 = try target.os2 {
            let widths = try target.hmtx.advances.filter { $0 > 0 }
            if !widths.isEmpty { try os2.setRaw("xAvgCharWidth", Int64((Double(widths.reduce(0, +)) / Double(widths.count)).otRoundedInt)) }
            if let w = location.user("wght") { try os2.setRaw("usWeightClass", Int64(max(1, min(w, 1000)).otRoundedInt)) }
            if let w = location.user("wdth") { try os2.setRaw("usWidthClass", Int64(Self.widthClass(w).otRoundedInt)) }
        }
        if let slant = location.user("slnt"), let post = try target.post {
            try post.setRaw("italicAngle", Int64(Fixed(clamping: max(-90, min(slant, 90))).raw))
        }
        // A font without a name table (a test subset) has no names to give or update.
        var postScriptName = target.has("name") ? try target.postScriptName : nil
        // A partial instance keeps its names, as fontTools leaves them by default.
        if options.updateNames && limits == nil && target.has("name") {
            postScriptName = try target.nameInstance(from: self, location: location)
        }
        if options.downgradeCFF2, let cff2 = try target.cff2 { try target.downgradeCFF2(cff2, fontName: postScriptName ?? "Instance") }
        // Laid out once here, so the instance is a plain unedited font: saving it copies bytes
        // (no second encoding, and no save-time validation of tables the instancer wrote).
        let instance = try Font(bytes: try copy.laidOut(), path: copy.path)
        return InstanceResult(font: instance, location: location, warnings: location.warnings, postScriptName: postScriptName)
    }

    /// Replaces the instance's CFF2 with CFF version 1. The glyph names move into the CFF
    /// charset, so `post` becomes format 3 (no names), as fontTools converts it.
    private func downgradeCFF2(_ cff2: CFF2Table, fontName: String) throws {
        let names = try glyphNames(), advances = try hmtx.advances
        let box = try ["xMin", "yMin", "xMax", "yMax"].map { try head.int($0) }
        let cff = try context("CFF2") { try cff2.downgradedToCFF(fontName: fontName, glyphNames: names, advances: advances, fontBBox: box) }
        setRawTable("CFF ", cff)
        removeTable("CFF2")
        if var post = try rawTable("post"), post.count >= 32, post[0..<4] == [0, 2, 0, 0] {
            post = Array(post[0..<32])
            post[0] = 0; post[1] = 3
            setRawTable("post", post)
        }
    }

    /// OS/2 width class (1–9) for a wdth percentage, piecewise linear between the spec's steps.
    static func widthClass(_ wdth: Double) -> Double {
        let steps: AvarTable.SegmentMap = [(50, 1), (62.5, 2), (75, 3), (87.5, 4), (100, 5), (112.5, 6), (125, 7), (150, 8), (200, 9)]
        return AvarTable.piecewiseLinear(min(max(wdth, 50), 200), steps)
    }

    /// Outlines and advances: simple glyphs first, then composites by depth, so a composite's
    /// bounds (and so its side bearing) come from components already moved.
    private func instanceGlyphs(into target: Face, at loc: [Double], overlapFlags: Bool) throws {
        let variator = try GlyphVariator(face: self)
        guard let glyf = try target.glyf else { return }
        let hmtx = try target.hmtx, vmtx = try target.vmtx
        let count = glyf.glyphCount
        var gathered = GatheredGlyphs(count: count, hmtx: hmtx, vmtx: vmtx)
        // Each composite's component glyphs, for ordering.
        var components = [[Int]?](repeating: nil, count: count)
        var compositeIDs: [Int] = []

        try context("glyf") {
            // First pass, on every core (reading only): simple glyphs are independent and
            // varied at once; composites only say which glyphs they use. Stored here in order.
            let firstPass = try ParallelWork.map(count) { range in
                var workspace = TupleWorkspace()
                return try range.map { id -> FirstPass in
                    guard try variator.glyf.isComposite(id) else {
                        return .simple(try variator.simpleGlyphBytes(id, at: loc, overlap: overlapFlags, workspace: &workspace))
                    }
                    return .composite(
                        try variator.glyf.withGlyphReader(id) { r in
                            try GlyphVariator.storedComponents(r)?.components.map(\.glyph)
                                ?? variator.glyf.glyph(id).components.map(\.glyphID)
                        })
                }
            }
            for (id, result) in firstPass.enumerated() {
                switch result {
                case .composite(let children):
                    components[id] = children
                    compositeIDs.append(id)
                case .simple(let varied):
                    gathered.addSimple(id, varied)
                }
            }
            try gathered.store(into: glyf)
            let depth = try Self.compositeDepths(components, compositeIDs)
            let order = compositeIDs.sorted { depth[$0] != depth[$1] ? depth[$0] < depth[$1] : $0 < $1 }
            // Composites of one depth need only their components' bounds, all of lower depths:
            // each depth's composites are varied on every core, then stored in order.
            var level = order[...]
            while let first = level.first {
                let ids = Array(level.prefix { depth[$0] == depth[first] })
                level = level.dropFirst(ids.count)
                let lowerBounds = gathered.bounds
                let variedComposites = try ParallelWork.map(ids.count) { range in
                    var workspace = TupleWorkspace()
                    return try range.map {
                        try variator.compositeGlyphBytes(
                            ids[$0], at: loc, overlap: overlapFlags, componentBounds: lowerBounds, workspace: &workspace)
                    }
                }
                for (id, fast) in zip(ids, variedComposites) {
                    if let fast {
                        gathered.addComposite(
                            id, bytes: fast.bytes, bounds: fast.bounds, phantoms: fast.phantoms,
                            children: fast.glyphs, instructions: fast.instructions)
                        continue
                    }
                    // Scaled or point-matched components, or offsets outgrowing their bytes:
                    // decode, move, and let the table re-encode and bound it.
                    var varied = try variator.glyph(id, original: try variator.glyf.glyph(id), at: loc)
                    if overlapFlags { varied.glyph.components[0].flags |= GlyphComponent.overlapCompound }
                    try glyf.setGlyph(id, varied.glyph)
                    gathered.addComposite(
                        id, bytes: nil, bounds: try glyf.bounds(id), phantoms: (varied.left, varied.right, varied.top, varied.bottom),
                        children: varied.glyph.components.map(\.glyphID), instructions: varied.glyph.instructions.count)
                }
                try gathered.store(into: glyf)
            }
        }
        try context("hmtx") { try hmtx.setAll(advances: gathered.advances, sideBearings: gathered.sideBearings) }
        if let vmtx { try context("vmtx") { try vmtx.setAll(advances: gathered.verticalAdvances, sideBearings: gathered.topBearings) } }
        glyf.adoptSurvey(gathered.statistics, bounds: gathered.bounds)
    }

    /// What `instanceGlyphs` gathers as it goes, set on the tables once: the instance's
    /// metrics, every glyph's bounds, maxp's figures (as GlyfTable's survey counts them), and
    /// glyph bytes waiting to be stored in one batch. A struct changed through its own methods,
    /// so each access is checked at compile time (locals captured by nested functions were
    /// checked at run time, several times per glyph).
    private struct GatheredGlyphs {
        var advances: [Int], sideBearings: [Int], verticalAdvances: [Int], topBearings: [Int]
        var bounds: [GlyphBounds?]
        var statistics = GlyfTable.Statistics()
        /// Points, contours and depth of each glyph once its composites are flattened.
        var flattened: [(points: Int, contours: Int, depth: Int)]
        var waiting: [(Int, [UInt8])] = []

        init(count: Int, hmtx: MetricsTable, vmtx: MetricsTable?) {
            advances = hmtx.advances; sideBearings = hmtx.sideBearings
            verticalAdvances = vmtx?.advances ?? []; topBearings = vmtx?.sideBearings ?? []
            bounds = Array(repeating: nil, count: count)
            flattened = Array(repeating: (0, 0, 0), count: count)
            waiting.reserveCapacity(count)
        }

        mutating func addSimple(_ id: Int, _ varied: GlyphVariator.VariedSimpleGlyph) {
            waiting.append((id, varied.bytes))
            bounds[id] = varied.bounds
            flattened[id] = (varied.counts.points, varied.counts.contours, 0)
            statistics.maxPoints = max(statistics.maxPoints, varied.counts.points)
            statistics.maxContours = max(statistics.maxContours, varied.counts.contours)
            statistics.maxSizeOfInstructions = max(statistics.maxSizeOfInstructions, varied.counts.instructions)
            setMetrics(id, varied.bounds, varied.phantoms)
        }

        /// A varied composite; `bytes` nil when the table already holds them (the general path).
        mutating func addComposite(
            _ id: Int, bytes: [UInt8]?, bounds b: GlyphBounds?, phantoms: (Double, Double, Double, Double),
            children: [Int], instructions: Int
        ) {
            if let bytes { waiting.append((id, bytes)) }
            bounds[id] = b
            setMetrics(id, b, phantoms)
            var total = (points: 0, contours: 0, depth: 0)
            for c in children where c < flattened.count {
                let m = flattened[c]
                total = (min(total.points + m.points, 1 << 40), min(total.contours + m.contours, 1 << 40), max(total.depth, m.depth))
            }
            flattened[id] = (total.points, total.contours, total.depth + 1)
            statistics.maxCompositePoints = max(statistics.maxCompositePoints, total.points)
            statistics.maxCompositeContours = max(statistics.maxCompositeContours, total.contours)
            statistics.maxComponentDepth = max(statistics.maxComponentDepth, total.depth + 1)
            statistics.maxComponentElements = max(statistics.maxComponentElements, children.count)
            statistics.maxSizeOfInstructions = max(statistics.maxSizeOfInstructions, instructions)
        }

        /// Advance and side bearing from the phantom points (left, right, top, bottom).
        private mutating func setMetrics(
            _ id: Int, _ b: GlyphBounds?, _ phantoms: (left: Double, right: Double, top: Double, bottom: Double)
        ) {
            if id < advances.count {
                advances[id] = max(0, (phantoms.right - phantoms.left).otRoundedInt)
                sideBearings[id] = (Double(b?.xMin ?? 0) - phantoms.left).otRoundedInt
            }
            if id < verticalAdvances.count {
                verticalAdvances[id] = max(0, (phantoms.top - phantoms.bottom).otRoundedInt)
                topBearings[id] = (phantoms.top - Double(b?.yMax ?? 0)).otRoundedInt
            }
        }

        /// The waiting glyph bytes into the table (a deeper composite's general path reads the
        /// bytes of shallower ones, so each depth is stored before the next is varied).
        mutating func store(into glyf: GlyfTable) throws {
            try glyf.setGlyphData(waiting)
            waiting.removeAll(keepingCapacity: true)
        }
    }

    /// How deeply each composite nests (1 when its components are all simple glyphs; 0 for a
    /// simple glyph), for varying composites after the glyphs they are made of.
    private static func compositeDepths(_ components: [[Int]?], _ composites: [Int]) throws -> [Int] {
        var depth = [Int?](repeating: nil, count: components.count)
        func depthOf(_ id: Int, _ seen: Int, _ depth: inout [Int?]) throws -> Int {
            guard let children = components[id] else { return 0 }
            if let known = depth[id] { return known }
            guard seen < 64 else { throw FontError("composite glyph \(id) nests more than 64 deep (a cycle?)", table: "glyf") }
            var d = 0
            for c in children where c < components.count { d = max(d, try depthOf(c, seen + 1, &depth) + 1) }
            depth[id] = d
            return d
        }
        for id in composites { _ = try depthOf(id, 0, &depth) }
        return depth.map { $0 ?? 0 }
    }

    /// A glyph's outcome in the first pass of `instanceGlyphs`.
    private enum FirstPass {
        /// A simple glyph at the location (`GlyphVariator.simpleGlyphBytes`).
        case simple(GlyphVariator.VariedSimpleGlyph)
        /// A composite's component glyphs.
        case composite([Int])
    }

    /// CFF2 outlines with their blends evaluated (see `CFF2Table.instanced`); advances get
    /// HVAR's and VVAR's deltas. Side bearings follow the new outlines: lsb is the glyph's xMin,
    /// and with VORG, tsb is its vertical origin less yMax (fontTools keeps the stored ones).
    private func instancePostScriptGlyphs(_ cff2: CFF2Table, into target: Face, at loc: [Double]) throws {
        let made = try context("CFF2") { try cff2.instanced(at: loc) }
        target.setRawTable("CFF2", made.bytes)
        let hmtx = try target.hmtx
        let hvar = try table(HvarTable.self), hScalars = hvar?.store.scalars(at: loc) ?? []
        for id in 0..<min(hmtx.glyphCount, made.bounds.count) {
            if let hvar { try hmtx.setAdvance(id, max(0, try hmtx.advance(id) + hvar.advanceDelta(id, scalars: hScalars).otRoundedInt)) }
            if let b = made.bounds[id] { try hmtx.setSideBearing(id, b.xMin) }
        }
        if let vmtx = try target.vmtx {
            let vvar = try table(VvarTable.self), vScalars = vvar?.store.scalars(at: loc) ?? []
            let origins = try target.rawTable("VORG").flatMap(Self.verticalOrigins)
            for id in 0..<min(vmtx.glyphCount, made.bounds.count) {
                if let vvar {
                    try vmtx.setAdvance(id, max(0, try vmtx.advance(id) + vvar.advanceDelta(id, scalars: vScalars).otRoundedInt))
                }
                if let origins, let b = made.bounds[id] { try vmtx.setSideBearing(id, (origins.byGlyph[id] ?? origins.default) - b.yMax) }
            }
        }
        let head = try target.head
        if let all = made.bounds.compactMap({ $0 }).reduce(nil, { (u: GlyphBounds?, b) in u?.union(b) ?? b }) {
            for (field, value) in [("xMin", all.xMin), ("yMin", all.yMin), ("xMax", all.xMax), ("yMax", all.yMax)] {
                _ = head.setInt(field, value)
            }
        }
    }

    /// VORG's default vertical origin and its per-glyph exceptions (nil when malformed).
    static func verticalOrigins(_ raw: [UInt8]) -> (default: Int, byGlyph: [Int: Int])? {
        guard raw.count >= 8 else { return nil }
        func i16(_ at: Int) -> Int { Int(Int16(bitPattern: UInt16(raw[at]) << 8 | UInt16(raw[at + 1]))) }
        let count = Int(UInt16(raw[6]) << 8 | UInt16(raw[7]))
        guard raw.count >= 8 + 4 * count else { return nil }
        var byGlyph: [Int: Int] = [:]
        for k in 0..<count { byGlyph[Int(UInt16(raw[8 + 4 * k]) << 8 | UInt16(raw[9 + 4 * k]))] = i16(10 + 4 * k) }
        return (i16(4), byGlyph)
    }

    /// cvar's deltas added to the control values.
    private func instanceControlValues(into target: Face, at loc: [Double]) throws {
        guard let cvar = try table(CvarTable.self), var cvt = try target.rawTable("cvt ") else { return }
        let count = cvt.count / 2
        var sums = [Double](repeating: 0, count: count)
        for t in cvar.variations {
            let s = t.scalar(at: loc)
            if s == 0 { continue }
            for (k, d) in t.x.enumerated() {
                let i = t.points?[k] ?? k
                if i < count { sums[i] += Double(d) * s }
            }
        }
        for i in 0..<count where sums[i] != 0 {
            let old = Int(Int16(bitPattern: UInt16(cvt[2 * i]) << 8 | UInt16(cvt[2 * i + 1])))
            let new = old + sums[i].otRoundedInt
            guard (-32768...32767).contains(new) else { throw FontError("control value \(i) becomes \(new), past Int16", table: "cvar") }
            let bits = UInt16(bitPattern: Int16(new))
            cvt[2 * i] = UInt8(bits >> 8); cvt[2 * i + 1] = UInt8(bits & 0xFF)
        }
        target.setRawTable("cvt ", cvt)
    }

    /// MVAR's deltas added to the metrics they name; hhea follows OS/2's typo metrics when the
    /// two were equal (fontTools keeps them in sync the same way).
    private func instanceMetrics(into target: Face, at loc: [Double]) throws {
        guard let mvar = try table(MvarTable.self), let store = mvar.store else { return }
        let scalars = store.scalars(at: loc)
        let typo = ["sTypoAscender", "sTypoDescender", "sTypoLineGap"], hheaNames = ["ascender", "descender", "lineGap"]
        let os2 = try target.os2, hhea = try target.hhea
        let before = try os2.map { o in try typo.map { try o.rawValue($0) } }
        let synced = try before == hheaNames.map { try hhea.rawValue($0) }
        try context("MVAR") {
            for r in mvar.records {
                guard let (tag, field) = MvarTable.targets[r.tag], let table = try target.fieldTable(tag) else { continue }
                let delta = store.delta(outer: r.outer, inner: r.inner, scalars: scalars).otRoundedInt
                if delta != 0 { try table.setRaw(field, try table.rawValue(field) + Int64(delta)) }
            }
        }
        if synced, let os2, let before {
            let after = try typo.map { try os2.rawValue($0) }
            if after != before { for (name, v) in zip(hheaNames, after) { try hhea.setRaw(name, v) } }
        }
    }

    /// GDEF carets and GPOS values with their VariationIndex deltas; GDEF loses its store and
    /// is dropped when nothing else is left in it.
    private func instanceLayout(into target: Face, at loc: [Double], rewrite: Bool, limits: AxisLimits?) throws {
        guard let store = try target.gdefVariationStore(), let raw = try target.rawTable("GDEF") else { return }
        let scalars = store.scalars(at: loc)
        let delta: (Int, Int) -> Int = { store.delta(outer: $0, inner: $1, scalars: scalars).otRoundedInt }

        if let limits {
            // Partial: values and ligature carets get the pinned axes' share (the deltas at
            // `loc`, the new default) and keep their devices; the store keeps the rest.
            if let raw = try target.rawTable("GPOS") {
                var patch = PositioningPatch(raw, keepDevices: true, delta: delta)
                do { try target.context("GPOS") { try patch.patchAll() } } catch is PositioningPatch.NeedsRewrite {
                    throw FontError(
                        "a GPOS value that varies has no stored value to add its pinned share to; partial instancing cannot add the field",
                        path: path, face: faceLabel, table: "GPOS")
                }
                target.setRawTable("GPOS", patch.bytes)
            }
            target.setRawTable(
                "GDEF",
                try context("GDEF") {
                    try Self.layoutDefinitions(
                        try Self.foldingCarets(raw, delta: delta), with: store.forPartialInstance(limits).store,
                        axisCount: limits.kept.count)
                })
            return
        }

        // Read GDEF as version 1.2, which has everything but the store (offsets are unchanged).
        var patched = raw
        patched[0] = 0; patched[1] = 1; patched[2] = 0; patched[3] = 2
        target.setRawTable("GDEF", patched)
        var rewriteGPOS = rewrite
        if !rewrite, let raw = try target.rawTable("GPOS") {
            var patch = PositioningPatch(raw, delta: delta)
            do {
                try target.context("GPOS") { try patch.patchAll() }
                target.setRawTable("GPOS", patch.bytes)
            } catch is PositioningPatch.NeedsRewrite {
                rewriteGPOS = true
            }
        }
        if rewriteGPOS, let gpos = try target.table(GPOSTable.self) {
            let names = try glyphNames()   // PairPos class order follows them (GDEF has no classes to order)
            if case .record(let root) = try target.context(
                "GPOS", { try LayoutVariations.apply(.record(try gpos.root), names: names, delta) })
            {
                // fontTools' instancer unwraps extension lookups (re-wrapped on overflow).
                _ = gpos.replaceRoot(try target.context("GPOS") { try LayoutCommon.unwrappingExtensions(root, extensionType: 9) })
            }
        }
        guard let gdef = try target.gdef,
            case .record(var root) = try target.context("GDEF", { try LayoutVariations.apply(.record(try gdef.root), names: [], delta) })
        else { return }
        if root["MarkGlyphSetsDef"] == nil || root["MarkGlyphSetsDef"] == StructValue.none {
            root["MarkGlyphSetsDef"] = nil
            root["Version"] = .int(0x0001_0000)
        }
        let kept = ["GlyphClassDef", "AttachList", "LigCaretList", "MarkAttachClassDef", "MarkGlyphSetsDef"]
            .contains { root[$0] != nil && root[$0] != StructValue.none }
        if !kept { target.removeTable("GDEF"); return }
        // The slot holds the patched bytes, which a save would prefer to the decoded table.
        _ = gdef.replaceRoot(root)
        target.setRawTable("GDEF", try target.context("GDEF") { try gdef.encode() })
    }

    /// GSUB and GPOS with FeatureVariations: the features that apply at the location swapped
    /// in (see `FeatureVariationResolver`). Tables without them are not decoded.
    private func instanceFeatureVariations(into target: Face, at loc: [Double], limits: AxisLimits?) throws {
        for tag: Tag in ["GSUB", "GPOS"] {
            guard let raw = try target.rawTable(tag), raw.count >= 4, raw[3] >= 1, raw[1] == 1 else { continue }
            guard let table = try target.structuredTable(tag) else { continue }
            let resolved = try target.context(tag) {
                if let limits {
                    try FeatureVariationResolver.forPartialInstance(try table.root, limits: limits, table: tag.trimmed)
                } else {
                    try FeatureVariationResolver.resolve(try table.root, location: loc, table: tag.trimmed)
                }
            }
            // Through the raw slot: GPOS may already hold patched bytes, which a save prefers.
            if let resolved, table.replaceRoot(resolved) { target.setRawTable(tag, try target.context(tag) { try table.encode() }) }
        }
    }

    /// STAT keeps the axis values that hold at the instance's location; name records only
    /// the variation tables used are pruned.
    /// `pinned`: the axes a partial instance pins (nil: all), whose values must hold; `narrowed`:
    /// its narrowed axes, whose values must lie in their new range; `fvar`: the partial
    /// instance's new fvar (nil: fvar goes).
    private func instanceStyleAttributes(
        into target: Face, location: VariationLocation, pinned: Set<Tag>?,
        narrowed: [Tag: AxisLimits.UserRange], fvar newFvar: [UInt8]?
    ) throws {
        let before = try target.variationNameIDs()
        if let stat = try target.table(STATTable.self), case .record(let inner)? = try stat.value("AxisValueArray"),
            case .list(let values)? = inner["AxisValue"], case .record(let designRecord)? = try stat.value("DesignAxisRecord"),
            case .list(let designAxes)? = designRecord["Axis"]
        {
            let designTags: [Tag?] = designAxes.map { $0.fields?["AxisTag"]?.int.map { Tag(UInt32(truncatingIfNeeded: $0)) } }
            func holds(_ axisIndex: Int64?, _ raw: Int64?) -> Bool {
                guard let axisIndex, let raw, Int(axisIndex) < designTags.count, let tag = designTags[Int(axisIndex)] else { return true }
                if let r = narrowed[tag] { return r.min <= Double(raw) / Fixed.scale && Double(raw) / Fixed.scale <= r.max }
                guard pinned?.contains(tag) ?? true, let value = location.user(tag) else { return true }
                return Double(raw) / Fixed.scale == value
            }
            let keptValues = try values.filter { v in
                guard case .formatted(let format, let f) = try v.resolved() else { return true }
                switch format {
                case 1, 3: return holds(f["AxisIndex"]?.int, f["Value"]?.int)
                case 2: return holds(f["AxisIndex"]?.int, f["NominalValue"]?.int)
                case 4:
                    guard case .list(let records)? = f["AxisValueRecord"] else { return true }
                    return records.allSatisfy { holds($0.fields?["AxisIndex"]?.int, $0.fields?["Value"]?.int) }
                default: return true
                }
            }
            if keptValues.count != values.count {
                if keptValues.isEmpty {
                    try stat.set("AxisValueArray", .none)
                } else {
                    var a = inner; a["AxisValue"] = .list(keptValues); try stat.set("AxisValueArray", .record(a))
                }
            }
        }
        // fvar goes (or loses axes and instances); names only it (or dropped STAT values) used
        // go with it.
        let fvarSlot = target.slots["fvar"]
        target.slots["fvar"] = nil
        if let newFvar { target.setRawTable("fvar", newFvar) }
        let after = try target.variationNameIDs()
        if newFvar == nil { target.slots["fvar"] = fvarSlot }
        let unused = before.subtracting(after)
        if !unused.isEmpty, target.has("name") {
            let name = try target.name
            name.replaceRecords(name.records.filter { !unused.contains($0.nameID) })
        }
    }

    /// Name ids above 255 that fvar and STAT refer to.
    func variationNameIDs() throws -> Set<Int> {
        var used: [Int] = []
        if let fvar = try table(FvarTable.self) {
            used += fvar.axes.map(\.nameID)
            for i in fvar.instances { used.append(i.subfamilyNameID); if let ps = i.postScriptNameID { used.append(ps) } }
        }
        if let stat = try table(STATTable.self) {
            if case .record(let d)? = try stat.value("DesignAxisRecord"), case .list(let axes)? = d["Axis"] {
                used += axes.compactMap { $0.fields?["AxisNameID"]?.int.map(Int.init) }
            }
            if case .record(let a)? = try stat.value("AxisValueArray"), case .list(let values)? = a["AxisValue"] {
                used += values.compactMap { $0.fields?["ValueNameID"]?.int.map(Int.init) }
            }
            if let e = try stat.value("ElidedFallbackNameID")?.int { used.append(Int(e)) }
        }
        return Set(used.filter { $0 > 255 })
    }
}
