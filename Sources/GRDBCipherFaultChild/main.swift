// The process that the fault-injection tests spawn, starve of disk space and
// kill. Each command runs one operation on an encrypted database and prints
// one line to standard output for each step it has finished: the tests read
// a line as proof that the step before it is done. An unexpected error ends
// the process with status 1 and the error on standard error; a bad command
// line, with status 2.
//
//   rotate --kind pool|queue --path P --old OLD --new NEW [--fsize N] [--prewrite N] [--checkpoint]
//       inserts N rows of randomblob(200) into t first (one transaction),
//       and truncates the WAL with --checkpoint; prints READY and waits for
//       a line on standard input; then, under the size limit,
//       ROTATED or FAILED <code>; waits for a line on standard input, lifts
//       the limit and writes one row: WROTE or WRITE-FAILED <code>; waits for
//       a line, closes: CLOSED or CLOSE-FAILED <code> (the end of standard
//       input counts as a line)
//   rotate-loop --path P --keys K0,K1,... [--kind pool|queue]
//       ROTATING <i> before each rotation to key i, KEY <i> after it, forever
//   export --path P --key K --dest D (--dest-key DK | --plaintext) [--replace] [--fsize N]
//   backup --path P --key K --dest D [--dest-key DK] [--pages-per-step N] [--fsize N]
//       READY once the databases are open, then DONE or FAILED <code>
//   upgrade --path P --key K [--fsize N]
//       READY, then DONE <outcome> or FAILED <code>: upgradeToSQLCipher4
//   writer-loop --path P --key K
//       ACK <id> after each committed row, forever
//   hold-lock --path P --key K --mode shared|immediate|exclusive [--journal wal|delete]
//       LOCKED, then waits for the end of standard input and rolls back
//   log-errors --path P --key K
//       sets Database.logError before any connection opens, runs failing
//       statements, two with the key in their text; LOG <code> <message> for
//       each line SQLite logs, then DONE
//   crash-point OPERATION setup|run|next --dir D
//       the operations of the crash-point matrix: see CrashPoints.swift
//   migrate --path P --key K [--steps N] [--hold-in ID]
//       RAN <id> for each migration it runs (HOLDING <id> for --hold-in, which
//       then waits inside that migration for the end of standard input), then
//       DONE <applied ids>; the migrations are in Migrate.swift
//
// Every command takes --kdf-iter N (SQLCipher's kdf_iter, for a fast key
// derivation; the test must open the files with the same value).
// --fsize N limits the size of every file the process writes (RLIMIT_FSIZE),
// once the databases are open: a write past the limit fails as on a full disk.
import Foundation
import GRDBCipher
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A command line that cannot be run.
struct UsageError: Error, CustomStringConvertible {
    let description: String
}

/// The options of a command: `--name value` pairs, and the flags in `flagNames`.
struct Options {
    static let flagNames: Set<String> = ["plaintext", "replace", "checkpoint"]

    let command: String
    private var values: [String: String] = [:]
    private var flags: Set<String> = []

    init(_ arguments: [String]) throws {
        guard let command = arguments.first else { throw UsageError(description: "no command") }
        self.command = command
        var rest = arguments.dropFirst()
        while let argument = rest.popFirst() {
            guard argument.hasPrefix("--") else { throw UsageError(description: "unexpected argument \(argument)") }
            let name = String(argument.dropFirst(2))
            if Self.flagNames.contains(name) {
                flags.insert(name)
            } else if let value = rest.popFirst() {
                values[name] = value
            } else {
                throw UsageError(description: "\(argument) needs a value")
            }
        }
    }

    func string(_ name: String) throws -> String {
        guard let value = values[name] else { throw UsageError(description: "\(command) needs --\(name)") }
        return value
    }

    func optionalString(_ name: String) -> String? {
        values[name]
    }

    func optionalInteger(_ name: String) throws -> Int? {
        guard let text = values[name] else { return nil }
        guard let value = Int(text) else { throw UsageError(description: "--\(name) takes an integer, not \(text)") }
        return value
    }

    func flag(_ name: String) -> Bool {
        flags.contains(name)
    }

    /// The cipher settings of every database the command opens.
    func cipherSettings() throws -> CipherSettings {
        var settings = CipherSettings()
        settings.kdfIterations = try optionalInteger("kdf-iter")
        return settings
    }

    func configuration(passphrase: String) throws -> Configuration {
        var config = Configuration()
        config.passphrase = passphrase
        config.cipherSettings = try cipherSettings()
        return config
    }
}

