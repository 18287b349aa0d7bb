import CSQLCipherRaw
import Foundation

/// The encrypted files the workloads run on, made once per process.
public enum Fixtures {
    /// The passphrase of every fixture, for both sides.
    public static let passphrase = "benchmark passphrase"

    /// A raw key specification: a 32-byte key and a 16-byte salt, in hex.
    public static let rawKey = "x'" + String(repeating: "2b7e151628aed2a6abf7158809cf4f3c", count: 2)
        + "000102030405060708090a0b0c0d0e0f'"

    /// The number of rows of the `ints` table.
    public static let rowCount = 100_000

    /// The number of rows each insert workload inserts.
    public static let insertCount = 20_000

    /// A fresh folder for this process's fixtures.
    public static let directory: String = {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("grdbcipher-bench-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.removeItem(at: url)
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }()

    /// 100,000 rows × 10 INTEGER columns `c0` … `c9`, keyed with the passphrase.
    public static let intsPath: String = {
        let path = directory + "/ints.sqlite"
        let connection = RawConnection(path: path, key: passphrase)
        createInts(connection)
        return path
    }()

    /// The same rows, in WAL mode, for the pool workloads.
    public static let walIntsPath: String = {
        let path = directory + "/ints-wal.sqlite"
        let connection = RawConnection(path: path, key: passphrase)
        connection.execute("PRAGMA journal_mode = WAL")
        createInts(connection)
        return path
    }()

    /// A small database keyed with the raw key.
    public static let rawKeyPath: String = {
        let path = directory + "/rawkey.sqlite"
        let connection = RawConnection(path: path, key: rawKey)
        connection.execute("CREATE TABLE t (a); INSERT INTO t VALUES (1)")
        return path
    }()

    /// About 20 MB of blobs, keyed with the passphrase; returns its path for
    /// a given name (each workload re-keys its own copy).
    public static func bigDatabase(named name: String) -> String {
        let path = directory + "/\(name).sqlite"
        let connection = RawConnection(path: path, key: passphrase)
        connection.execute("CREATE TABLE blob (id INTEGER PRIMARY KEY, data BLOB)")
        connection.execute("""
            BEGIN;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
            INSERT INTO blob (data) SELECT randomblob(1000) FROM n;
            COMMIT;
            """)
        return path
    }

    /// Removes a database file and its journal.
    public static func removeDatabase(at path: String) {
        for suffix in ["", "-journal", "-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: path + suffix)
        }
    }

    /// An empty `ints` table for the insert workloads, in its own file.
    public static func emptyIntsDatabase(named name: String) -> String {
        let path = directory + "/\(name).sqlite"
        let connection = RawConnection(path: path, key: passphrase)
        connection.execute("CREATE TABLE ints (\(columnDefinitions))")
        return path
    }

    static let columnDefinitions = (0..<10).map { "c\($0) INTEGER" }.joined(separator: ", ")

    private static func createInts(_ connection: RawConnection) {
        connection.execute("CREATE TABLE ints (\(columnDefinitions))")
        connection.execute("""
            BEGIN;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(rowCount))
            INSERT INTO ints SELECT i, i + 1, i + 2, i + 3, i + 4, i + 5, i + 6, i + 7, i + 8, i + 9 FROM n;
            COMMIT;
            """)
    }
}
