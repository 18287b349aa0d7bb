// swift-tools-version:6.2
//
// The differential compatibility harness: the same programs, built once against GRDB 7.10 and
// once against GRDBCipher, print transcripts that `./run` compares. Not a dependency of the
// root package, and not part of `make test`: `make compat` runs it, in CI too. CompatGenerator
// writes the cases of the differential check (Generated/) before the two sides are built.
//
// GRDB links the system SQLite and GRDBCipher links SQLCipher; both export the sqlite3_*
// symbols, so each side is its own executable. Both executables compile the files of
// `Programs/` (reached through a symbolic link in each target's folder); the GRDBCipher side
// defines GRDBCIPHER, which switches the import.
import PackageDescription

let package = Package(
    name: "Compat",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(name: "GRDBCipher", path: ".."),
    ],
    targets: [
        .executableTarget(
            name: "CompatGRDB",
            dependencies: [.product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: [.swiftLanguageMode(.v6)]),
        .executableTarget(
            name: "CompatGRDBCipher",
            dependencies: [.product(name: "GRDBCipher", package: "GRDBCipher")],
            swiftSettings: [.swiftLanguageMode(.v6), .define("GRDBCIPHER")]),
        // Writes the cases of the differential check into Generated/ (see README.md).
        .executableTarget(
            name: "CompatGenerator",
            swiftSettings: [.swiftLanguageMode(.v6)]),
    ]
)
