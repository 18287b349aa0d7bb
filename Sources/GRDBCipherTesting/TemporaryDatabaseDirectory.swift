import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A new, empty directory of its own (mode `0700`) under the system's
/// temporary directory, for the database files of one test. ``remove()``, or
/// the end of the value, deletes it with everything in it.
///
/// ```swift
/// let directory = try TemporaryDatabaseDirectory()
/// defer { directory.remove() }
/// let path = directory.path(for: "db.sqlite")
/// ```
///
/// Keep the value until the test ends (`defer { directory.remove() }` does):
/// an optimized build may release a value after its last use.
public final class TemporaryDatabaseDirectory: Sendable, CustomStringConvertible {
    /// The directory.
    public let path: String

    /// Creates the directory, named `<prefix>-<random>`.
    ///
    /// - throws: A `CocoaError` if the directory cannot be created.
    public init(prefix: String = "GRDBCipherTesting") throws {
        let template = (NSTemporaryDirectory() as NSString).appendingPathComponent("\(prefix)-XXXXXX")
        var bytes = Array(template.utf8CString)
        // mkdtemp: a unique name, created atomically, readable by the owner only.
        guard let created = mkdtemp(&bytes) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: template])
        }
        path = String(cString: created)
    }

    deinit {
        remove()
    }

    /// The path of the file `name` in the directory.
    public func path(for name: String) -> String {
        (path as NSString).appendingPathComponent(name)
    }

    /// The names of the entries of the directory, hidden ones included, sorted.
    ///
    /// - throws: A `CocoaError` if the directory cannot be read.
    public func fileNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path).sorted()
    }

    /// Deletes the directory and everything in it. Does nothing the second time.
    public func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// The path.
    public var description: String { path }
}
