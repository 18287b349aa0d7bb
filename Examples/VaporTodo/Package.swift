// swift-tools-version:6.2
import PackageDescription

// A JSON to-do API on an encrypted GRDBCipher pool (Vapor 4). A separate package,
// so that the library's users never resolve Vapor and SwiftNIO.
let package = Package(
    name: "VaporTodo",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "VaporTodo", targets: ["VaporTodo"]),
    ],
    dependencies: [
        .package(name: "GRDBCipher", path: "../.."),
        .package(url: "https://github.com/vapor/vapor.git", from: "4.122.3"),
    ],
    targets: [
        // The application: `configure(_:)`, the pool in `app.grdb`, the routes. Tests drive it directly.
        .target(
            name: "VaporTodoApp",
            dependencies: [
                .product(name: "GRDBCipher", package: "GRDBCipher"),
                .product(name: "Vapor", package: "vapor"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]),
        // The thin executable: Vapor's entry point, with exit statuses for boot failures.
        .executableTarget(
            name: "VaporTodo",
            dependencies: [
                "VaporTodoApp",
                .product(name: "Vapor", package: "vapor"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]),
        .testTarget(
            name: "VaporTodoTests",
            dependencies: [
                "VaporTodoApp",
                // Built for the process tests, which run the binary.
                "VaporTodo",
                .product(name: "VaporTesting", package: "vapor"),
                .product(name: "GRDBCipher", package: "GRDBCipher"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]),
    ]
)
