import Foundation
import GRDBCipherTesting

/// A fresh directory for one test, removed when the value goes away: the
/// testing kit's, with the spellings these tests use.
typealias TemporaryDirectory = TemporaryDatabaseDirectory

extension TemporaryDatabaseDirectory {
    /// The directory's URL.
    var url: URL { URL(fileURLWithPath: path, isDirectory: true) }

    /// The path of a file in the directory.
    func path(_ name: String) -> String { path(for: name) }
}

/// The bytes of a file.
func fileBytes(_ path: String) throws -> Data {
    try Data(contentsOf: URL(fileURLWithPath: path))
}

/// Whether the file starts with SQLite's plaintext header.
func isPlaintextSQLite(_ path: String) throws -> Bool {
    try fileBytes(path).prefix(16) == Data("SQLite format 3\0".utf8)
}

/// Writes `text` to a new file and returns its path.
func write(_ text: String, to path: String) throws -> String {
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
}
