import Foundation
import Testing
@testable import GRDBCipher

/// A passphrase change while another process, or another connection of
/// this process, holds a lock on the file. A rotation that cannot take the
/// write lock must throw and change nothing; one that can must re-encrypt
/// everything. The rotating connection then writes once more. And a pool
/// must keep its own locks while another process comes and goes.
@Suite(.serialized) struct FaultInjectionBusyLockTests {
    static let rows = 300
    static let kdfIterations = FaultFixture.cheapKDFIterations

    /// The rotating connection gives up on a busy lock after 0.2 seconds.
    private func rotatingConfiguration() -> Configuration {
        var config = FaultFixture.configuration("old", kdfIterations: Self.kdfIterations)
        config.busyMode = .timeout(0.2)
        return config
    }

    /// Starts a child that holds a lock on `path`, and waits until it does.
    private func holdLock(_ path: String, mode: String, journal: String) throws -> ChildProcess {
        let holder = try ChildProcess(
            ["hold-lock", "--path", path, "--key", "old", "--mode", mode, "--journal", journal]
                + FaultFixture.kdfArguments(Self.kdfIterations))
        try #require(holder.waitForLine(prefix: "LOCKED") != nil, "the child never locked: \(holder.transcript)")
        return holder
    }

    private func insertOneRow(_ writer: some DatabaseWriter) throws {
        try writer.write { db in try db.execute(sql: "INSERT INTO t (payload) VALUES ('after the lock')") }
    }

    @Test(arguments: ["shared", "immediate", "exclusive"])
    func aLockHeldByAnotherProcessFailsARollbackJournalRotation(mode: String) throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        try FaultFixture.makeDatabase(
            at: path, passphrase: "old", rows: Self.rows, wal: false, kdfIterations: Self.kdfIterations)
        // Opened and read before the lock: an exclusive lock keeps readers out.
        let dbQueue = try DatabaseQueue(path: path, configuration: rotatingConfiguration())
        _ = try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM t") }