/// Prints `line` with one write(2), unbuffered: once the test reads it, the
/// step before it is done, whatever happens to the process next.
func acknowledge(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    var offset = 0
    while offset < bytes.count {
        let written = bytes[offset...].withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
        if written < 0 {
            if errno == EINTR { continue }
            exit(3)   // the test is gone
        }
        offset += written
    }
}

/// The primary result code of a database error, as the tests expect it.
func code(_ error: DatabaseError) -> String {
    "\(error.resultCode.rawValue)"
}

/// Simulates a full disk when the options say so: from now on, writing a
/// file past the limit fails with EFBIG instead of raising SIGXFSZ.
func limitFileSize(_ options: Options) throws {
    guard let size = try options.optionalInteger("fsize") else { return }
    signal(SIGXFSZ, SIG_IGN)
    try setFileSizeLimit(rlim_t(size))
}

/// With --exhaust-fds N: opens descriptors until the process has none left
/// (a real EMFILE), then closes N of them. Returns the descriptors to close.
func exhaustFileDescriptors(_ options: Options) throws -> [CInt] {
    guard let spare = try options.optionalInteger("exhaust-fds") else { return [] }
    #if os(Linux)
    let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
    let resource = RLIMIT_NOFILE
    #endif
    var limit = rlimit()
    guard getrlimit(resource, &limit) == 0 else { throw UsageError(description: "getrlimit failed") }
    limit.rlim_cur = min(limit.rlim_cur, 4096)
    guard setrlimit(resource, &limit) == 0 else { throw UsageError(description: "setrlimit failed") }
    var fds: [CInt] = []
    fds.reserveCapacity(4096)
    while true {
        let fd = open("/dev/null", O_RDONLY)
        if fd < 0 { break }
        fds.append(fd)
    }
    for _ in 0..<min(spare, fds.count) { close(fds.removeLast()) }
    return fds
}

/// The disk has room again.
func liftFileSizeLimit() throws {
    try setFileSizeLimit(rlim_t.max)   // RLIM_INFINITY, which Swift cannot import
}

/// Sets the soft limit only, so that it can be lifted again.
private func setFileSizeLimit(_ size: rlim_t) throws {
    #if os(Linux)
    let resource = __rlimit_resource_t(RLIMIT_FSIZE.rawValue)
    #else
    let resource = RLIMIT_FSIZE
    #endif
    var limit = rlimit()
    guard getrlimit(resource, &limit) == 0 else { throw UsageError(description: "getrlimit failed with errno \(errno)") }
    limit.rlim_cur = size
    guard setrlimit(resource, &limit) == 0 else { throw UsageError(description: "setrlimit failed with errno \(errno)") }
}

/// The primary code of a database error, with its message on standard error
/// for the test's transcript.
func report(_ prefix: String, _ error: DatabaseError) {
    FileHandle.standardError.write(Data("\(prefix): \(error)\n".utf8))
    acknowledge("\(prefix) \(code(error))")
}

/// A queue or a pool, and its passphrase change.
struct Writer {
    let writer: any DatabaseWriter
    let changePassphrase: (String) throws -> Void

    init(kind: String, path: String, configuration: Configuration) throws {
        switch kind {
        case "pool":
            let dbPool = try DatabasePool(path: path, configuration: configuration)
            writer = dbPool
            changePassphrase = { try dbPool.changePassphrase($0) }
        case "queue":
            let dbQueue = try DatabaseQueue(path: path, configuration: configuration)
            writer = dbQueue
            changePassphrase = { try dbQueue.changePassphrase($0) }
        default:
            throw UsageError(description: "--kind is pool or queue, not \(kind)")
        }
    }
}

