import FontModel
import FontRender
import LuaBridge

extension RenderError: LuaMessageError {}

/// Lua module `preview`: text, labels, sheets, comparisons and styles, rendered from a face as
/// it is in memory. Options come from three places, each overriding the one before: the
/// defaults set by `preview.appearance{...}`, the kind's (`preview.appearance("points", {...})`,
/// used with `kind = "points"`), and the call's own table.
enum PreviewModule {
    static let functions: [(String, LuaFunction)] = [
        ("text", text), ("label", label), ("sheet", sheet), ("compare", compare), ("load", load),
        ("appearance", appearance), ("resetAppearance", resetAppearance), ("sweep", sweep),
        ("glyph", glyph), ("glyphs", glyphs), ("specimen", specimen), ("instances", instances),
    ]

    /// Every option a text or label preview reads (anything else is refused as a likely typo).
    static let optionNames = [
        "size", "scale", "scaling", "color", "background", "gradient", "stroke", "shadow", "glow",
        "features", "direction", "script", "language", "hinting", "platform", "metrics", "width",
        "height", "margin", "textAlign", "align", "guides", "legend", "kind", "variations",
    ]

    /// Registry key of {defaults = {...}, kinds = {name = {...}}}.
    static let appearanceKey = "fontshell.preview.appearance"

    static func install(in lua: LuaState) {
        lua.registerModule("preview", functions: functions)
        resetAppearance(lua.stack)
    }

    // MARK: options

    /// Pushes the appearance store, creating it if needed.
    static func pushAppearance(_ s: LuaStack) {
        if s.getRegistryField(appearanceKey) != .table {
            s.pop()
            resetAppearance(s)
            s.getRegistryField(appearanceKey)
        }
    }

    static func resetAppearance(_ s: LuaStack) {
        s.pushTable(fieldCount: 2)
        s.pushTable(); s.setField("defaults", in: -2)
        s.pushTable(); s.setField("kinds", in: -2)
        s.setRegistryField(appearanceKey)
    }

    /// Reads the options at argument `i` (a table or nil) merged over the appearance defaults
    /// and the kind's overrides.
    static func options(_ call: LuaCall, _ i: Int32) throws -> PreviewOptions {
        let s = call.stack
        if i == s.top, s.isMarked(tableAt: i, as: Show.previewInfo) { s.truncate(to: i - 1) }   // see LuaCall.options
        let given = try call.table(i, optional: true)
        pushAppearance(s)
        let store = s.top
        defer { s.truncate(to: store - 1) }
        s.pushTable(fieldCount: 16)
        let merged = s.top
        s.withField("defaults", in: store) { _ in s.copyFields(from: -1, to: merged) }
        var kind: String?
        if given { kind = s.withField("kind", in: i) { _ in s.string(at: -1) } }
        if kind == nil { kind = s.withField("kind", in: merged) { _ in s.string(at: -1) } }
        if let kind {
            s.getField("kinds", in: store)
            guard s.getField(kind, in: -1) == .table else {
                throw LuaArgumentError(i, "no appearance for kind '\(kind)'; define it with preview.appearance(\"\(kind)\", {...})")
            }
            s.copyFields(from: -1, to: merged)
            s.pop(2)
        }
        if given { s.copyFields(from: i, to: merged) }
        return try read(call, merged, argument: i)
    }

