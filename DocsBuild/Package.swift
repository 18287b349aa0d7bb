// swift-tools-version:6.2
import PackageDescription

// Builds the DocC catalogs of GRDBCipher (Sources/GRDBCipher/GRDBCipher.docc) and
// of its testing kit (Sources/GRDBCipherTesting/GRDBCipherTesting.docc) with the
// DocC plugin, which the root package does not depend on.
// Run from the repository root with `make docs`.
let package = Package(
    name: "GRDBCipherDocs",
    dependencies: [
        .package(name: "GRDBCipher", path: ".."),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", exact: "1.5.0"),
    ],
    targets: [
        // The plugin documents targets of the package graph: this one only
        // brings GRDBCipher and GRDBCipherTesting into it.
        .target(
            name: "Empty",
            dependencies: [
                .product(name: "GRDBCipher", package: "GRDBCipher"),
                .product(name: "GRDBCipherTesting", package: "GRDBCipher"),
            ],
            path: "Empty"),
    ]
)
