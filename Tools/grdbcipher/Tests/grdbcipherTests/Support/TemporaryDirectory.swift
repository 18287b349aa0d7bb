import Foundation

/// A fresh directory for one test, removed when the value goes away.
final class TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("grdbcipherToolTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// The path of a file in the directory.
    func path(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }

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
