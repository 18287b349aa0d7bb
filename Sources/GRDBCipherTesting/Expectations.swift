import Foundation
import GRDBCipher

// The checks of `EncryptionCheck`, as expectations: a failure is recorded at
// the line of the call, in Swift Testing or XCTest (whichever runs the
// test), and the test goes on. Each returns whether the check passed.

/// Expects the database at `path`, and its `-wal`, `-shm` and `-journal`, to
/// show no plaintext: no SQLite header, none of `plaintextMarkers`. See
/// ``EncryptionCheck/fileIsEncrypted(_:plaintextMarkers:)``.
///
/// ```swift
/// expectEncrypted(database.path, plaintextMarkers: ["alice@example.com"])
/// ```
@discardableResult
public func expectEncrypted(
    _ path: String, plaintextMarkers: [String] = [],
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column) -> Bool
{
    TestFailureReporter.check(at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column)) {
        try EncryptionCheck.fileIsEncrypted(path, plaintextMarkers: plaintextMarkers)
    }
}

/// Expects `configuration` to open the database at `path` and read every
/// page. See ``EncryptionCheck/opens(_:with:)``.
///
/// ```swift
/// expectOpens(database.path, with: database.configuration)
/// ```
@discardableResult
public func expectOpens(
    _ path: String, with configuration: Configuration,
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column) -> Bool
{
    TestFailureReporter.check(at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column)) {
        try EncryptionCheck.opens(path, with: configuration)
    }
}

/// Expects `configuration` to be refused by the database at `path` with
/// `SQLITE_NOTADB`, leaving its files byte for byte as they were. See
/// ``EncryptionCheck/refuses(_:with:)``.
///
/// ```swift
/// expectRefuses(database.path, with: TestKey.insecureRandomRawKey().configuration)
/// ```
@discardableResult
public func expectRefuses(
    _ path: String, with configuration: Configuration,
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column) -> Bool
{
    TestFailureReporter.check(at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column)) {
        try EncryptionCheck.refuses(path, with: configuration)
    }
}

/// Expects a rotation of the database at `path` to have left exactly one
/// valid key, the new one. See ``EncryptionCheck/rotated(_:from:to:)``.
///
/// ```swift
/// expectRotated(database.path, from: oldKey.configuration, to: newKey.configuration)
/// ```
@discardableResult
public func expectRotated(
    _ path: String, from old: Configuration, to new: Configuration,
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column) -> Bool
{
    TestFailureReporter.check(at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column)) {
        try EncryptionCheck.rotated(path, from: old, to: new)
    }
}

/// Expects the `sqlcipher` shell to read the same rows as GRDBCipher for
/// `sql`. See ``EncryptionCheck/sqlcipherShellReads(_:with:sameRowsAs:)``.
///
/// ```swift
/// try expectSQLCipherShellReads(database.path, with: database.key, sameRowsAs: "SELECT * FROM player ORDER BY id")
/// ```
///
/// - throws: When the shell is not installed, what skips the test, with the
///   reason: Swift Testing's cancellation, or `XCTSkip`.
@discardableResult
public func expectSQLCipherShellReads(
    _ path: String, with key: TestKey, sameRowsAs sql: String,
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column) throws -> Bool
{
    try TestFailureReporter.checkOrSkip(at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column)) {
        try EncryptionCheck.sqlcipherShellReads(path, with: key, sameRowsAs: sql)
    }
}

/// Expects the directory at `path` to hold exactly the files named `names`.
/// See ``EncryptionCheck/directory(_:holdsExactly:)``.
///
/// ```swift
/// expectDirectory(directory.path, holdsExactly: ["db.sqlite"])
/// ```
@discardableResult
public func expectDirectory(
    _ path: String, holdsExactly names: some Sequence<String>,
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column) -> Bool
{
    TestFailureReporter.check(at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column)) {
        try EncryptionCheck.directory(path, holdsExactly: names)
    }
}

/// Expects the files of `snapshot` to be as they were. See
/// ``EncryptionCheck/unchanged(since:)``.
///
/// ```swift
/// let before = try FileSnapshot.database(path)
/// ...
/// expectUnchanged(since: before)
/// ```
@discardableResult
public func expectUnchanged(
    since snapshot: FileSnapshot,
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column) -> Bool
{
    TestFailureReporter.check(at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column)) {
        try EncryptionCheck.unchanged(since: snapshot)
    }
}
