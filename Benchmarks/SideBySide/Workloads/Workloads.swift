#if GRDBCIPHER
import GRDBCipher
let library = "GRDBCipher"
#else
import GRDB
let library = "GRDB"
#endif
import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#endif

// One sample of one workload per process, printed as one JSON line:
//
//   w14 [--observing]   one writer, 10,000 single-row commits on a pool, without or with a
//                       ValueObservation of the 100 last rows (as the benchmark package's W14)
//   subscribers         64 `values(in:)` subscribers on different pages of one table (what
//                       the example server's event streams do), 1,000 single-row commits
//   core <workload>     a workload of the benchmark package, several samples (CoreWorkloads.swift)
//
// Both libraries open the same kind of file: SQLCipher 4 defaults, one passphrase. GRDB keys its
// connections with `PRAGMA key` in `prepareDatabase`; GRDBCipher with its configuration. Each
// sample checks that it ran encrypted (`PRAGMA cipher_version`, and a file header that is not
// SQLite's) and exits 1 otherwise.

private let passphrase = "side by side passphrase"

/// Runs the workload that the arguments name.
func runSideBySide(arguments: [String]) async {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("side-by-side-\(UUID().uuidString)", isDirectory: true)
    do {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("db.sqlite").path
        let result: [String: Any]
        switch arguments.dropFirst().first {
        case "w14":
            result = try observedWrites(path: path, observing: arguments.contains("--observing"))
        case "subscribers":
            result = try await pageSubscribers(path: path)
        case "core":
            let samples = arguments.count > 3 ? Int(arguments[3]) ?? 15 : 15
            result = try coreWorkload(path: path, name: arguments.count > 2 ? arguments[2] : "", samples: samples)
        default:
            fail("usage: \(arguments[0]) w14 [--observing] | subscribers | core <workload> [samples]")
        }
        var line = result
        line["library"] = library
        let data = try JSONSerialization.data(withJSONObject: line, options: [.sortedKeys])
        print(String(decoding: data, as: UTF8.self))
    } catch {
        fail("\(library): \(error)")
    }
}

private func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(1)
}

/// A configuration keyed with the passphrase, alike on both sides.
func encryptedConfiguration() -> Configuration {
    var configuration = Configuration()
    #if GRDBCIPHER
    configuration.passphrase = passphrase
    #else
    configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA key = '\(passphrase)'") }
    #endif
    return configuration
}

/// An encrypted pool, configured alike on both sides.
private func makePool(at path: String) throws -> DatabasePool {
    var configuration = encryptedConfiguration()
    // Readers hold the WAL-index locks briefly: the writer waits instead of failing.
    configuration.busyMode = .timeout(10)
    return try DatabasePool(path: path, configuration: configuration)
}

/// Exits 1 unless the pool runs SQLCipher and its file is encrypted.
private func checkEncrypted(_ dbPool: DatabasePool, path: String) throws {
    let version = try dbPool.read { db in try String.fetchOne(db, sql: "PRAGMA cipher_version") }
    guard let version, !version.isEmpty else {
        fail("\(library) does not run SQLCipher (run it with LD_PRELOAD=libsqlcipher.so)")
    }
    guard let handle = FileHandle(forReadingAtPath: path) else { fail("no database file") }
    let header = handle.readData(ofLength: 16)
    try handle.close()
    if header == Data("SQLite format 3\0".utf8) { fail("\(library) wrote a plaintext database") }
}

private func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

/// The CPU time of the process (user and system), in nanoseconds.
private func processCPU() -> UInt64 {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    let user = UInt64(usage.ru_utime.tv_sec) * 1_000_000_000 + UInt64(usage.ru_utime.tv_usec) * 1_000
    let system = UInt64(usage.ru_stime.tv_sec) * 1_000_000_000 + UInt64(usage.ru_stime.tv_usec) * 1_000
    return user + system
}

/// The CPU time of the calling thread, in nanoseconds.
private func threadCPU() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

private func percentile(_ sorted: [UInt64], _ fraction: Double) -> UInt64 {
    sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
}

/// A row, as a server would decode it.
private struct Item: Equatable, Sendable {
    var id: Int64
    var name: String
    var score: Int
}

// MARK: - W14

private let commitCount = 10_000

/// The delivery times of the values of W14's observation.
private final class Deliveries: @unchecked Sendable {  // guarded by `condition`
    let condition = NSCondition()
    var commitTimes = [UInt64](repeating: 0, count: commitCount)
    var deliveryTimes = [UInt64](repeating: 0, count: commitCount)
    var delivered = 0
    var values = 0
    var lastValue = -1
}

