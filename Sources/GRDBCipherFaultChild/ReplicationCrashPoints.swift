// The replication operation of the crash-point matrix: a replicator ships a
// pool's commits to a folder store (`replica/` in the crash-point folder, so
// that its file-system calls count) and checkpoints the WAL itself, while
// rows are written. `run` prints ACK <rows> each time the store holds that
// many rows (a `sync()` that returned); `next` does what an operator does
// after a crash: restores the replica as the crash left it
// (restored-crash.sqlite), then restarts the replicator on the database, and
// restores again (restored.sqlite).
import Foundation
import GRDBCipher

enum ReplicationCrashPoint {
    /// A raw key: the replica's metadata key then costs one PBKDF2
    /// iteration, which keeps the many trials of the matrix short.
    static let rawKeyHex = String(repeating: "5a", count: 32)

    static func key() throws -> DatabaseKey {
        try .rawKey(Data(repeating: 0x5a, count: 32))
    }

    static func configuration() throws -> Configuration {
        var config = Configuration()
        config.key = try key()
        config.journalMode = .wal
        return config
    }

    static func options() -> DatabaseReplicator.Options {
        var options = DatabaseReplicator.Options()
        options.pollInterval = .seconds(5)   // sync() wakes it: no idle polls to count
        // Small: the run restarts the WAL (a checkpoint) several times.
        options.checkpointSize = 6 << 10
        return options
    }

    static func run(step: String, dir: String) throws {
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
                let replicator = try await DatabaseReplicator.start(dbPool, to: store, key: key(), options: options())
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
                }
                await replicator.stop()
                try dbPool.close()
            }
            acknowledge("DONE")
        case "next":
            try reportNextStep {
                try blocking {
                    let store = try FolderReplicaStore(path: dir + "/replica")
                    let replica = DatabaseReplica(store: store, key: try key())
                    do {
                        try await replica.restore(to: dir + "/restored-crash.sqlite", configuration: configuration())
                    } catch {
                        acknowledge("RESTORE-CRASH-FAILED \(error)")
                    }
                    let dbPool = try DatabasePool(path: db, configuration: configuration())
                    let replicator = try await DatabaseReplicator.start(dbPool, to: store, key: key(), options: options())
                    try await syncRetrying(replicator)
                    await replicator.stop()
                    try dbPool.close()
                    try await replica.restore(to: dir + "/restored.sqlite", configuration: configuration())
                }
            }
        default:
            throw UsageError(description: "unknown step of replicate: \(step)")
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
