// swift-tools-version:6.2
import PackageDescription

// A JSON to-do server on an encrypted GRDBCipher pool (Hummingbird 2). A separate
// package, so that the library's users never resolve Hummingbird and SwiftNIO.
let package = Package(
    name: "TodoServer",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "TodoServer", targets: ["TodoServer"]),
    ],
    dependencies: [
        .package(name: "GRDBCipher", path: "../.."),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", exact: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", exact: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log.git", exact: "1.16.2"),
        // Hummingbird's own dependencies, named for the connection guard (a NIO channel handler).
        .package(url: "https://github.com/apple/swift-nio.git", exact: "2.101.3"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", exact: "1.35.2"),
    ],
    targets: [
        // The application: configuration, database, routes. Tests drive it directly.
        .target(
            name: "TodoServerApp",
            dependencies: [
                .product(name: "GRDBCipher", package: "GRDBCipher"),
                .product(name: "GRDBCipherS3", package: "GRDBCipher"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]),
        // The thin executable: reads the environment, runs the application.
        .executableTarget(
            name: "TodoServer",
            dependencies: ["TodoServerApp"],
            swiftSettings: [.swiftLanguageMode(.v6)]),
        .testTarget(
            name: "TodoServerTests",
            dependencies: [
                "TodoServerApp",
                "TodoServer",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "GRDBCipherTesting", package: "GRDBCipher"),
                .product(name: "GRDBCipherS3", package: "GRDBCipher"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]),
    ]
)