        let holder = try holdLock(path, mode: mode, journal: "delete")
        let error = #expect(throws: DatabaseError.self, "a \(mode) lock held by another process") {
            try dbQueue.changePassphrase("new")
        }
        holder.closeStdin()
        #expect(holder.waitUntilExit() == 0, "\(holder.transcript)")

        try insertOneRow(dbQueue)
        try dbQueue.close()
        expectOneKeyReadsEverything(
            path, succeeded: false, old: "old", new: "new", rows: Self.rows + 1, kdfIterations: Self.kdfIterations,
            "a \(mode) lock held by another process; the rotation threw \(error.map { "\($0)" } ?? "nothing")")
    }

    @Test(arguments: ["shared", "immediate", "exclusive"])
    func aLockHeldByAnotherProcessDuringAPoolRotationLeavesOneKey(mode: String) throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        try FaultFixture.makeDatabase(
            at: path, passphrase: "old", rows: Self.rows, wal: true, kdfIterations: Self.kdfIterations)
        let dbPool = try DatabasePool(path: path, configuration: rotatingConfiguration())

        let holder = try holdLock(path, mode: mode, journal: "wal")
        var rotationError: DatabaseError?
        do {
            try dbPool.changePassphrase("new")
        } catch let error as DatabaseError {
            rotationError = error
        }
        if mode != "shared" {
            // In WAL mode a reader does not stop a writer; a writer does.
            #expect(rotationError != nil, "a write lock (\(mode)) held by another process must fail the rotation")
        }
        if rotationError == nil {
            // Checked while the other process still reads the old state, which
            // keeps the re-encrypted pages in the WAL: the pool reads them all.
            // The file's pages are still under the old key: the cipher check
            // must not report them as tampered, only that it cannot tell yet.
            let rows = try dbPool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM t") }
            #expect(rows == Self.rows)
            do {
                let failures = try dbPool.cipherIntegrityCheck()
                #expect(failures.isEmpty, "\(failures.count) pages fail: \(failures.prefix(3))")
            } catch let error as DatabaseError {
                #expect(error.resultCode == .SQLITE_BUSY, "\(error)")
            }
        }
        holder.closeStdin()
        #expect(holder.waitUntilExit() == 0, "\(holder.transcript)")
        if rotationError == nil {
            // Once the reader is gone, the check can tell: the file is intact.
            #expect(try dbPool.cipherIntegrityCheck().isEmpty)
        }

        try insertOneRow(dbPool)
        try dbPool.close()
        expectOneKeyReadsEverything(
            path, succeeded: rotationError == nil, old: "old", new: "new", rows: Self.rows + 1,
            kdfIterations: Self.kdfIterations,
            "a \(mode) lock held by another process; the rotation threw \(rotationError.map { "\($0)" } ?? "nothing")")
    }

    /// A pool must keep its locks on the database file while it opens a
    /// reader. Closing any descriptor of the file releases all of the
    /// process's POSIX locks on it; another process that closes its
    /// connection then takes itself for the last one, checkpoints, and
    /// deletes the WAL that the pool goes on writing to: its next commits
    /// are lost. Without derived keys, the pool does not read the file itself.
    @Test(arguments: [true, false])
    func anotherProcessClosingItsConnectionLeavesThePoolWALInPlace(reusesDerivedKeys: Bool) throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        try FaultFixture.makeDatabase(
            at: path, passphrase: "old", rows: Self.rows, wal: true, kdfIterations: Self.kdfIterations)
        var config = FaultFixture.configuration("old", kdfIterations: Self.kdfIterations)
        config.reusesDerivedKeys = reusesDerivedKeys
        let dbPool = try DatabasePool(path: path, configuration: config)
        try insertOneRow(dbPool)

        let holder = try holdLock(path, mode: "shared", journal: "wal")
        // The pool's first read opens a reader.
        _ = try dbPool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM t") }
        holder.closeStdin()
        #expect(holder.waitUntilExit() == 0, "\(holder.transcript)")
        #expect(
            FileManager.default.fileExists(atPath: path + "-wal"),
            "the other process deleted the WAL of the pool, which is still open")

        try insertOneRow(dbPool)
        try dbPool.close()
        let view = KeyView.of(path, passphrase: "old", kdfIterations: Self.kdfIterations)
        #expect(view == .intact(rows: Self.rows + 2), "both rows the pool committed must be there: \(view)")
    }

    @Test func aReadTransactionOfAnotherConnectionFailsARollbackJournalRotation() throws {
        try expectRotationFails(
            pool: false, whileAnotherConnectionHolds: .deferred, "a read transaction of another connection")
    }

    @Test func aWriteTransactionOfAnotherConnectionFailsAPoolRotation() throws {
        try expectRotationFails(
            pool: true, whileAnotherConnectionHolds: .immediate, "a write transaction of another connection")
    }

    /// Rotates a queue (rollback journal) or a pool (WAL) while another
    /// connection of this process holds a transaction that has read the file.
    private func expectRotationFails(
        pool: Bool, whileAnotherConnectionHolds kind: Database.TransactionKind, _ context: String) throws
    {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        try FaultFixture.makeDatabase(
            at: path, passphrase: "old", rows: Self.rows, wal: pool, kdfIterations: Self.kdfIterations)
        let writer: any DatabaseWriter = pool
            ? try DatabasePool(path: path, configuration: rotatingConfiguration())
            : try DatabaseQueue(path: path, configuration: rotatingConfiguration())
        let other = try DatabaseQueue(
            path: path, configuration: FaultFixture.configuration("old", kdfIterations: Self.kdfIterations))

        let error = try other.inDatabase { db in
            try db.beginTransaction(kind)
            defer { try? db.rollback() }
            _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM t")   // takes its lock
            return #expect(throws: DatabaseError.self, "\(context)") {
                try writer.barrierWriteWithoutTransaction { db in try db.changePassphrase("new") }
            }
        }

        try insertOneRow(writer)
        try writer.close()
        try other.close()
        expectOneKeyReadsEverything(
            path, succeeded: false, old: "old", new: "new", rows: Self.rows + 1, kdfIterations: Self.kdfIterations,
            "\(context); the rotation threw \(error.map { "\($0)" } ?? "nothing")")
    }
}
