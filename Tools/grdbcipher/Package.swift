// swift-tools-version:6.2
import PackageDescription

// The operators' command-line tool for encrypted database files. A separate
// package, so that the library's users never resolve swift-argument-parser.
let package = Package(
    name: "grdbcipher",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "grdbcipher", targets: ["grdbcipher"]),
    ],
    dependencies: [
        .package(name: "GRDBCipher", path: "../.."),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
    ],
    targets: [
        .executableTarget(
            name: "grdbcipher",
            dependencies: [
                .product(name: "GRDBCipher", package: "GRDBCipher"),
                .product(name: "GRDBCipherS3", package: "GRDBCipher"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]),
        // Runs the built `grdbcipher` binary as a process, on real files,
        // checked with the library's testing kit.
        .testTarget(
            name: "grdbcipherTests",
            dependencies: [
                "grdbcipher",
                .product(name: "GRDBCipherTesting", package: "GRDBCipher"),
                .product(name: "GRDBCipherS3", package: "GRDBCipher"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]),
    ]
)
