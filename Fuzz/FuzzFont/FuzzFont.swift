import FontModel
import FontXML

/// libFuzzer target: font bytes → open, walk every table and glyph, layout and kerning, dump as
/// TTX, validate, save to memory.
/// Any crash, trap or hang is a bug; thrown FontErrors are the expected outcome for bad input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFont(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard let font = try? Font(data: Array(UnsafeBufferPointer(start: data, count: size))) else { return 0 }
    for face in font.faces {
        _ = try? face.postScriptName
        for tag in face.tags { _ = try? face.rawTable(tag) }
        _ = try? face.hhea; _ = try? face.os2; _ = try? face.post; _ = try? face.cmap?.bestUnicodeSubtable()?.mapping()
        if let count = try? face.glyphCount {
            for id in 0..<min(count, 2000) {
                _ = try? face.glyf?.glyph(id)
                _ = try? face.glyphName(id)
            }
        }
        _ = try? face.glyf?.statistics()
        // Layout queries and kerning, read from the bytes (a few rows: the pairs a hostile class
        // subtable may spell out are bounded, but not small).
        _ = try? face.layoutFeatures(); _ = try? face.layoutLookups("GSUB"); _ = try? face.substitutions(feature: "liga")
        if let pairs = try? KerningPairs(face: face) { for left in 0..<64 { _ = pairs.row(for: left) } }
        if let kern = try? face.kern { for k in kern.subtables.indices.prefix(4) { _ = try? kern.classPairs(k) } }
        // Variable fonts: the variation tables, a location at each axis's maximum, and (for
        // small fonts) a full instance, both ways of instancing GPOS, and a partial one (the
        // first axis narrowed to its upper half: the kept tuples, stores and FeatureVariations).
        if let axes = try? face.variationAxes, !axes.isEmpty {
            _ = try? face.table(STATTable.self)?.root; _ = try? face.table(HvarTable.self); _ = try? face.table(MvarTable.self)
            _ = try? face.table(CvarTable.self)
            let top = Dictionary(axes.map { ($0.tag.trimmed, $0.maximum) }, uniquingKeysWith: { a, _ in a })
            if let loc = try? face.location(top).normalized {
                for id in 0..<min((try? face.glyphCount) ?? 0, 200) {
                    _ = try? face.outlinePoints(id, at: loc); _ = try? face.advance(id, at: loc)
                }
            }
            if (try? face.glyphCount) ?? .max <= 2000 {
                _ = try? face.instance(InstanceOptions(coordinates: top))
                _ = try? face.instance(InstanceOptions(coordinates: top, updateNames: false, rewriteLayout: true))
                if let first = axes.first, first.defaultValue < first.maximum {
                    _ = try? face.instance(InstanceOptions(ranges: [first.tag.trimmed: first.defaultValue...first.maximum]))
                }
            }
        }
    }
    // Every table as TTX (the CFF decompiler, assembly, the described and hand-written
    // converters), for inputs small enough to dump on every run.
    if size <= 64 * 1024 { for face in font.faces.prefix(2) { _ = try? TTX.dump(face) } }
    _ = Validator.validate(font)
    _ = try? font.serialized()
    return 0
}

// SwiftPM links an executable's entry point (main) as fuzz_font_main: hand libFuzzer's driver the target.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> Int32
) -> Int32

@_cdecl("fuzz_font_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    var count = argc
    var arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
    return runFuzzerDriver(&count, &arguments) { data, size in fuzzFont(data, size) }
}
