import Benchmark
import BenchmarkFixtures
import Dispatch
import Foundation
import GRDBCipher

// Each workload runs twice: "<workload>.rawC" through the SQLite C API and
// "<workload>.GRDBCipher" through the library, on the same encrypted files
// with the same passphrase and cipher settings. BenchReport pairs them by
// name and prints the ratio of their medians.

/// Traps with the error: a benchmark that fails must not report a time.
func must<T>(_ body: () throws -> T) -> T {
    do { return try body() } catch { fatalError("benchmark failed: \(error)") }
}

func config(_ key: String = Fixtures.passphrase) -> Configuration {
    var config = Configuration()
    config.passphrase = key
    return config
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock], timeUnits: .microseconds, warmupIterations: 2, maxDuration: .seconds(4), maxIterations: 60)
    let slow = Benchmark.Configuration(
        metrics: [.wallClock], timeUnits: .microseconds, warmupIterations: 1, maxDuration: .seconds(4), maxIterations: 8)

    // 1, 2, 3: fetch 100,000 rows × 10 INTEGER columns.
    let fetches: [(String, (RawConnection) -> Int64, (Database) throws -> Int64)] = [
        ("W1-fetch-by-index", RawWorkloads.fetchByIndex, GRDBCipherWorkloads.fetchByIndex),
        ("W2-fetch-by-name", RawWorkloads.fetchByName, GRDBCipherWorkloads.fetchByName),
        ("W3-fetch-structs", RawWorkloads.fetchStructs, GRDBCipherWorkloads.fetchStructs),
    ]
    for (name, raw, grdb) in fetches {
        Benchmark("\(name).rawC") { benchmark in
            let connection = RawConnection(path: Fixtures.intsPath, key: Fixtures.passphrase)
            benchmark.startMeasurement()
            blackHole(raw(connection))
        }
        Benchmark("\(name).GRDBCipher") { benchmark in
            let dbQueue = must { try DatabaseQueue(path: Fixtures.intsPath, configuration: config()) }
            benchmark.startMeasurement()
            blackHole(must { try dbQueue.read(grdb) })
        }
    }

    // 4: insert 20,000 rows × 10 columns in one transaction.
    let rawInsertPath = Fixtures.emptyIntsDatabase(named: "insert-raw")
    let grdbInsertPath = Fixtures.emptyIntsDatabase(named: "insert-grdb")
    Benchmark("W4-insert.rawC") { benchmark in
        let connection = RawConnection(path: rawInsertPath, key: Fixtures.passphrase)
        connection.execute("DELETE FROM ints")
        benchmark.startMeasurement()
        RawWorkloads.insert(connection)
    }
    Benchmark("W4-insert.GRDBCipher") { benchmark in
        let dbQueue = must { try DatabaseQueue(path: grdbInsertPath, configuration: config()) }
        must { try dbQueue.inDatabase { try $0.execute(sql: "DELETE FROM ints") } }
        benchmark.startMeasurement()
        must { try dbQueue.inDatabase(GRDBCipherWorkloads.insert) }
    }
    // 4b: the same rows through `execute(values:)`. BenchReport compares it
    // with the raw-C run of W4, which is the same work.
    Benchmark("W4b-insert-values.GRDBCipher") { benchmark in
        let dbQueue = must { try DatabaseQueue(path: grdbInsertPath, configuration: config()) }
        must { try dbQueue.inDatabase { try $0.execute(sql: "DELETE FROM ints") } }
        benchmark.startMeasurement()
        must { try dbQueue.inDatabase(GRDBCipherWorkloads.insertValues) }
    }

    // 6: open an existing encrypted database and run its first query.
    Benchmark("W6a-open-passphrase.rawC", configuration: slow) { _ in
        blackHole(RawWorkloads.openAndQuery(path: Fixtures.intsPath, key: Fixtures.passphrase))
    }
    Benchmark("W6a-open-passphrase.GRDBCipher", configuration: slow) { _ in
        blackHole(must { try GRDBCipherWorkloads.openAndQuery(path: Fixtures.intsPath, key: Fixtures.passphrase) })
    }
    Benchmark("W6b-open-raw-key.rawC") { _ in
        blackHole(RawWorkloads.openAndQuery(path: Fixtures.rawKeyPath, key: Fixtures.rawKey))
    }
    Benchmark("W6b-open-raw-key.GRDBCipher") { _ in
        blackHole(must { try GRDBCipherWorkloads.openAndQuery(path: Fixtures.rawKeyPath, key: Fixtures.rawKey) })
    }
    // The baseline opens four connections with the passphrase, as four
    // independent opens would; the pool opens its readers 2 to 5 from the
    // key it derived for the writer and first reader.
    Benchmark("W6c-pool-readers-2-5.rawC", configuration: slow) { _ in
        for _ in 0..<4 {
            blackHole(RawWorkloads.openAndQuery(path: Fixtures.walIntsPath, key: Fixtures.passphrase))
        }
    }
    Benchmark("W6c-pool-readers-2-5.GRDBCipher", configuration: slow) { benchmark in
        var poolConfig = config()
        poolConfig.maximumReaderCount = 5
        let dbPool = must { try DatabasePool(path: Fixtures.walIntsPath, configuration: poolConfig) }
        must { try dbPool.read { _ in } }
        benchmark.startMeasurement()
        // Five reads held at once: the first reuses the open reader, the
        // four others open readers 2 to 5.
        let allIn = DispatchGroup()
        let done = DispatchGroup()
        for _ in 0..<5 {
            allIn.enter()
            done.enter()
            dbPool.asyncRead { result in
                if case .success(let db) = result {
                    blackHole(try? Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master"))
                }
                allIn.leave()
                allIn.wait()
                done.leave()
            }
        }
        done.wait()
        benchmark.stopMeasurement()
    }

    // 7: change the passphrase of a ~20 MB database (back and forth).
    let rawRekeyPath = Fixtures.bigDatabase(named: "rekey-raw")
    let grdbRekeyPath = Fixtures.bigDatabase(named: "rekey-grdb")
    let rawRekeyConnection = RawConnection(path: rawRekeyPath, key: Fixtures.passphrase)
    let grdbRekeyQueue = must { try DatabaseQueue(path: grdbRekeyPath, configuration: config()) }
    let rekeyRounds = LockedCounter()
    Benchmark("W7-change-passphrase.rawC", configuration: slow) { _ in
        rawRekeyConnection.rekey("passphrase \(rekeyRounds.next())")
    }
    Benchmark("W7-change-passphrase.GRDBCipher", configuration: slow) { _ in
        must { try grdbRekeyQueue.changePassphrase("passphrase \(rekeyRounds.next())") }
    }

    // 8: backup and export of a ~20 MB database.
    let backupSourcePath = Fixtures.bigDatabase(named: "backup-source")
    let rawBackupSource = RawConnection(path: backupSourcePath, key: Fixtures.passphrase)
    let rawBackupDestination = RawConnection(path: Fixtures.directory + "/backup-raw.sqlite", key: Fixtures.passphrase)
    Benchmark("W8a-backup.rawC", configuration: slow) { _ in
        RawWorkloads.backup(from: rawBackupSource, to: rawBackupDestination)
    }
    let grdbBackupSource = must { try DatabaseQueue(path: backupSourcePath, configuration: config()) }
    let grdbBackupDestination = must {
        try DatabaseQueue(path: Fixtures.directory + "/backup-grdb.sqlite", configuration: config())
    }
    Benchmark("W8a-backup.GRDBCipher", configuration: slow) { _ in
        must { try grdbBackupSource.backup(to: grdbBackupDestination) }
    }
    // Each export writes a new file, encrypted with another passphrase, and
    // opens it once to check it.
    let exportPath = Fixtures.directory + "/export.sqlite"
    Benchmark("W8b-export.rawC", configuration: slow) { benchmark in
        Fixtures.removeDatabase(at: exportPath)
        benchmark.startMeasurement()
        RawWorkloads.export(from: rawBackupSource, to: exportPath, key: "export passphrase")
    }
    Benchmark("W8b-export.GRDBCipher", configuration: slow) { benchmark in
        Fixtures.removeDatabase(at: exportPath)
        benchmark.startMeasurement()
        must {
            try grdbBackupSource.export(to: exportPath, encryption: .encrypted(key: .passphrase("export passphrase")))
        }
    }

    // 9: four concurrent readers, each doing workload 1.
    Benchmark("W9-4-concurrent-readers.rawC", configuration: slow) { benchmark in
        let connections = (0..<4).map { _ in RawConnection(path: Fixtures.walIntsPath, key: Fixtures.passphrase) }
        benchmark.startMeasurement()
        DispatchQueue.concurrentPerform(iterations: 4) { index in
            blackHole(RawWorkloads.fetchByIndex(connections[index]))
        }
    }
    Benchmark("W9-4-concurrent-readers.GRDBCipher", configuration: slow) { benchmark in
        var poolConfig = config()
        poolConfig.maximumReaderCount = 4
        let dbPool = must { try DatabasePool(path: Fixtures.walIntsPath, configuration: poolConfig) }
        // Open the four readers before measuring, like the baseline.
        DispatchQueue.concurrentPerform(iterations: 4) { _ in must { try dbPool.read { _ in Thread.sleep(forTimeInterval: 0.02) } } }
        benchmark.startMeasurement()
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            blackHole(must { try dbPool.read(GRDBCipherWorkloads.fetchByIndex) })
        }
    }
}

/// A counter shared by the two rekey benchmarks, so each call uses a new passphrase.
final class LockedCounter: @unchecked Sendable {
    // Safe: `value` is only touched while `lock` is held.
    private let lock = NSLock()
    private var value = 0

    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        value += 1
        return value
    }
}