    static func read(_ call: LuaCall, _ t: Int32, argument: Int32) throws -> PreviewOptions {
        let s = call.stack
        var o = PreviewOptions()
        func fail(_ key: String, _ what: String) -> LuaArgumentError {
            LuaArgumentError(argument, "option '\(key)' must be \(what), got \(s.describedType(at: -1))")
        }
        func number(_ key: String) throws -> Double {
            guard let v = s.number(at: -1) else { throw fail(key, "a number") }
            return v
        }
        func string(_ key: String) throws -> String {
            guard let v = s.string(at: -1) else { throw fail(key, "a string") }
            return v
        }
        func bool(_ key: String) throws -> Bool {
            guard s.type(at: -1) == .boolean else { throw fail(key, "a boolean") }
            return s.truthy(at: -1)
        }
        func field(_ key: String, _ body: () throws -> Void) rethrows {
            try s.withField(key, in: -1) { type in if type != .nil { try body() } }
        }
        try s.forEachPair(inTableAt: t) {
            guard let key = s.string(at: -2) else {
                throw LuaArgumentError(argument, "options are named (size = 48, ...); found a \(s.typeName(at: -2)) key")
            }
            do {
                switch key {
                case "size": o.size = try number(key)
                case "scale": o.scale = try number(key)
                case "scaling": o.scaling = try TextScaling(parsing: try string(key))
                case "color": o.style.color = try color(call, key)
                case "background": o.background = try color(call, key)
                case "gradient":
                    guard s.type(at: -1) == .table else { throw fail(key, "a list of colours") }
                    o.style.gradient = try s.items(ofListAt: -1) { k in try color(call, "gradient[\(k)]") }
                case "stroke":
                    if s.type(at: -1) == .number { o.style.stroke = .init(width: try number(key), color: .white); break }
                    guard s.type(at: -1) == .table else { throw fail(key, "a width or {width=, color=}") }
                    var stroke = TextStyle.Stroke(width: 2, color: .white)
                    try field("width") { stroke.width = try number("stroke.width") }
                    try field("color") { stroke.color = try color(call, "stroke.color") }
                    o.style.stroke = stroke
                // stroke, shadow and glow read alike (a flag or a table of fields), each its own fields.
                case "shadow":
                    if s.type(at: -1) == .boolean { o.style.shadow = s.truthy(at: -1) ? .init() : nil; break }
                    guard s.type(at: -1) == .table else { throw fail(key, "true or {dx=, dy=, blur=, color=}") }
                    var shadow = TextStyle.Shadow()
                    try field("dx") { shadow.dx = try number("shadow.dx") }
                    try field("dy") { shadow.dy = try number("shadow.dy") }
                    try field("blur") { shadow.blur = try number("shadow.blur") }
                    try field("color") { shadow.color = try color(call, "shadow.color") }
                    o.style.shadow = shadow
                case "glow":
                    if s.type(at: -1) == .boolean { o.style.glow = s.truthy(at: -1) ? .init() : nil; break }
                    guard s.type(at: -1) == .table else { throw fail(key, "true or {radius=, color=}") }
                    var glow = TextStyle.Glow()
                    try field("radius") { glow.radius = try number("glow.radius") }
                    try field("color") { glow.color = try color(call, "glow.color") }
                    o.style.glow = glow
                case "features": o.shaping.features = try features(call, key)
                case "direction": o.shaping.direction = try string(key)
                case "script": o.shaping.script = try string(key)
                case "language": o.shaping.language = try string(key)
                case "hinting": o.hinting = try bool(key)
                case "platform": o.platform = try Platform(parsing: try string(key))
                case "metrics": o.metrics = try MetricsSource(parsing: try string(key))
                case "width": o.width = try number(key)
                case "height": o.height = try number(key)
                case "margin": o.margin = try number(key)
                case "textAlign": o.textAlign = try TextAlign(parsing: try string(key))
                case "align": o.verticalAlign = try VerticalAlign(parsing: try string(key))
                case "guides": o.guides = try bool(key)
                case "legend": o.legend = try bool(key)
                case "variations":
                    guard s.type(at: -1) == .table else { throw fail(key, "a table of axis coordinates, e.g. {wght = 700}") }
                    o.variations = try VariationMethods.coordinates(call, s.top)
                case "kind": break
                default:
                    var message = "unknown option '\(key)'"
                    if let near = closestName(to: key, in: optionNames) { message += " (did you mean '\(near)'?)" }
                    throw LuaArgumentError(argument, message)
                }
            } catch let e as RenderError {
                throw LuaArgumentError(argument, e.description)
            }
        }
        return o
    }

