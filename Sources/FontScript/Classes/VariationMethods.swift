import FontModel
import LuaBridge

/// Variable fonts in Lua: `face.axes`, `face.instances`, `face:location{wght=700}`,
/// `face:instance{wght=700}`, and a glyph at a location (`g:contoursAt{…}`, `g:advanceAt{…}`)
/// with its raw tuple deltas (`g:deltas()`). Coordinates are user values by axis tag.
enum VariationMethods {
    /// The coordinates table at argument `i`: axis tag → number.
    static func coordinates(_ call: LuaCall, _ i: Int32) throws -> [String: Double] {
        let (values, ranges) = try coordinatesAndRanges(call, i)
        if let tag = ranges.keys.sorted().first {
            throw LuaArgumentError(i, "coordinate '\(tag)' must be a number here (a location, not a range)")
        }
        return values
    }

    /// {wght = 700, wdth = {75, 100}} → the coordinates and the ranges.
    static func coordinatesAndRanges(_ call: LuaCall, _ i: Int32) throws -> ([String: Double], [String: ClosedRange<Double>]) {
        let s = call.stack
        guard try call.table(i, optional: true) else { return ([:], [:]) }
        var values: [String: Double] = [:], ranges: [String: ClosedRange<Double>] = [:]
        try s.forEachPair(inTableAt: i) {
            guard let key = s.type(at: -2) == .string ? s.string(at: -2) : nil else {
                throw LuaArgumentError(i, "coordinates are axis tags with numbers, e.g. {wght = 700}; got a \(s.typeName(at: -2)) key")
            }
            if s.type(at: -1) == .table {
                var bounds: [Double] = []
                for k in 1...2 {
                    s.getIndex(k, in: -1 - Int32(k - 1))
                    if let v = s.number(at: -1), v.isFinite { bounds.append(v) }
                }
                s.pop(2)
                guard bounds.count == 2, bounds[0] <= bounds[1] else {
                    throw LuaArgumentError(i, "range '\(key)' must be {min, max} with min <= max")
                }
                ranges[key] = bounds[0]...bounds[1]
                return
            }
            guard s.type(at: -1) == .number, let v = s.number(at: -1), v.isFinite else {
                throw LuaArgumentError(i, "coordinate '\(key)' must be a number or a {min, max} range, got \(s.describedType(at: -1))")
            }
            values[key] = v
        }
        return (values, ranges)
    }

    /// face.axes → {{tag = "wght", name = "Weight", nameID = 256, min = 100, default = 400, max = 900, hidden = false}, …}; {} for a static face.
    static func pushAxes(_ s: LuaStack, _ face: Face) throws {
        let axes = try face.variationAxes
        let names = try face.name
        s.pushTable(arrayCount: Int32(axes.count))
        for (i, a) in axes.enumerated() {
            s.pushTable(fieldCount: 7)
            s.push(a.tag.trimmed); s.setField("tag", in: -2)
            s.push(a.nameID); s.setField("nameID", in: -2)
            if let n = names.string(a.nameID) { s.push(n); s.setField("name", in: -2) }
            s.push(a.minimum); s.setField("min", in: -2)
            s.push(a.defaultValue); s.setField("default", in: -2)
            s.push(a.maximum); s.setField("max", in: -2)
            s.push(a.isHidden); s.setField("hidden", in: -2)
            s.setIndex(i + 1, in: -2)
        }
    }

    /// face.instances → {{name = "Bold", coordinates = {wght = 700}, postscriptName = "Inter-Bold",
    /// subfamilyNameID = 263, postscriptNameID = 264}, …} (the PostScript name and its id only when fvar names one).
    static func pushInstances(_ s: LuaStack, _ face: Face) throws {
        guard let fvar = try face.table(FvarTable.self) else { s.pushTable(arrayCount: 0); return }
        let names = try face.name
        s.pushTable(arrayCount: Int32(fvar.instances.count))
        for (i, instance) in fvar.instances.enumerated() {
            s.pushTable(fieldCount: 5)
            if let n = names.string(instance.subfamilyNameID) { s.push(n); s.setField("name", in: -2) }
            s.push(instance.subfamilyNameID); s.setField("subfamilyNameID", in: -2)
            if let id = instance.postScriptNameID { s.push(id); s.setField("postscriptNameID", in: -2) }
            s.pushTable(fieldCount: Int32(fvar.axes.count))
            for (axis, v) in zip(fvar.axes, instance.coordinates) { s.push(v); s.setField(axis.tag.trimmed, in: -2) }
            s.setField("coordinates", in: -2)
            if let id = instance.postScriptNameID, let n = names.string(id) { s.push(n); s.setField("postscriptName", in: -2) }
            s.setIndex(i + 1, in: -2)
        }
    }