private func observedWrites(path: String, observing: Bool) throws -> [String: Any] {
    let dbPool = try makePool(at: path)
    try dbPool.write { db in
        try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER NOT NULL)")
    }
    try checkEncrypted(dbPool, path: path)
    let deliveries = Deliveries()
    var cancellable: AnyDatabaseCancellable?
    if observing {
        let observation = ValueObservation
            .trackingConstantRegion { db in
                try Row.fetchAll(db, sql: "SELECT * FROM item ORDER BY id DESC LIMIT 100")
                    .map { row in Item(id: row["id"], name: row["name"], score: row["score"]) }
            }
            .map { items -> Int in Int(items.first?.id ?? 0) }
        cancellable = observation.start(
            in: dbPool,
            scheduling: .async(onQueue: DispatchQueue(label: "W14.observer")),
            onError: { error in fail("observation failed: \(error)") },
            onChange: { lastID in
                let time = now()
                deliveries.condition.withLock {
                    deliveries.values += 1
                    deliveries.lastValue = lastID
                    while deliveries.delivered < lastID {
                        deliveries.deliveryTimes[deliveries.delivered] = time
                        deliveries.delivered += 1
                    }
                    deliveries.condition.broadcast()
                }
            })
        deliveries.condition.withLock {
            while deliveries.values == 0 { deliveries.condition.wait() }
        }
    }
    let startCPU = processCPU()
    let startThreadCPU = threadCPU()
    let start = now()
    for index in 0..<commitCount {
        try dbPool.write { db in
            try db.execute(sql: "INSERT INTO item (name, score) VALUES (?, ?)", arguments: ["item \(index)", index])
            let time = now()
            deliveries.condition.withLock { deliveries.commitTimes[index] = time }
        }
    }
    let time = now() - start
    let writerThreadCPU = threadCPU() - startThreadCPU
    var result: [String: Any] = [
        "workload": "w14", "observing": observing, "commits": commitCount, "timeNs": time,
        "writerThreadCPUNs": writerThreadCPU,
    ]
    if observing {
        // No commit missed: the last value is the last commit's.
        let deadline = Date(timeIntervalSinceNow: 120)
        deliveries.condition.withLock {
            while deliveries.lastValue < commitCount, deliveries.condition.wait(until: deadline) {}
        }
        cancellable?.cancel()
        let latencies = deliveries.condition.withLock {
            zip(deliveries.commitTimes, deliveries.deliveryTimes).map { $1 >= $0 ? $1 - $0 : 0 }.sorted()
        }
        deliveries.condition.withLock {
            result["values"] = deliveries.values
            result["lastValue"] = deliveries.lastValue
        }
        result["p50Ns"] = percentile(latencies, 0.5)
        result["p99Ns"] = percentile(latencies, 0.99)
    }
    result["processCPUNs"] = processCPU() - startCPU
    try dbPool.close()
    return result
}

// MARK: - Page subscribers


private let subscriberCount = 64
private let pageSize = 20
private let subscriberCommits = 1_000

private func pageSubscribers(path: String) async throws -> [String: Any] {
    let dbPool = try makePool(at: path)
    let rowCount = subscriberCount * pageSize
    try await dbPool.write { db in
        try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER NOT NULL)")
        for id in 1...rowCount {
            try db.execute(sql: "INSERT INTO item (id, name, score) VALUES (?, ?, 0)", arguments: [id, "item \(id)"])
        }
    }
    try checkEncrypted(dbPool, path: path)
    // The server's stream: one page of a table, deduplicated, as an async sequence.
    let subscriptions = (0..<subscriberCount).map { page in
        ValueObservation
            .tracking { db in
                try Row.fetchAll(
                    db, sql: "SELECT * FROM item ORDER BY id LIMIT ? OFFSET ?", arguments: [pageSize, page * pageSize])
                .map { row in Item(id: row["id"], name: row["name"], score: row["score"]) }
            }
            .removeDuplicates()
            .values(in: dbPool)
    }
    let (started, startedContinuation) = AsyncStream.makeStream(of: Void.self)
    return try await withThrowingTaskGroup(of: Int.self) { group in
        for subscription in subscriptions {
            group.addTask {
                var values = 0
                for try await rows in subscription {
                    values += 1
                    if values == 1 { startedContinuation.yield() }
                    // The last commit sets every score to -1.
                    if rows.allSatisfy({ $0.score == -1 }) { break }
                }
                return values
            }
        }
        var startedCount = 0
        for await _ in started {
            startedCount += 1
            if startedCount == subscriberCount { break }
        }
        let startCPU = processCPU()
        let start = now()
        // Async writes, as a server's request handlers make them.
        for index in 0..<subscriberCommits {
            try await dbPool.write { db in
                try db.execute(
                    sql: "UPDATE item SET score = ? WHERE id = ?", arguments: [index + 1, index % rowCount + 1])
            }
        }
        let writeTime = now() - start
        try await dbPool.write { db in try db.execute(sql: "UPDATE item SET score = -1") }
        var values = 0
        for try await count in group { values += count }
        let time = now() - start
        let cpu = processCPU() - startCPU
        return [
            "workload": "subscribers", "subscribers": subscriberCount, "commits": subscriberCommits,
            "writeTimeNs": writeTime, "timeNs": time, "processCPUNs": cpu,
            "values": values,
        ]
    }
}
