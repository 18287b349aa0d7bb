// Replication's costs: commit throughput with a replicator running, as a
// ratio to none on the same file; the lag of a commit behind the store
// under a steady write load; and the restore of a large database from a
// folder replica, as a ratio to copying its bytes.
//
//   swift run -c release --package-path Benchmarks ReplicationCost [MB]
import Foundation
import GRDBCipher

let key = try DatabaseKey.rawKey(Data(repeating: 0x42, count: 32))
let configuration: Configuration = {
    var configuration = Configuration()
    configuration.key = key
    return configuration
}()

func temporaryFolder() throws -> String {
    let path = NSTemporaryDirectory() + "replication-cost-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

func percentile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
}

/// A folder store that records when each object was acknowledged.
final class TimedStore: ReplicaStore, @unchecked Sendable {
    // Safe: `acknowledged` is only touched while `lock` is held.
    let base: FolderReplicaStore
    private let lock = NSLock()
    private var acknowledged: [(name: String, at: Date)] = []

    init(base: FolderReplicaStore) { self.base = base }

    func write(_ data: Data, to name: String) async throws {
        try await base.write(data, to: name)
        let now = Date()
        lock.withLock { acknowledged.append((name, now)) }
    }

    func read(_ name: String) async throws -> Data? { try await base.read(name) }
    func names(withPrefix prefix: String) async throws -> [String] { try await base.names(withPrefix: prefix) }
    func delete(_ name: String) async throws { try await base.delete(name) }

    /// Each object's read time (from its name) and acknowledgement time.
    var objects: [(readAt: Date, acknowledgedAt: Date)] {
        lock.withLock {
            acknowledged.compactMap { entry in
                guard let millis = entry.name.split(separator: "-").last.flatMap({ Int64($0) }) else { return nil }
                return (Date(timeIntervalSince1970: Double(millis) / 1000), entry.at)
            }
        }
    }
}

func insertOne(_ dbPool: DatabasePool, _ index: Int) async throws {
    try await dbPool.write { db in
        try db.execute(sql: "INSERT INTO t(note) VALUES (?)", arguments: ["note \(index) " + String(repeating: "z", count: 150)])
    }
}

// 1. Throughput: paired rounds, alternating which side goes first; the
// ratio of each pair, so that the machine's drift between rounds (the
// disk's flushes, other processes) cancels out.
func throughput() async throws -> (off: Double, on: Double, ratios: [Double]) {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let dbPool = try DatabasePool(path: folder + "/db.sqlite", configuration: configuration)
    try await dbPool.write { db in try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY, note TEXT)") }
    let commits = 4_000
    var off: [Double] = []
    var on: [Double] = []
    var ratios: [Double] = []
    var counter = 0
    for round in 0..<15 {
        var pair: [Bool: Double] = [:]
        for replicated in (round % 2 == 0 ? [false, true] : [true, false]) {
            var replicator: DatabaseReplicator?
            if replicated {
                replicator = try await DatabaseReplicator.start(
                    dbPool, to: try FolderReplicaStore(path: folder + "/replica-\(round)"))
                try await replicator!.sync()
            }
            let start = ContinuousClock.now
            for _ in 0..<commits {
                try await insertOne(dbPool, counter)
                counter += 1
            }
            let seconds = (ContinuousClock.now - start) / .seconds(1)
            if let replicator {
                try await replicator.sync()
                await replicator.stop()
            } else {
                try dbPool.checkpoint(.truncate)
            }
            pair[replicated] = Double(commits) / seconds
        }
        off.append(pair[false]!)
        on.append(pair[true]!)
        ratios.append(pair[true]! / pair[false]!)
    }
    try dbPool.close()
    return (median(off), median(on), ratios)
}