    /// A colour: "#rrggbb", "#rrggbbaa", a name, or {r, g, b [, a]} (0–255).
    static func color(_ call: LuaCall, _ key: String) throws -> Color {
        let s = call.stack
        if let text = s.string(at: -1) { return try Color(parsing: text) }
        guard s.type(at: -1) == .table else {
            throw RenderError(
                "option '\(key)' must be a colour (\"#rrggbb\", a name or {r, g, b, a}), got \(call.stack.describedType(at: -1))")
        }
        var parts: [UInt8] = []
        for k in 1...4 {
            s.getIndex(k, in: -1)
            defer { s.pop() }
            if k == 4 && s.type(at: -1) == .nil { parts.append(255); break }
            guard s.isInteger(at: -1), let v = s.integer(at: -1), (0...255).contains(v) else {
                throw RenderError("option '\(key)' component \(k) must be an integer 0...255")
            }
            parts.append(UInt8(v))
        }
        return Color(parts[0], parts[1], parts[2], parts[3])
    }

    /// "kern=0,-liga", {"kern=0", "-liga"} or {kern = false, ss01 = true, salt = 2}.
    static func features(_ call: LuaCall, _ key: String) throws -> [String] {
        let s = call.stack
        if let text = s.string(at: -1) {
            // HarfBuzz's parser skips spaces around a feature itself.
            return text.split(separator: ",").map(String.init).filter { !$0.allSatisfy(\.isWhitespace) }
        }
        guard s.type(at: -1) == .table else { throw RenderError("option 'features' must be a string or a table") }
        var out: [String] = []
        try s.forEachPair(inTableAt: -1) {
            if s.type(at: -2) == .number, let f = s.string(at: -1) { out.append(f); return }
            guard let tag = s.string(at: -2) else { throw RenderError("option 'features' has a key that is not a feature tag") }
            switch s.type(at: -1) {
            case .boolean: out.append("\(tag)=\(s.truthy(at: -1) ? 1 : 0)")
            case .number where s.isInteger(at: -1): out.append("\(tag)=\(s.integer(at: -1) ?? 0)")
            default: throw RenderError("feature '\(tag)' must be true, false or an integer")
            }
        }
        return out.sorted()
    }

    static func face(_ call: LuaCall, _ i: Int32) throws -> Face {
        try call.object(i, FaceObject.classID, FaceObject.className, as: FaceRef.self).get()
    }

    static func push(_ s: LuaStack, _ m: LabelMeasurements) {
        s.pushTable(fieldCount: 14)
        for (key, v) in [
            ("baseline", m.baseline), ("lineTop", m.lineTop), ("lineBottom", m.lineBottom), ("boxCenter", m.boxCenter),
            ("capHeight", m.capHeight), ("xHeight", m.xHeight), ("capCenterOffset", m.capCenterOffset),
            ("ascent", m.ascent), ("descent", m.descent), ("lineGap", m.lineGap), ("textWidth", m.textWidth),
        ] {
            s.push(v); s.setField(key, in: -2)
        }
        s.push(m.metrics.rawValue); s.setField("metrics", in: -2)
        s.push(strings: m.missing); s.setField("missing", in: -2)
        if !m.notInColor.isEmpty { s.push(strings: m.notInColor); s.setField("notInColor", in: -2) }
    }

    // MARK: functions

    /// preview.glyph(glyph [, {size = 360}]) → Image: the glyph large, with its points and metrics.
    static let glyph: LuaFunction = { L in
        LuaCall.run(L, "glyph") { call in
            try call.options(2, ["size"])
            guard call.stack.classInfo(at: 1)?.name == GlyphObject.className else {
                throw LuaArgumentError(1, "expected a Glyph (face.glyphs.A)")
            }
            ImageObject.push(call.stack, ImageBox(try Show.picture(call, 1, optionsAt: 2)))
            return 1
        }
    }

    /// preview.glyphs(face.glyphs [, {from = 0, count = 100, size = 48}]) → Image: a grid with ids and names.
    static let glyphs: LuaFunction = { L in
        LuaCall.run(L, "glyphs") { call in
            try call.options(2, ["from", "count", "size"])
            guard call.stack.classInfo(at: 1)?.name == GlyphsObject.className else { throw LuaArgumentError(1, "expected face.glyphs") }
            ImageObject.push(call.stack, ImageBox(try Show.picture(call, 1, optionsAt: 2)))
            return 1
        }
    }

