import Foundation
import GRDBCipher

extension EncryptionCheck {
    /// Checks that `configuration` (its key and cipher settings) opens the
    /// database at `path` and reads it: the schema, and every page through
    /// `PRAGMA quick_check`, so that each page decrypts and authenticates.
    /// The file is opened as an app opens it, read-write, and closed again.
    ///
    /// ```swift
    /// try EncryptionCheck.opens(path, with: key.configuration)
    /// ```
    ///
    /// - throws: A ``Failure`` that says what happened instead: no file, the
    ///   key refused (`SQLITE_NOTADB`), another error, or damage.
    public static func opens(_ path: String, with configuration: Configuration) throws {
        let outcome = KeyOutcome.of(path, configuration)
        guard case .reads = outcome else {
            throw Failure("the key should open \(path) and read it, but \(outcome)")
        }
    }

    /// Checks that `configuration` (its key and cipher settings) does not open
    /// the database at `path`: opening it fails with `SQLITE_NOTADB`, as with
    /// any wrong key, and the database, its `-wal` and its `-journal` are byte
    /// for byte as they were, and no such file appeared or disappeared. (The
    /// `-shm`, SQLite's shared memory, is compared by presence only: any
    /// connection may write there.)
    ///
    /// ```swift
    /// try EncryptionCheck.refuses(path, with: TestKey.insecureRandomRawKey().configuration)
    /// ```
    ///
    /// - throws: A ``Failure`` that says what happened instead: no file, the
    ///   key opened the database, another error than `SQLITE_NOTADB`, or the
    ///   files that changed.
    public static func refuses(_ path: String, with configuration: Configuration) throws {
        guard FileManager.default.fileExists(atPath: path) else {
            throw Failure("\(path) does not exist: there is nothing to refuse")
        }
        let before = try FileSnapshot.database(path)
        let outcome = KeyOutcome.of(path, configuration)
        var problems: [String] = []
        if !outcome.isRefused {
            problems.append("the key should be refused with SQLITE_NOTADB, but \(outcome)")
        }
        let changes = try before.current().differences(from: before, ignoringContentsOf: [name(path) + "-shm"])
        if !changes.isEmpty {
            problems.append("the attempt changed the files: " + changes.joined(separator: ", "))
        }
        guard problems.isEmpty else {
            throw Failure("\(path): " + problems.joined(separator: "; "))
        }
    }

    /// Checks that a rotation from `old` to `new` left exactly one key
    /// valid, the new one: `new` opens and reads the database at `path`, and
    /// `old` is refused (and changes nothing).
    ///
    /// ```swift
    /// try dbPool.changeKey(newKey.databaseKey)
    /// try EncryptionCheck.rotated(path, from: oldKey.configuration, to: newKey.configuration)
    /// ```
    ///
    /// - throws: A ``Failure`` that says what each key found: both open,
    ///   neither does, or the old one still does.
    public static func rotated(_ path: String, from old: Configuration, to new: Configuration) throws {
        let newOutcome = KeyOutcome.of(path, new)
        var oldRefusal: String?
        do {
            try refuses(path, with: old)
        } catch let failure as Failure {
            oldRefusal = failure.message
        }
        switch (newOutcome, oldRefusal) {
        case (.reads, nil):
            return
        case (.reads, let failure?):
            throw Failure("after the rotation of \(path), the new key reads it, but the old key should be refused: \(failure)")
        case (_, nil):
            throw Failure("after the rotation of \(path), the old key is refused, but the new key should read it: \(newOutcome)")
        case (_, let failure?):
            throw Failure("after the rotation of \(path), the new key should read it, but \(newOutcome); "
                + "and the old key should be refused: \(failure)")
        }
    }
}

/// What one key finds when it opens a database.
enum KeyOutcome: CustomStringConvertible {
    /// There is no file.
    case missing(String)
    /// The key opens the database and reads every page.
    case reads(tables: Int)
    /// Opening failed with SQLITE_NOTADB: a wrong key or wrong settings.
    case refused(DatabaseError)
    /// Opening or reading failed with another error.
    case failed(any Error)
    /// The key opens the database, but the integrity check reports damage.
    case damaged([String])

    var isRefused: Bool {
        if case .refused = self { return true }
        return false
    }

    var description: String {
        switch self {
        case let .missing(path):
            "\(path) does not exist"
        case let .reads(tables):
            "the key opened the database and read it (\(tables) tables)"
        case let .refused(error):
            "the key was refused (\(Self.describe(error)))"
        case let .failed(error as DatabaseError):
            "opening or reading failed with \(Self.describe(error))"
        case let .failed(error):
            "opening or reading failed: \(error)"
        case let .damaged(problems):
            "the key opened the database, but quick_check reports: \(problems.prefix(5).joined(separator: "; "))"
        }
    }

    /// The result code and SQLite's message: never the key, which the
    /// library keeps out of its errors.
    static func describe(_ error: DatabaseError) -> String {
        let code = error.resultCode == .SQLITE_NOTADB ? "SQLITE_NOTADB" : "result code \(error.extendedResultCode)"
        return code + ": " + (error.message ?? "no message")
    }

    /// Opens `path` as an app would (read-write, never creating a missing
    /// file), reads the schema and checks every page, and closes it.
    static func of(_ path: String, _ configuration: Configuration) -> KeyOutcome {
        guard FileManager.default.fileExists(atPath: path) else { return .missing(path) }
        do {
            let dbQueue = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? dbQueue.close() }
            let (tables, check) = try dbQueue.read { db in
                (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table'") ?? 0,
                 try String.fetchAll(db, sql: "PRAGMA quick_check"))
            }
            return check == ["ok"] ? .reads(tables: tables) : .damaged(check)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            return .refused(error)
        } catch {
            return .failed(error)
        }
    }
}
