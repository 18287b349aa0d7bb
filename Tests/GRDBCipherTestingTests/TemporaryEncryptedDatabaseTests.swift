import Foundation
import GRDBCipher
@testable import GRDBCipherTesting
import Testing

@Suite struct TemporaryEncryptedDatabaseTests {
    @Test(.temporaryEncryptedDatabase)
    func theTraitGivesTheTestADatabaseInADirectoryOfItsOwn() throws {
        let database = try TemporaryEncryptedDatabase.current
        #expect(try database.directory.fileNames().isEmpty)
        #expect((database.path as NSString).deletingLastPathComponent == database.directory.path)
        #expect(database.key.databaseKey.isRawKey)

        let dbQueue = try database.makeQueue()
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE t(a)") }
        expectEncrypted(database.path)
        expectOpens(database.path, with: database.configuration)
    }

    @Test(.temporaryEncryptedDatabase(key: .insecureFastPassphrase("trait key")))
    func theTraitTakesAKey() throws {
        let database = try TemporaryEncryptedDatabase.current
        let dbPool = try database.makePool()
        try dbPool.write { db in try db.execute(sql: "CREATE TABLE t(a)") }
        try dbPool.close()
        expectOpens(database.path, with: TestKey.insecureFastPassphrase("trait key").configuration)
    }

    @Test func theScopeRemovesTheDatabaseAndClosesItsConnections() async throws {
        let trait = TemporaryEncryptedDatabaseTrait.temporaryEncryptedDatabase
        let test = try #require(Test.current)
        let seen = SeenDatabases()
        for _ in 0..<2 {
            try await trait.provideScope(for: test, testCase: Test.Case.current) {
                let database = try TemporaryEncryptedDatabase.current
                let dbPool = try database.makePool()
                try dbPool.write { db in try db.execute(sql: "CREATE TABLE t(a)") }
                seen.append(database, dbPool)
            }
        }
        let (databases, pools) = seen.values
        #expect(databases.count == 2)
        #expect(databases[0].path != databases[1].path, "each scope has a database of its own")
        for (database, dbPool) in zip(databases, pools) {
            #expect(!FileManager.default.fileExists(atPath: database.directory.path), "\(database.directory.path) is left")
            #expect(throws: DatabaseError.self, "the pool is closed") { try dbPool.read { _ in } }
        }
    }

    @Test func aSuiteTraitScopesEachTestCaseNotTheSuite() throws {
        let trait = TemporaryEncryptedDatabaseTrait.temporaryEncryptedDatabase
        let test = try #require(Test.current)
        #expect(trait.isRecursive)
        #expect(trait.scopeProvider(for: test, testCase: nil) == nil)
        #expect(trait.scopeProvider(for: test, testCase: Test.Case.current) != nil)
    }

    @Test func withoutTheTraitThereIsNoCurrentDatabase() throws {
        let message = try failureMessage { _ = try TemporaryEncryptedDatabase.current }
        #expect(message?.contains("@Test(.temporaryEncryptedDatabase)") == true, "\(message ?? "no failure")")
    }

    @Test func removeClosesWhatItMadeAndDeletesTheDirectory() throws {
        let database = try TemporaryEncryptedDatabase()
        let dbQueue = try database.makeQueue()
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE t(a)") }
        #expect(FileManager.default.fileExists(atPath: database.path))
        database.remove()
        database.remove()
        #expect(!FileManager.default.fileExists(atPath: database.directory.path))
        #expect(throws: DatabaseError.self) { try dbQueue.read { _ in } }
    }

    @Test func aTemporaryDirectoryIsPrivateAndRemovedAtTheEnd() throws {
        var path = ""
        do {
            let directory = try TemporaryDatabaseDirectory(prefix: "kit-test")
            path = directory.path
            let permissions = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber
            #expect(permissions?.intValue == 0o700)
            #expect((path as NSString).lastPathComponent.hasPrefix("kit-test-"))
            try Data("x".utf8).write(to: URL(fileURLWithPath: directory.path(for: "file")))
            #expect(try directory.fileNames() == ["file"])
        }
        #expect(!FileManager.default.fileExists(atPath: path), "the end of the value removes the directory")
    }
}

/// The databases and pools that scopes handed out, kept for checks after the scopes.
private final class SeenDatabases: @unchecked Sendable {   // safe: only touched with `lock` held
    private let lock = NSLock()
    private var databases: [TemporaryEncryptedDatabase] = []
    private var pools: [DatabasePool] = []

    func append(_ database: TemporaryEncryptedDatabase, _ dbPool: DatabasePool) {
        lock.withLock {
            databases.append(database)
            pools.append(dbPool)
        }
    }

    var values: ([TemporaryEncryptedDatabase], [DatabasePool]) {
        lock.withLock { (databases, pools) }
    }
}