    /// preview.specimen(face) → Image: names, metrics, a waterfall and the first characters.
    static let specimen: LuaFunction = { L in
        LuaCall.run(L, "specimen") { call in
            ImageObject.push(call.stack, ImageBox(try Preview.specimen(try face(call, 1))))
            return 1
        }
    }

    /// preview.text(face, text [, options]) → Image, {missing = {...}, notInColor = {...}, baselines = {...}}
    static let text: LuaFunction = { L in
        LuaCall.run(L, "text") { call in
            let face = try face(call, 1)
            let text = try call.string(2)
            let rendered = try Preview.text(face, text, options: try options(call, 3))
            ImageObject.push(call.stack, ImageBox(rendered.image, missing: rendered.missing, baseline: rendered.baselines.first))
            call.stack.pushTable(fieldCount: 3)
            call.stack.push(strings: rendered.missing); call.stack.setField("missing", in: -2)
            if !rendered.notInColor.isEmpty { call.stack.push(strings: rendered.notInColor); call.stack.setField("notInColor", in: -2) }
            call.stack.pushTable(arrayCount: Int32(rendered.baselines.count))
            for (k, b) in rendered.baselines.enumerated() { call.stack.push(b); call.stack.setIndex(k + 1, in: -2) }
            call.stack.setField("baselines", in: -2)
            call.stack.mark(tableAt: -1, as: Show.previewInfo)
            return 2
        }
    }

    /// preview.label(face, text, {width=, height=, ...}) → Image, measurements
    static let label: LuaFunction = { L in
        LuaCall.run(L, "label") { call in
            let face = try face(call, 1)
            let text = try call.string(2)
            _ = try call.table(3)
            let rendered = try Preview.label(face, text, options: try options(call, 3))
            ImageObject.push(
                call.stack, ImageBox(rendered.image, measurements: rendered.measurements, missing: rendered.measurements.missing))
            push(call.stack, rendered.measurements)
            call.stack.mark(tableAt: -1, as: Show.previewInfo)
            return 2
        }
    }

    static func images(_ call: LuaCall, _ i: Int32) throws -> [Image] {
        _ = try call.table(i)
        let s = call.stack
        guard s.length(at: i) > 0 else { throw LuaArgumentError(i, "a list of images expected, got an empty table") }
        return try s.items(ofListAt: i) { k in
            guard s.isObject(at: -1, classID: ImageObject.classID) else {
                throw LuaArgumentError(i, "item \(k) is a \(s.typeName(at: -1)), not an Image")
            }
            let box: ImageBox = try call.object(s.top, ImageObject.classID, ImageObject.className)
            return box.image
        }
    }

    /// preview.sheet(images [, {columns=, captions=, captionSize=, gap=, background=}]) → Image
    static let sheet: LuaFunction = { L in
        LuaCall.run(L, "sheet") { call in
            let s = call.stack
            let list = try images(call, 1)
            var captions: [String] = [], background = Color.white, captionSize = 12.0
            if try call.options(2, ["columns", "captions", "captionSize", "gap", "background"]) {
                try call.field(2, "captions") { _ in
                    guard s.type(at: -1) != .nil else { return }
                    guard s.type(at: -1) == .table else { throw LuaArgumentError(2, "option 'captions' must be a list of strings") }
                    captions = s.items(ofListAt: -1) { _ in s.string(at: -1) ?? s.describe(at: -1) }
                }
                try call.field(2, "background") { _ in if s.type(at: -1) != .nil { background = try color(call, "background") } }
                try call.field(2, "captionSize") { _ in
                    guard s.type(at: -1) != .nil else { return }
                    guard let size = s.number(at: -1) else { throw LuaArgumentError(2, "option 'captionSize' must be a number") }
                    captionSize = size
                }
            }
            let image = try Preview.sheet(
                list, columns: try call.intOption(2, "columns"), captions: captions, captionSize: captionSize,
                gap: try call.intOption(2, "gap") ?? 12, background: background)
            ImageObject.push(call.stack, ImageBox(image))
            return 1
        }
    }

