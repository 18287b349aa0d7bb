import Foundation
import Testing
@testable import GRDBCipher

@Suite struct ObservationEncryptionTests {
    @Test func queueObserversSurviveAPassphraseChangeAndHearNothingOfIt() throws {
        let dir = try TemporaryDirectory()
        let dbQueue = try makeObservedQueue(dir)
        let observer = RecordingObserver()
        dbQueue.add(transactionObserver: observer)
        let changes = LockedValue(0)
        let cancellable = DatabaseRegionObservation(tracking: Table("player"))
            .start(in: dbQueue, onError: { _ in }, onChange: { _ in changes.withLock { $0 += 1 } })

        try dbQueue.changePassphrase("rotated passphrase")
        #expect(observer.log.isEmpty, "the rotation's own transaction is not told")
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (id) VALUES (1)") }
        #expect(observer.log == ["insert player 1", "willCommit", "didCommit"])
        #expect(changes.withLock { $0 } == 1)
        withExtendedLifetime(cancellable) {}

        try dbQueue.close()
        let reopened = try DatabaseQueue(path: dir.path("db.sqlite"), configuration: keyed("rotated passphrase"))
        #expect(try reopened.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 1)
    }

    @Test func vetoingObserverDoesNotFailAPassphraseChange() throws {
        let dir = try TemporaryDirectory()
        let dbQueue = try makeObservedQueue(dir)
        let observer = RecordingObserver()
        observer.commitError = ObserverVeto()
        dbQueue.add(transactionObserver: observer)
        try dbQueue.changePassphrase("rotated passphrase")
        try dbQueue.close()
        let reopened = try DatabaseQueue(path: dir.path("db.sqlite"), configuration: keyed("rotated passphrase"))
        #expect(try reopened.read { db in try db.tableExists("player") })
    }

    @Test func poolObservationKeepsDeliveringAfterAPassphraseChange() async throws {
        let dir = try TemporaryDirectory()
        let dbPool = try makeObservedPool(dir)
        let changes = LockedValue(0)
        let cancellable = DatabaseRegionObservation(tracking: Table("player"))
            .start(in: dbPool, onError: { _ in }, onChange: { _ in changes.withLock { $0 += 1 } })
        try await dbPool.write { db in try db.execute(sql: "INSERT INTO player (id) VALUES (1)") }
        try await dbPool.changePassphrase("rotated passphrase")
        #expect(changes.withLock { $0 } == 1)
        try await dbPool.write { db in try db.execute(sql: "INSERT INTO player (id) VALUES (2)") }
        #expect(changes.withLock { $0 } == 2)
        withExtendedLifetime(cancellable) {}
    }

    @Test func observersSurviveTheReopeningOfAFailedRotation() throws {
        // A rotation that SQLCipher fails (another connection holds the
        // write lock) closes and reopens the writer connection: the
        // observers' hooks go on the new connection.
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        _ = try makeObservedQueue(dir)
        var config = keyed("observation-passphrase")
        config.busyMode = .immediateError
        let dbQueue = try DatabaseQueue(path: path, configuration: config)
        let observer = RecordingObserver()
        dbQueue.add(transactionObserver: observer)
        let other = try DatabaseQueue(path: path, configuration: keyed("observation-passphrase"))
        try other.inDatabase { otherDB in
            try otherDB.beginTransaction(.immediate)
            #expect(throws: DatabaseError.self) {
                try dbQueue.inDatabase { (db: Database) throws in
                    try db.inTransaction(.deferred) {
                        try db.changePassphrase("new")
                        return .commit
                    }
                }
            }
            try otherDB.rollback()
        }
        #expect(!observer.log.contains("didCommit"), "the failed rotation committed nothing")
        observer.log.removeAll()
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (id) VALUES (1)") }
        #expect(observer.log == ["insert player 1", "willCommit", "didCommit"])
    }

    @Test func reopenedConnectionTellsTheRollbackOfItsTransaction() throws {
        let dir = try TemporaryDirectory()
        let dbQueue = try makeObservedQueue(dir)
        let observer = RecordingObserver()
        dbQueue.add(transactionObserver: observer)
        try dbQueue.inDatabase { (db: Database) throws in
            try db.execute(sql: "BEGIN IMMEDIATE TRANSACTION")
            try db.execute(sql: "INSERT INTO player (id) VALUES (1)")
            try db.reopen()
            #expect(!db.isInsideTransaction)
            try db.execute(sql: "INSERT INTO player (id) VALUES (2)")
        }
        #expect(observer.log == ["insert player 1", "didRollback", "insert player 2", "willCommit", "didCommit"])
    }

    @Test func exportAndBackupTellObserversNothing() throws {
        let dir = try TemporaryDirectory()
        let dbQueue = try makeObservedQueue(dir)
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (id) VALUES (1), (2)") }
        let source = RecordingObserver()
        source.commitError = ObserverVeto()
        dbQueue.add(transactionObserver: source)
        let sourceChanges = LockedValue(0)
        let cancellable = DatabaseRegionObservation(tracking: .fullDatabase)
            .start(in: dbQueue, onError: { _ in }, onChange: { _ in sourceChanges.withLock { $0 += 1 } })

        try dbQueue.export(to: dir.path("export.sqlite"), encryption: .encrypted(key: .passphrase("other")))
        try dbQueue.export(to: dir.path("clear.sqlite"), encryption: .plaintext)

        let destination = try DatabaseQueue(path: dir.path("backup.sqlite"), configuration: keyed("observation-passphrase"))
        let destinationObserver = RecordingObserver()
        destination.add(transactionObserver: destinationObserver)
        let destinationChanges = LockedValue(0)
        let destinationCancellable = DatabaseRegionObservation(tracking: .fullDatabase)
            .start(in: destination, onError: { _ in }, onChange: { _ in destinationChanges.withLock { $0 += 1 } })
        try dbQueue.backup(to: destination)

        #expect(source.log.isEmpty)
        #expect(destinationObserver.log.isEmpty)
        #expect(sourceChanges.withLock { $0 } == 0)
        #expect(destinationChanges.withLock { $0 } == 0)
        #expect(try destination.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 2)
        withExtendedLifetime((cancellable, destinationCancellable)) {}
    }
}
