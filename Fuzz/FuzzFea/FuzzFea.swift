import FontModel

/// libFuzzer target: feature-file text → compiled into a copy of DejaVu Sans (of Inter, a
/// variable font, when the text has a variable scalar, a condition set or a variation block);
/// what compiles is written back as a feature file and compiled again, then saved to memory.
/// FeatureFileErrors and FontErrors are the expected outcome for bad input; crashes and hangs are bugs.
func fontBytes(_ path: String) -> [UInt8] {
    guard let f = try? Font(path: path), let bytes = try? f.serialized().bytes else { return [] }
    return bytes
}
nonisolated(unsafe) let dejavu = fontBytes("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
nonisolated(unsafe) let inter = fontBytes("/usr/share/fonts/truetype/inter-vf/Inter.var.ttf")

/// Whether the text uses the variable-font syntax.
func isVariable(_ bytes: [UInt8]) -> Bool {
    let text = String(decoding: bytes, as: UTF8.self)
    return text.contains("=") && text.contains("(") || text.contains("conditionset") || text.contains("variation")
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFea(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let font = try? Font(data: isVariable(bytes) ? inter : dejavu) else { return 0 }
    let face = font.faces[0]
    guard (try? face.compileFeatures(bytes, file: "fuzz.fea")) != nil else { return 0 }
    if let text = try? face.featureFileText() { _ = try? face.compileFeatures(Array(text.utf8), file: "fuzz-again.fea") }
    _ = try? font.serialized()
    return 0
}

// SwiftPM links an executable's entry point (main) as fuzz_fea_main: hand libFuzzer's driver the target.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> Int32
) -> Int32

@_cdecl("fuzz_fea_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    var count = argc
    var arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
    return runFuzzerDriver(&count, &arguments) { data, size in fuzzFea(data, size) }
}
