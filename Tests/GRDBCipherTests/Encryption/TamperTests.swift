import Foundation
import Testing
@testable import GRDBCipher

@Suite struct TamperTests {
    /// An encrypted file with table `a` on page 2 and table `b` on the pages after it.
    func makeFile(_ path: String) throws {
        let dbQueue = try DatabaseQueue(path: path, configuration: keyed("k"))
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE a (value TEXT); CREATE TABLE b (value TEXT)")
            try db.execute(sql: "INSERT INTO a VALUES ('on page 2')")
            for index in 0..<300 {
                try db.execute(sql: "INSERT INTO b VALUES (?)", arguments: ["row \(index) of b, on later pages"])
            }
        }
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT rootpage FROM sqlite_master WHERE name = 'a'") } == 2)
        try dbQueue.close()
    }

    @Test func aFlippedByteInPage2FailsItsReadsAndTheIntegrityCheckNamesIt() throws {
        let dir = try TemporaryDirectory()
        let original = dir.path("original.sqlite")
        try makeFile(original)
        let copy = dir.path("copy.sqlite")
        var bytes = try fileBytes(original)
        bytes[4096 + 200] ^= 0x01
        try bytes.write(to: URL(fileURLWithPath: copy))

        let dbQueue = try DatabaseQueue(path: copy, configuration: keyed("k"))
        let error = #expect(throws: DatabaseError.self) {
            try dbQueue.read { try String.fetchAll($0, sql: "SELECT value FROM a") }
        }
        #expect(error?.resultCode == .SQLITE_CORRUPT)
        #expect(error?.hint?.contains("page failed authentication") == true)
        // Other pages are unaffected.
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM b") } == 300)

        let failures = try dbQueue.cipherIntegrityCheck()
        #expect(failures.map(\.pageNumber) == [2])
        #expect(failures.first?.message.contains("page 2") == true)
        #expect(try FileManager.default.attributesOfItem(atPath: copy)[.size] as? Int == bytes.count)

        // A pool reports the same.
        let dbPool = try DatabasePool(path: copy, configuration: keyed("k"))
        #expect(try dbPool.cipherIntegrityCheck().map(\.pageNumber) == [2])
    }

    @Test func anUntouchedFileReportsNoFailure() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        try makeFile(path)
        #expect(try DatabaseQueue(path: path, configuration: keyed("k")).cipherIntegrityCheck() == [])
        #expect(try DatabasePool(path: path, configuration: keyed("k")).cipherIntegrityCheck() == [])
    }

    @Test func aPlaintextDatabaseHasNoCipherIntegrityToCheck() throws {
        let error = #expect(throws: DatabaseError.self) { try DatabaseQueue().cipherIntegrityCheck() }
        #expect(error?.resultCode == .SQLITE_MISUSE)
    }
}
