// swift-tools-version:6.1
import PackageDescription

// Builds the DocC catalog of GRDBCipher (Sources/GRDBCipher/GRDBCipher.docc)
// with the DocC plugin, which the root package does not depend on.
// Run from the repository root with `make docs`.
let package = Package(
    name: "GRDBCipherDocs",
    dependencies: [
        .package(name: "GRDBCipher", path: ".."),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", exact: "1.5.0"),
    ],
    targets: [
        // The plugin documents targets of the package graph: this one only
        // brings GRDBCipher into it.
        .target(
            name: "Empty",
            dependencies: [.product(name: "GRDBCipher", package: "GRDBCipher")],
            path: "Empty"),
    ]
)
