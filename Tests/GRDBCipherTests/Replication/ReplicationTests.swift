import Foundation
import GRDBCipherTesting
import Testing
@testable import GRDBCipher

/// Replication to a folder: what a restore gives back, at the latest state
/// and at a point in time, across WAL restarts, gaps and restarts of the
/// replicator; and what it refuses.
@Suite struct ReplicationTests {
    let key = TestKey.insecureRandomRawKey()

    private func makePool(_ dir: TemporaryDirectory, _ name: String = "db.sqlite") throws -> DatabasePool {
        let dbPool = try DatabasePool(path: dir.path(name), configuration: key.configuration)
        try dbPool.write { db in try db.execute(sql: "CREATE TABLE IF NOT EXISTS t(id INTEGER PRIMARY KEY, note TEXT)") }
        return dbPool
    }

    private func insert(_ dbPool: DatabasePool, _ range: Range<Int>) async throws {
        try await dbPool.write { db in
            for index in range {
                try db.execute(sql: "INSERT INTO t(id, note) VALUES (?, ?)", arguments: [index, "secret note \(index)"])
            }
        }
    }

    /// The ids of a file, read by the sqlcipher shell: a reader independent
    /// of the library.
    private func shellIDs(_ path: String) throws -> [Int] {
        try SQLCipherShell.run(path, key: key, script: "SELECT id FROM t ORDER BY id;")
            .split(separator: "\n").compactMap { Int($0) }
    }

    private func options(checkpointSize: Int = 4 << 20) -> DatabaseReplicator.Options {
        var options = DatabaseReplicator.Options()
        options.pollInterval = .milliseconds(10)
        options.checkpointSize = checkpointSize
        return options
    }

    @Test func aRestoreHoldsEveryCommitSynced() async throws {
        let dir = try TemporaryDirectory()
        let dbPool = try makePool(dir)
        try await insert(dbPool, 0..<10)
        let store = try FolderReplicaStore(path: dir.path("replica"))
        let replicator = try await DatabaseReplicator.start(dbPool, to: store, key: key.databaseKey, options: options())
        try await replicator.sync()
        try await insert(dbPool, 10..<20)
        try await replicator.sync()
        try await insert(dbPool, 20..<30)
        try await replicator.sync()
        await replicator.stop()

        let restored = dir.path("restored.sqlite")
        let result = try await DatabaseReplica(store: store, key: key.databaseKey)
            .restore(to: restored, configuration: key.configuration)
        #expect(result.objectCount == 3, "a snapshot and two segments")
        #expect(try shellIDs(restored) == Array(0..<30))
        let attributes = try FileManager.default.attributesOfItem(atPath: restored)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }

