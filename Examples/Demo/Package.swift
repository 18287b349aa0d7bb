// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "Demo",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "GRDBCipher", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "Demo",
            dependencies: [.product(name: "GRDBCipher", package: "GRDBCipher")],
            swiftSettings: [.swiftLanguageMode(.v6)]),
    ]
)
