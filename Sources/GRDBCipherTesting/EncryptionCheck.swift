import Foundation
import GRDBCipher

/// Checks of what an app leaves on disk, that throw a ``Failure`` saying what
/// they found: the file is encrypted, a key opens it, another is refused and
/// changes nothing, a rotation left exactly one key, the `sqlcipher` shell
/// reads the same rows, a directory holds the expected files.
///
/// They work in any test framework, or none: a thrown failure fails the test.
/// The `expect…` functions (``expectEncrypted(_:plaintextMarkers:fileID:filePath:line:column:)``
/// and the others) run the same checks and record a failure at the line that
/// calls them, in Swift Testing or XCTest, and let the test go on.
///
/// ```swift
/// try EncryptionCheck.fileIsEncrypted(path, plaintextMarkers: ["alice@example.com"])
/// try EncryptionCheck.refuses(path, with: TestKey.insecureRandomRawKey().configuration)
/// ```
///
/// No key appears in a failure message.
public enum EncryptionCheck {
    /// A check that failed, and what it found.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        /// What the check expected and what it found.
        public let message: String

        /// A failure with this message.
        public init(_ message: String) {
            self.message = message
        }

        /// The message.
        public var description: String { message }
    }

    /// A check that cannot run here, and why: the `sqlcipher` shell is not
    /// installed. The `expect…` functions skip the test with the reason.
    public struct Unavailable: Error, CustomStringConvertible, Sendable {
        /// Why the check cannot run, and how to make it run.
        public let reason: String

        /// An unavailable check, for this reason.
        public init(reason: String) {
            self.reason = reason
        }

        /// The reason.
        public var description: String { reason }
    }

    /// The bytes at the start of every plaintext SQLite database.
    static let sqliteHeader = Data("SQLite format 3\0".utf8)

    /// The file name of `path`, as failure messages show it.
    static func name(_ path: String) -> String {
        (path as NSString).lastPathComponent
    }
}
