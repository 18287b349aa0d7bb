import CSQLCipher
import Foundation

/// SQLite's EXCLUSIVE lock on a database file, taken through SQLite's own
/// file layer without a key: no page is read, so it works on any database,
/// encrypted or not, whatever its key.
///
/// While it is held, no other process reads or writes the file. Taking it
/// fails while another process has a transaction open on the file, or has
/// it open in WAL mode at all (such a connection keeps a shared lock for as
/// long as it is open). An idle connection in rollback-journal mode holds no
/// lock and cannot be seen: ``DatabaseFile`` makes a replaced file
/// unreadable, so that such a connection fails instead of writing into it.
final class DatabaseFileLock {
    private var handle: OpaquePointer?
    /// SQLite's open file. Reads and writes through it keep this process's
    /// locks, where a descriptor of our own would drop them once closed.
    let file: UnsafeMutablePointer<sqlite3_file>

    /// Takes the lock, retrying for up to `timeout` seconds while other
    /// connections hold theirs.
    ///
    /// - parameters:
    ///   - path: The database file, which must exist.
    ///   - shownPath: The path the caller gave, for messages.
    ///   - operation: What needs the lock ("replace"), for messages.
    /// - throws: A ``DatabaseError``: `SQLITE_BUSY` if another process kept
    ///   the file open or locked, or the error of the file layer.
    init(path: String, shownPath: String, operation: String, timeout: TimeInterval) throws {
        var handle: OpaquePointer?
        // The file is opened at once; SQLCipher reads nothing before a key.
        let code = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE, nil)
        guard code == SQLITE_OK, let handle else {
            let error = DatabaseError.fromConnection(handle, code: code)
            sqlite3_close_v2(handle)
            throw error
        }
        var pointer: UnsafeMutablePointer<sqlite3_file>?
        guard sqlite3_file_control(handle, "main", SQLITE_FCNTL_FILE_POINTER, &pointer) == SQLITE_OK,
              let pointer, pointer.pointee.pMethods?.pointee.xLock != nil else {
            sqlite3_close_v2(handle)
            throw DatabaseError(resultCode: .SQLITE_CANTOPEN, message: "cannot \(operation) \(shownPath): cannot lock it")
        }
        self.handle = handle
        self.file = pointer
        do {
            try lockExclusively(deadline: Date() + timeout)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY {
            release()
            throw DatabaseError(
                resultCode: .SQLITE_BUSY,
                message: "cannot \(operation) \(shownPath): another process has it open (a connection in WAL mode, "
                    + "or a transaction), and kept it for \(Int(timeout)) seconds; close it first")
        } catch {
            release()
            throw error
        }
    }

    /// SQLite's own order: SHARED, RESERVED, then EXCLUSIVE, which waits for
    /// the readers to finish while PENDING keeps new ones out. A writer that
    /// holds RESERVED needs our SHARED gone to commit: it is dropped before
    /// trying again, as SQLite's busy loop does.
    private func lockExclusively(deadline: Date) throws {
        let lock = file.pointee.pMethods!.pointee.xLock!
        let unlock = file.pointee.pMethods!.pointee.xUnlock!
        func attempt(_ level: CInt) throws -> Bool {
            let code = lock(file, level)
            if code == SQLITE_OK { return true }
            guard code & 0xFF == SQLITE_BUSY else {
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "cannot lock the database file")
            }
            if Date() >= deadline { throw DatabaseError(resultCode: .SQLITE_BUSY, message: "locked") }
            usleep(10_000)
            return false
        }
        while true {
            guard try attempt(SQLITE_LOCK_SHARED) else { continue }
            guard try attempt(SQLITE_LOCK_RESERVED) else {
                _ = unlock(file, SQLITE_LOCK_NONE)
                continue
            }
            while try !attempt(SQLITE_LOCK_EXCLUSIVE) {}
            return
        }
    }

    /// Releases the lock and closes the file. Idempotent.
    func release() {
        guard let handle else { return }
        if let unlock = file.pointee.pMethods?.pointee.xUnlock {
            _ = unlock(file, SQLITE_LOCK_NONE)
        }
        sqlite3_close_v2(handle)
        self.handle = nil
    }

    deinit {
        release()
    }
}
