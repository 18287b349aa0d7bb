import Dispatch
import Foundation
import Testing
@testable import GRDBCipher

/// A busy callback that counts its calls: SQLite calls it with 0, 1, 2
/// and 3 tries, and it gives up at 3, after four calls.
private func countingBusyMode() -> (mode: Database.BusyMode, calls: LockedValue<Int>) {
    let calls = LockedValue(0)
    return (.callback { tries in calls.withLock { $0 += 1 }; return tries < 3 }, calls)
}

/// Names the queue that runs the current code, through its target queues.
private let queueName = DispatchSpecificKey<String>()

@Suite struct ConfigurationAPITests {
    // MARK: - Defaults

    @Test func defaultsAreGRDBs() {
        let config = Configuration()
        #expect(config.qos == .userInitiated)
        #expect(config.readQoS == .userInitiated)
        #expect(config.writeQoS == .userInitiated)
        #expect(config.targetQueue == nil)
        #expect(config.writeTargetQueue == nil)
        #expect(config.transactionClock is DefaultTransactionClock)
        #expect(config.readonlyBusyMode == nil)
        #expect(config.connectionDidOpen == nil)
    }

    // MARK: - Dispatch

    @Test func qosFollowsTheTargetQueues() {
        var config = Configuration()
        config.qos = .utility
        #expect(config.readQoS == .utility)
        #expect(config.writeQoS == .utility)

        let target = DispatchQueue(label: "target", qos: .background)
        config.targetQueue = target
        #expect(config.readQoS == target.qos)
        #expect(config.writeQoS == target.qos)

        let writeTarget = DispatchQueue(label: "writeTarget", qos: .userInteractive)
        config.writeTargetQueue = writeTarget
        #expect(config.readQoS == target.qos)
        #expect(config.writeQoS == writeTarget.qos)
    }

    @Test func connectionQueuesHaveTheConfiguredQoS() {
        var config = Configuration()
        config.qos = .utility
        #expect(config.makeWriterDispatchQueue(label: "w").qos == DispatchQueue(label: "x", qos: .utility).qos)
        #expect(config.makeReaderDispatchQueue(label: "r").qos == DispatchQueue(label: "x", qos: .utility).qos)
    }

    @Test func accessesRunOnTheTargetQueues() throws {
        let dir = try TemporaryDirectory()
        let target = DispatchQueue(label: "target", attributes: .concurrent)
        target.setSpecific(key: queueName, value: "target")
        let writeTarget = DispatchQueue(label: "writeTarget")
        writeTarget.setSpecific(key: queueName, value: "writeTarget")

        var config = Configuration()
        config.targetQueue = target
        let dbQueue = try DatabaseQueue(path: dir.path("queue.sqlite"), configuration: config)
        #expect(try dbQueue.write { _ in DispatchQueue.getSpecific(key: queueName) } == "target")

        config.writeTargetQueue = writeTarget
        let dbPool = try DatabasePool(path: dir.path("pool.sqlite"), configuration: config)
        #expect(try dbPool.write { _ in DispatchQueue.getSpecific(key: queueName) } == "writeTarget")
        #expect(try dbPool.read { _ in DispatchQueue.getSpecific(key: queueName) } == "target")

        let plain = try DatabaseQueue(path: dir.path("plain.sqlite"))
        #expect(try plain.write { _ in DispatchQueue.getSpecific(key: queueName) } == nil)
    }

    // MARK: - Connection opening

    @Test func onConnectionDidOpenRunsAfterEachConnectionIsSetUp() throws {
        let dir = try TemporaryDirectory()
        let events = LockedValue<[String]>([])
        var config = keyed("secret")
        config.prepareDatabase { db in
            events.withLock { $0.append(db.configuration.readonly ? "prepare reader" : "prepare writer") }
        }
        config.onConnectionDidOpen { events.withLock { $0.append("open") } }

        _ = try DatabaseQueue(path: dir.path("queue.sqlite"), configuration: config)
        #expect(events.withLock { $0 } == ["prepare writer", "open"])

        events.withLock { $0 = [] }
        let dbPool = try DatabasePool(path: dir.path("pool.sqlite"), configuration: config)
        try dbPool.read { _ in }
        #expect(events.withLock { $0 } == ["prepare writer", "open", "prepare reader", "open"])
    }

