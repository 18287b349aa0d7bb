import Benchmark
import BenchmarkFixtures
import Dispatch
import Foundation
import GRDBCipher

// Every workload runs on both sides in each sample: once through the SQLite
// C API ("rawC") and once through the library ("GRDBCipher"), on the same
// kind of encrypted file with the same passphrase and cipher settings, one
// right after the other, in alternating order. On a shared machine the load
// of the neighbours comes and goes over seconds; measured in turn, both
// sides see the same machine, which separately registered benchmarks did
// not. Each sample also records the ratio of its two times. BenchReport
// reads the three custom metrics and prints one table.

/// Traps with the error: a benchmark that fails must not report a time.
func must<T>(_ body: () throws -> T) -> T {
    do { return try body() } catch { fatalError("benchmark failed: \(error)") }
}

func config(_ key: String = Fixtures.passphrase) -> Configuration {
    var config = Configuration()
    config.passphrase = key
    return config
}

/// One side of a workload. Called before each sample, unmeasured: it
/// prepares the sample (empties a table, removes a file...) and returns the
/// work to time.
typealias Side = () -> () -> Void

let rawC = BenchmarkMetric.custom("rawC")
let grdbCipher = BenchmarkMetric.custom("GRDBCipher")
/// GRDBCipher's time over raw C's in the same sample, in thousandths.
let pairRatio = BenchmarkMetric.custom("pairRatio")

/// Registers a workload whose two sides are timed in turn in every sample.
func paired(_ name: String, _ configuration: Benchmark.Configuration, rawC rawSide: @escaping Side, grdbCipher grdbSide: @escaping Side) {
    let samples = LockedCounter()
    Benchmark(name, configuration: configuration) { benchmark in
        var sides = [(rawC, rawSide), (grdbCipher, grdbSide)]
        if samples.next() % 2 == 0 { sides.reverse() }
        var times: [BenchmarkMetric: UInt64] = [:]
        for (metric, side) in sides {
            let work = side()
            let start = DispatchTime.now().uptimeNanoseconds
            work()
            let end = DispatchTime.now().uptimeNanoseconds
            times[metric] = end - start
            benchmark.measurement(metric, Int(end - start))
        }
        if let raw = times[rawC], let grdb = times[grdbCipher], raw > 0 {
            benchmark.measurement(pairRatio, Int((Double(grdb) / Double(raw) * 1000).rounded()))
        }
    }
}

/// A value made on first use, so that connections open in the process that
/// runs their benchmark, not in every process that registers it.
final class Lazy<Value>: @unchecked Sendable {
    // Safe: a benchmark's samples run one after the other on one thread.
    private let make: () -> Value
    private(set) lazy var value: Value = make()

    init(_ make: @escaping () -> Value) {
        self.make = make
    }
}

