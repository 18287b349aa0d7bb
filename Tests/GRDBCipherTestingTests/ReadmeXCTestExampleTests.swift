import GRDBCipher
import GRDBCipherTesting
import XCTest

/// The README's XCTest example.
// README: xctest
final class NoteStoreTests: XCTestCase {
    func testNotesAreEncrypted() throws {
        let database = try makeTemporaryEncryptedDatabase()   // removed when the test ends
        let store = try NoteStore(path: database.path, configuration: database.configuration)
        try store.add("Call alice@example.com")
        expectEncrypted(database.path, plaintextMarkers: ["alice@example.com"])   // XCTFail on failure
    }
}
// README: end
