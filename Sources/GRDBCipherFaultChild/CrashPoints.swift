// The operations of the crash-point matrix (Tests/CrashPoints/run): each
// touches more than one file, or one file twice. For each, `setup` makes the
// starting state in a folder, `run` performs the operation once (the matrix
// kills it after, or fails, each file-system call it makes), and `next` does
// what a user does next. The matrix then checks the folder with readers of
// its own (the `sqlcipher` shell, and Python for envelopes).
//
//   crash-point OPERATION setup|run|next --dir D
//
// `run` prints ACK <n> for each commit it was told succeeded and DONE when
// the operation returned; FAILED <message> when it threw. `next` prints
// NEXT-DONE, or NEXT-FAILED <message>. The files of D: db.sqlite (20 rows in
// t), copy.sqlite, kek1 and kek2 (key-encryption passphrases, scrypt N = 2¹⁰).
import Foundation
import GRDBCipher
#if canImport(Glibc)
import Glibc
#endif

/// The keys and settings every step shares. Test values, never real secrets.
enum CrashPointKeys {
    static let old = "old crash-point key"
    static let new = "new crash-point key"
    static let kdfIterations = 4_000
    static let rows = 20

    static func configuration(_ passphrase: String?, compatibility: Int? = nil, wal: Bool = false) -> Configuration {
        var config = Configuration()
        config.passphrase = passphrase
        config.cipherSettings.kdfIterations = compatibility == nil ? kdfIterations : nil
        config.cipherSettings.compatibility = compatibility
        if wal { config.journalMode = .wal }
        return config
    }

    static func kek(_ dir: String, _ name: String) throws -> KeyEncryptionKey {
        try KeyEncryptionKey.passphraseFile(atPath: dir + "/" + name, scrypt: .insecureForTestsOnly)
    }

    static func envelopedConfiguration(_ dir: String, kek name: String) throws -> Configuration {
        var config = Configuration()
        config.key = try DatabaseEnvelope.unwrap(forDatabaseAt: dir + "/db.sqlite", keyEncryptionKey: kek(dir, name)).key
        return config
    }
}

