import CSQLCipher
import Foundation

/// A keyed connection that holds SQLite's EXCLUSIVE lock on its database
/// file from the moment it is made until it closes: an in-place operation
/// reads the database through it, writes the replacement, and renames the
/// replacement over the file while no other process can read or write it.
/// A commit of another process either lands before the copy, and is in it,
/// or waits for the lock, and then fails (the replaced file is made
/// unreadable, see ``DatabaseFile``).
///
/// The lock is taken with `BEGIN EXCLUSIVE`, which waits for other
/// connections with SQLite's busy handler, and kept by `PRAGMA
/// locking_mode = EXCLUSIVE`, set inside that transaction: set before, the
/// connection would keep its shared lock while it waits, and a writer of
/// another process that waits for that shared lock to commit could never
/// finish. In WAL mode, the second `BEGIN EXCLUSIVE` takes the lock on the
/// database file itself, which is refused while any other process has the
/// database open (its connections keep a shared lock as long as they are).
final class ExclusiveConnection {
    /// How long the connection waits for other connections' locks.
    static let busyTimeout: TimeInterval = 5

    /// The real path of the database file.
    let path: String
    let db: Database
    /// Whether the database was in WAL mode.
    let usesWAL: Bool
    /// Whether the file was replaced: its `-wal` and `-shm` names are then
    /// the new database's.
    private var replaced = false

    /// Opens the file at `path` (a real path: see ``InPlaceTarget``) and takes its lock.
    ///
    /// - parameters:
    ///   - shownPath: The path the caller gave, for messages.
    ///   - operation: What needs the lock ("upgrade"), for messages.
    /// - throws: A ``DatabaseError``: `SQLITE_BUSY` if another process kept
    ///   the database open or locked, `SQLITE_NOTADB` for a wrong key.
    init(path: String, shownPath: String, configuration: Configuration, operation: String) throws {
        var configuration = configuration
        configuration.readonly = false
        configuration.journalMode = .default
        configuration.busyMode = .timeout(Self.busyTimeout)
        self.path = path
        db = try Database(path: path, description: "GRDBCipher.\(operation)", configuration: configuration)
        do {
            usesWAL = try db.journalMode() == "wal"
            if usesWAL {
                // Closed in WAL mode, a connection checkpoints into its file,
                // and deletes `-wal` and `-shm` by name: after the rename,
                // the names of the new database's files. Neither, then.
                let handle = try db.connection()
                var persist: CInt = 1
                sqlite3_file_control(handle, "main", SQLITE_FCNTL_PERSIST_WAL, &persist)
                grdbcipher_db_config_int(handle, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1)
            }
            try db.execute(sql: "BEGIN EXCLUSIVE")
            // `main` only: the export's destination, attached later, keeps
            // the normal mode, and deletes its journal as usual.
            try db.execute(sql: "PRAGMA main.locking_mode = EXCLUSIVE")
            try db.execute(sql: "COMMIT")
            try db.execute(sql: "BEGIN EXCLUSIVE")
            try db.execute(sql: "COMMIT")
            if usesWAL {
                // Every commit into the file itself: the WAL set aside at the
                // rename then holds nothing that a crash could lose.
                let handle = try db.connection()
                var logFrames: CInt = -1
                var checkpointed: CInt = -1
                let code = sqlite3_wal_checkpoint_v2(handle, "main", SQLITE_CHECKPOINT_TRUNCATE, &logFrames, &checkpointed)
                guard code == SQLITE_OK, logFrames == 0 else {
                    throw DatabaseError(
                        resultCode: code == SQLITE_OK ? .SQLITE_BUSY : ResultCode(rawValue: code),
                        message: "cannot \(operation) \(shownPath): its WAL could not be checkpointed")
                }
            }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY {
            db.closeEvenIfBusy()
            throw DatabaseError(
                resultCode: .SQLITE_BUSY,
                message: "cannot \(operation) \(shownPath): another process has it open (a connection in WAL mode, "
                    + "or a transaction), and kept it for \(Int(Self.busyTimeout)) seconds; close it first")
        } catch {
            db.closeEvenIfBusy()
            throw error
        }
    }

    /// Renames `replacement` over the database file, under the lock; the
    /// replaced file is made unreadable for the connections that still have it.
    ///
    /// - parameter shownPath: The path the caller gave, for messages.
    func replaceFile(with replacement: String, shownPath: String) throws {
        let handle = try db.connection()
        var pointer: UnsafeMutablePointer<sqlite3_file>?
        guard sqlite3_file_control(handle, "main", SQLITE_FCNTL_FILE_POINTER, &pointer) == SQLITE_OK, let pointer else {
            throw DatabaseError(resultCode: .SQLITE_IOERR, message: "cannot replace \(shownPath): SQLite does not expose its file")
        }
        try DatabaseFile.moveIntoPlace(replacement, over: path, shownPath: shownPath, lockedFile: pointer)
        replaced = true
    }

    /// Closes the connection, which releases the lock. Unless the file was
    /// replaced, a WAL is checkpointed and removed, as at any close.
    func close() {
        if usesWAL && !replaced, let handle = db.sqliteConnection {
            var persist: CInt = 0
            sqlite3_file_control(handle, "main", SQLITE_FCNTL_PERSIST_WAL, &persist)
            grdbcipher_db_config_int(handle, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 0)
        }
        db.closeEvenIfBusy()
    }
}
