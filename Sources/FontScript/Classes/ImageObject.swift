import FontRender
import LuaBridge

/// What an Image userdata holds: the pixels, and for a label its measurements.
final class ImageBox: LuaEquatable {
    let image: Image
    let measurements: LabelMeasurements?
    /// Characters drawn as .notdef.
    let missing: [String]
    /// The first line's baseline of a text preview (a label's is in its measurements).
    let baseline: Double?

    init(_ image: Image, measurements: LabelMeasurements? = nil, missing: [String] = [], baseline: Double? = nil) {
        self.image = image
        self.measurements = measurements
        self.missing = missing
        self.baseline = baseline ?? measurements?.baseline
    }

    /// A label's box height (the legend strip, if any, is below it).
    var boxHeight: Int? { measurements.map { Int((2 * $0.boxCenter).rounded()) } }

    func isSame(as other: AnyObject) -> Bool { self === other }
}

/// Lua class `Image`: a rendered preview. `img.width`, `img.height`, `img:save(path)`,
/// `img:pixel(x, y)` → r, g, b, a; labels also carry `img.measurements`.
enum ImageObject {
    static let className = "Image"
    static var classID: Int32 { ScriptClass.image.rawValue }

    // Declared as every class is (Glyph's and KerningPairs' are the same shape): id, name, fields, methods.
    static var luaClass: LuaClass {
        var c = LuaClass(
            id: classID, name: className,
            summary: "a rendered preview: img.width, img.height, img:save('out.png'), img:pixel(x, y), img.measurements (labels)", get: get)
        c.fields = Field.names
        c.methods = ["save": save, "pixel": pixel]
        c.tostring = tostring
        return c
    }

    static func push(_ s: LuaStack, _ box: ImageBox) { s.push(object: box, classID: classID) }

    /// The fields, by name, in the order the bridge numbers them (from 1).
    enum Field: String, ClassFields {
        case width, height, measurements, missing
    }
    static let fields = Field.allCases

    static let get: LuaFunction = { L in
        LuaCall.run(L, className) { call in
            let box = try call.trustedSelf(className, as: ImageBox.self)
            let s = call.stack
            guard let field = fields.numbered(try call.integer(3)) else {
                throw unknownField(className, s.describe(at: 2), luaClass.fields + luaClass.methods.keys)
            }
            switch field {
            case .width: s.push(box.image.width)
            case .height: s.push(box.image.height)
            case .measurements: if let m = box.measurements { PreviewModule.push(s, m) } else { s.pushNil() }
            case .missing: s.push(strings: box.missing)
            }
            return 1
        }
    }

    /// img:save(path): a PNG with tEXt chunks naming the face and the parameters.
    static let save: LuaFunction = { L in
        LuaCall.run(L, "save") { call in
            let box = try call.methodSelf(className, as: ImageBox.self)
            try box.image.savePNG(to: try call.string(2))
            return 0
        }
    }

    /// img:pixel(x, y) → r, g, b, a (0-based, from the top left).
    static let pixel: LuaFunction = { L in
        LuaCall.run(L, "pixel") { call in
            let box = try call.methodSelf(className, as: ImageBox.self)
            let x = try call.integer(2), y = try call.integer(3)
            guard let c = box.image.pixel(x, y) else {
                throw LuaArgumentError(
                    x < 0 || x >= box.image.width ? 2 : 3, "pixel (\(x), \(y)) is outside the \(box.image.width)x\(box.image.height) image")
            }
            for v in [c.r, c.g, c.b, c.a] { call.stack.push(Int(v)) }
            return 4
        }
    }

    static let tostring: LuaFunction = { L in
        LuaCall.run(L, "tostring") { call in
            let box = try call.methodSelf(className, as: ImageBox.self)
            var text = "<Image \(box.image.width)x\(box.image.height)"
            if let m = box.measurements {
                text += ": baseline \(Preview.rounded(m.baseline)) px, capCenterOffset \(Preview.rounded(m.capCenterOffset)) px"
            }
            call.stack.push(text + ">")
            return 1
        }
    }
}
