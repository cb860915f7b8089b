// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "FontShell",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "FontModel", targets: ["FontModel"]),
        .library(name: "FontRender", targets: ["FontRender"]),
        .executable(name: "fontshell", targets: ["fontshell"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2")
    ],
    targets: [
        // Reading, editing and writing sfnt fonts and collections, and their web containers
        // (WOFF: zlib, WOFF2: Brotli, through system-library targets; the rest is Swift).
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        lazySystemLibrary("CBrotli", pkgConfig: "libbrotlienc", providers: [.apt(["libbrotli-dev"]), .brew(["brotli"])]),
        .target(
            name: "FontModel", dependencies: ["CZlib", "CBrotli", "LazyLibraries"],
            linkerSettings: [.linkedLibrary("brotlidec", .when(platforms: [.macOS]))]),
        // System libraries and the C side of the Lua bridge.
        .systemLibrary(name: "CLua", pkgConfig: "lua5.4", providers: [.apt(["liblua5.4-dev"]), .brew(["lua"])]),
        lazySystemLibrary("CEditLine", pkgConfig: "libedit", providers: [.apt(["libedit-dev"]), .brew(["libedit"])]),
        lazySystemLibrary("CFontconfig", pkgConfig: "fontconfig", providers: [.apt(["libfontconfig-dev"]), .brew(["fontconfig"])]),
        lazySystemLibrary("CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"]), .brew(["freetype"])]),
        lazySystemLibrary("CHarfBuzz", pkgConfig: "harfbuzz", providers: [.apt(["libharfbuzz-dev"]), .brew(["harfbuzz"])]),
        lazySystemLibrary("CHarfBuzzSubset", pkgConfig: "harfbuzz-subset", providers: [.apt(["libharfbuzz-dev"]), .brew(["harfbuzz"])]),
        lazySystemLibrary("CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"]), .brew(["libpng"])]),
        .target(name: "LuaShim", dependencies: ["CLua"]),
        // libpng reports errors by longjmp: the setjmp stays in C.
        .target(name: "PNGShim", dependencies: ["CPNG", "LazyLibraries"]),
        // Previews: FreeType rasterizes, HarfBuzz shapes, libpng writes; labels, sheets, diffs,
        // styles; pictures in the terminal (zlib for kitty's compressed transfers).
        .target(name: "FontRender", dependencies: ["FontModel", "CFreeType", "CHarfBuzz", "LazyLibraries", "PNGShim", "CZlib"]),
        // HarfBuzz, its subsetter, fontconfig, FreeType, libpng, Brotli and libedit, loaded on
        // their first call (Linux, where they are not linked: LazyLibraries.h says why and how).
        .target(name: "LazyLibraries"),
        // Subsetting through HarfBuzz's subsetter (the library hb-subset uses).
        .target(name: "FontSubset", dependencies: ["FontModel", "CHarfBuzzSubset", "LazyLibraries"]),
        // fontconfig (Linux) and CoreText (macOS) behind one protocol.
        .target(
            name: "FontRegistry",
            dependencies: [
                "FontModel", "JSONText", .target(name: "CFontconfig", condition: .when(platforms: [.linux])), "LazyLibraries",
            ]),
        // The one JSON writer (and reader): Lua's fontshell.json, batch records, reports, --json
        // outputs, the registry manifest. No dependencies (and no Foundation).
        .target(name: "JSONText"),
        // Generic Swift <-> Lua machinery (no font words), then the Lua API over the font model.
        .target(name: "LuaBridge", dependencies: ["CLua", "LuaShim", "JSONText"]),
        // TTX-dialect XML dump and fuse, from the table descriptions.
        .target(name: "FontXML", dependencies: ["FontModel"]),
        // Font checks are Lua files (Checks/<area>/<id>.lua), read from the source tree (or
        // $FONTSHELL_CHECKS). Not a SwiftPM resource: its generated accessor links all of
        // Foundation, which costs every process start about 0.7 ms.
        // The program's own Lua chunks (prelude, check runner, batch records): .lua files
        // embedded at build time by C's #embed, so start-up reads no files.
        .target(
            name: "LuaPrograms",
            exclude: [
                "prelude.lua", "check-runner.lua", "check-stub.lua", "check-worker.lua",
                "batch-capture.lua", "batch-finish.lua", "sandbox.lua",
            ]),
        .target(
            name: "FontScript",
            dependencies: [
                "FontModel", "FontRegistry", "FontRender", "FontSubset", "FontXML", "JSONText",
                "LuaBridge", "LuaPrograms",
            ],
            exclude: ["Checks"]),
        .executableTarget(
            name: "fontshell",
            dependencies: [
                "FontModel", "FontScript", "FontRegistry", "FontRender", "FontSubset", "FontXML", "JSONText", "LuaBridge", "CEditLine",
                "LazyLibraries",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            linkerSettings: releaseLinking()
        ),
        // What every test target shares: the corpus, temporary folders, running programs, the
        // oracles (fontTools, ots-sanitize).
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "FontModelTests", dependencies: ["FontModel", "TestSupport"]),
        .testTarget(name: "FontRenderTests", dependencies: ["FontRender", "FontModel", "TestSupport"], exclude: ["Golden"]),
        .testTarget(name: "FontXMLTests", dependencies: ["FontXML", "FontModel", "TestSupport"]),
        .testTarget(name: "LuaBridgeTests", dependencies: ["LuaBridge", "LuaShim", "CLua", "TestSupport"]),
        .testTarget(name: "FontSubsetTests", dependencies: ["FontSubset", "FontModel", "TestSupport"]),
        .testTarget(name: "FontScriptTests", dependencies: ["FontScript", "LuaBridge", "FontModel", "TestSupport"]),
        .testTarget(name: "FontRegistryTests", dependencies: ["FontRegistry", "FontModel", "JSONText", "TestSupport"]),
        .testTarget(name: "fontshellTests", dependencies: ["fontshell", "FontModel", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)

// libFuzzer targets, one per input surface, built only by Scripts/fuzz (FONTSHELL_FUZZ=1 with
// -sanitize=fuzzer): libFuzzer supplies their main.
if Context.environment["FONTSHELL_FUZZ"] != nil {
    package.targets += [
        .executableTarget(
            name: "fuzz-font", dependencies: ["FontModel", "FontXML"], path: "Fuzz/FuzzFont",
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]),
        .executableTarget(
            name: "fuzz-xml", dependencies: ["FontModel", "FontXML"], path: "Fuzz/FuzzXML",
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]),
        .executableTarget(
            name: "fuzz-lua", dependencies: ["FontScript", "LuaBridge"], path: "Fuzz/FuzzLua",
            exclude: ["lua.dict"], swiftSettings: [.unsafeFlags(["-parse-as-library"])]),
        .executableTarget(
            name: "fuzz-web", dependencies: ["FontModel"], path: "Fuzz/FuzzWeb",
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]),
        .executableTarget(
            name: "fuzz-fea", dependencies: ["FontModel"], path: "Fuzz/FuzzFea",
            exclude: ["fea.dict"], swiftSettings: [.unsafeFlags(["-parse-as-library"])]),
        .executableTarget(
            name: "fuzz-arguments", dependencies: ["FontModel", "FontScript", "FontSubset"], path: "Fuzz/FuzzArguments",
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]),
    ]
}