// 2. Lag under a steady load: a commit every 5 ms for 10 s.
func lag() async throws -> (p50: Double, p99: Double, max: Double, commits: Int) {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let dbPool = try DatabasePool(path: folder + "/db.sqlite", configuration: configuration)
    try await dbPool.write { db in try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY, note TEXT)") }
    let store = TimedStore(base: try FolderReplicaStore(path: folder + "/replica"))
    let replicator = try await DatabaseReplicator.start(dbPool, to: store)
    try await replicator.sync()
    var commitTimes: [Date] = []
    let end = ContinuousClock.now + .seconds(10)
    var index = 0
    while ContinuousClock.now < end {
        try await insertOne(dbPool, index)
        commitTimes.append(Date())
        index += 1
        try await Task.sleep(for: .milliseconds(5))
    }
    try await replicator.sync()
    await replicator.stop()
    try dbPool.close()
    let objects = store.objects.sorted { $0.readAt < $1.readAt }
    var lags: [Double] = []
    for committed in commitTimes {
        // The first object read after the commit holds it (read times are
        // in milliseconds: one millisecond of slack).
        guard let object = objects.first(where: { $0.readAt.timeIntervalSince(committed) >= -0.001 }) else { continue }
        lags.append(max(0, object.acknowledgedAt.timeIntervalSince(committed)) * 1000)
    }
    return (percentile(lags, 0.5), percentile(lags, 0.99), lags.max() ?? 0, commitTimes.count)
}

// 3. Restore of a large database, against copying its bytes.
func restore(megabytes: Int) async throws -> (restore: Double, copy: Double, verify: Double, size: Int) {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/db.sqlite"
    let dbPool = try DatabasePool(path: path, configuration: configuration)
    let payload = String(repeating: "p", count: 1000)
    try await dbPool.write { db in
        try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY, note TEXT)")
        for index in 0..<(megabytes * 1000) {
            try db.execute(sql: "INSERT INTO t(note) VALUES (?)", arguments: ["\(index) " + payload])
        }
    }
    try dbPool.checkpoint(.truncate)
    let replica = folder + "/replica"
    let replicator = try await DatabaseReplicator.start(dbPool, to: try FolderReplicaStore(path: replica))
    try await replicator.sync()
    for index in 0..<100 { try await insertOne(dbPool, index) }
    try await replicator.sync()
    await replicator.stop()
    try dbPool.checkpoint(.truncate)
    let size = ((try FileManager.default.attributesOfItem(atPath: path))[.size] as? NSNumber)?.intValue ?? 0
    var restores: [Double] = []
    var copies: [Double] = []
    var verifies: [Double] = []
    for round in 0..<3 {
        let copyStart = ContinuousClock.now
        try FileManager.default.copyItem(atPath: path, toPath: folder + "/copy-\(round).sqlite")
        copies.append((ContinuousClock.now - copyStart) / .seconds(1))
        let restoreStart = ContinuousClock.now
        try await DatabaseReplica(store: try FolderReplicaStore(path: replica), key: key)
            .restore(to: folder + "/restored-\(round).sqlite", configuration: configuration)
        restores.append((ContinuousClock.now - restoreStart) / .seconds(1))
        let verifyStart = ContinuousClock.now
        let queue = try DatabaseQueue(path: folder + "/copy-\(round).sqlite", configuration: configuration)
        _ = try await queue.read { db in
            (try String.fetchAll(db, sql: "PRAGMA cipher_integrity_check"), try String.fetchAll(db, sql: "PRAGMA integrity_check"))
        }
        try await queue.close()
        verifies.append((ContinuousClock.now - verifyStart) / .seconds(1))
        try FileManager.default.removeItem(atPath: folder + "/copy-\(round).sqlite")
        try FileManager.default.removeItem(atPath: folder + "/restored-\(round).sqlite")
    }
    try dbPool.close()
    return (median(restores), median(copies), median(verifies), size)
}

let megabytes = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 200
let (off, on, ratios) = try await throughput()
print("| commits per second, replication off (median of 15 rounds of 4,000) | \(Int(off)) |")
print("| commits per second, replication on (default options) | \(Int(on)) |")
print(String(
    format: "| ratio on / off, median of the 15 paired rounds (lowest, highest) | %.3f (%.3f, %.3f) |",
    median(ratios), ratios.min()!, ratios.max()!))
let lagged = try await lag()
print(String(format: "| lag p50 / p99 / max, ms (%d commits, one per 5 ms, 10 s) | %.1f / %.1f / %.1f |", lagged.commits, lagged.p50, lagged.p99, lagged.max))
let restored = try await restore(megabytes: megabytes)
print(String(format: "| restore of a %.0f MB database from a folder, s | %.2f |", Double(restored.size) / 1e6, restored.restore))
print(String(format: "| copy of its file, s | %.2f |", restored.copy))
print(String(format: "| restore / copy | %.1f |", restored.restore / restored.copy))
print(String(format: "| of which both integrity checks of the file (measured on the copy), s | %.2f |", restored.verify))
