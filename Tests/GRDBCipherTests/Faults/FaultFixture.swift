import Foundation
import Testing
@testable import GRDBCipher

/// The databases the fault-injection tests hurt, and how they judge them
/// afterwards: by opening the file as a user would, with each key in turn.
enum FaultFixture {
    /// How many times the kill -9 loops kill a child: 50, or more with
    /// GRDBCIPHER_FAULT_ITERATIONS.
    static let iterations = Int(ProcessInfo.processInfo.environment["GRDBCIPHER_FAULT_ITERATIONS"] ?? "") ?? 50

    /// A cheap key derivation (SQLCipher's default is 256,000 rounds) for
    /// the loops that open files hundreds of times; the child gets the same
    /// with `--kdf-iter`.
    static let cheapKDFIterations = 4_000

    /// The configuration of a file keyed with `passphrase` (nil: plaintext).
    /// `compatibility`: SQLCipher's `cipher_compatibility` (nil: SQLCipher 4).
    static func configuration(_ passphrase: String?, kdfIterations: Int? = nil, compatibility: Int? = nil) -> Configuration {
        var config = Configuration()
        config.passphrase = passphrase
        config.cipherSettings.compatibility = compatibility
        config.cipherSettings.kdfIterations = kdfIterations
        return config
    }

    /// The child's arguments for the same key derivation.
    static func kdfArguments(_ kdfIterations: Int?) -> [String] {
        kdfIterations.map { ["--kdf-iter", "\($0)"] } ?? []
    }

    /// Creates a database whose table `table` (`id INTEGER PRIMARY KEY,
    /// payload TEXT`) holds `rows` rows of about `payloadLength` characters.
    static func makeDatabase(
        at path: String, passphrase: String, rows: Int, wal: Bool, kdfIterations: Int? = nil,
        compatibility: Int? = nil, payloadLength: Int = 48, table: String = "t") throws
    {
        var config = configuration(passphrase, kdfIterations: kdfIterations, compatibility: compatibility)
        if wal { config.journalMode = .wal }
        let dbQueue = try DatabaseQueue(path: path, configuration: config)
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE \(table) (id INTEGER PRIMARY KEY, payload TEXT)")
            let insert = try db.makeStatement(sql: "INSERT INTO \(table) (payload) VALUES (?)")
            for index in 0..<rows {
                let prefix = "row \(index) "
                try insert.execute(values: prefix + String(repeating: "x", count: max(0, payloadLength - prefix.count)))
            }
        }
        try dbQueue.close()
    }

    /// The size of a file in bytes, 0 if there is none.
    /// For copies: a WAL source of `rows` rows keyed with "source key", and
    /// a small destination template whose table `old` holds `oldRows` rows,
    /// keyed with "copy key".
    static func makeCopyFiles(
        in dir: TemporaryDirectory, rows: Int, oldRows: Int, kdfIterations: Int?) throws -> (source: String, oldCopy: String)
    {
        let source = dir.path("source.sqlite")
        let oldCopy = dir.path("old-copy.sqlite")
        try makeDatabase(at: source, passphrase: "source key", rows: rows, wal: true, kdfIterations: kdfIterations)
        try makeDatabase(
            at: oldCopy, passphrase: "copy key", rows: oldRows, wal: false, kdfIterations: kdfIterations, table: "old")
        return (source, oldCopy)
    }

    static func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }

    /// Whether the database, or a journal or WAL that SQLite would apply to
    /// a new file at its path, exists.
    static func databaseExists(_ path: String) -> Bool {
        ["", "-wal", "-journal"].contains { FileManager.default.fileExists(atPath: path + $0) }
    }

    /// Removes a database and the files SQLite keeps beside it.
    static func removeDatabase(_ path: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] {
            try? FileManager.default.removeItem(atPath: path + suffix)
        }
    }

    /// Copies a closed database (no WAL left beside it) to `destination`.
    static func copyDatabase(_ source: String, to destination: String) throws {
        removeDatabase(destination)
        try FileManager.default.copyItem(atPath: source, toPath: destination)
    }

    /// The names of the files in `folder` that start with `prefix`.
    static func files(in folder: String, startingWith prefix: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasPrefix(prefix) }.sorted()
    }
}

/// What one key finds in a database file.
enum KeyView: CustomStringConvertible, Equatable {
    /// There is no file.
    case absent
    /// The key does not open the file: a wrong key, or not a database.
    case refused(String)
    /// The key opens the file, but reading the table fails, or the
    /// integrity checks report damage.
    case damaged(String)
    /// The key reads everything: the table holds `rows` rows, and both
    /// `PRAGMA integrity_check` and `PRAGMA cipher_integrity_check` are clean.
    case intact(rows: Int)