/// One passphrase change under the optional size limit, then, step by step
/// so that the test can check the file between steps, one more write
/// through the same connections with room on the disk, and the closing.
/// Before the fix, SQLCipher's silent failure plus this write made the file
/// unreadable with either key.
func rotate(_ options: Options) throws {
    let old = try options.string("old")
    let new = try options.string("new")
    let database = try Writer(
        kind: try options.string("kind"), path: try options.string("path"),
        configuration: try options.configuration(passphrase: old))
    if let rows = try options.optionalInteger("prewrite") {
        try database.writer.write { db in
            try db.execute(
                sql: """
                    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
                    INSERT INTO t (payload) SELECT randomblob(200) FROM n
                    """,
                arguments: [rows])
        }
    }
    if options.flag("checkpoint") {
        try database.writer.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) }
    }
    acknowledge("READY")
    _ = readLine()
    try limitFileSize(options)
    let hogged = try exhaustFileDescriptors(options)
    do {
        switch options.optionalString("via") {
        case "db-write":
            try database.writer.write { db in try db.changePassphrase(new) }
        case "db-write-insert":
            try database.writer.write { db in
                try db.execute(sql: "INSERT INTO t (payload) VALUES ('before-rotation')")
                try db.changePassphrase(new)
            }
        default:
            try database.changePassphrase(new)
        }
        acknowledge("ROTATED")
    } catch let error as DatabaseError {
        report("FAILED", error)
    }
    for fd in hogged { close(fd) }
    _ = readLine()
    try liftFileSizeLimit()
    do {
        try database.writer.write { db in
            try db.execute(sql: "INSERT INTO t (payload) VALUES ('after-rotation')")
        }
        acknowledge("WROTE")
    } catch let error as DatabaseError {
        report("WRITE-FAILED", error)
    }
    _ = readLine()
    do {
        try database.writer.close()
        acknowledge("CLOSED")
    } catch let error as DatabaseError {
        report("CLOSE-FAILED", error)
    }
}

/// Rotates from key 0 to key 1, 2, ... and around, until killed.
func rotateLoop(_ options: Options) throws {
    let keys = try options.string("keys").split(separator: ",").map(String.init)
    guard keys.count >= 2 else { throw UsageError(description: "--keys needs at least two keys") }
    let database = try Writer(
        kind: options.optionalString("kind") ?? "pool", path: try options.string("path"),
        configuration: try options.configuration(passphrase: keys[0]))
    var current = 0
    while true {
        let target = (current + 1) % keys.count
        acknowledge("ROTATING \(target)")
        try database.changePassphrase(keys[target])
        acknowledge("KEY \(target)")
        current = target
    }
}

/// Rewraps an envelope between key-encryption keys (passphrases read from
/// the files of `--kek-files`, the first one current) over and over, and
/// rotates the data key every third time, until killed.
func envelopeLoop(_ options: Options) throws {
    let path = try options.string("path")
    let keys = try options.string("kek-files").split(separator: ",").map { file in
        try KeyEncryptionKey.passphraseFile(atPath: String(file), scrypt: .insecureForTestsOnly)
    }
    guard keys.count >= 2 else { throw UsageError(description: "--kek-files needs at least two files") }
    var current = 0
    var iteration = 0
    while true {
        iteration += 1
        if iteration % 3 == 0 {
            acknowledge("ROTATING")
            try DatabaseEnvelope.rotateDataKey(forDatabaseAt: path, keyEncryptionKey: keys[current])
            acknowledge("ROTATED")
        }
        let target = (current + 1) % keys.count
        acknowledge("REWRAPPING \(target)")
        try DatabaseEnvelope.rewrap(forDatabaseAt: path, from: keys[current], to: keys[target])
        acknowledge("KEK \(target)")
        current = target
    }
}

/// Opens the source of an export or a backup, a queue unless told otherwise.
func openSource(_ options: Options) throws -> any DatabaseWriter {
    try Writer(
        kind: options.optionalString("kind") ?? "queue", path: try options.string("path"),
        configuration: try options.configuration(passphrase: try options.string("key"))).writer
}

func export(_ options: Options) throws {
    let source = try openSource(options)
    let destination = try options.string("dest")
    let encryption: DatabaseEncryption
    if options.flag("plaintext") {
        encryption = .plaintext
    } else {
        encryption = .encrypted(key: .passphrase(try options.string("dest-key")), settings: try options.cipherSettings())
    }
    try limitFileSize(options)
    acknowledge("READY")
    do {
        try source.export(to: destination, encryption: encryption, replacingExistingFile: options.flag("replace"))
        acknowledge("DONE")
    } catch let error as DatabaseError {
        acknowledge("FAILED \(code(error))")
    }
    try source.close()
}

func backup(_ options: Options) throws {
    let source = try openSource(options)
    let destinationKey = try options.optionalString("dest-key") ?? options.string("key")
    let destination = try DatabaseQueue(
        path: try options.string("dest"), configuration: try options.configuration(passphrase: destinationKey))
    let pagesPerStep = try options.optionalInteger("pages-per-step") ?? -1
    try limitFileSize(options)
    acknowledge("READY")
    do {
        try source.backup(to: destination, pagesPerStep: CInt(pagesPerStep))
        acknowledge("DONE")
    } catch let error as DatabaseError {
        acknowledge("FAILED \(code(error))")
    }
    try destination.close()
    try source.close()
}

