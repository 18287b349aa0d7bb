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

/// Whether the file contains the UTF-8 bytes of `marker`.
func file(_ path: String, contains marker: String) throws -> Bool {
    try fileBytes(path).range(of: Data(marker.utf8)) != nil
}