let benchmarks: @Sendable () -> Void = {
    // Nanoseconds, reported in thousands (microseconds); ratios in thousandths, as they are.
    let units: [BenchmarkMetric: BenchmarkUnits] = [rawC: .kilo, grdbCipher: .kilo, pairRatio: .count]
    let metrics = [rawC, grdbCipher, pairRatio]
    let quick = Benchmark.Configuration(
        metrics: metrics, units: units, warmupIterations: 2, maxDuration: .seconds(6), maxIterations: 60)
    let slow = Benchmark.Configuration(
        metrics: metrics, units: units, warmupIterations: 1, maxDuration: .seconds(8), maxIterations: 8)

    // 1, 2, 3: fetch 100,000 rows × 10 INTEGER columns.
    let fetches: [(String, (RawConnection) -> Int64, (Database) throws -> Int64)] = [
        ("W1-fetch-by-index", RawWorkloads.fetchByIndex, GRDBCipherWorkloads.fetchByIndex),
        ("W2-fetch-by-name", RawWorkloads.fetchByName, GRDBCipherWorkloads.fetchByName),
        ("W3-fetch-structs", RawWorkloads.fetchStructs, GRDBCipherWorkloads.fetchStructs),
        // 10a, 10b: the same rows as records, against the raw C loop that fills a struct.
        ("W10a-fetch-records", RawWorkloads.fetchStructs, GRDBCipherWorkloads.fetchRecords),
        ("W10b-fetch-decodable", RawWorkloads.fetchStructs, GRDBCipherWorkloads.fetchDecodableRecords),
        // 12, 13: query-interface requests, against the SQL they generate.
        ("W12-fetch-request", RawWorkloads.fetchFilteredStructs, GRDBCipherWorkloads.fetchFilteredRecords),
        ("W13-fetch-by-key", RawWorkloads.fetchStructsByKey, GRDBCipherWorkloads.fetchRecordsByKey),
    ]
    for (name, raw, grdb) in fetches {
        let connection = Lazy { RawConnection(path: Fixtures.intsPath, key: Fixtures.passphrase) }
        let dbQueue = Lazy { must { try DatabaseQueue(path: Fixtures.intsPath, configuration: config()) } }
        paired(name, quick, rawC: {
            let connection = connection.value
            return { blackHole(raw(connection)) }
        }, grdbCipher: {
            let dbQueue = dbQueue.value
            return { blackHole(must { try dbQueue.read(grdb) }) }
        })
    }

    // 4: insert 20,000 rows × 10 columns in one transaction; 4b: the same
    // through `execute(values:)`; 4c: through `setUncheckedArguments`; 11a
    // and 11b: as records.
    let rawInsert = Lazy { RawConnection(path: Fixtures.emptyIntsDatabase(named: "insert-raw"), key: Fixtures.passphrase) }
    let grdbInsert = Lazy {
        must { try DatabaseQueue(path: Fixtures.emptyIntsDatabase(named: "insert-grdb"), configuration: config()) }
    }
    let rawInsertSide: Side = {
        let connection = rawInsert.value
        connection.execute("DELETE FROM ints")
        return { RawWorkloads.insert(connection) }
    }
    for (name, insert) in [
        ("W4-insert", GRDBCipherWorkloads.insert),
        ("W4b-insert-values", GRDBCipherWorkloads.insertValues),
        ("W4c-insert-unchecked", GRDBCipherWorkloads.insertUnchecked),
        // 11a, 11b: the same rows as records, through `encode(to:)` and `Encodable`.
        ("W11a-insert-records", GRDBCipherWorkloads.insertRecords),
        ("W11b-insert-encodable", GRDBCipherWorkloads.insertEncodableRecords),
    ] {
        paired(name, quick, rawC: rawInsertSide, grdbCipher: {
            let dbQueue = grdbInsert.value
            must { try dbQueue.inDatabase { try $0.execute(sql: "DELETE FROM ints") } }
            return { must { try dbQueue.inDatabase(insert) } }
        })
    }

    // The API's floors (APIFloors): the raw loop against the raw loop plus what
    // GRDB's API forces, for the workloads whose targets are judged above a floor.
    // BenchReport shows them beside their workloads (W4's floor is W4c's too).
    let floorRaw = Lazy { RawConnection(path: Fixtures.intsPath, key: Fixtures.passphrase) }
    let floorFetch = Lazy { RawConnection(path: Fixtures.intsPath, key: Fixtures.passphrase) }
    let decodableFloor: (RawConnection) -> Int64 = { connection in
        must { try APIFloors.fetchDecodableRecords(connection) }
    }
    let fetchFloors: [(name: String, raw: (RawConnection) -> Int64, floor: (RawConnection) -> Int64)] = [
        ("W1-floor", RawWorkloads.fetchByIndex, APIFloors.fetchByIndex),
        ("W10b-floor", RawWorkloads.fetchStructs, decodableFloor),
    ]
    for (name, raw, floor) in fetchFloors {
        paired(name, quick, rawC: {
            let connection = floorRaw.value
            return { blackHole(raw(connection)) }
        }, grdbCipher: {
            let connection = floorFetch.value
            return { blackHole(floor(connection)) }
        })
    }
    let floorInsert = Lazy { RawConnection(path: Fixtures.emptyIntsDatabase(named: "insert-floor"), key: Fixtures.passphrase) }
    let encodableFloor: (RawConnection) -> Void = { connection in
        must { try APIFloors.insertEncodableRecords(connection) }
    }
    let insertFloors: [(name: String, floor: (RawConnection) -> Void)] = [
        ("W4-floor", { APIFloors.insertThroughArrayLiterals($0, clearingBindings: true) }),
        ("W4c-floor", { APIFloors.insertThroughArrayLiterals($0, clearingBindings: false) }),
        ("W11a-floor", APIFloors.insertThroughContainers),
        ("W11b-floor", encodableFloor),
    ]
    for (name, floor) in insertFloors {
        paired(name, quick, rawC: rawInsertSide, grdbCipher: {
            let connection = floorInsert.value
            connection.execute("DELETE FROM ints")
            return { floor(connection) }
        })
    }

    // 6: open an existing encrypted database and run its first query.
    paired("W6a-open-passphrase", slow,
           rawC: { { blackHole(RawWorkloads.openAndQuery(path: Fixtures.intsPath, key: Fixtures.passphrase)) } },
           grdbCipher: {
               { blackHole(must { try GRDBCipherWorkloads.openAndQuery(path: Fixtures.intsPath, key: Fixtures.passphrase) }) }
           })
    paired("W6b-open-raw-key", quick,
           rawC: { { blackHole(RawWorkloads.openAndQuery(path: Fixtures.rawKeyPath, key: Fixtures.rawKey)) } },
           grdbCipher: {
               { blackHole(must { try GRDBCipherWorkloads.openAndQuery(path: Fixtures.rawKeyPath, key: Fixtures.rawKey) }) }
           })
    // The baseline opens four connections with the passphrase, as four
    // independent opens would; the pool opens its readers 2 to 5 from the
    // key it derived for the writer and first reader.
    let previousPool = PoolHolder()
    paired("W6c-pool-readers-2-5", slow, rawC: {
        {
            for _ in 0..<4 {
                blackHole(RawWorkloads.openAndQuery(path: Fixtures.walIntsPath, key: Fixtures.passphrase))
            }
        }
    }, grdbCipher: {
        // The previous sample's pool closes here, unmeasured, rather than
        // on its readers' queues while the next side is timed.
        previousPool.close()
        var poolConfig = config()
        poolConfig.maximumReaderCount = 5
        let dbPool = must { try DatabasePool(path: Fixtures.walIntsPath, configuration: poolConfig) }
        must { try dbPool.read { _ in } }
        previousPool.pool = dbPool
        return {
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
        }
    })

    // 7: change the passphrase of a ~20 MB database (to a new one each time).
    let rawRekey = Lazy { RawConnection(path: Fixtures.bigDatabase(named: "rekey-raw"), key: Fixtures.passphrase) }
    let grdbRekey = Lazy {
        must { try DatabaseQueue(path: Fixtures.bigDatabase(named: "rekey-grdb"), configuration: config()) }
    }
    let rekeyRounds = LockedCounter()
    paired("W7-change-passphrase", slow,
           rawC: {
               let connection = rawRekey.value
               let passphrase = "passphrase \(rekeyRounds.next())"
               return { connection.rekey(passphrase) }
           },
           grdbCipher: {
               let dbQueue = grdbRekey.value
               let passphrase = "passphrase \(rekeyRounds.next())"
               return { must { try dbQueue.changePassphrase(passphrase) } }
           })

    // 8: backup and export of a ~20 MB database.
    let sourcePath = Lazy { Fixtures.bigDatabase(named: "backup-source") }
    let rawSource = Lazy { RawConnection(path: sourcePath.value, key: Fixtures.passphrase) }
    let grdbSource = Lazy { must { try DatabaseQueue(path: sourcePath.value, configuration: config()) } }
    let rawBackup = Lazy { RawConnection(path: Fixtures.directory + "/backup-raw.sqlite", key: Fixtures.passphrase) }
    let grdbBackup = Lazy {
        must { try DatabaseQueue(path: Fixtures.directory + "/backup-grdb.sqlite", configuration: config()) }
    }
    paired("W8a-backup", slow, rawC: {
        let (source, destination) = (rawSource.value, rawBackup.value)
        return { RawWorkloads.backup(from: source, to: destination) }
    }, grdbCipher: {
        let (source, destination) = (grdbSource.value, grdbBackup.value)
        return { must { try source.backup(to: destination) } }
    })
    // Each export writes a new file, encrypted with another passphrase, and
    // opens it once to check it.
    let rawExportSide: Side = {
        let source = rawSource.value
        let path = Fixtures.directory + "/export-raw.sqlite"
        Fixtures.removeDatabase(at: path)
        return { RawWorkloads.export(from: source, to: path, key: "export passphrase") }
    }
    paired("W8b-export", slow, rawC: rawExportSide, grdbCipher: {
        let source = grdbSource.value
        let path = Fixtures.directory + "/export-grdb.sqlite"
        Fixtures.removeDatabase(at: path)
        return { must { try source.export(to: path, encryption: .encrypted(key: .passphrase("export passphrase"))) } }
    })

    // 8b's floor: the raw export with the proof and the durable rename an
    // export promises (APIFloors.exportWithProof).
    let floorSource = Lazy { RawConnection(path: sourcePath.value, key: Fixtures.passphrase) }
    paired("W8b-floor", slow, rawC: rawExportSide, grdbCipher: {
        let source = floorSource.value
        let path = Fixtures.directory + "/export-floor.sqlite"
        Fixtures.removeDatabase(at: path)
        return { APIFloors.exportWithProof(from: source, to: path, key: "export passphrase") }
    })

    // 9: four concurrent readers, each doing workload 1.
    let rawReaders = Lazy { (0..<4).map { _ in RawConnection(path: Fixtures.walIntsPath, key: Fixtures.passphrase) } }
    let pool = Lazy {
        var poolConfig = config()
        poolConfig.maximumReaderCount = 4
        let dbPool = must { try DatabasePool(path: Fixtures.walIntsPath, configuration: poolConfig) }
        // Open the four readers before measuring, like the baseline.
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            must { try dbPool.read { _ in Thread.sleep(forTimeInterval: 0.02) } }
        }
        return dbPool
    }
    // W14: a ValueObservation on a pool, in its own file.
    registerObservationWorkload()

    paired("W9-4-concurrent-readers", slow, rawC: {
        let connections = rawReaders.value
        return {
            DispatchQueue.concurrentPerform(iterations: 4) { index in
                blackHole(RawWorkloads.fetchByIndex(connections[index]))
            }
        }
    }, grdbCipher: {
        let dbPool = pool.value
        return {
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                blackHole(must { try dbPool.read(GRDBCipherWorkloads.fetchByIndex) })
            }
        }
    })
}

/// The pool of the previous W6c sample, closed before the next one.
final class PoolHolder: @unchecked Sendable {
    // Safe: a benchmark's samples run one after the other on one thread.
    var pool: DatabasePool?

    func close() {
        guard let pool else { return }
        // Its reads may still be returning their connections.
        for _ in 0..<1000 {
            do {
                try pool.close()
                self.pool = nil
                return
            } catch DatabaseError.SQLITE_BUSY {
                Thread.sleep(forTimeInterval: 0.001)
            } catch {
                fatalError("benchmark failed: \(error)")
            }
        }
        fatalError("benchmark failed: the previous pool stays busy")
    }
}

/// A counter shared by the samples of a benchmark.
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
