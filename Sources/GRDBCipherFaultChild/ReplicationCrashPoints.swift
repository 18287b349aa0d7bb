// The replication operation of the crash-point matrix: a replicator ships a
// pool's commits to a folder store (`replica/` in the crash-point folder, so
// that its file-system calls count) and checkpoints the WAL itself, while
// rows are written. `run` prints ACK <rows> each time the store holds that
// many rows (a `sync()` that returned); `next` does what an operator does
// after a crash: restores the replica as the crash left it
// (restored-crash.sqlite), then restarts the replicator on the database, and
// restores again (restored.sqlite).
//
// `replicate-rekey` changes the key of the pool halfway (raw key 5a... to
// a5...): a crash may leave the database and the replica's latest
// generation under either key, and the next step uses the one that opens.
import Foundation
import GRDBCipher

enum ReplicationCrashPoint {
    /// A raw key: the replica's metadata key then costs one PBKDF2
    /// iteration, which keeps the many trials of the matrix short.
    static let rawKeyHex = String(repeating: "5a", count: 32)

    static func key() throws -> DatabaseKey {
        try .rawKey(Data(repeating: 0x5a, count: 32))
    }

    /// The key of `replicate-rekey` after its change.
    static func newKey() throws -> DatabaseKey {
        try .rawKey(Data(repeating: 0xa5, count: 32))
    }

    static func configuration(_ key: DatabaseKey? = nil) throws -> Configuration {
        var config = Configuration()
        config.key = try key ?? Self.key()
        config.journalMode = .wal
        return config
    }

    /// The key that opens the database now: the new one, or the old one.
    static func currentKey(of path: String, changingKey: Bool) throws -> DatabaseKey {
        guard changingKey else { return try key() }
        do {
            let dbQueue = try DatabaseQueue(path: path, configuration: configuration(newKey()))
            _ = try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") }
            try dbQueue.close()
            return try newKey()
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            return try key()
        }
    }

    static func options() -> DatabaseReplicator.Options {
        var options = DatabaseReplicator.Options()
        options.pollInterval = .seconds(5)   // sync() wakes it: no idle polls to count
        // Small: the run restarts the WAL (a checkpoint) several times.
        options.checkpointSize = 6 << 10
        return options
    }

