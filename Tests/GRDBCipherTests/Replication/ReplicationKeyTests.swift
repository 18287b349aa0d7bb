import Foundation
import GRDBCipherTesting
import Testing
@testable import GRDBCipher

/// Replication across key changes, and of enveloped databases: each
/// generation is under one key, a key change starts a generation under the
/// new key without shipping a frame of the new key into the old one, and an
/// envelope travels with the replica.
@Suite struct ReplicationKeyTests {
    private func options() -> DatabaseReplicator.Options {
        var options = DatabaseReplicator.Options()
        options.pollInterval = .milliseconds(1)
        return options
    }

    private func insert(_ writer: some DatabaseWriter, _ range: Range<Int>) async throws {
        try await writer.write { db in
            for index in range {
                try db.execute(sql: "INSERT INTO t(id, note) VALUES (?, ?)", arguments: [index, "secret note \(index)"])
            }
        }
    }

    private func shellIDs(_ path: String, _ key: TestKey) throws -> [Int] {
        try SQLCipherShell.run(path, key: key, script: "SELECT id FROM t ORDER BY id;")
            .split(separator: "\n").compactMap { Int($0) }
    }

    /// While writes run, the key changes twice. The old key restores each
    /// state of its own generations (every generation restored at its last
    /// time passes both integrity checks: no frame of a later key leaked
    /// into it), and only the last key restores the latest state.
    @Test func aKeyChangeStartsAGenerationUnderTheNewKey() async throws {
        let dir = try TemporaryDirectory()
        let keys = [TestKey.insecureRandomRawKey(), TestKey.insecureRandomRawKey(), TestKey.insecureRandomRawKey()]
        let dbPool = try DatabasePool(path: dir.path("db.sqlite"), configuration: keys[0].configuration)
        try await dbPool.write { db in try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY, note TEXT)") }
        let store = try FolderReplicaStore(path: dir.path("replica"))
        let replicator = try await DatabaseReplicator.start(dbPool, to: store, options: options())
        let writes = Task {
            for batch in 0..<60 {
                try await insert(dbPool, (batch * 10)..<(batch * 10 + 10))
            }
        }
        // Each change happens while commits go on; the replicator ships
        // under each key before the next change.
        try await Task.sleep(for: .milliseconds(20))
        try await dbPool.changeKey(keys[1].databaseKey)
        try await replicator.sync()
        try await dbPool.changeKey(keys[2].databaseKey)
        try await writes.value
        try await replicator.sync()
        await replicator.stop()

        let listed = try await DatabaseReplica(store: store, key: keys[2].databaseKey).generations()
        #expect(listed.count >= 3)
        #expect(listed.last?.opensWithKey == true)
        #expect(listed.first?.opensWithKey == false)
        var restoredGenerations = 0
        for key in keys.dropLast() {
            let replica = DatabaseReplica(store: store, key: key.databaseKey)
            await #expect(throws: ReplicaError.wrongKey) { try await replica.restore(to: dir.path("latest-old-key.sqlite")) }
            for generation in try await replica.generations() where generation.opensWithKey {
                let path = dir.path("generation-\(restoredGenerations).sqlite")
                try await replica.restore(to: path, at: generation.lastTime)
                let ids = try shellIDs(path, key)
                #expect(ids == Array(0..<ids.count))
                restoredGenerations += 1
            }
        }
        #expect(restoredGenerations >= 2)
        let latest = dir.path("latest.sqlite")
        try await DatabaseReplica(store: store, key: keys[2].databaseKey).restore(to: latest)
        #expect(try shellIDs(latest, keys[2]) == Array(0..<600))
    }

