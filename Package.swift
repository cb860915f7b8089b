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
        .systemLibrary(name: "CBrotli", pkgConfig: "libbrotlienc", providers: [.apt(["libbrotli-dev"]), .brew(["brotli"])]),
        .target(name: "FontModel", dependencies: ["CZlib", "CBrotli"]),
        // System libraries and the C side of the Lua bridge.
        .systemLibrary(name: "CLua", pkgConfig: "lua5.4", providers: [.apt(["liblua5.4-dev"]), .brew(["lua"])]),
        .systemLibrary(name: "CEditLine", pkgConfig: "libedit", providers: [.apt(["libedit-dev"]), .brew(["libedit"])]),
        lazySystemLibrary("CFontconfig", pkgConfig: "fontconfig", providers: [.apt(["libfontconfig-dev"]), .brew(["fontconfig"])]),
        .systemLibrary(name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"]), .brew(["freetype"])]),
        lazySystemLibrary("CHarfBuzz", pkgConfig: "harfbuzz", providers: [.apt(["libharfbuzz-dev"]), .brew(["harfbuzz"])]),
        lazySystemLibrary("CHarfBuzzSubset", pkgConfig: "harfbuzz-subset", providers: [.apt(["libharfbuzz-dev"]), .brew(["harfbuzz"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"]), .brew(["libpng"])]),
        .target(name: "LuaShim", dependencies: ["CLua"]),
        // libpng reports errors by longjmp: the setjmp stays in C.
        .target(name: "PNGShim", dependencies: ["CPNG"]),
        // Previews: FreeType rasterizes, HarfBuzz shapes, libpng writes; labels, sheets, diffs,
        // styles; pictures in the terminal (zlib for kitty's compressed transfers).
        .target(name: "FontRender", dependencies: ["FontModel", "CFreeType", "CHarfBuzz", "LazyLibraries", "PNGShim", "CZlib"]),
        // HarfBuzz, its subsetter and fontconfig, loaded on their first call (Linux, where they
        // are not linked: LazyLibraries.h says why and how).
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
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
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
/// LazyLibraries loads it on first use, so a process that never shapes text, subsets or asks the
/// registry does not load it (nor GLib, Graphite, PCRE and expat behind it). Elsewhere, as usual.
func lazySystemLibrary(_ name: String, pkgConfig: String, providers: [SystemPackageProvider]) -> Target {
    #if os(Linux)
    .systemLibrary(name: name)
    #else
    .systemLibrary(name: name, pkgConfig: pkgConfig, providers: providers)
    #endif
}
