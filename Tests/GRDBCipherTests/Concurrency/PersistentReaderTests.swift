import Foundation
import Testing
@testable import GRDBCipher

@Suite struct PersistentReaderTests {
    /// A pool with four rows and persistent readers.
    func persistentPool(_ dir: TemporaryDirectory, readers: Int) throws -> DatabasePool {
        try makePool(dir, rows: 4) {
            $0.persistentReadOnlyConnections = true
            $0.maximumReaderCount = readers
        }
    }

    @Test func aPoolOpensAndKeepsAllItsReaders() throws {
        let dir = try TemporaryDirectory()
        let dbPool = try persistentPool(dir, readers: 3)
        #expect(dbPool.readers.openConnectionCount == 3)
        #expect(try dbPool.read(rowCount) == 4)
        dbPool.releaseMemory()
        #expect(dbPool.readers.openConnectionCount == 3)
    }

    @Test func readersReopenRightAfterAPassphraseChange() throws {
        let dir = try TemporaryDirectory()
        let dbPool = try persistentPool(dir, readers: 2)
        try dbPool.changePassphrase("new pool secret")
        #expect(dbPool.readers.openConnectionCount == 2)
        #expect(try dbPool.read(rowCount) == 4)
        #expect(try dbPool.unsafeRead { db in db.cipherState.derivedKeyAttempt != nil })
    }

    @Test func withoutTheOptionReadersOpenOnDemand() throws {
        let dir = try TemporaryDirectory()
        let dbPool = try makePool(dir, rows: 1) { $0.maximumReaderCount = 3 }
        #expect(dbPool.readers.openConnectionCount == 0)
        _ = try dbPool.read(rowCount)
        #expect(dbPool.readers.openConnectionCount == 1)
        dbPool.releaseMemory()
        #expect(dbPool.readers.openConnectionCount == 0)
    }

    @Test func readersReopenAfterAnInvalidationOrAKeyChangeInsideAWrite() throws {
        let dir = try TemporaryDirectory()
        let dbPool = try persistentPool(dir, readers: 3)
        dbPool.invalidateReadOnlyConnections()
        #expect(waitUntil { dbPool.readers.openConnectionCount == 3 })
        try dbPool.writeWithoutTransaction { db in try db.changePassphrase("changed in a write") }
        #expect(waitUntil { dbPool.readers.openConnectionCount == 3 })
        #expect(try dbPool.read(rowCount) == 4)
    }

    /// Polls `condition` for up to 10 seconds.
    func waitUntil(_ condition: () -> Bool) -> Bool {
        for _ in 0..<1000 {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return condition()
    }
}