    /// A key changed while no replicator ran: the next one starts a new
    /// generation under the new key instead of refusing the replica.
    @Test func aReplicatorStartedAfterAKeyChangeStartsANewGeneration() async throws {
        let dir = try TemporaryDirectory()
        let (old, new) = (TestKey.insecureRandomRawKey(), TestKey.insecureRandomRawKey())
        let path = dir.path("db.sqlite")
        let store = try FolderReplicaStore(path: dir.path("replica"))
        do {
            let dbPool = try DatabasePool(path: path, configuration: old.configuration)
            try await dbPool.write { db in try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY, note TEXT)") }
            try await insert(dbPool, 0..<5)
            let replicator = try await DatabaseReplicator.start(dbPool, to: store, options: options())
            try await replicator.sync()
            await replicator.stop()
            try await dbPool.close()
        }
        let dbQueue = try DatabaseQueue(path: path, configuration: old.configuration)
        try await dbQueue.changeKey(new.databaseKey)
        try await dbQueue.close()

        let dbPool = try DatabasePool(path: path, configuration: new.configuration)
        try await insert(dbPool, 5..<9)
        let replicator = try await DatabaseReplicator.start(dbPool, to: store, options: options())
        try await replicator.sync()
        #expect(replicator.status.generationsStarted == 1)
        await replicator.stop()
        let restored = dir.path("restored.sqlite")
        try await DatabaseReplica(store: store, key: new.databaseKey).restore(to: restored)
        #expect(try shellIDs(restored, new) == Array(0..<9))
    }

    /// The key given must be the connection's; a connection keyed by a
    /// `PRAGMA key` statement needs it.
    @Test func theKeyGivenIsTheConnections() async throws {
        let dir = try TemporaryDirectory()
        let key = TestKey.insecureRandomRawKey()
        let dbPool = try DatabasePool(path: dir.path("db.sqlite"), configuration: key.configuration)
        let store = try FolderReplicaStore(path: dir.path("replica"))
        await #expect(throws: ReplicaError.wrongKey) {
            _ = try await DatabaseReplicator.start(dbPool, to: store, key: TestKey.insecureRandomRawKey().databaseKey)
        }
        try await dbPool.close()

