// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "FontShell",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "FontModel", targets: ["FontModel"]),
        .executable(name: "fontshell", targets: ["fontshell"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // Pure Swift: reading, editing and writing sfnt fonts and collections.
        .target(name: "FontModel"),
        .executableTarget(
            name: "fontshell",
            dependencies: [
                "FontModel",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "FontModelTests", dependencies: ["FontModel"]),
        .testTarget(name: "fontshellTests", dependencies: ["FontModel"]),
    ],
    swiftLanguageModes: [.v6]
)