    /// preview.compare(a, b [, {align = "top" | "baseline"}]) → Image (a | b | difference),
    /// {changedPixels, totalPixels, maxDifference, bounds, sizeChange}. Labels are compared
    /// within their boxes (not the legend strips); "baseline" moves b so the previews' first
    /// baselines meet before counting (the ink that changed shape, not where it sits).
    static let compare: LuaFunction = { L in
        LuaCall.run(L, "compare") { call in
            let a: ImageBox = try call.object(1, ImageObject.classID, ImageObject.className)
            let b: ImageBox = try call.object(2, ImageObject.classID, ImageObject.className)
            try call.options(3, ["align"])
            var shift = 0
            switch try call.stringOption(3, "align") ?? "top" {
            case "top": break
            case "baseline":
                guard let ba = a.baseline, let bb = b.baseline else {
                    throw LuaArgumentError(
                        3, "align = \"baseline\" needs two previews that know their baselines (preview.text, preview.label)")
                }
                shift = Int((ba - bb).rounded())
            case let other: throw LuaArgumentError(3, "align = \"\(other)\": choose \"top\" or \"baseline\"")
            }
            let rows = a.boxHeight.map { ha in min(ha, (b.boxHeight ?? ha) + shift) }
            let c = Preview.compare(a.image, b.image, shift: shift, rows: rows)
            ImageObject.push(call.stack, ImageBox(c.image))
            pushStats(call.stack, c)
            call.stack.mark(tableAt: -1, as: Show.previewInfo)
            return 2
        }
    }

    static func pushStats(_ s: LuaStack, _ c: Comparison) {
        s.pushTable(fieldCount: 4)
        s.push(c.changedPixels); s.setField("changedPixels", in: -2)
        s.push(c.totalPixels); s.setField("totalPixels", in: -2)
        s.push(c.maxDifference); s.setField("maxDifference", in: -2)
        if let size = c.sizeChange { s.push(size); s.setField("sizeChange", in: -2) }
        if let b = c.changedBounds {
            s.pushTable(fieldCount: 4)
            for (key, v) in [("x", b.x), ("y", b.y), ("width", b.width), ("height", b.height)] { s.push(v); s.setField(key, in: -2) }
            s.setField("bounds", in: -2)
        }
    }

    /// preview.load(path) → Image (any PNG, as 8-bit RGBA)
    static let load: LuaFunction = { L in
        LuaCall.run(L, "load") { call in
            ImageObject.push(call.stack, ImageBox(try Image.loadPNG(try call.string(1))))
            return 1
        }
    }

    /// preview.appearance{...} merges into the defaults; preview.appearance(kind, {...}) into a
    /// kind's overrides; preview.appearance() returns {defaults = ..., kinds = ...}.
    static let appearance: LuaFunction = { L in
        LuaCall.run(L, "appearance") { call in
            let s = call.stack
            pushAppearance(s)
            let store = s.top
            if call.isNoneOrNil(1) { return 1 }
            if s.type(at: 1) == .table {
                _ = try read(call, 1, argument: 1)   // refuse typos and bad values now, not at the next render
                s.getField("defaults", in: store)
                s.copyFields(from: 1, to: -1)
                return 0
            }
            let kind = try call.string(1)
            _ = try call.table(2)
            _ = try read(call, 2, argument: 2)
            s.getField("kinds", in: store)
            if s.getField(kind, in: -1) != .table {
                s.pop()
                s.pushTable(fieldCount: 8)
                s.pushValue(at: -1)
                s.setField(kind, in: -3)
            }
            s.copyFields(from: 2, to: -1)
            return 0
        }
    }

    /// preview.resetAppearance(): forget the defaults and every kind.
    static let resetAppearance: LuaFunction = { L in
        LuaCall.run(L, "resetAppearance") { call in
            resetAppearance(call.stack)
            return 0
        }
    }

