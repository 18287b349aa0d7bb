// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "GRDBCipher",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "GRDBCipher", targets: ["GRDBCipher"]),
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
        // Spawned by the fault-injection tests (a full disk, kill -9); not a product.
        .executableTarget(
            name: "GRDBCipherFaultChild",
            dependencies: ["GRDBCipher"],
            swiftSettings: [.swiftLanguageMode(.v6)]),
        .testTarget(
            name: "GRDBCipherTests",
            dependencies: ["GRDBCipher", "CSQLCipher", "GRDBCipherFaultChild"],
            swiftSettings: [.swiftLanguageMode(.v6)]),
    ]
)
