import GRDBCipher

/// What `grdbcipher --version` prints: the tool and the linked library.
enum ToolVersion {
    static let tool = "1.0.0"

    static var description: String { "grdbcipher \(tool) (\(libraryDescription))" }

    /// The linked library: "SQLCipher 4.6.1 community, SQLite 3.46.1".
    static var libraryDescription: String {
        "SQLCipher \(SQLCipherLibrary.cipherVersion ?? "missing"), SQLite \(SQLCipherLibrary.sqliteVersion)"
    }
}
