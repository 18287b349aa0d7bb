import Benchmark
import BenchmarkFixtures
import Dispatch
import Foundation
import GRDBCipher

// W14: the cost of a running ValueObservation for the writer of a pool, and
// how long a commit takes to reach the observer.
//
// One writer commits 10,000 single-row transactions into `item`, once with
// no observation and once while a ValueObservation of the 100 last rows of
// `item` runs on the same pool (every commit impacts it). The two runs of a
// sample go in alternating order, as the paired workloads: "rawC" is the run
// without the observation (the baseline), "GRDBCipher" the run with it, so
// the report's paired ratio is the time with the observation over the time
// without it (target ≤ 1.15: the observation costs at most 15% of the write
// throughput). Commits per second are 10,000 over these times.
//
// The latency of a commit is the time from its COMMIT to the delivery of the
// first value that contains its row (values coalesce commits that happen
// during a fetch). Each sample reports the median and the 99th percentile
// of the latencies of its 10,000 commits.

private let commitCount = 10_000
private let latencyMedian = BenchmarkMetric.custom("latencyP50")
private let latencyP99 = BenchmarkMetric.custom("latencyP99")

/// Registers W14.
func registerObservationWorkload() {
    let configuration = Benchmark.Configuration(
        metrics: [rawC, grdbCipher, pairRatio, latencyMedian, latencyP99],
        units: [rawC: .kilo, grdbCipher: .kilo, pairRatio: .count, latencyMedian: .kilo, latencyP99: .kilo],
        warmupIterations: 1, maxDuration: .seconds(20), maxIterations: 8)
    let samples = LockedCounter()
    Benchmark("W14-value-observation-writes", configuration: configuration) { benchmark in
        var runs: [Bool] = [false, true]
        if samples.next() % 2 == 0 { runs.reverse() }
        var times: [Bool: UInt64] = [:]
        for observing in runs {
            let run = ObservedWriteRun(observing: observing)
            let time = run.writeAll()
            times[observing] = time
            benchmark.measurement(observing ? grdbCipher : rawC, Int(time))
            if observing {
                let latencies = run.latencies()
                benchmark.measurement(latencyMedian, Int(latencies[latencies.count / 2]))
                benchmark.measurement(latencyP99, Int(latencies[latencies.count * 99 / 100]))
            }
        }
        if let without = times[false], let with = times[true], without > 0 {
            benchmark.measurement(pairRatio, Int((Double(with) / Double(without) * 1000).rounded()))
        }
    }
}

/// One run: a fresh encrypted pool, an optional observation, and the writes.
private final class ObservedWriteRun: @unchecked Sendable {
    // Safe: `commitTimes` and `deliveryTimes` are only touched while `lock`
    // is held; the other properties are set in `init`.
    private let dbPool: DatabasePool
    private let path: String
    private let observing: Bool
    private let lock = NSCondition()
    /// The time of the commit of row `id`, at index `id - 1`.
    private var commitTimes = [UInt64](repeating: 0, count: commitCount)
    /// The delivery time of the first value that contained row `id`.
    private var deliveryTimes = [UInt64](repeating: 0, count: commitCount)
    private var deliveredCount = 0
    private var cancellable: AnyDatabaseCancellable?

    init(observing: Bool) {
        self.observing = observing
        let path = Fixtures.directory + "/observation.sqlite"
        Fixtures.removeDatabase(at: path)
        // As the README advises servers: the writer waits for the short
        // WAL-index locks of the observation's readers instead of failing
        // with SQLITE_BUSY (it did, without this, at the first sample).
        var configuration = config()
        configuration.busyMode = .timeout(10)
        let dbPool = must { try DatabasePool(path: path, configuration: configuration) }
        self.path = path
        self.dbPool = dbPool
        must {
            try dbPool.write { db in
                try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER NOT NULL)")
            }
        }
        guard observing else { return }
        let observation = ValueObservation
            .trackingConstantRegion { db in
                // Rows stay in the access that fetched them: the value is made of them there,
                // as in Benchmarks/SideBySide.
                try Row.fetchAll(db, sql: "SELECT * FROM item ORDER BY id DESC LIMIT 100")
                    .map { row in ObservedItem(id: row["id"], name: row["name"], score: row["score"]) }
            }
            .map { items -> Int in Int(items.first?.id ?? 0) }
        let started = DispatchSemaphore(value: 0)
        cancellable = observation.start(
            in: dbPool,
            scheduling: .async(onQueue: DispatchQueue(label: "W14.observer")),
            onError: { error in fatalError("benchmark failed: \(error)") },
            onChange: { [self] lastID in
                let now = DispatchTime.now().uptimeNanoseconds
                lock.withLock {
                    while deliveredCount < lastID {
                        deliveryTimes[deliveredCount] = now
                        deliveredCount += 1
                    }
                    lock.broadcast()
                }
                if lastID == 0 { started.signal() }
            })
        started.wait()
    }

    /// Commits the rows one transaction each; returns the time it took.
    func writeAll() -> UInt64 {
        let start = DispatchTime.now().uptimeNanoseconds
        for index in 0..<commitCount {
            must {
                try dbPool.write { db in
                    try db.execute(
                        sql: "INSERT INTO item (name, score) VALUES (?, ?)",
                        arguments: ["item \(index)", index])
                    // Just before the COMMIT that follows the closure.
                    let now = DispatchTime.now().uptimeNanoseconds
                    lock.withLock { commitTimes[index] = now }
                }
            }
        }
        let time = DispatchTime.now().uptimeNanoseconds - start
        if observing {
            // Unmeasured: the value of the last commit.
            lock.withLock {
                while deliveredCount < commitCount { lock.wait() }
            }
            cancellable?.cancel()
        }
        return time
    }

    /// The sorted latencies of the commits, in nanoseconds.
    func latencies() -> [UInt64] {
        lock.withLock {
            zip(commitTimes, deliveryTimes).map { $1 >= $0 ? $1 - $0 : 0 }.sorted()
        }
    }
}

/// A row of W14's observed table, as the observation delivers it.
struct ObservedItem: Sendable {
    var id: Int64
    var name: String
    var score: Int64
}
