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
        // A replica store in S3-compatible object storage. A product of its own, so that
        // apps that do not replicate to S3 do not link FoundationNetworking (and libcurl).
        .library(name: "GRDBCipherS3", targets: ["GRDBCipherS3"]),
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
        // FoundationNetworking's URLSession and FoundationXML's parser, both part of the
        // toolchain; SigV4 with libcrypto through the library.
        .target(
            name: "GRDBCipherS3",
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
        // Against a real S3 server: `rclone serve s3` on loopback (scripts/install-deps).
        .testTarget(
            name: "GRDBCipherS3Tests",
            dependencies: ["GRDBCipherS3", "GRDBCipher", "GRDBCipherTesting"],
            swiftSettings: [.swiftLanguageMode(.v6)]),
        .testTarget(
            name: "GRDBCipherTestingTests",
            dependencies: ["GRDBCipherTesting", "GRDBCipher", "GRDBCipherS3"],
            swiftSettings: [.swiftLanguageMode(.v6)]),
    ]
)