    @Test func aRestoreAtATimeGivesTheStateReadAtOrBeforeIt() async throws {
        let dir = try TemporaryDirectory()
        let dbPool = try makePool(dir)
        let store = try FolderReplicaStore(path: dir.path("replica"))
        let replicator = try await DatabaseReplicator.start(dbPool, to: store, key: key.databaseKey, options: options())
        try await insert(dbPool, 0..<5)
        try await replicator.sync()
        let first = try #require(replicator.status.shippedTime)
        try await Task.sleep(for: .milliseconds(30))
        try await insert(dbPool, 5..<9)
        try await replicator.sync()
        await replicator.stop()

        let replica = DatabaseReplica(store: store, key: key.databaseKey)
        let earlier = dir.path("earlier.sqlite")
        let result = try await replica.restore(to: earlier, at: first, configuration: key.configuration)
        #expect(result.time <= first)
        #expect(try shellIDs(earlier) == Array(0..<5))
        let latest = dir.path("latest.sqlite")
        try await replica.restore(to: latest, configuration: key.configuration)
        #expect(try shellIDs(latest) == Array(0..<9))
        await #expect(throws: ReplicaError.self) {
            try await replica.restore(to: dir.path("before.sqlite"), at: Date(timeIntervalSince1970: 0), configuration: key.configuration)
        }
        #expect(!FileManager.default.fileExists(atPath: dir.path("before.sqlite")))
    }

    /// A small checkpoint size makes the replicator restart the WAL many
    /// times: the generation continues across each restart, with no hole.
    @Test func theReplicatorsOwnCheckpointsKeepOneGeneration() async throws {
        let dir = try TemporaryDirectory()
        let dbPool = try makePool(dir)
        let store = try FolderReplicaStore(path: dir.path("replica"))
        let replicator = try await DatabaseReplicator.start(
            dbPool, to: store, key: key.databaseKey, options: options(checkpointSize: 16 << 10))
        for batch in 0..<20 {
            try await insert(dbPool, (batch * 50)..<(batch * 50 + 50))
            try await replicator.sync()
        }
        #expect(replicator.status.generationsStarted == 1)
        await replicator.stop()
        let generations = try await DatabaseReplica(store: store, key: key.databaseKey).generations()
        #expect(generations.count == 1)
        let restored = dir.path("restored.sqlite")
        try await DatabaseReplica(store: store, key: key.databaseKey).restore(to: restored, configuration: key.configuration)
        #expect(try shellIDs(restored) == Array(0..<1000))
    }

    /// A checkpoint that restarts the WAL behind the replicator's back is a
    /// gap: a new generation starts with a snapshot, and nothing is lost.
    @Test func anotherCheckpointStartsANewGeneration() async throws {
        let dir = try TemporaryDirectory()
        let dbPool = try makePool(dir)
        let store = try FolderReplicaStore(path: dir.path("replica"))
        let replicator = try await DatabaseReplicator.start(dbPool, to: store, key: key.databaseKey, options: options())
        try await insert(dbPool, 0..<10)
        try await replicator.sync()
        try await dbPool.writeWithoutTransaction { db in
            try db.execute(sql: "INSERT INTO t(id) VALUES (10)")
            try db.checkpoint(.truncate)
            try db.execute(sql: "INSERT INTO t(id) VALUES (11)")
        }
        try await replicator.sync()
        try await replicator.sync()
        #expect(replicator.status.generationsStarted == 2)
        await replicator.stop()
        let restored = dir.path("restored.sqlite")
        try await DatabaseReplica(store: store, key: key.databaseKey).restore(to: restored, configuration: key.configuration)
        #expect(try shellIDs(restored) == Array(0..<12))
    }

    /// A replicator started again on the same WAL continues its generation.
    @Test func aRestartedReplicatorContinuesItsGeneration() async throws {
        let dir = try TemporaryDirectory()
        let dbPool = try makePool(dir)
        let store = try FolderReplicaStore(path: dir.path("replica"))
        let first = try await DatabaseReplicator.start(dbPool, to: store, key: key.databaseKey, options: options())
        try await insert(dbPool, 0..<10)
        try await first.sync()
        await first.stop()
        try await insert(dbPool, 10..<20)
        let second = try await DatabaseReplicator.start(dbPool, to: store, key: key.databaseKey, options: options())
        try await insert(dbPool, 20..<25)
        try await second.sync()
        #expect(second.status.generationsStarted == 0)
        await second.stop()
        let generations = try await DatabaseReplica(store: store, key: key.databaseKey).generations()
        #expect(generations.count == 1)
        let restored = dir.path("restored.sqlite")
        try await DatabaseReplica(store: store, key: key.databaseKey).restore(to: restored, configuration: key.configuration)
        #expect(try shellIDs(restored) == Array(0..<25))
    }

    /// The store only ever holds ciphertext and metadata.
    @Test func theStoreHoldsNoPlaintext() async throws {
        let dir = try TemporaryDirectory()
        let dbPool = try makePool(dir)
        try await insert(dbPool, 0..<20)
        let store = try FolderReplicaStore(path: dir.path("replica"))
        let replicator = try await DatabaseReplicator.start(dbPool, to: store, key: key.databaseKey, options: options())
        try await replicator.sync()
        try await insert(dbPool, 20..<40)
        try await replicator.sync()
        await replicator.stop()
        let names = try await store.names(withPrefix: "")
        #expect(names.count >= 3)
        for name in names {
            let data = try #require(try await store.read(name))
            #expect(data.range(of: Data("secret note".utf8)) == nil, "\(name) holds plaintext")
            #expect(data.range(of: Data("SQLite format 3".utf8)) == nil, "\(name) holds a plaintext header")
            #expect(data.range(of: Data("CREATE TABLE".utf8)) == nil, "\(name) holds the schema")
        }
    }

    /// Each alteration of the store is caught, and leaves no output file.
    @Test(arguments: ["body", "trailer", "drop", "swap", "rename"])
    func anAlteredReplicaIsRefused(alteration: String) async throws {
        let dir = try TemporaryDirectory()
        let dbPool = try makePool(dir)
        let storePath = dir.path("replica")
        let store = try FolderReplicaStore(path: storePath)
        let replicator = try await DatabaseReplicator.start(dbPool, to: store, key: key.databaseKey, options: options())
        try await replicator.sync()
        for batch in 0..<4 {
            try await insert(dbPool, (batch * 10)..<(batch * 10 + 10))
            try await replicator.sync()
        }
        await replicator.stop()
        let segments = try await store.names(withPrefix: "generations/").filter { $0.contains("-segment-") }
        #expect(segments.count >= 4)
        let victim = storePath + "/" + segments[1]
        let other = storePath + "/" + segments[2]
        switch alteration {
        case "body":
            var data = try Data(contentsOf: URL(fileURLWithPath: victim))
            data[WALFile.frameHeaderSize + 100] ^= 0x01
            try data.write(to: URL(fileURLWithPath: victim))
        case "trailer":
            var data = try Data(contentsOf: URL(fileURLWithPath: victim))
            let index = try #require(data.range(of: Data("\"walEnd\"".utf8))).upperBound + 2
            data[index] = data[index] == UInt8(ascii: "1") ? UInt8(ascii: "2") : UInt8(ascii: "1")
            try data.write(to: URL(fileURLWithPath: victim))
        case "drop":
            try FileManager.default.removeItem(atPath: victim)
        case "swap":
            let victimData = try Data(contentsOf: URL(fileURLWithPath: victim))
            try Data(contentsOf: URL(fileURLWithPath: other)).write(to: URL(fileURLWithPath: victim))
            try victimData.write(to: URL(fileURLWithPath: other))
        default:
            // An object under another object's name.
            try FileManager.default.removeItem(atPath: victim)
            try FileManager.default.copyItem(atPath: other, toPath: victim)
        }
        let restored = dir.path("restored.sqlite")
        await #expect(throws: ReplicaError.self) {
            try await DatabaseReplica(store: store, key: key.databaseKey).restore(to: restored, configuration: key.configuration)
        }
        #expect(!FileManager.default.fileExists(atPath: restored))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains("restore") }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    @Test func anotherKeyIsTheWrongKey() async throws {
        let dir = try TemporaryDirectory()
        let dbPool = try makePool(dir)
        let store = try FolderReplicaStore(path: dir.path("replica"))
        let replicator = try await DatabaseReplicator.start(dbPool, to: store, key: key.databaseKey, options: options())
        try await replicator.sync()
        await replicator.stop()
        let other = TestKey.insecureRandomRawKey()
        await #expect(throws: ReplicaError.wrongKey) {
            try await DatabaseReplica(store: store, key: other.databaseKey).restore(to: dir.path("restored.sqlite"))
        }
        await #expect(throws: ReplicaError.wrongKey) {
            _ = try await DatabaseReplicator.start(dbPool, to: store, key: other.databaseKey)
        }
    }

    @Test func aRestoreRefusesAnExistingOutput() async throws {
        let dir = try TemporaryDirectory()
        let dbPool = try makePool(dir)
        let store = try FolderReplicaStore(path: dir.path("replica"))
        let replicator = try await DatabaseReplicator.start(dbPool, to: store, key: key.databaseKey, options: options())
        try await replicator.sync()
        await replicator.stop()
        let existing = dir.path("existing.sqlite")
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: existing))
        await #expect(throws: ReplicaError.outputExists(existing)) {
            try await DatabaseReplica(store: store, key: key.databaseKey).restore(to: existing, configuration: key.configuration)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: existing)) == Data("keep me".utf8))
    }

    /// One replicator per database: a second one, to any store, is refused
    /// while the first runs, and starts once it stopped.
    @Test func aSecondReplicatorIsRefused() async throws {
        let dir = try TemporaryDirectory()
        let dbPool = try makePool(dir)
        let replicator = try await DatabaseReplicator.start(
            dbPool, to: try FolderReplicaStore(path: dir.path("replica")), options: options())
        #expect(FileManager.default.fileExists(atPath: dbPool.path + ".replicator"))
        await #expect(throws: ReplicaError.self) {
            _ = try await DatabaseReplicator.start(dbPool, to: try FolderReplicaStore(path: dir.path("other")))
        }
        let other = try DatabasePool(path: dir.path("db.sqlite"), configuration: key.configuration)
        await #expect(throws: ReplicaError.self) {
            _ = try await DatabaseReplicator.start(other, to: try FolderReplicaStore(path: dir.path("other")))
        }
        try await other.close()
        await replicator.stop()
        #expect(!FileManager.default.fileExists(atPath: dbPool.path + ".replicator"))
        let next = try await DatabaseReplicator.start(dbPool, to: try FolderReplicaStore(path: dir.path("replica")), options: options())
        try await next.sync()
        await next.stop()
    }

    /// A last object that does not authenticate is not continued: the
    /// next replicator starts a new generation, and the replica restores.
    @Test func anAlteredLastObjectStartsANewGeneration() async throws {
        let dir = try TemporaryDirectory()
        let dbPool = try makePool(dir)
        let store = try FolderReplicaStore(path: dir.path("replica"))
        let first = try await DatabaseReplicator.start(dbPool, to: store, options: options())
        try await insert(dbPool, 0..<5)
        try await first.sync()
        await first.stop()
        let last = try #require(try await store.names(withPrefix: "generations/").max())
        var data = try #require(try await store.read(last))
        data[data.endIndex - 20] ^= 0x01
        try await store.write(data, to: last)
        let second = try await DatabaseReplicator.start(dbPool, to: store, options: options())
        try await insert(dbPool, 5..<8)
        try await second.sync()
        #expect(second.status.generationsStarted == 1)
        await second.stop()
        let restored = dir.path("restored.sqlite")
        try await DatabaseReplica(store: store, key: key.databaseKey).restore(to: restored)
        #expect(try shellIDs(restored) == Array(0..<8))
    }

    /// A start that fails (the store does not answer) leaves SQLite's
    /// automatic checkpoints on and the database free for the next start.
    @Test func aFailedStartLeavesTheDatabaseAsItWas() async throws {
        let dir = try TemporaryDirectory()
        let dbPool = try makePool(dir)
        let store = FlakyStore(base: try FolderReplicaStore(path: dir.path("replica")))
        store.failing = true
        await #expect(throws: ReplicaError.self) { _ = try await DatabaseReplicator.start(dbPool, to: store) }
        #expect(try await dbPool.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA wal_autocheckpoint") } == 1000)
        #expect(!FileManager.default.fileExists(atPath: dbPool.path + ".replicator"))
        store.failing = false
        let replicator = try await DatabaseReplicator.start(dbPool, to: store, options: options())
        #expect(try await dbPool.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA wal_autocheckpoint") } == 0)
        await replicator.stop()
        #expect(try await dbPool.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA wal_autocheckpoint") } == 1000)
    }

    @Test func aDatabaseNotInWALModeIsRefused() async throws {
        let dir = try TemporaryDirectory()
        let dbQueue = try DatabaseQueue(path: dir.path("db.sqlite"), configuration: key.configuration)
        let store = try FolderReplicaStore(path: dir.path("replica"))
        await #expect(throws: ReplicaError.self) {
            _ = try await DatabaseReplicator.start(dbQueue, to: store, key: key.databaseKey)
        }
    }

    /// While the store fails, commits go on and the lag grows; once it
    /// answers again, everything is shipped.
    @Test func aFailingStoreDelaysShippingAndLosesNothing() async throws {
        let dir = try TemporaryDirectory()
        let dbPool = try makePool(dir)
        let store = FlakyStore(base: try FolderReplicaStore(path: dir.path("replica")))
        let replicator = try await DatabaseReplicator.start(dbPool, to: store, key: key.databaseKey, options: options())
        try await insert(dbPool, 0..<10)
        try await replicator.sync()
        store.failing = true
        try await insert(dbPool, 10..<20)
        await #expect(throws: ReplicaError.self) { try await replicator.sync() }
        #expect(replicator.status.lastError != nil)
        #expect(replicator.status.lag > .zero)
        store.failing = false
        try await replicator.sync()
        #expect(replicator.status.lastError == nil)
        #expect(replicator.status.lag == .zero)
        await replicator.stop()
        let restored = dir.path("restored.sqlite")
        try await DatabaseReplica(store: store, key: key.databaseKey).restore(to: restored, configuration: key.configuration)
        #expect(try shellIDs(restored) == Array(0..<20))
    }

    /// A passphrase derives the metadata key with PBKDF2: the same
    /// passphrase restores, another one is the wrong key.
    @Test func aPassphraseReplica() async throws {
        let dir = try TemporaryDirectory()
        let dbPool = try DatabasePool(path: dir.path("db.sqlite"), configuration: keyed("p"))
        try await dbPool.write { db in try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY); INSERT INTO t VALUES (1)") }
        let store = try FolderReplicaStore(path: dir.path("replica"))
        let replicator = try await DatabaseReplicator.start(dbPool, to: store, key: .passphrase("p"), options: options())
        try await replicator.sync()
        await replicator.stop()
        let restored = dir.path("restored.sqlite")
        try await DatabaseReplica(store: store, key: .passphrase("p")).restore(to: restored, configuration: keyed("p"))
        let count = try await DatabaseQueue(path: restored, configuration: keyed("p")).read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM t")
        }
        #expect(count == 1)
        await #expect(throws: ReplicaError.wrongKey) {
            try await DatabaseReplica(store: store, key: .passphrase("q")).restore(to: dir.path("other.sqlite"))
        }
    }
}

/// A store that fails every write while `failing` is set.
final class FlakyStore: ReplicaStore, @unchecked Sendable {
    // Safe: `failing` is only touched while `lock` is held.
    private let base: FolderReplicaStore
    private let lock = NSLock()
    private var isFailing = false

    init(base: FolderReplicaStore) { self.base = base }

    var failing: Bool {
        get { lock.withLock { isFailing } }
        set { lock.withLock { isFailing = newValue } }
    }

    func write(_ data: Data, to name: String) async throws {
        if failing { throw ReplicaError.store("injected failure") }
        try await base.write(data, to: name)
    }

    func read(_ name: String) async throws -> Data? { try await base.read(name) }
    func names(withPrefix prefix: String) async throws -> [String] { try await base.names(withPrefix: prefix) }
    func delete(_ name: String) async throws { try await base.delete(name) }
}