    var isRefused: Bool {
        if case .refused = self { return true }
        return false
    }

    var description: String {
        switch self {
        case .absent: "absent"
        case let .refused(reason): "refused (\(reason))"
        case let .damaged(reason): "DAMAGED (\(reason))"
        case let .intact(rows): "intact with \(rows) rows"
        }
    }

    /// Opens `path` with `passphrase` (nil: plaintext) and reads all of
    /// `table`. The file is opened writable, as an application would: a hot
    /// journal or WAL left by a killed process is recovered. A missing file
    /// is not created.
    static func of(
        _ path: String, passphrase: String?, kdfIterations: Int? = nil, compatibility: Int? = nil, table: String = "t"
    ) -> KeyView {
        guard FileManager.default.fileExists(atPath: path) else { return .absent }
        let dbQueue: DatabaseQueue
        do {
            dbQueue = try DatabaseQueue(
                path: path,
                configuration: FaultFixture.configuration(passphrase, kdfIterations: kdfIterations, compatibility: compatibility))
        } catch {
            return .refused("\(error)")
        }
        defer { try? dbQueue.close() }
        do {
            _ = try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") }
        } catch {
            return .refused("\(error)")
        }
        do {
            let (rows, integrity) = try dbQueue.read { db in
                let rows = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? -1
                // Reads every page of the table, not only the b-tree's counts.
                _ = try Int.fetchOne(db, sql: "SELECT sum(length(payload)) FROM \(table)")
                return (rows, try String.fetchAll(db, sql: "PRAGMA integrity_check"))
            }
            // Outside a transaction, as an operator checks: it may checkpoint the WAL.
            let cipherFailures = passphrase == nil ? [] : try dbQueue.cipherIntegrityCheck().map(\.message)
            guard integrity == ["ok"], cipherFailures.isEmpty else {
                return .damaged(
                    "\(rows) rows, integrity_check: \(integrity.prefix(5)), cipher_integrity_check: "
                        + "\(cipherFailures.prefix(3)) (\(cipherFailures.count) pages)"
                        + afterCheckpoint(dbQueue, checksCipher: passphrase != nil))
            }
            return .intact(rows: rows)
        } catch {
            return .damaged("\(error)")
        }
    }

    /// For a diagnosis only: what the integrity checks say once the WAL is
    /// checkpointed into the database file, which `cipher_integrity_check` reads.
    private static func afterCheckpoint(_ dbQueue: DatabaseQueue, checksCipher: Bool) -> String {
        let checks = try? dbQueue.writeWithoutTransaction { db in
            let checkpoint = try Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)").map { "\($0)" } ?? "none"
            let integrity = try String.fetchAll(db, sql: "PRAGMA integrity_check")
            let cipherFailures = checksCipher ? try db.cipherIntegrityCheck().count : 0
            return "checkpoint \(checkpoint), integrity_check \(integrity.prefix(3)), cipher_integrity_check failures \(cipherFailures)"
        }
        return "; after a checkpoint: " + (checks ?? "the checks fail")
    }

    /// What each of `passphrases` finds, tried in a random order, as a user
    /// who does not know which key is current would try them.
    static func of(
        _ path: String, passphrases: [String], kdfIterations: Int? = nil, table: String = "t") -> [String: KeyView]
    {
        var views: [String: KeyView] = [:]
        for passphrase in passphrases.shuffled() {
            views[passphrase] = .of(path, passphrase: passphrase, kdfIterations: kdfIterations, table: table)
        }
        return views
    }
}

/// Expects the only two states an operation that changes the key may leave:
/// it threw and `old` reads everything, or it returned and `new` does; the
/// other key is refused. `rows` is the number of rows both states hold.
func expectOneKeyReadsEverything(
    _ path: String, succeeded: Bool, old: String, new: String, rows: Int, kdfIterations: Int? = nil,
    _ context: @autoclosure () -> String, sourceLocation: SourceLocation = #_sourceLocation)
{
    let views = KeyView.of(path, passphrases: [old, new], kdfIterations: kdfIterations)
    let (reading, refused) = succeeded ? (new, old) : (old, new)
    #expect(
        views[reading] == .intact(rows: rows),
        "the \(succeeded ? "new" : "old") key must read all \(rows) rows: \(context()); old key: \(views[old]!), new key: \(views[new]!)",
        sourceLocation: sourceLocation)
    #expect(
        views[refused]?.isRefused == true,
        "the \(succeeded ? "old" : "new") key must be refused: \(context()); old key: \(views[old]!), new key: \(views[new]!)",
        sourceLocation: sourceLocation)
}
