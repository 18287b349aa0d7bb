import Foundation
import GRDBCipherTesting
import Testing
@testable import GRDBCipher

/// Retention: once a snapshot older than the retention exists, what
/// precedes it leaves the store, and every state since the cutoff still
/// restores. And a restored database replicates again.
@Suite struct ReplicationRetentionTests {
    let key = TestKey.insecureRandomRawKey()

    private func insert(_ dbPool: DatabasePool, _ range: Range<Int>) async throws {
        try await dbPool.write { db in
            for index in range { try db.execute(sql: "INSERT INTO t(id) VALUES (?)", arguments: [index]) }
        }
    }

    private func shellIDs(_ path: String) throws -> [Int] {
        try SQLCipherShell.run(path, key: key, script: "SELECT id FROM t ORDER BY id;")
            .split(separator: "\n").compactMap { Int($0) }
    }

    @Test func objectsBeforeTheLastSnapshotOlderThanTheRetentionAreDeleted() async throws {
        let dir = try TemporaryDirectory()
        let dbPool = try DatabasePool(path: dir.path("db.sqlite"), configuration: key.configuration)
        try await dbPool.write { db in try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY)") }
        let store = try FolderReplicaStore(path: dir.path("replica"))
        var options = DatabaseReplicator.Options()
        options.pollInterval = .milliseconds(5)
        options.snapshotInterval = .milliseconds(150)
        options.retention = .milliseconds(400)
        let replicator = try await DatabaseReplicator.start(dbPool, to: store, options: options)
        try await insert(dbPool, 0..<5)
        try await replicator.sync()
        let firstGeneration = try #require(replicator.status.generation)
        // A commit the replicator has not read, checkpointed by another
        // connection: a gap, and a second generation.
        try await dbPool.writeWithoutTransaction { db in
            try db.execute(sql: "INSERT INTO t(id) VALUES (5)")
            try db.checkpoint(.truncate)
        }
        var times: [(Date, Int)] = []
        for batch in 1..<12 {
            try await insert(dbPool, (batch * 5 + 1)..<(batch * 5 + 6))
            try await replicator.sync()
            times.append((Date(), batch * 5 + 6))
            try await Task.sleep(for: .milliseconds(100))
        }
        await replicator.stop()

        let names = try await store.names(withPrefix: "generations/")
        #expect(!names.contains { $0.contains(firstGeneration) }, "the first generation is past the retention")
        let replica = DatabaseReplica(store: store, key: key.databaseKey)
        let generations = try await replica.generations()
        let earliest = try #require(generations.first?.firstTime)
        #expect(earliest <= Date().addingTimeInterval(-0.4), "a restore reaches back the whole retention")
        #expect(try #require(generations.last).snapshotTimes.count < 8, "early snapshots of the generation were deleted")
        // Every state since the earliest time kept restores, whole.
        for (index, (time, count)) in times.enumerated() where time >= earliest {
            let path = dir.path("at-\(index).sqlite")
            try await replica.restore(to: path, at: time)
            #expect(try shellIDs(path) == Array(0..<count))
        }
        await #expect(throws: ReplicaError.self) {
            try await replica.restore(to: dir.path("too-early.sqlite"), at: earliest.addingTimeInterval(-0.05))
        }
        #expect(!FileManager.default.fileExists(atPath: dir.path("too-early.sqlite")))
    }

    /// A database restored from its replica, then replicated to the same
    /// store: a new generation, and a restore of the newest state.
    @Test func aRestoredDatabaseReplicatesAgain() async throws {
        let dir = try TemporaryDirectory()
        let store = try FolderReplicaStore(path: dir.path("replica"))
        var options = DatabaseReplicator.Options()
        options.pollInterval = .milliseconds(5)
        do {
            let dbPool = try DatabasePool(path: dir.path("lost.sqlite"), configuration: key.configuration)
            try await dbPool.write { db in try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY)") }
            let replicator = try await DatabaseReplicator.start(dbPool, to: store, options: options)
            try await insert(dbPool, 0..<10)
            try await replicator.sync()
            await replicator.stop()
            try await dbPool.close()
        }
        let restored = dir.path("restored.sqlite")
        try await DatabaseReplica(store: store, key: key.databaseKey).restore(to: restored)
        let dbPool = try DatabasePool(path: restored, configuration: key.configuration)
        let replicator = try await DatabaseReplicator.start(dbPool, to: store, options: options)
        try await insert(dbPool, 10..<15)
        try await replicator.sync()
        #expect(replicator.status.generationsStarted == 1)
        await replicator.stop()
        try await dbPool.close()
        let again = dir.path("again.sqlite")
        try await DatabaseReplica(store: store, key: key.databaseKey).restore(to: again)
        #expect(try shellIDs(again) == Array(0..<15))
        #expect(try await DatabaseReplica(store: store, key: key.databaseKey).generations().count == 2)
    }
}