func crashPoint(_ arguments: [String]) throws {
    guard arguments.count >= 2 else { throw UsageError(description: "crash-point needs an operation and a step") }
    let options = try Options(["crash-point"] + arguments.dropFirst(2))
    let dir = try options.string("dir")
    let db = dir + "/db.sqlite"
    let copy = dir + "/copy.sqlite"
    let (operation, step) = (arguments[0], arguments[1])
    let keys = CrashPointKeys.self

    func fill(_ writer: any DatabaseWriter) throws {
        try writer.write { db in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, payload TEXT)")
            for index in 0..<keys.rows {
                try db.execute(sql: "INSERT INTO t (payload) VALUES (?)", arguments: ["row \(index) " + String(repeating: "x", count: 400)])
            }
        }
    }
    func makeDatabase(_ passphrase: String?, compatibility: Int? = nil, wal: Bool = false) throws {
        let dbQueue = try DatabaseQueue(path: db, configuration: keys.configuration(passphrase, compatibility: compatibility, wal: wal))
        try fill(dbQueue)
        chmod(db, 0o640)
        if wal {
            // Ends without a close: the rows stay in the WAL, not checkpointed.
            exit(0)
        }
        try dbQueue.close()
    }
    func makeEnvelopedDatabase() throws {
        var config = Configuration()
        config.key = try DatabaseEnvelope.create(forDatabaseAt: db, keyEncryptionKey: keys.kek(dir, "kek1"))
        config.journalMode = .wal
        let dbPool = try DatabasePool(path: db, configuration: config)
        try fill(dbPool)
        try dbPool.close()
        chmod(db, 0o640)
    }
    /// Opens the database with the first configuration that reads it, writes, and closes it.
    func openAndClose(_ path: String, _ configurations: [Configuration]) throws {
        var lastError: (any Error)?
        for config in configurations {
            do {
                let dbQueue = try DatabaseQueue(path: path, configuration: config)
                // A write, as the user's next one: SQLite removes a journal
                // that a crash left before its header (not hot, so kept).
                try dbQueue.write { try $0.execute(sql: "CREATE TABLE IF NOT EXISTS nextStep (x); INSERT INTO nextStep VALUES (1)") }
                try dbQueue.close()
                return
            } catch {
                lastError = error
            }
        }
        throw lastError ?? UsageError(description: "no configuration")
    }
    func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }
    func opensWithEnvelope(_ kekName: String) -> Bool {
        (try? openAndClose(db, [keys.envelopedConfiguration(dir, kek: kekName)])) != nil
    }

    switch (operation, step) {
    // A passphrase change of a queue (rollback journal) or a pool (WAL).
    case ("change-key-queue", "setup"): try makeDatabase(keys.old)
    case ("change-key-pool", "setup"): try makeDatabase(keys.old, wal: true)
    case ("change-key-queue", "run"):
        let dbQueue = try DatabaseQueue(path: db, configuration: keys.configuration(keys.old))
        try reportOutcome { try dbQueue.changePassphrase(keys.new) }
    case ("change-key-pool", "run"):
        let dbPool = try DatabasePool(path: db, configuration: keys.configuration(keys.old, wal: true))
        _ = try dbPool.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM t") }
        try reportOutcome { try dbPool.changePassphrase(keys.new) }
    case ("reencrypt", "next"):
        // The operator runs the re-encryption again unless it is done.
        try reportNext {
            if (try? openAndClose(db, [keys.configuration(keys.new)])) == nil {
                try DatabaseFile.reencrypt(
                    atPath: db, key: .passphrase(keys.old), settings: CipherSettings(kdfIterations: keys.kdfIterations),
                    newKey: .passphrase(keys.new), newSettings: CipherSettings(kdfIterations: keys.kdfIterations))
            }
            try openAndClose(db, [keys.configuration(keys.new)])
        }
    case ("change-key-queue", "next"), ("change-key-pool", "next"):
        try reportNext { try openAndClose(db, [keys.configuration(keys.new), keys.configuration(keys.old)]) }

    // Copy and swap with new settings (the tool's `rekey --new-kdf-iter`).
    case ("reencrypt", "setup"): try makeDatabase(keys.old, wal: true)
    case ("reencrypt", "run"):
        try reportOutcome {
            try DatabaseFile.reencrypt(
                atPath: db, key: .passphrase(keys.old), settings: CipherSettings(kdfIterations: keys.kdfIterations),
                newKey: .passphrase(keys.new), newSettings: CipherSettings(kdfIterations: keys.kdfIterations))
        }

    // SQLCipher 3 to 4, in place.
    case ("upgrade", "setup"): try makeDatabase(keys.old, compatibility: 3)
    case ("upgrade", "run"):
        try reportOutcome { _ = try DatabaseFile.upgradeToSQLCipher4(atPath: db, key: .passphrase(keys.old)) }
    case ("upgrade", "next"):
        // The user runs the upgrade again: it completes, or finds nothing to do.
        try reportNext { _ = try DatabaseFile.upgradeToSQLCipher4(atPath: db, key: .passphrase(keys.old)) }

    // Exports to a new file, both ways.
    case ("export-encrypted", "setup"): try makeDatabase(nil)
    case ("export-plaintext", "setup"): try makeDatabase(keys.old)
    case ("export-encrypted", "run"), ("export-encrypted", "next"):
        let prefix = step == "run" ? "" : "NEXT-"
        let source = try DatabaseQueue(path: db)
        try reportOutcome(prefix: prefix, skipIf: step == "next" && exists(copy)) {
            try source.export(to: copy, encryption: .encrypted(
                key: .passphrase(keys.new), settings: CipherSettings(kdfIterations: keys.kdfIterations)))
        }
    case ("export-plaintext", "run"), ("export-plaintext", "next"):
        let prefix = step == "run" ? "" : "NEXT-"
        let source = try DatabaseQueue(path: db, configuration: keys.configuration(keys.old))
        try reportOutcome(prefix: prefix, skipIf: step == "next" && exists(copy)) {
            try source.export(to: copy, encryption: .plaintext)
        }

    // An export that replaces an existing copy (copy and swap of another
    // file than its source), under the copy's key-change lock.
    case ("export-replacing", "setup"):
        try makeDatabase(keys.old)
        let old = try DatabaseQueue(path: copy)
        try old.write { try $0.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, payload TEXT); INSERT INTO t (payload) VALUES ('old copy')") }
        try old.close()
        chmod(copy, 0o640)
    case ("export-replacing", "run"), ("export-replacing", "next"):
        let prefix = step == "run" ? "" : "NEXT-"
        let source = try DatabaseQueue(path: db, configuration: keys.configuration(keys.old))
        // The user runs the export again unless it is done.
        let done = step == "next" && (try? DatabaseQueue(path: copy, configuration: keys.configuration(keys.new))
            .read { try Int.fetchOne($0, sql: "SELECT count(*) FROM t") }) == keys.rows
        try reportOutcome(prefix: prefix, skipIf: done) {
            try source.export(
                to: copy, encryption: .encrypted(key: .passphrase(keys.new), settings: CipherSettings(kdfIterations: keys.kdfIterations)),
                replacingExistingFile: true)
        }
        try source.close()

    // The first start of a server on a new enveloped database, and the next.
    case ("envelope-first-start", "setup"): break
    case ("envelope-first-start", "run"), ("envelope-first-start", "next"):
        let prefix = step == "run" ? "" : "NEXT-"
        var config = Configuration()
        config.key = try DatabaseEnvelope.unwrap(forDatabaseAt: db, keyEncryptionKey: keys.kek(dir, "kek1"), creatingIfMissing: true).key
        config.journalMode = .wal
        let dbPool = try DatabasePool(path: db, configuration: config)
        try dbPool.write { try $0.execute(sql: "CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, payload TEXT)") }
        for index in 0..<(step == "run" ? 5 : 1) {
            try dbPool.write { try $0.execute(sql: "INSERT INTO t (payload) VALUES (?)", arguments: ["start \(index)"]) }
            if step == "run" { acknowledge("ACK \(index + 1)") }
        }
        try dbPool.close()
        acknowledge(prefix + "DONE")

    // Rewrap, rotation, and the rewrap that an operator runs after a rotation.
    case ("envelope-rewrap", "setup"), ("envelope-rotate", "setup"), ("envelope-rotate-unwrap", "setup"),
         ("backup-with-envelope", "setup"), ("export-with-envelope", "setup"):
        try makeEnvelopedDatabase()
    case ("envelope-rewrap", "run"):
        try reportOutcome { try DatabaseEnvelope.rewrap(forDatabaseAt: db, from: keys.kek(dir, "kek1"), to: keys.kek(dir, "kek2")) }
    case ("envelope-rotate", "run"), ("envelope-rotate-unwrap", "run"):
        try reportOutcome { try DatabaseEnvelope.rotateDataKey(forDatabaseAt: db, keyEncryptionKey: keys.kek(dir, "kek1")) }
    case ("envelope-rewrap", "next"), ("envelope-rotate", "next"):
        // Unless the new key-encryption key opens it already, rewrap; the
        // operator then retires kek1.
        try reportNext {
            if !opensWithEnvelope("kek2") {
                try DatabaseEnvelope.rewrap(forDatabaseAt: db, from: keys.kek(dir, "kek1"), to: keys.kek(dir, "kek2"))
            }
        }
    case ("envelope-rotate-unwrap", "next"):
        try reportNext { try openAndClose(db, [keys.envelopedConfiguration(dir, kek: "kek1")]) }

    // `envelope init`: a plaintext file encrypted under a new data key.
    case ("envelope-encrypt", "setup"): try makeDatabase(nil)
    case ("envelope-encrypt", "run"):
        try reportOutcome { try DatabaseEnvelope.encrypt(plaintextDatabaseAt: db, keyEncryptionKey: keys.kek(dir, "kek1")) }
    case ("envelope-encrypt", "next"):
        try reportNext {
            if try !DatabaseFile.isEncrypted(atPath: db) {
                try DatabaseEnvelope.encrypt(plaintextDatabaseAt: db, keyEncryptionKey: keys.kek(dir, "kek1"))
            }
            try openAndClose(db, [keys.envelopedConfiguration(dir, kek: "kek1")])
        }

    // Copies that carry the envelope; the user retries a copy that is not there.
    case ("backup-with-envelope", "run"), ("backup-with-envelope", "next"),
         ("export-with-envelope", "run"), ("export-with-envelope", "next"):
        let prefix = step == "run" ? "" : "NEXT-"
        let dbPool = try DatabasePool(path: db, configuration: keys.envelopedConfiguration(dir, kek: "kek1"))
        try reportOutcome(prefix: prefix, skipIf: step == "next" && exists(copy)) {
            if operation == "backup-with-envelope" {
                try dbPool.backupWithEnvelope(to: copy, keyEncryptionKey: keys.kek(dir, "kek1"))
            } else {
                try dbPool.exportWithEnvelope(to: copy, keyEncryptionKey: keys.kek(dir, "kek1"))
            }
        }
        try dbPool.close()
    case ("replicate", _):
        try ReplicationCrashPoint.run(step: step, dir: dir)
    case ("replicate-rekey", _):
        try ReplicationCrashPoint.run(step: step, dir: dir, changingKey: true)
    case ("restore-envelope", "setup"):
        try makeEnvelopedDatabase()
        try ReplicationCrashPoint.replicateEnveloped(dir: dir, configuration: keys.envelopedConfiguration(dir, kek: "kek1"))
    case ("restore-envelope", _):
        try ReplicationCrashPoint.restoreEnveloped(step: step, dir: dir, keyEncryptionKey: keys.kek(dir, "kek1"))
    default:
        throw UsageError(description: "unknown crash-point operation or step: \(operation) \(step)")
    }
}

/// Runs the operation: DONE if it returned, FAILED and its message if it threw.
private func reportOutcome(prefix: String = "", skipIf skip: Bool = false, _ body: () throws -> Void) throws {
    if skip {
        acknowledge(prefix + "DONE")
        return
    }
    do {
        try body()
        acknowledge(prefix + "DONE")
    } catch {
        acknowledge(prefix + "FAILED " + "\(error)".replacingOccurrences(of: "\n", with: " "))
    }
}

private func reportNext(_ body: () throws -> Void) throws {
    try reportOutcome(prefix: "NEXT-", body)
}
