import FontModel

/// Previews across a variable face's design space: one axis swept over values, and one row
/// per named instance.
extension Preview {
    /// The text drawn at each value of one axis (other axes as `options.variations` sets them,
    /// else at their defaults), as a sheet captioned "wght 700". Label options when `options`
    /// has a width and height, a text preview otherwise.
    public static func axisSweep(
        _ face: Face, axis tag: String, values: [Double], text: String, options: PreviewOptions,
        columns: Int? = nil
    ) throws -> Image {
        guard !values.isEmpty else { throw RenderError("a sweep needs at least one value") }
        guard values.count <= maximumSweepValues else {
            throw RenderError("a sweep draws at most \(maximumSweepValues) values (one cell each), got \(values.count); sweep in steps")
        }
        // Checks the tag (with "did you mean") and each value against the axis range up front.
        for v in values {
            do { _ = try face.location(options.variations.merging([tag: v]) { $1 }, clamp: false) } catch {
                throw RenderError("sweep of axis '\(tag)': \(error)")
            }
        }
        var images: [Image] = []
        for v in values {
            var o = options
            o.variations[tag] = v
            images.append(
                options.width != nil && options.height != nil
                    ? try label(face, text, options: o).image : try Preview.text(face, text, options: o).image)
        }
        let captions = values.map { "\(tag) \(Face.short($0))" }
        return try sheet(images, columns: columns ?? min(values.count, 3), captions: captions, captionSize: 12 * options.scale)
    }

    /// One row per named instance of the face (fvar), captioned with its name and location.
    public static func instances(_ face: Face, text: String, options: PreviewOptions) throws -> Image {
        guard let fvar = try face.table(FvarTable.self), !fvar.instances.isEmpty else {
            throw RenderError("the face has no named instances (no fvar, or an fvar without instances)")
        }
        guard fvar.instances.count <= maximumSweepValues else {
            throw RenderError("\(fvar.instances.count) named instances is too many for one sheet")
        }
        let names = try face.name
        var images: [Image] = [], captions: [String] = []
        for instance in fvar.instances {
            var o = options
            for (axis, v) in zip(fvar.axes, instance.coordinates) { o.variations[axis.tag.trimmed] = v }
            images.append(try Preview.text(face, text, options: o).image)
            let at = zip(fvar.axes, instance.coordinates).map { "\($0.0.tag.trimmed) \(Face.short($0.1))" }.joined(separator: ", ")
            captions.append("\(names.string(instance.subfamilyNameID) ?? "instance") (\(at))")
        }
        return try sheet(images, columns: 1, captions: captions, captionSize: 12 * options.scale)
    }

}