        var configuration = Configuration()
        let secret = "pragma keyed"
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA key = '\(secret)'") }
        let pragmaPool = try DatabasePool(path: dir.path("pragma.sqlite"), configuration: configuration)
        try await pragmaPool.write { db in try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY, note TEXT)") }
        let pragmaStore = try FolderReplicaStore(path: dir.path("pragma-replica"))
        await #expect(throws: ReplicaError.self) { _ = try await DatabaseReplicator.start(pragmaPool, to: pragmaStore) }
        let replicator = try await DatabaseReplicator.start(pragmaPool, to: pragmaStore, key: .passphrase(secret), options: options())
        try await insert(pragmaPool, 0..<3)
        try await replicator.sync()
        await replicator.stop()
        let restored = dir.path("pragma-restored.sqlite")
        try await DatabaseReplica(store: pragmaStore, key: .passphrase(secret)).restore(to: restored)
        #expect(try shellIDs(restored, .passphrase(secret)) == [0, 1, 2])
    }

    /// The replica of an enveloped database carries its envelope: the
    /// key-encryption key restores the database and its envelope, a rewrap
    /// made while replicating is shipped, and another key-encryption key
    /// is the wrong key.
    @Test func anEnvelopedDatabaseRestoresWithItsKeyEncryptionKey() async throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        let kek = try KeyEncryptionKey.rawKey(Data((0..<32).map { _ in UInt8.random(in: 0...255) }))
        let rewrapped = try KeyEncryptionKey.rawKey(Data((0..<32).map { _ in UInt8.random(in: 0...255) }))
        var configuration = Configuration()
        configuration.key = try DatabaseEnvelope.create(forDatabaseAt: path, keyEncryptionKey: kek)
        let dbPool = try DatabasePool(path: path, configuration: configuration)
        try await dbPool.write { db in try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY, note TEXT)") }
        let store = try FolderReplicaStore(path: dir.path("replica"))
        let replicator = try await DatabaseReplicator.start(dbPool, to: store, options: options())
        try await insert(dbPool, 0..<10)
        try await replicator.sync()
        try DatabaseEnvelope.rewrap(forDatabaseAt: path, from: kek, to: rewrapped)
        try await insert(dbPool, 10..<20)
        try await replicator.sync()
        await replicator.stop()
        try await dbPool.close()
        // The machine is lost.
        for suffix in ["", "-wal", "-shm", ".envelope"] { try? FileManager.default.removeItem(atPath: path + suffix) }

        let generations = try await DatabaseReplica(store: store, keyEncryptionKey: rewrapped).generations()
        #expect(generations.map(\.holdsEnvelope) == [true])
        let restored = dir.path("restored.sqlite")
        try await DatabaseReplica(store: store, keyEncryptionKey: rewrapped).restore(to: restored)
        let unwrapped = try DatabaseEnvelope.unwrap(forDatabaseAt: restored, keyEncryptionKey: rewrapped)
        var restoredConfiguration = Configuration()
        restoredConfiguration.key = unwrapped.key
        let ids = try await DatabaseQueue(path: restored, configuration: restoredConfiguration).read { db in
            try Int.fetchAll(db, sql: "SELECT id FROM t ORDER BY id")
        }
        #expect(ids == Array(0..<20))
        let envelopeMode = try FileManager.default.attributesOfItem(atPath: restored + ".envelope")[.posixPermissions] as? Int
        #expect(envelopeMode == 0o600)

        let other = try KeyEncryptionKey.rawKey(Data(repeating: 7, count: 32))
        await #expect(throws: ReplicaError.wrongKey) {
            try await DatabaseReplica(store: store, keyEncryptionKey: other).restore(to: dir.path("other.sqlite"))
        }
        #expect(!FileManager.default.fileExists(atPath: dir.path("other.sqlite")))
        #expect(!FileManager.default.fileExists(atPath: dir.path("other.sqlite.envelope")))
        // An existing envelope is never replaced.
        let blocked = dir.path("blocked.sqlite")
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: blocked + ".envelope"))
        await #expect(throws: ReplicaError.outputExists(blocked + ".envelope")) {
            try await DatabaseReplica(store: store, keyEncryptionKey: rewrapped).restore(to: blocked)
        }
        #expect(!FileManager.default.fileExists(atPath: blocked))
        // A restore interrupted after the envelope got its name, before the
        // database did: the retry keeps the envelope and writes the database.
        let interrupted = dir.path("interrupted.sqlite")
        try FileManager.default.copyItem(atPath: restored + ".envelope", toPath: interrupted + ".envelope")
        try await DatabaseReplica(store: store, keyEncryptionKey: rewrapped).restore(to: interrupted)
        #expect(try DatabaseEnvelope.unwrap(forDatabaseAt: interrupted, keyEncryptionKey: rewrapped).key.isRawKey)
        // The data key restores the database alone.
        let byDataKey = dir.path("by-data-key.sqlite")
        try await DatabaseReplica(store: store, key: unwrapped.key).restore(to: byDataKey)
        #expect(!FileManager.default.fileExists(atPath: byDataKey + ".envelope"))
        // An envelope object the store altered is not believed, by either key.
        let envelopes = try await store.names(withPrefix: "generations/").filter { $0.contains("-envelope-") }
        #expect(!envelopes.isEmpty)
        for name in envelopes {
            var data = try #require(try await store.read(name))
            data[data.startIndex + 10] ^= 0x01
            try await store.write(data, to: name)
        }
        await #expect(throws: ReplicaError.self) {
            try await DatabaseReplica(store: store, keyEncryptionKey: rewrapped).restore(to: dir.path("altered.sqlite"))
        }
        #expect(!FileManager.default.fileExists(atPath: dir.path("altered.sqlite")))
        #expect(!FileManager.default.fileExists(atPath: dir.path("altered.sqlite.envelope")))
        await #expect(throws: ReplicaError.self) {
            try await DatabaseReplica(store: store, key: unwrapped.key).restore(to: dir.path("altered-by-data-key.sqlite"))
        }
    }
}
