#if GRDBCIPHER
import GRDBCipher
#else
import GRDB
#endif
import Dispatch
import Foundation

// The workloads of the benchmark package (`make bench`), from the same source files
// (Benchmarks/Sources/BenchmarkFixtures, linked here), run by one library:
//
//   core <W1|W2|W3|W4|W4c|W10a|W10b|W11a|W11b|W12|W13> [samples]
//
// Each process makes its own fixture (100,000 rows × 10 INTEGER columns, or an empty
// table for the inserts) through the library, encrypted with the passphrase of Workloads.swift,
// and prints the fastest and median times of its samples. `execute(values:)` (W4b) is GRDBCipher's own:
// GRDB has no such method.

/// The sizes of the fixtures, as in the benchmark package.
enum Fixtures {
    static let rowCount = 100_000
    static let insertCount = 20_000
}

/// The workloads by name, and whether each inserts (into an empty table) or fetches.
private let coreWorkloads: [String: (inserts: Bool, body: @Sendable (Database) throws -> Int64)] = [
    "W1": (false, GRDBCipherWorkloads.fetchByIndex),
    "W2": (false, GRDBCipherWorkloads.fetchByName),
    "W3": (false, GRDBCipherWorkloads.fetchStructs),
    "W10a": (false, GRDBCipherWorkloads.fetchRecords),
    "W10b": (false, GRDBCipherWorkloads.fetchDecodableRecords),
    "W12": (false, GRDBCipherWorkloads.fetchFilteredRecords),
    "W13": (false, GRDBCipherWorkloads.fetchRecordsByKey),
    "W4": (true, { db in try GRDBCipherWorkloads.insert(db); return 0 }),
    "W4c": (true, { db in try GRDBCipherWorkloads.insertUnchecked(db); return 0 }),
    "W11a": (true, { db in try GRDBCipherWorkloads.insertRecords(db); return 0 }),
    "W11b": (true, { db in try GRDBCipherWorkloads.insertEncodableRecords(db); return 0 }),
]

/// Runs one core workload `samples` times; returns its fastest and median times.
func coreWorkload(path: String, name: String, samples: Int) throws -> [String: Any] {
    guard let workload = coreWorkloads[name] else {
        throw CoreWorkloadError(message: "unknown workload \(name); known: \(coreWorkloads.keys.sorted())")
    }
    let dbQueue = try DatabaseQueue(path: path, configuration: encryptedConfiguration())
    let columns = (0..<10).map { "c\($0) INTEGER" }.joined(separator: ", ")
    try dbQueue.write { db in
        try db.execute(sql: "CREATE TABLE ints (\(columns))")
        if !workload.inserts {
            try db.execute(sql: """
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(Fixtures.rowCount))
                INSERT INTO ints SELECT i, i + 1, i + 2, i + 3, i + 4, i + 5, i + 6, i + 7, i + 8, i + 9 FROM n
                """)
        }
    }
    guard try dbQueue.read({ db in try String.fetchOne(db, sql: "PRAGMA cipher_version") }) != nil else {
        throw CoreWorkloadError(message: "\(library) does not run SQLCipher (run it with LD_PRELOAD=libsqlcipher.so)")
    }
    var times: [UInt64] = []
    var checksum: Int64 = 0
    // Two warm-up runs, then the samples; inserts empty the table first, unmeasured.
    for sample in 0..<(samples + 2) {
        if workload.inserts { try dbQueue.inDatabase { db in try db.execute(sql: "DELETE FROM ints") } }
        let start = DispatchTime.now().uptimeNanoseconds
        if workload.inserts {
            checksum &+= try dbQueue.inDatabase(workload.body)
        } else {
            checksum &+= try dbQueue.read(workload.body)
        }
        let end = DispatchTime.now().uptimeNanoseconds
        if sample >= 2 { times.append(end - start) }
    }
    times.sort()
    return [
        "workload": name, "samples": samples, "fastestNs": times[0], "medianNs": times[times.count / 2],
        "checksum": checksum,
    ]
}

struct CoreWorkloadError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
