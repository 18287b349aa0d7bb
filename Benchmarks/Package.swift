// swift-tools-version:6.2
import PackageDescription

// GRDBCipher against the raw SQLite C API, on the same encrypted files.
// Run from the repository root with `make bench`.
let package = Package(
    name: "GRDBCipherBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "GRDBCipher", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // The raw C baseline links SQLCipher directly, like the root's CSQLCipher.
        .systemLibrary(
            name: "CSQLCipherRaw",
            pkgConfig: "sqlcipher",
            providers: [.apt(["libsqlcipher-dev"]), .brew(["sqlcipher"])]),
        .target(
            name: "BenchmarkFixtures",
            dependencies: ["CSQLCipherRaw", .product(name: "GRDBCipher", package: "GRDBCipher")],
            swiftSettings: [.swiftLanguageMode(.v6)]),
        .executableTarget(
            name: "GRDBCipherBenchmarks",
            dependencies: [
                "BenchmarkFixtures",
                "CSQLCipherRaw",
                .product(name: "GRDBCipher", package: "GRDBCipher"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/GRDBCipherBenchmarks",
            swiftSettings: [.swiftLanguageMode(.v6)],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        .executableTarget(
            name: "InstructionCounts",
            dependencies: ["BenchmarkFixtures", .product(name: "GRDBCipher", package: "GRDBCipher")],
            swiftSettings: [.swiftLanguageMode(.v6)]),
        // Key rotation in place against copy and swap: `make bench-rotation`.
        .executableTarget(
            name: "RotationCost",
            dependencies: [.product(name: "GRDBCipher", package: "GRDBCipher")],
            swiftSettings: [.swiftLanguageMode(.v6)]),
        // Key envelopes: rewrap and open costs, `make bench-envelope`.
        .systemLibrary(name: "CLibCryptoRaw", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .executableTarget(
            name: "EnvelopeCost",
            dependencies: ["CLibCryptoRaw", .product(name: "GRDBCipher", package: "GRDBCipher")],
            swiftSettings: [.swiftLanguageMode(.v6)]),
        // Replication: throughput on and off, lag, restore time: `make bench-replication`.
        .executableTarget(
            name: "ReplicationCost",
            dependencies: [.product(name: "GRDBCipher", package: "GRDBCipher")],
            swiftSettings: [.swiftLanguageMode(.v6)]),
        // The example server's statements through the C API, encrypted and not:
        // the floor of its encryption cost (Examples/TodoServer/README.md).
        .executableTarget(
            name: "ServerFloor",
            dependencies: ["CSQLCipherRaw"],
            swiftSettings: [.swiftLanguageMode(.v6)]),
        .executableTarget(
            name: "BenchReport",
            dependencies: ["CSQLCipherRaw"],
            swiftSettings: [.swiftLanguageMode(.v6)]),
    ]
)