    /// preview.sweep(face, {field = "hhea.ascender", values = {...}, text = "Hello", label = {...},
    /// columns = 4}) → sheet Image, {{value=, capCenterOffset=, baseline=}, ...}, best value, and a
    /// warning when the best value is at the edge of those tried (else nil).
    /// The field is restored afterwards. Also `face:sweep{...}`.
    static let sweep: LuaFunction = { L in
        LuaCall.run(L, "sweep") { call in
            let s = call.stack
            let face = try face(call, 1)
            try call.options(2, ["field", "values", "text", "label", "columns"], optional: false)
            guard let field = try call.stringOption(2, "field") else {
                throw LuaArgumentError(2, "option 'field' (e.g. \"hhea.ascender\") is required")
            }
            guard let text = try call.stringOption(2, "text") else { throw LuaArgumentError(2, "option 'text' is required") }
            if field.hasPrefix("axis.") { return try axisSweep(call, face, axis: String(field.dropFirst(5)), text: text) }
            let values: [Int] = try call.field(2, "values") { _ in
                guard s.type(at: -1) == .table else { throw LuaArgumentError(2, "option 'values' must be a list of integers") }
                return try s.items(ofListAt: -1) { k in
                    guard s.isInteger(at: -1), let v = s.integer(at: -1) else {
                        throw LuaArgumentError(2, "values[\(k)] must be an integer")
                    }
                    return v
                }
            }
            let label = try labelOption(call, "a table of label options")
            let result = try Preview.sweep(
                face, field: field, values: values, text: text, label: label,
                columns: try call.intOption(2, "columns"))
            ImageObject.push(s, ImageBox(result.sheet))
            s.pushTable(arrayCount: Int32(result.cells.count))
            for (k, cell) in result.cells.enumerated() {
                s.pushTable(fieldCount: 3)
                s.push(cell.value); s.setField("value", in: -2)
                s.push(cell.measurements.capCenterOffset); s.setField("capCenterOffset", in: -2)
                s.push(cell.measurements.baseline); s.setField("baseline", in: -2)
                s.setIndex(k + 1, in: -2)
            }
            if let best = result.best { s.push(best.value) } else { s.pushNil() }
            if let warning = result.warning { s.push(warning) } else { s.pushNil() }
            return 4
        }
    }

    /// Option `label` of the options table at 2 (absent, or `expected`), read as preview options;
    /// it stays on the stack.
    static func labelOption(_ call: LuaCall, _ expected: String) throws -> PreviewOptions {
        let s = call.stack
        s.getField("label", in: 2)
        guard [.nil, .table].contains(s.type(at: s.top)) else { throw LuaArgumentError(2, "option 'label' must be \(expected)") }
        return try options(call, s.top)
    }

    /// preview.sweep(face, {field = "axis.wght", values = {100, 400, 900}, text =, label = {...}})
    /// → Image, cells ({value = 100}, …): the text at each value of the axis, captioned.
    static func axisSweep(_ call: LuaCall, _ face: Face, axis: String, text: String) throws -> Int32 {
        let s = call.stack
        let values: [Double] = try call.field(2, "values") { _ in
            guard s.type(at: -1) == .table else { throw LuaArgumentError(2, "option 'values' must be a list of numbers") }
            return try s.items(ofListAt: -1) { k in
                guard s.type(at: -1) == .number, let v = s.number(at: -1), v.isFinite else {
                    throw LuaArgumentError(2, "values[\(k)] must be a number")
                }
                return v
            }
        }
        let options = try labelOption(call, "a table of preview options")
        let sheet = try Preview.axisSweep(
            face, axis: axis, values: values, text: text, options: options, columns: try call.intOption(2, "columns"))
        ImageObject.push(s, ImageBox(sheet))
        s.pushTable(arrayCount: Int32(values.count))
        for (k, v) in values.enumerated() {
            s.pushTable(fieldCount: 1); s.push(v); s.setField("value", in: -2); s.setIndex(k + 1, in: -2)
        }
        s.mark(tableAt: -1, as: Show.previewInfo)
        return 2
    }

    /// preview.instances(face, text [, options]) → Image: one row per named instance.
    static let instances: LuaFunction = { L in
        LuaCall.run(L, "instances") { call in
            let face = try face(call, 1)
            let image = try Preview.instances(face, text: try call.string(2), options: try options(call, 3))
            ImageObject.push(call.stack, ImageBox(image))
            return 1
        }
    }
}
