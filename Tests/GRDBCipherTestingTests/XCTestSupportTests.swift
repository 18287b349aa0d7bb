import Foundation
import GRDBCipher
@testable import GRDBCipherTesting
import XCTest

/// The kit under XCTest: the fixture's teardown, failures recorded with
/// `XCTFail` at the line of the call, and skips.
final class XCTestSupportTests: XCTestCase {
    /// The failures recorded while `capturesFailures` is set, instead of failing the test.
    private var captured: [(description: String, file: String, line: Int)] = []
    private var capturesFailures = false

    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        if capturesFailures {
            captured.append((description, filePath, lineNumber))
        } else {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
    }

    func testTheDatabaseIsRemovedWhenTheTestEnds() throws {
        var directoryPath = ""
        // Teardown blocks run last first: this one runs after the fixture's.
        addTeardownBlock {
            XCTAssertFalse(FileManager.default.fileExists(atPath: directoryPath), "\(directoryPath) is left")
        }
        let database = try makeTemporaryEncryptedDatabase()
        directoryPath = database.directory.path
        let dbQueue = try database.makeQueue()
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE t(a)") }
        XCTAssertTrue(expectEncrypted(database.path))
        XCTAssertTrue(expectOpens(database.path, with: database.configuration))
    }

    func testAFailureIsRecordedAtTheLineOfTheCall() throws {
        let directory = try TemporaryDatabaseDirectory()
        defer { directory.remove() }
        let path = directory.path(for: "plain.sqlite")
        try writeNote(at: path)

        capturesFailures = true
        let line = #line + 1
        let passed = expectEncrypted(path, plaintextMarkers: [plaintextMarker])
        capturesFailures = false

        XCTAssertFalse(passed)
        XCTAssertEqual(captured.count, 1)
        XCTAssertEqual(captured.first?.line, line)
        XCTAssertEqual(captured.first?.file, #filePath)
        XCTAssertTrue(captured.first?.description.contains("plain.sqlite holds the marker \"\(plaintextMarker)\"") == true,
                      captured.first?.description ?? "no failure")
    }

    func testACheckThatCannotRunSkipsTheTestWithItsReason() throws {
        let site = CallSite(fileID: #fileID, filePath: #filePath, line: #line, column: #column)
        XCTAssertThrowsError(try TestFailureReporter.checkOrSkip(at: site) {
            throw EncryptionCheck.Unavailable(reason: "the sqlcipher shell is not installed")
        }) { error in
            XCTAssertTrue(error is XCTSkip, "\(error)")
            XCTAssertTrue("\(error)".contains("the sqlcipher shell is not installed"), "\(error)")
        }
    }
}
