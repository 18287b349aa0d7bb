// swift-tools-version:6.2
//
// Observation workloads, and the benchmark package's workloads (whose source files are linked
// into Workloads/), run by GRDB 7.10 and by GRDBCipher from the same source (only the import
// differs), on the same SQLCipher: `make bench-observation`, `make bench-grdb` (and `make bench`).
//
// GRDB links the system SQLite; the runner preloads libsqlcipher.so so that GRDB's sqlite3_*
// calls go to SQLCipher, and GRDB keys its connections with `PRAGMA key`. Each side is its own
// executable (both libraries export the same C symbols); both compile `Workloads/` through a
// symbolic link in their target's folder; the GRDBCipher side defines GRDBCIPHER, the GRDB side
// SIDE_BY_SIDE_GRDB (for the benchmark package's files).
// A separate package keeps GRDB out of the benchmark package and the root package.
import PackageDescription

let package = Package(
    name: "SideBySide",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(name: "GRDBCipher", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "SideBySideGRDB",
            dependencies: [.product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: [.swiftLanguageMode(.v6), .define("SIDE_BY_SIDE_GRDB")]),
        .executableTarget(
            name: "SideBySideGRDBCipher",
            dependencies: [.product(name: "GRDBCipher", package: "GRDBCipher")],
            swiftSettings: [.swiftLanguageMode(.v6), .define("GRDBCIPHER")]),
    ]
)