/// Upgrades a file written with SQLCipher 3's defaults to SQLCipher 4's,
/// in place. `--kdf-iter` is not taken: the upgrade tries the defaults.
func upgrade(_ options: Options) throws {
    let path = try options.string("path")
    let key = DatabaseKey.passphrase(try options.string("key"))
    try limitFileSize(options)
    acknowledge("READY")
    do {
        let outcome = try DatabaseFile.upgradeToSQLCipher4(atPath: path, key: key)
        acknowledge("DONE \(outcome)")
    } catch let error as DatabaseError {
        acknowledge("FAILED \(code(error))")
    }
}

/// Commits one row per transaction into `ack`, and acknowledges its id once
/// the commit has returned, until killed. Ids follow the largest in the table.
func writerLoop(_ options: Options) throws {
    let dbPool = try DatabasePool(
        path: try options.string("path"), configuration: try options.configuration(passphrase: try options.string("key")))
    var id = try dbPool.write { db in
        try db.execute(sql: "CREATE TABLE IF NOT EXISTS ack (id INTEGER PRIMARY KEY, payload BLOB)")
        return try Int.fetchOne(db, sql: "SELECT ifnull(max(id), 0) FROM ack")!
    }
    while true {
        id += 1
        try dbPool.write { db in
            try db.execute(sql: "INSERT INTO ack (id, payload) VALUES (?, randomblob(1024))", arguments: [id])
        }
        acknowledge("ACK \(id)")
    }
}

/// Holds a lock on the database until standard input ends: a busy lock held
/// by another process.
func holdLock(_ options: Options) throws {
    var config = try options.configuration(passphrase: try options.string("key"))
    switch options.optionalString("journal") ?? "delete" {
    case "wal": config.journalMode = .wal
    case "delete": config.journalMode = .default
    case let other: throw UsageError(description: "--journal is wal or delete, not \(other)")
    }
    let kind: Database.TransactionKind
    switch try options.string("mode") {
    case "shared": kind = .deferred
    case "immediate": kind = .immediate
    case "exclusive": kind = .exclusive
    case let other: throw UsageError(description: "--mode is shared, immediate or exclusive, not \(other)")
    }
    let dbQueue = try DatabaseQueue(path: try options.string("path"), configuration: config)
    try dbQueue.inDatabase { db in
        try db.beginTransaction(kind)
        // A deferred transaction takes its shared lock on its first read.
        _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master")
        acknowledge("LOCKED")
        _ = FileHandle.standardInput.readDataToEndOfFile()
        try db.rollback()
    }
    try dbQueue.close()
}

/// Database.logError only works when set before the process opens its first
/// connection: a fresh process shows what it receives.
func logErrors(_ options: Options) throws {
    Database.logError = { code, message in
        acknowledge("LOG \(code.rawValue) \(message)")
    }
    let key = try options.string("key")
    let dbQueue = try DatabaseQueue(path: try options.string("path"), configuration: try options.configuration(passphrase: key))
    let quotedKey = key.replacingOccurrences(of: "'", with: "''")
    for sql in [
        "SELECT * FROM nowhere",
        "PRAGMA key = '\(quotedKey)",
        "ATTACH DATABASE ':memory:' AS other KEY '\(quotedKey)' \(quotedKey)",
    ] {
        _ = try? dbQueue.inDatabase { db in try db.execute(sql: sql) }
    }
    acknowledge("DONE")
}

do {
    if CommandLine.arguments.dropFirst().first == "crash-point" {
        try crashPoint(Array(CommandLine.arguments.dropFirst(2)))
        exit(0)
    }
    let options = try Options(Array(CommandLine.arguments.dropFirst()))
    switch options.command {
    case "rotate": try rotate(options)
    case "rotate-loop": try rotateLoop(options)
    case "export": try export(options)
    case "backup": try backup(options)
    case "upgrade": try upgrade(options)
    case "writer-loop": try writerLoop(options)
    case "hold-lock": try holdLock(options)
    case "log-errors": try logErrors(options)
    case "migrate": try migrate(options)
    case "envelope-loop": try envelopeLoop(options)
    default: throw UsageError(description: "unknown command \(options.command)")
    }
    exit(0)
} catch let error as UsageError {
    FileHandle.standardError.write(Data("GRDBCipherFaultChild: \(error)\n".utf8))
    exit(2)
} catch {
    FileHandle.standardError.write(Data("GRDBCipherFaultChild: unexpected error: \(error)\n".utf8))
    exit(1)
}
