// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "GRDBCipher",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "GRDBCipher", targets: ["GRDBCipher"]),
        // For the tests of apps built on GRDBCipher: fast test keys, temporary
        // encrypted databases, and checks that files are encrypted at rest.
        .library(name: "GRDBCipherTesting", targets: ["GRDBCipherTesting"]),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLCipher",
            pkgConfig: "sqlcipher",
            providers: [.apt(["libsqlcipher-dev"]), .brew(["sqlcipher"])]),
        .systemLibrary(
            name: "CLibCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]),
        .target(
            name: "GRDBCipher",
            dependencies: ["CSQLCipher", "CLibCrypto"],
            swiftSettings: [.swiftLanguageMode(.v6)]),
        // Imports Swift Testing and XCTest, both part of the toolchain, each
        // behind `#if canImport`: no third-party dependency.
        .target(
            name: "GRDBCipherTesting",
            dependencies: ["GRDBCipher"],
            swiftSettings: [.swiftLanguageMode(.v6)]),
        // Spawned by the fault-injection tests (a full disk, kill -9); not a product.
        .executableTarget(
            name: "GRDBCipherFaultChild",
            dependencies: ["GRDBCipher"],
            swiftSettings: [.swiftLanguageMode(.v6)]),
        .testTarget(
            name: "GRDBCipherTests",
            dependencies: ["GRDBCipher", "GRDBCipherTesting", "CSQLCipher", "GRDBCipherFaultChild"],
            swiftSettings: [.swiftLanguageMode(.v6)]),
        .testTarget(
            name: "GRDBCipherTestingTests",
            dependencies: ["GRDBCipherTesting", "GRDBCipher"],
            swiftSettings: [.swiftLanguageMode(.v6)]),
    ]
)
