import FontModel

/// libFuzzer target: WOFF and WOFF2 files → the decoders (directory, zlib and Brotli streams,
/// the glyf/loca and hmtx transforms, collections), then a save back to both containers.
/// Narrower than fuzz-font, so far more of its runs reach the decoders' corners. Inputs that do
/// not start with a web font's signature get one, chosen by their first byte.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWeb(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    var bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if !(bytes.starts(with: Array("wOFF".utf8)) || bytes.starts(with: Array("wOF2".utf8))) {
        bytes = Array(((bytes.first ?? 0) & 1 == 0 ? "wOFF" : "wOF2").utf8) + bytes.dropFirst()
    }
    guard let font = try? Font(data: bytes) else { return 0 }
    for face in font.faces {
        for tag in face.tags { _ = try? face.rawTable(tag) }
        _ = try? face.postScriptName
        _ = try? face.glyf?.statistics()
    }
    if font.faces.reduce(0, { $0 + ((try? $1.glyphCount) ?? 0) }) <= 5000 {
        _ = try? font.serialized(format: .woff)
        _ = try? font.serialized(format: .woff2, woff2: WOFF2Options(quality: 1))
    }
    return 0
}

// SwiftPM links an executable's entry point (main) as fuzz_web_main: hand libFuzzer's driver the target.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> Int32
) -> Int32

@_cdecl("fuzz_web_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    var count = argc
    var arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
    return runFuzzerDriver(&count, &arguments) { data, size in fuzzWeb(data, size) }
}