    static func run(step: String, dir: String, changingKey: Bool = false) throws {
        let db = dir + "/db.sqlite"
        switch step {
        case "setup":
            let dbPool = try DatabasePool(path: db, configuration: configuration())
            try dbPool.write { db in
                try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, payload TEXT)")
                for index in 0..<CrashPointKeys.rows {
                    try db.execute(sql: "INSERT INTO t (payload) VALUES (?)", arguments: ["row \(index) " + String(repeating: "x", count: 400)])
                }
            }
            try dbPool.close()
        case "run":
            try blocking {
                let dbPool = try DatabasePool(path: db, configuration: configuration())
                let store = try FolderReplicaStore(path: dir + "/replica")
                let replicator = try await DatabaseReplicator.start(dbPool, to: store, options: options())
                var rows = CrashPointKeys.rows
                try await syncRetrying(replicator)
                acknowledge("ACK \(rows)")
                for index in 0..<6 {
                    do {
                        try await dbPool.write { db in
                            try db.execute(sql: "INSERT INTO t (payload) VALUES (?)", arguments: ["more \(index) " + String(repeating: "y", count: 1500)])
                        }
                        rows += 1
                    } catch {
                        // A write the faults failed: it was not acknowledged.
                        continue
                    }
                    try await syncRetrying(replicator)
                    acknowledge("ACK \(rows)")
                    if changingKey && index == 2 {
                        // A failed change leaves the old key: the rows go on.
                        try? await dbPool.changeKey(newKey())
                    }
                }
                await replicator.stop()
                try dbPool.close()
            }
            acknowledge("DONE")
        case "next":
            try reportNextStep {
                try blocking {
                    let store = try FolderReplicaStore(path: dir + "/replica")
                    // The replica's latest generation is under the new key
                    // once the replicator saw the change; before, the old one.
                    var crashFailure: (any Error)?
                    for key in changingKey ? [try newKey(), try key()] : [try key()] {
                        do {
                            try await DatabaseReplica(store: store, key: key).restore(to: dir + "/restored-crash.sqlite")
                            crashFailure = nil
                            break
                        } catch ReplicaError.wrongKey {
                            crashFailure = ReplicaError.wrongKey
                        } catch {
                            crashFailure = error
                            break
                        }
                    }
                    if let crashFailure { acknowledge("RESTORE-CRASH-FAILED \(crashFailure)") }
                    let key = try currentKey(of: db, changingKey: changingKey)
                    let dbPool = try DatabasePool(path: db, configuration: configuration(key))
                    let replicator = try await DatabaseReplicator.start(dbPool, to: store, options: options())
                    try await syncRetrying(replicator)
                    await replicator.stop()
                    try dbPool.close()
                    try await DatabaseReplica(store: store, key: key).restore(to: dir + "/restored.sqlite")
                }
            }
        default:
            throw UsageError(description: "unknown step of replicate: \(step)")
        }
    }

    /// `restore-envelope`'s setup: the enveloped database, replicated to
    /// `replica/`, then closed.
    static func replicateEnveloped(dir: String, configuration: Configuration) throws {
        try blocking {
            let dbPool = try DatabasePool(path: dir + "/db.sqlite", configuration: configuration)
            let replicator = try await DatabaseReplicator.start(dbPool, to: try FolderReplicaStore(path: dir + "/replica"))
            try await replicator.sync()
            await replicator.stop()
            try dbPool.close()
        }
    }

    /// `restore-envelope`: a restore, with the key-encryption key, of the
    /// database and its envelope into restored.sqlite (`run`); the user
    /// runs it again (`next`).
    static func restoreEnveloped(step: String, dir: String, keyEncryptionKey: KeyEncryptionKey) throws {
        let output = dir + "/restored.sqlite"
        let restore: @Sendable () async throws -> Void = {
            let replica = DatabaseReplica(store: try FolderReplicaStore(path: dir + "/replica"), keyEncryptionKey: keyEncryptionKey)
            try await replica.restore(to: output)
        }
        switch step {
        case "run":
            do {
                try blocking(restore)
                acknowledge("DONE")
            } catch {
                acknowledge("FAILED " + "\(error)".replacingOccurrences(of: "\n", with: " "))
            }
        case "next":
            // The user runs the restore again; an output that exists says
            // the first one got there.
            try reportNextStep {
                do {
                    try blocking(restore)
                } catch ReplicaError.outputExists(output) {
                }
            }
        default:
            throw UsageError(description: "unknown step of restore-envelope: \(step)")
        }
    }

    /// A sync that a failed file-system call made fail is tried again: the
    /// store comes back.
    static func syncRetrying(_ replicator: DatabaseReplicator) async throws {
        var attempts = 0
        while true {
            do {
                try await replicator.sync()
                return
            } catch {
                attempts += 1
                if attempts >= 20 { throw error }
                try await Task.sleep(for: .milliseconds(5))
            }
        }
    }

    private static func reportNextStep(_ body: () throws -> Void) throws {
        do {
            try body()
            acknowledge("NEXT-DONE")
        } catch {
            acknowledge("NEXT-FAILED " + "\(error)".replacingOccurrences(of: "\n", with: " "))
        }
    }

    /// Runs async work from the synchronous child.
    private static func blocking(_ work: @escaping @Sendable () async throws -> Void) throws {
        let done = DispatchSemaphore(value: 0)
        let outcome = Outcome()
        Task {
            do {
                try await work()
            } catch {
                outcome.error = error
            }
            done.signal()
        }
        done.wait()
        if let error = outcome.error { throw error }
    }

    private final class Outcome: @unchecked Sendable {
        // Safe: written by the task before it signals, read after the wait.
        var error: (any Error)?
    }
}