/// A system library that Linux builds do not link: its headers are found without pkg-config and
/// LazyLibraries loads it on first use, so a process that never shapes text, subsets, renders,
/// edits a line or asks the registry does not load it (nor GLib, Graphite, PCRE and expat behind
/// HarfBuzz). Elsewhere, as usual.
func lazySystemLibrary(_ name: String, pkgConfig: String, providers: [SystemPackageProvider]) -> Target {
    #if os(Linux)
    .systemLibrary(name: name)
    #else
    .systemLibrary(name: name, pkgConfig: pkgConfig, providers: providers)
    #endif
}

// FreeType's headers include each other from their own folder, which pkg-config would give: on
// Linux (no pkg-config for the lazy libraries) every target that may see them is told. A release
// build compiles against the static Swift runtime (as `--static-swift-stdlib` does), so that the
// static Foundation's own libraries are named in our objects for `releaseLinking()`'s link.
#if os(Linux)
for target in package.targets where target.type != .system {
    target.swiftSettings =
        (target.swiftSettings ?? []) + [
            .unsafeFlags(["-Xcc", "-I/usr/include/freetype2"]), .unsafeFlags(["-static-stdlib"], .when(configuration: .release)),
        ]
    target.cSettings = (target.cSettings ?? []) + [.unsafeFlags(["-I/usr/include/freetype2"])]
}
#endif

/// How a Linux release build links fontshell (`swift build -c release`, with or without the
/// README's `--static-swift-stdlib`): a short command is mostly process start, and each of these
/// cuts it (docs/performance.md, "Start-up, third look").
/// - The Swift runtime and Foundation are linked in (`-static-stdlib`): the dynamic ones are 14
///   more libraries to load and bind, which doubled start-up. Dependencies (ArgumentParser) are
///   compiled against the dynamic runtime, and their references resolve to the static libraries.
/// - libstdc++, which the static Swift runtime needs, is linked in: loading the shared one costs
///   1,700 symbol bindings at every start. `Scripts/linker/libstdc++.so` is a linker script
///   naming `libstdc++.a`, found before the shared library because its folder is searched first.
/// - No symbol is exported (the static runtime's link adds `-export-dynamic`; nothing looks ours up).
/// - Relative relocations (47,000) are packed (DT_RELR) when lld is there to link and glibc, 2.36
///   or later, can read them.
func releaseLinking() -> [LinkerSetting] {
    #if os(Linux)
    var flags = ["-static-stdlib", "-L\(Context.packageDirectory)/Scripts/linker", "-Xlinker", "--no-export-dynamic"]
    if glibcReadsPackedRelocations() && onPath("ld.lld") {
        flags += ["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"]
    }
    return [.unsafeFlags(flags, .when(configuration: .release))]
    #else
    return []
    #endif
}

#if os(Linux)
import Glibc

/// glibc 2.36 and later read DT_RELR; older ones refuse to start a program that has it.
func glibcReadsPackedRelocations() -> Bool {
    var buffer = [CChar](repeating: 0, count: 64)
    guard confstr(Int32(_CS_GNU_LIBC_VERSION), &buffer, buffer.count) > 0 else { return false }
    let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    let numbers = text.split(separator: " ").last?.split(separator: ".").compactMap { Int($0) } ?? []
    guard numbers.count >= 2 else { return false }
    return (numbers[0], numbers[1]) >= (2, 36)
}

/// Whether a program of that name is on PATH (the Swift toolchain ships lld beside swiftc).
func onPath(_ program: String) -> Bool {
    guard let path = getenv("PATH") else { return false }
    return String(cString: path).split(separator: ":").contains { access("\($0)/\(program)", X_OK) == 0 }
}
#endif
