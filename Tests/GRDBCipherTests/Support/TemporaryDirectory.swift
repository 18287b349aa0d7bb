import Foundation

/// A fresh directory for one test, removed when the value goes away.
final class TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("GRDBCipherTests-\(UUID().uuidString)", isDirectory: true)
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

/// Whether the file contains the UTF-8 bytes of `marker`.
func file(_ path: String, contains marker: String) throws -> Bool {
    try fileBytes(path).range(of: Data(marker.utf8)) != nil
}