    @Test func onConnectionDidOpenDoesNotRunWhenOpeningFails() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        try makeEncryptedDatabase(at: path, passphrase: "right")
        let opened = LockedValue(0)
        var config = keyed("wrong")
        config.onConnectionDidOpen { opened.withLock { $0 += 1 } }
        #expect(throws: DatabaseError.self) { try DatabaseQueue(path: path, configuration: config) }
        #expect(opened.withLock { $0 } == 0)
    }

    // MARK: - Read-only busy mode

    /// A lock held by another connection of the rollback journal mode:
    /// a read-only connection uses `readonlyBusyMode`.
    @Test func readonlyConnectionsUseReadonlyBusyMode() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        try makeEncryptedDatabase(at: path, passphrase: "secret")
        let holder = try DatabaseQueue(path: path, configuration: keyed("secret"))

        let (readonlyMode, readonlyCalls) = countingBusyMode()
        let (writerMode, writerCalls) = countingBusyMode()
        var config = keyed("secret")
        config.busyMode = writerMode
        config.readonlyBusyMode = readonlyMode
        let writer = try DatabaseQueue(path: path, configuration: config)
        config.readonly = true
        let reader = try DatabaseQueue(path: path, configuration: config)

        try holder.inDatabase { db in
            try db.execute(sql: "BEGIN EXCLUSIVE")
            defer { try? db.rollback() }
            let readError = #expect(throws: DatabaseError.self) {
                try reader.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM secret") }
            }
            #expect(readError?.resultCode == .SQLITE_BUSY)
            #expect(readonlyCalls.withLock { $0 } == 4, "the read-only connection asks readonlyBusyMode")

            let writeError = #expect(throws: DatabaseError.self) {
                try writer.write { db in try db.execute(sql: "DELETE FROM secret") }
            }
            #expect(writeError?.resultCode == .SQLITE_BUSY)
            #expect(writerCalls.withLock { $0 } == 4, "a writable connection asks busyMode")
            #expect(readonlyCalls.withLock { $0 } == 4)
        }
    }

    @Test func readonlyConnectionsFallBackToBusyMode() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        try makeEncryptedDatabase(at: path, passphrase: "secret")
        let holder = try DatabaseQueue(path: path, configuration: keyed("secret"))
        let (mode, calls) = countingBusyMode()
        var config = keyed("secret")
        config.readonly = true
        config.busyMode = mode
        let reader = try DatabaseQueue(path: path, configuration: config)
        try holder.inDatabase { db in
            try db.execute(sql: "BEGIN EXCLUSIVE")
            defer { try? db.rollback() }
            #expect(throws: DatabaseError.self) { try reader.read { db in try db.execute(sql: "SELECT * FROM secret") } }
        }
        #expect(calls.withLock { $0 } == 4)
    }

    /// A pool's readers are read-only connections, which use
    /// `readonlyBusyMode` (tested above); its writer is not.
    @Test func poolReadersAreReadOnlyConnections() throws {
        let dir = try TemporaryDirectory()
        let (mode, _) = countingBusyMode()
        var config = Configuration()
        config.readonlyBusyMode = mode
        let dbPool = try DatabasePool(path: dir.path("db.sqlite"), configuration: config)
        #expect(try dbPool.read { db in db.configuration.readonly && db.configuration.readonlyBusyMode != nil })
        #expect(try dbPool.write { db in db.configuration.readonly } == false)
    }

    // MARK: - Transaction clock

    @Test func transactionClockIsCopiedWithTheConfiguration() throws {
        var config = Configuration()
        config.transactionClock = .custom { _ in Date(timeIntervalSince1970: 42) }
        let dbQueue = try DatabaseQueue(configuration: config)
        #expect(try dbQueue.write { db in try db.transactionDate } == Date(timeIntervalSince1970: 42))
        #expect(try dbQueue.read { db in try db.transactionDate } == Date(timeIntervalSince1970: 42))
        #expect(dbQueue.configuration.transactionClock is CustomTransactionClock)
    }
}
