import Foundation
import Testing
@testable import GRDBCipher

@Suite struct TransactionObserverTests {
    // MARK: - Event order

    @Test func autocommitStatementIsToldChangeThenCommit() throws {
        let dir = try TemporaryDirectory()
        let dbQueue = try makeObservedQueue(dir)
        let observer = RecordingObserver()
        dbQueue.add(transactionObserver: observer)
        try dbQueue.writeWithoutTransaction { (db: Database) throws in
            try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur')")
        }
        #expect(observer.log == ["insert player 1", "willCommit", "didCommit"])
    }

    @Test func explicitTransactionTellsEachChangeThenTheCommit() throws {
        let dir = try TemporaryDirectory()
        let dbQueue = try makeObservedQueue(dir)
        let observer = RecordingObserver()
        dbQueue.add(transactionObserver: observer)
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: "INSERT INTO team (id, name) VALUES (1, 'Reds')")
            try db.execute(sql: "INSERT INTO player (id, teamId, name) VALUES (2, 1, 'Arthur')")
            #expect(observer.log == ["insert team 1", "insert player 2"], "changes are told as they happen")
            try db.execute(sql: "UPDATE player SET score = 10 WHERE id = 2")
        }
        #expect(observer.log == ["insert team 1", "insert player 2", "update player 2", "willCommit", "didCommit"])
        #expect(observer.events.map(\.databaseName) == ["main", "main", "main"])
    }

    @Test func rollbackIsToldAfterTheChanges() throws {
        let dir = try TemporaryDirectory()
        let dbQueue = try makeObservedQueue(dir)
        let observer = RecordingObserver()
        dbQueue.add(transactionObserver: observer)
        try dbQueue.inDatabase { (db: Database) throws in
            try db.inTransaction {
                try db.execute(sql: "INSERT INTO player (id) VALUES (1)")
                return .rollback
            }
        }
        #expect(observer.log == ["insert player 1", "didRollback"])
    }

    @Test func failedWriteRollsBackAndIsTold() throws {
        let dir = try TemporaryDirectory()
        let dbQueue = try makeObservedQueue(dir)
        let observer = RecordingObserver()
        dbQueue.add(transactionObserver: observer)
        struct Failure: Error {}
        #expect(throws: Failure.self) {
            try dbQueue.write { (db: Database) throws in
                try db.execute(sql: "INSERT INTO player (id) VALUES (1)")
                throw Failure()
            }
        }
        #expect(observer.log == ["insert player 1", "didRollback"])
    }

    @Test func emptyTransactionIsToldAsACommit() throws {
        let dir = try TemporaryDirectory()
        let dbQueue = try makeObservedQueue(dir)
        let observer = RecordingObserver()
        dbQueue.add(transactionObserver: observer)
        try dbQueue.inDatabase { (db: Database) throws in
            try db.inTransaction(.deferred) { .commit }
        }
        #expect(observer.log == ["willCommit", "didCommit"])
    }

    @Test func observerOfTheNextTransactionThatCancelsAnImplicitCommitThrowsItsError() throws {
        struct Refusal: Error {}
        let dir = try TemporaryDirectory()
        let dbQueue = try makeObservedQueue(dir)
        let observer = RecordingObserver()
        observer.commitError = Refusal()
        // Released by the failed commit it cancels: its error must still
        // be the statement's.
        dbQueue.add(transactionObserver: observer, extent: .nextTransaction)
        try dbQueue.writeWithoutTransaction { (db: Database) throws in
            #expect(throws: Refusal.self) { try db.execute(sql: "CREATE TABLE t(a)") }
            #expect(try !db.tableExists("t"))
            // The next failure is SQLite's own, not the observer's again.
            #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO missing VALUES (1)") }
        }
        #expect(observer.log == ["willCommit", "didRollback"])
    }

    @Test func readsAreNotTold() throws {
        let dir = try TemporaryDirectory()
        let dbQueue = try makeObservedQueue(dir)
        let observer = RecordingObserver()
        dbQueue.add(transactionObserver: observer)
        try dbQueue.read { (db: Database) throws in
            _ = try Row.fetchAll(db, sql: "SELECT * FROM player")
        }
        try dbQueue.writeWithoutTransaction { (db: Database) throws in
            _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")
        }
        #expect(observer.log.isEmpty)
    }

    // MARK: - Savepoints

    @Test func savepointChangesAreBufferedUntilReleasedAndDroppedWhenRolledBack() throws {
        let dir = try TemporaryDirectory()
        let dbQueue = try makeObservedQueue(dir)
        let observer = RecordingObserver()
        dbQueue.add(transactionObserver: observer)
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: "INSERT INTO player (id) VALUES (1)")
            try db.inSavepoint {
                try db.execute(sql: "INSERT INTO player (id) VALUES (2)")
                return .rollback
            }
            try db.inSavepoint {
                try db.execute(sql: "INSERT INTO player (id) VALUES (3)")
                try db.inSavepoint {
                    try db.execute(sql: "INSERT INTO player (id) VALUES (4)")
                    return .rollback
                }
                try db.execute(sql: "INSERT INTO player (id) VALUES (5)")
                #expect(observer.log == ["insert player 1"], "changes inside a savepoint wait for its release")
                return .commit
            }
            #expect(observer.log == ["insert player 1", "insert player 3", "insert player 5"])
        }
        #expect(observer.log == ["insert player 1", "insert player 3", "insert player 5", "willCommit", "didCommit"])
        let ids = try dbQueue.read { db in try Int64.fetchAll(db, sql: "SELECT id FROM player ORDER BY id") }
        #expect(ids == [1, 3, 5])
    }

    @Test func savepointThatBeginsTheTransactionToldAtCommit() throws {
        let dir = try TemporaryDirectory()
        let dbQueue = try makeObservedQueue(dir)
        let observer = RecordingObserver()
        dbQueue.add(transactionObserver: observer)
        try dbQueue.writeWithoutTransaction { (db: Database) throws in
            try db.execute(sql: "SAVEPOINT outer")
            try db.execute(sql: "INSERT INTO player (id) VALUES (1)")
            try db.execute(sql: "SAVEPOINT inner")
            try db.execute(sql: "INSERT INTO player (id) VALUES (2)")
            try db.execute(sql: "ROLLBACK TO SAVEPOINT inner")
            try db.execute(sql: "INSERT INTO player (id) VALUES (3)")
            #expect(observer.log.isEmpty)
            try db.execute(sql: "RELEASE SAVEPOINT outer")
        }
        #expect(observer.log == ["insert player 1", "insert player 3", "willCommit", "didCommit"])
    }

    @Test func observerAddedInsideASavepointStillWaitsForItsRelease() throws {
        let dir = try TemporaryDirectory()
        let dbQueue = try makeObservedQueue(dir)
        let observer = RecordingObserver()
        try dbQueue.write { (db: Database) throws in
            try db.inSavepoint {
                db.add(transactionObserver: observer)
                try db.execute(sql: "INSERT INTO player (id) VALUES (1)")
                return .rollback
            }
        }
        #expect(observer.log == ["willCommit", "didCommit"], "the rolled back change is never told")
    }

    // MARK: - Cascades, filters, truncation

    @Test func foreignKeyCascadesAreTold() throws {
        let dir = try TemporaryDirectory()
        let dbQueue = try makeObservedQueue(dir)
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: """
                INSERT INTO team (id) VALUES (1), (2);
                INSERT INTO player (id, teamId) VALUES (10, 1), (11, 1), (12, 2);
                """)
        }
        let all = RecordingObserver()
        let playersOnly = RecordingObserver(tables: ["player"])
        let teamsOnly = RecordingObserver(tables: ["team"])
        dbQueue.add(transactionObserver: all)
        dbQueue.add(transactionObserver: playersOnly)
        dbQueue.add(transactionObserver: teamsOnly)
        try dbQueue.write { db in try db.execute(sql: "DELETE FROM team WHERE id = 1") }
        #expect(Set(all.log.prefix(3)) == ["delete team 1", "delete player 10", "delete player 11"])
        #expect(all.log.suffix(2) == ["willCommit", "didCommit"])
        #expect(Set(playersOnly.log.prefix(2)) == ["delete player 10", "delete player 11"])
        #expect(playersOnly.log.count == 4)
        #expect(teamsOnly.log == ["delete team 1", "willCommit", "didCommit"])
    }

    @Test func deletingAllRowsIsToldRowByRow() throws {
        let dir = try TemporaryDirectory()
        let dbQueue = try makeObservedQueue(dir)
        try dbQueue.write { (db: Database) throws in
            // Cached before any observer: it must compile again without
            // SQLite's truncate optimization.
            try db.execute(sql: "INSERT INTO player (id) VALUES (1), (2), (3)")
            _ = try db.cachedStatement(sql: "DELETE FROM player")
        }
        let observer = RecordingObserver(tables: ["player"])
        dbQueue.add(transactionObserver: observer)
        try dbQueue.write { db in try db.cachedStatement(sql: "DELETE FROM player").execute() }
        #expect(Set(observer.log) == ["delete player 1", "delete player 2", "delete player 3", "willCommit", "didCommit"])
        #expect(observer.log.count == 5)
    }

    @Test func triggersAreToldToObserversOfTheirTables() throws {
        let dir = try TemporaryDirectory()
        let dbQueue = try makeObservedQueue(dir)
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: """
                CREATE TABLE audit (id INTEGER PRIMARY KEY, playerId INTEGER);
                CREATE TRIGGER playerAudit AFTER INSERT ON player BEGIN
                    INSERT INTO audit (playerId) VALUES (NEW.id);
                END;
                """)
        }
        let auditOnly = RecordingObserver(tables: ["audit"])
        dbQueue.add(transactionObserver: auditOnly)
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (id) VALUES (7)") }
        #expect(auditOnly.log == ["insert audit 1", "willCommit", "didCommit"])
    }

    // MARK: - Cancelling a commit

    @Test func observerThatThrowsInWillCommitRollsBackAndTheWriteThrowsItsError() throws {
        let dir = try TemporaryDirectory()
        let dbQueue = try makeObservedQueue(dir)
        let observer = RecordingObserver()
        let other = RecordingObserver()
        observer.commitError = ObserverVeto()
        dbQueue.add(transactionObserver: observer)
        dbQueue.add(transactionObserver: other)
        #expect(throws: ObserverVeto.self) {
            try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (id) VALUES (1)") }
        }
        #expect(observer.log == ["insert player 1", "willCommit", "didRollback"])
        #expect(other.log == ["insert player 1", "didRollback"], "observers after the one that throws are not asked")
        #expect(try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 0)
        #expect(dbQueue.inDatabase { db in db.isInsideTransaction } == false)

        observer.commitError = nil
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (id) VALUES (2)") }
        #expect(observer.log.suffix(3) == ["insert player 2", "willCommit", "didCommit"])
    }

    @Test func observerThatThrowsCancelsAnAutocommitStatement() throws {
        let dir = try TemporaryDirectory()
        let dbQueue = try makeObservedQueue(dir)
        let observer = RecordingObserver()
        observer.commitError = ObserverVeto()
        dbQueue.add(transactionObserver: observer)
        try dbQueue.writeWithoutTransaction { (db: Database) throws in
            #expect(throws: ObserverVeto.self) {
                try db.execute(sql: "INSERT INTO player (id) VALUES (1)")
            }
            #expect(throws: ObserverVeto.self) {
                try db.cachedStatement(sql: "INSERT INTO player (id) VALUES (?)").execute(values: 2)
            }
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") == 0)
        }
        #expect(observer.log == [
            "insert player 1", "willCommit", "didRollback",
            "insert player 2", "willCommit", "didRollback",
        ])
    }

    @Test func observerThatThrowsCancelsAnEmptyTransaction() throws {
        let dir = try TemporaryDirectory()
        let dbQueue = try makeObservedQueue(dir)
        let observer = RecordingObserver()
        observer.commitError = ObserverVeto()
        dbQueue.add(transactionObserver: observer)
        #expect(throws: ObserverVeto.self) {
            try dbQueue.inDatabase { db in try db.inTransaction(.deferred) { .commit } }
        }
        #expect(observer.log == ["willCommit", "didRollback"])
    }

    // MARK: - Stopping until the next transaction

    @Test func stopObservingLastsUntilTheEndOfTheTransaction() throws {
        let dir = try TemporaryDirectory()
        let dbQueue = try makeObservedQueue(dir)
        let observer = RecordingObserver()
        observer.stopsAfterFirstChange = true
        dbQueue.add(transactionObserver: observer)
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: "INSERT INTO player (id) VALUES (1)")
            try db.execute(sql: "INSERT INTO player (id) VALUES (2)")
        }
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: "INSERT INTO player (id) VALUES (3), (4)")
        }
        #expect(observer.log == [
            "insert player 1", "willCommit", "didCommit",
            "insert player 3", "willCommit", "didCommit",
        ])
    }

    // MARK: - Lifetimes

    @Test func observerLifetimeObserverIsNotRetained() throws {
        let dir = try TemporaryDirectory()
        let dbQueue = try makeObservedQueue(dir)
        weak var weakObserver: RecordingObserver?
        do {
            let observer = RecordingObserver()
            weakObserver = observer
            dbQueue.add(transactionObserver: observer)
            try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (id) VALUES (1)") }
            #expect(observer.log.count == 3)
        }
        #expect(weakObserver == nil, "the connection keeps a strong reference to an .observerLifetime observer")
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (id) VALUES (2)") }
        try dbQueue.writeWithoutTransaction { (db: Database) throws in
            #expect(db.observationBroker == nil, "hooks stay installed with no observer left")
        }
    }

    @Test func databaseLifetimeObserverIsRetained() throws {
        let dir = try TemporaryDirectory()
        let dbQueue = try makeObservedQueue(dir)
        weak var weakObserver: RecordingObserver?
        do {
            let observer = RecordingObserver()
            weakObserver = observer
            dbQueue.add(transactionObserver: observer, extent: .databaseLifetime)
        }
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (id) VALUES (1)") }
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (id) VALUES (2)") }
        let observer = try #require(weakObserver)
        #expect(observer.log.count == 6)
        dbQueue.remove(transactionObserver: observer)
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (id) VALUES (3)") }
        #expect(observer.log.count == 6, "a removed observer is told nothing")
    }

    @Test func nextTransactionObserverIsReleasedAfterCommitOrRollback() throws {
        let dir = try TemporaryDirectory()
        let dbQueue = try makeObservedQueue(dir)
        weak var committed: RecordingObserver?
        weak var rolledBack: RecordingObserver?
        do {
            let observer = RecordingObserver()
            committed = observer
            dbQueue.add(transactionObserver: observer, extent: .nextTransaction)
        }
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (id) VALUES (1)") }
        #expect(committed == nil, "released after the commit")

        do {
            let observer = RecordingObserver()
            rolledBack = observer
            dbQueue.add(transactionObserver: observer, extent: .nextTransaction)
        }
        var log: [String] = []
        try dbQueue.inDatabase { (db: Database) throws in
            try db.inTransaction {
                try db.execute(sql: "INSERT INTO player (id) VALUES (2)")
                log = rolledBack?.log ?? []
                return .rollback
            }
        }
        #expect(log == ["insert player 2"])
        #expect(rolledBack == nil, "released after the rollback")
        dbQueue.writeWithoutTransaction { db in #expect(db.observationBroker == nil) }
    }

    @Test func afterNextTransactionRunsOnCommitOrRollbackOnce() throws {
        let dir = try TemporaryDirectory()
        let dbQueue = try makeObservedQueue(dir)
        let observer = RecordingObserver()
        dbQueue.add(transactionObserver: observer)
        let calls = LockedValue<[String]>([])
        try dbQueue.write { (db: Database) throws in
            db.afterNextTransaction(
                onCommit: { db in calls.withLock { $0.append("commit \(db.isInsideTransaction)") } },
                onRollback: { _ in calls.withLock { $0.append("rollback") } })
            try db.execute(sql: "INSERT INTO player (id) VALUES (1)")
        }
        #expect(calls.withLock { $0 } == ["commit false"])
        #expect(observer.log.last == "didCommit", "the observer registered first is told first")
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (id) VALUES (2)") }
        #expect(calls.withLock { $0 } == ["commit false"], "once only")

        try dbQueue.inDatabase { (db: Database) throws in
            db.afterNextTransaction(
                onCommit: { _ in calls.withLock { $0.append("commit") } },
                onRollback: { _ in calls.withLock { $0.append("rollback") } })
            try db.inTransaction { .rollback }
        }
        #expect(calls.withLock { $0 } == ["commit false", "rollback"])
    }

    @Test func afterNextTransactionOutsideATransactionWaitsForTheNextOne() throws {
        let dir = try TemporaryDirectory()
        let dbQueue = try makeObservedQueue(dir)
        let calls = LockedValue(0)
        try dbQueue.writeWithoutTransaction { (db: Database) throws in
            db.afterNextTransaction { _ in calls.withLock { $0 += 1 } }
            _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")
            #expect(calls.withLock { $0 } == 0)
            try db.execute(sql: "INSERT INTO player (id) VALUES (1)")
            #expect(calls.withLock { $0 } == 1)
        }
    }

    // MARK: - Hooks and connections

    @Test func hooksExistOnlyWhileObserversDo() throws {
        let dir = try TemporaryDirectory()
        let dbQueue = try makeObservedQueue(dir)
        try dbQueue.writeWithoutTransaction { (db: Database) throws in
            #expect(db.observationBroker == nil)
            #expect(!db.observesStatements)
            let observer = RecordingObserver()
            db.add(transactionObserver: observer)
            #expect(db.observationBroker != nil)
            #expect(db.observesStatements)
            db.remove(transactionObserver: observer)
            #expect(db.observationBroker == nil)
            #expect(!db.observesStatements)
        }
    }

    @Test func readOnlyConnectionIgnoresObservers() throws {
        let dir = try TemporaryDirectory()
        _ = try makeObservedQueue(dir)
        var config = keyed("observation-passphrase")
        config.readonly = true
        let readOnly = try DatabaseQueue(path: dir.path("db.sqlite"), configuration: config)
        let observer = RecordingObserver()
        try readOnly.read { (db: Database) throws in
            db.add(transactionObserver: observer)
            #expect(db.observationBroker == nil)
        }
    }

    @Test func poolWriterIsObserved() throws {
        let dir = try TemporaryDirectory()
        let dbPool = try makeObservedPool(dir)
        let observer = RecordingObserver()
        dbPool.add(transactionObserver: observer)
        try dbPool.write { db in try db.execute(sql: "INSERT INTO player (id) VALUES (1)") }
        try dbPool.read { db in _ = try Row.fetchAll(db, sql: "SELECT * FROM player") }
        #expect(observer.log == ["insert player 1", "willCommit", "didCommit"])
        dbPool.remove(transactionObserver: observer)
        try dbPool.write { db in try db.execute(sql: "INSERT INTO player (id) VALUES (2)") }
        #expect(observer.log.count == 3)
    }

    @Test func recordsAndReturningStatementsAreObserved() throws {
        let dir = try TemporaryDirectory()
        let dbQueue = try makeObservedQueue(dir)
        let observer = RecordingObserver()
        dbQueue.add(transactionObserver: observer)
        try dbQueue.writeWithoutTransaction { (db: Database) throws in
            try db.execute(sql: "INSERT INTO player (id, score) VALUES (1, 0), (2, 0)")
            let scores = try Int.fetchAll(db, sql: "UPDATE player SET score = score + 1 RETURNING score")
            #expect(scores == [1, 1])
            let first = try Int.fetchOne(db, sql: "DELETE FROM player RETURNING id")
            #expect(first != nil)
        }
        #expect(observer.log.filter { $0 == "didCommit" }.count == 3)
        #expect(observer.log.filter { $0.hasPrefix("update") }.count == 2)
        #expect(observer.log.filter { $0.hasPrefix("delete") }.count == 2)
    }

    @Test func notifyChangesTellsObserversOfTheRegion() throws {
        let dir = try TemporaryDirectory()
        let dbQueue = try makeObservedQueue(dir)
        let players = RecordingObserver(tables: ["player"])
        let teams = RecordingObserver(tables: ["team"])
        dbQueue.add(transactionObserver: players)
        dbQueue.add(transactionObserver: teams)
        try dbQueue.write { (db: Database) throws in
            try db.notifyChanges(in: Table("player"))
        }
        #expect(players.log == ["change", "willCommit", "didCommit"])
        #expect(teams.log == ["willCommit", "didCommit"])
    }

    @Test func notifyChangesOutsideOfATransactionTellsOnlyTheChange() throws {
        let dir = try TemporaryDirectory()
        let dbQueue = try makeObservedQueue(dir)
        let players = RecordingObserver(tables: ["player"])
        dbQueue.add(transactionObserver: players)
        // As GRDB: no transaction is made up, so no commit is told.
        try dbQueue.writeWithoutTransaction { (db: Database) throws in
            try db.notifyChanges(in: Table("player"))
        }
        #expect(players.log == ["change"])
    }

    @Test func notifyChangesFromAReadTellsNothing() throws {
        let dir = try TemporaryDirectory()
        let dbQueue = try makeObservedQueue(dir)
        let players = RecordingObserver(tables: ["player"])
        dbQueue.add(transactionObserver: players)
        try dbQueue.read { (db: Database) throws in
            try db.notifyChanges(in: Table("player"))
            try db.notifyChanges(in: Table("missing"))
        }
        #expect(players.log == [])
    }

    @Test func notifyChangesIgnoresMissingTablesAndReachesTemporaryOnes() throws {
        let dir = try TemporaryDirectory()
        let dbQueue = try makeObservedQueue(dir)
        try dbQueue.write { db in try db.execute(sql: "CREATE TEMP TABLE scratch (id INTEGER PRIMARY KEY)") }
        let scratch = RecordingObserver(tables: ["scratch"])
        dbQueue.add(transactionObserver: scratch)
        try dbQueue.write { (db: Database) throws in
            try db.notifyChanges(in: Table("missing"))
        }
        #expect(scratch.log == ["willCommit", "didCommit"])
        try dbQueue.write { (db: Database) throws in
            try db.notifyChanges(in: DatabaseRegion.fullDatabase)
        }
        #expect(scratch.log == ["willCommit", "didCommit", "change", "willCommit", "didCommit"])
    }
}