    /// face:location{wght = 700} → {wght = 0.6}, {warnings}: normalized coordinates (avar
    /// applied, F2Dot14), every axis; out-of-range values are clamped and reported.
    static let location: LuaFunction = { L in
        LuaCall.run(L, "location") { call in
            let face = try call.methodSelf(FaceObject.className, as: FaceRef.self).get()
            let loc = try face.location(try coordinates(call, 2))
            let s = call.stack
            s.pushTable(fieldCount: Int32(loc.tags.count))
            for (tag, v) in zip(loc.tags, loc.normalized) { s.push(v); s.setField(tag.trimmed, in: -2) }
            s.push(strings: loc.warnings)
            return 2
        }
    }

    /// face:instance({wght = 700}, {names = true, overlapFlags = true, clamp = true,
    /// rewriteLayout = false, downgradeCFF2 = false, partial = false, optimize = true}) → a new
    /// face (of a new, unsaved font) at that location, and its warnings. With partial, axes not
    /// given stay variable; an axis given {min, max} stays variable over that range; optimize =
    /// false lists every point in the kept gvar tuples.
    static let instance: LuaFunction = { L in
        LuaCall.run(L, "instance") { call in
            let face = try call.methodSelf(FaceObject.className, as: FaceRef.self).get()
            var options = InstanceOptions()
            (options.coordinates, options.ranges) = try coordinatesAndRanges(call, 2)
            try call.options(3, ["names", "overlapFlags", "clamp", "rewriteLayout", "downgradeCFF2", "partial", "optimize"])
            options.updateNames = try call.boolOption(3, "names", default: true)
            options.setOverlapFlags = try call.boolOption(3, "overlapFlags", default: true)
            options.clamp = try call.boolOption(3, "clamp", default: true)
            options.rewriteLayout = try call.boolOption(3, "rewriteLayout", default: false)
            options.downgradeCFF2 = try call.boolOption(3, "downgradeCFF2", default: false)
            options.partial = try call.boolOption(3, "partial", default: false)
            options.optimizeDeltas = try call.boolOption(3, "optimize", default: true)
            let result = try face.instance(options)
            // PostScript outlines are .otf by convention, TrueType ones .ttf.
            let fileExtension = result.font.faces[0].format == .cff ? ".otf" : ".ttf"
            let handle = FontHandle(result.font, path: (result.postScriptName ?? "instance") + fileExtension)
            FaceObject.push(call.stack, try FaceRef(handle, 0))
            call.stack.push(strings: result.warnings)
            return 2
        }
    }

    /// g:contoursAt{wght = 700} → the glyph's contours at that location (points as g.contours;
    /// TrueType through gvar, CFF2 through its blends).
    static let contoursAt: LuaFunction = { L in
        LuaCall.run(L, "contoursAt") { call in
            let (face, id) = try glyph(call)
            let location = try face.location(try coordinates(call, 2)).normalized
            GlyphObject.pushPoints(call.stack, try face.outlinePoints(id, at: location))
            return 1
        }
    }

    /// g:advanceAt{wght = 700} → the advance width at that location (TrueType: from the phantom
    /// points; CFF2: hmtx plus HVAR's delta).
    static let advanceAt: LuaFunction = { L in
        LuaCall.run(L, "advanceAt") { call in
            let (face, id) = try glyph(call)
            call.stack.push(try face.advance(id, at: try face.location(try coordinates(call, 2)).normalized))
            return 1
        }
    }

    /// g:deltas() → the glyph's gvar tuples: {{peak = {wght = 1}, start = {…}, ["end"] = {…},
    /// points = {…} (0-based; nil for all points), x = {…}, y = {…}}, …}. Points count the
    /// outline's points then the four phantom points.
    static let deltas: LuaFunction = { L in
        LuaCall.run(L, "deltas") { call in
            let (face, id) = try glyph(call)
            let s = call.stack
            guard let gvar = try face.gvar, let glyf = try face.glyf else { s.pushTable(arrayCount: 0); return 1 }
            let g = try glyf.glyph(id)
            let count = (g.isComposite ? g.components.count : g.pointCount) + 4
            let tuples = try gvar.variations(glyph: id, pointCount: count)
            let tags = try face.variationAxes.map(\.tag.trimmed)
            func pushCoordinates(_ values: [Double]) {
                s.pushTable(fieldCount: Int32(values.count))
                for (tag, v) in zip(tags, values) where v != 0 { s.push(v); s.setField(tag, in: -2) }
            }
            s.pushTable(arrayCount: Int32(tuples.count))
            for (i, t) in tuples.enumerated() {
                s.pushTable(fieldCount: 6)
                pushCoordinates(t.peak); s.setField("peak", in: -2)
                if let start = t.start { pushCoordinates(start); s.setField("start", in: -2) }
                if let end = t.end { pushCoordinates(end); s.setField("end", in: -2) }
                if let points = t.points { s.push(integers: points); s.setField("points", in: -2) }
                s.push(integers: t.x); s.setField("x", in: -2)
                s.push(integers: t.y); s.setField("y", in: -2)
                s.setIndex(i + 1, in: -2)
            }
            return 1
        }
    }

    static func glyph(_ call: LuaCall) throws -> (Face, Int) {
        let ref = try call.methodSelf(GlyphObject.className, as: FaceRef.self)
        return (try ref.get(), call.payload(1))
    }
}
