import CSQLCipher

/// An SQLite result code, primary (`SQLITE_CONSTRAINT`) or extended
/// (`SQLITE_CONSTRAINT_FOREIGNKEY`).
///
/// Result codes work as patterns, in `catch` clauses and in `switch` over an
/// error or a code. A primary code matches every code of its family, an
/// extended code matches only itself:
///
/// ```swift
/// do {
///     try db.execute(sql: "INSERT INTO book (authorId) VALUES (?)", arguments: [42])
/// } catch DatabaseError.SQLITE_CONSTRAINT_FOREIGNKEY {
///     // no such author
/// } catch DatabaseError.SQLITE_CONSTRAINT {
///     // another constraint failed
/// }
/// ```
public struct ResultCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The raw SQLite code.
    public let rawValue: CInt

    /// Creates a result code from a raw SQLite code.
    public init(rawValue: CInt) {
        self.rawValue = rawValue
    }

    /// The primary result code (`SQLITE_CONSTRAINT` for `SQLITE_CONSTRAINT_FOREIGNKEY`).
    public var primaryResultCode: ResultCode {
        ResultCode(rawValue: rawValue & 0xFF)
    }

    var isPrimary: Bool { self == primaryResultCode }

    /// The code and SQLite's English description of it: "19 (constraint failed)".
    public var description: String {
        "\(rawValue) (\(String(cString: sqlite3_errstr(rawValue))))"
    }

    /// Returns whether `code` matches `pattern`: every code of its family for
    /// a primary pattern, only itself for an extended one.
    ///
    /// It makes `switch` read from the most precise code to the least:
    ///
    /// ```swift
    /// switch error.extendedResultCode {
    /// case .SQLITE_CONSTRAINT_FOREIGNKEY: // no such author
    /// case .SQLITE_CONSTRAINT:            // any other constraint (UNIQUE, NOT NULL, ...)
    /// default:                            // any other error
    /// }
    /// ```
    public static func ~= (pattern: ResultCode, code: ResultCode) -> Bool {
        pattern.isPrimary ? pattern == code.primaryResultCode : pattern == code
    }

    /// Returns whether the error is a ``DatabaseError`` whose extended code
    /// matches `pattern`, as `~=` between two codes does; any other error
    /// does not match.
    ///
    /// ```swift
    /// do {
    ///     try db.execute(sql: "INSERT INTO book (authorId) VALUES (?)", arguments: [42])
    /// } catch ResultCode.SQLITE_CONSTRAINT_FOREIGNKEY {
    ///     // no such author
    /// }
    /// ```
    public static func ~= (pattern: ResultCode, error: any Error) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        return pattern ~= error.extendedResultCode
    }

    /// SQLite's `SQLITE_OK` code.
    public static let SQLITE_OK = ResultCode(rawValue: 0)
    /// SQLite's `SQLITE_ERROR` code.
    public static let SQLITE_ERROR = ResultCode(rawValue: 1)
    /// SQLite's `SQLITE_INTERNAL` code.
    public static let SQLITE_INTERNAL = ResultCode(rawValue: 2)
    /// SQLite's `SQLITE_PERM` code.
    public static let SQLITE_PERM = ResultCode(rawValue: 3)
    /// SQLite's `SQLITE_ABORT` code.
    public static let SQLITE_ABORT = ResultCode(rawValue: 4)
    /// SQLite's `SQLITE_BUSY` code.
    public static let SQLITE_BUSY = ResultCode(rawValue: 5)
    /// SQLite's `SQLITE_LOCKED` code.
    public static let SQLITE_LOCKED = ResultCode(rawValue: 6)
    /// SQLite's `SQLITE_NOMEM` code.
    public static let SQLITE_NOMEM = ResultCode(rawValue: 7)
    /// SQLite's `SQLITE_READONLY` code.
    public static let SQLITE_READONLY = ResultCode(rawValue: 8)
    /// SQLite's `SQLITE_INTERRUPT` code.
    public static let SQLITE_INTERRUPT = ResultCode(rawValue: 9)
    /// SQLite's `SQLITE_IOERR` code.
    public static let SQLITE_IOERR = ResultCode(rawValue: 10)
    /// SQLite's `SQLITE_CORRUPT` code.
    public static let SQLITE_CORRUPT = ResultCode(rawValue: 11)
    /// SQLite's `SQLITE_NOTFOUND` code.
    public static let SQLITE_NOTFOUND = ResultCode(rawValue: 12)
    /// SQLite's `SQLITE_FULL` code.
    public static let SQLITE_FULL = ResultCode(rawValue: 13)
    /// SQLite's `SQLITE_CANTOPEN` code.
    public static let SQLITE_CANTOPEN = ResultCode(rawValue: 14)
    /// SQLite's `SQLITE_PROTOCOL` code.
    public static let SQLITE_PROTOCOL = ResultCode(rawValue: 15)
    /// SQLite's `SQLITE_EMPTY` code.
    public static let SQLITE_EMPTY = ResultCode(rawValue: 16)
    /// SQLite's `SQLITE_SCHEMA` code.
    public static let SQLITE_SCHEMA = ResultCode(rawValue: 17)
    /// SQLite's `SQLITE_TOOBIG` code.
    public static let SQLITE_TOOBIG = ResultCode(rawValue: 18)
    /// SQLite's `SQLITE_CONSTRAINT` code.
    public static let SQLITE_CONSTRAINT = ResultCode(rawValue: 19)
    /// SQLite's `SQLITE_MISMATCH` code.
    public static let SQLITE_MISMATCH = ResultCode(rawValue: 20)
    /// SQLite's `SQLITE_MISUSE` code.
    public static let SQLITE_MISUSE = ResultCode(rawValue: 21)
    /// SQLite's `SQLITE_NOLFS` code.
    public static let SQLITE_NOLFS = ResultCode(rawValue: 22)
    /// SQLite's `SQLITE_AUTH` code.
    public static let SQLITE_AUTH = ResultCode(rawValue: 23)
    /// SQLite's `SQLITE_FORMAT` code.
    public static let SQLITE_FORMAT = ResultCode(rawValue: 24)
    /// SQLite's `SQLITE_RANGE` code.
    public static let SQLITE_RANGE = ResultCode(rawValue: 25)
    /// SQLite's `SQLITE_NOTADB` code.
    public static let SQLITE_NOTADB = ResultCode(rawValue: 26)
    /// SQLite's `SQLITE_NOTICE` code.
    public static let SQLITE_NOTICE = ResultCode(rawValue: 27)
    /// SQLite's `SQLITE_WARNING` code.
    public static let SQLITE_WARNING = ResultCode(rawValue: 28)
    /// SQLite's `SQLITE_ROW` code.
    public static let SQLITE_ROW = ResultCode(rawValue: 100)
    /// SQLite's `SQLITE_DONE` code.
    public static let SQLITE_DONE = ResultCode(rawValue: 101)

    /// SQLite's `SQLITE_ERROR_MISSING_COLLSEQ` code.
    public static let SQLITE_ERROR_MISSING_COLLSEQ = ResultCode(rawValue: 1 | (1 << 8))
    /// SQLite's `SQLITE_ERROR_RETRY` code.
    public static let SQLITE_ERROR_RETRY = ResultCode(rawValue: 1 | (2 << 8))
    /// SQLite's `SQLITE_ERROR_SNAPSHOT` code.
    public static let SQLITE_ERROR_SNAPSHOT = ResultCode(rawValue: 1 | (3 << 8))
    /// SQLite's `SQLITE_IOERR_READ` code.
    public static let SQLITE_IOERR_READ = ResultCode(rawValue: 10 | (1 << 8))
    /// SQLite's `SQLITE_IOERR_SHORT_READ` code.
    public static let SQLITE_IOERR_SHORT_READ = ResultCode(rawValue: 10 | (2 << 8))
    /// SQLite's `SQLITE_IOERR_WRITE` code.
    public static let SQLITE_IOERR_WRITE = ResultCode(rawValue: 10 | (3 << 8))
    /// SQLite's `SQLITE_IOERR_FSYNC` code.
    public static let SQLITE_IOERR_FSYNC = ResultCode(rawValue: 10 | (4 << 8))
    /// SQLite's `SQLITE_IOERR_DIR_FSYNC` code.
    public static let SQLITE_IOERR_DIR_FSYNC = ResultCode(rawValue: 10 | (5 << 8))
    /// SQLite's `SQLITE_IOERR_TRUNCATE` code.
    public static let SQLITE_IOERR_TRUNCATE = ResultCode(rawValue: 10 | (6 << 8))
    /// SQLite's `SQLITE_IOERR_FSTAT` code.
    public static let SQLITE_IOERR_FSTAT = ResultCode(rawValue: 10 | (7 << 8))
    /// SQLite's `SQLITE_IOERR_UNLOCK` code.
    public static let SQLITE_IOERR_UNLOCK = ResultCode(rawValue: 10 | (8 << 8))
    /// SQLite's `SQLITE_IOERR_RDLOCK` code.
    public static let SQLITE_IOERR_RDLOCK = ResultCode(rawValue: 10 | (9 << 8))
    /// SQLite's `SQLITE_IOERR_DELETE` code.
    public static let SQLITE_IOERR_DELETE = ResultCode(rawValue: 10 | (10 << 8))
    /// SQLite's `SQLITE_IOERR_BLOCKED` code.
    public static let SQLITE_IOERR_BLOCKED = ResultCode(rawValue: 10 | (11 << 8))
    /// SQLite's `SQLITE_IOERR_NOMEM` code.
    public static let SQLITE_IOERR_NOMEM = ResultCode(rawValue: 10 | (12 << 8))
    /// SQLite's `SQLITE_IOERR_ACCESS` code.
    public static let SQLITE_IOERR_ACCESS = ResultCode(rawValue: 10 | (13 << 8))
    /// SQLite's `SQLITE_IOERR_CHECKRESERVEDLOCK` code.
    public static let SQLITE_IOERR_CHECKRESERVEDLOCK = ResultCode(rawValue: 10 | (14 << 8))
    /// SQLite's `SQLITE_IOERR_LOCK` code.
    public static let SQLITE_IOERR_LOCK = ResultCode(rawValue: 10 | (15 << 8))
    /// SQLite's `SQLITE_IOERR_CLOSE` code.
    public static let SQLITE_IOERR_CLOSE = ResultCode(rawValue: 10 | (16 << 8))
    /// SQLite's `SQLITE_IOERR_DIR_CLOSE` code.
    public static let SQLITE_IOERR_DIR_CLOSE = ResultCode(rawValue: 10 | (17 << 8))
    /// SQLite's `SQLITE_IOERR_SHMOPEN` code.
    public static let SQLITE_IOERR_SHMOPEN = ResultCode(rawValue: 10 | (18 << 8))
    /// SQLite's `SQLITE_IOERR_SHMSIZE` code.
    public static let SQLITE_IOERR_SHMSIZE = ResultCode(rawValue: 10 | (19 << 8))
    /// SQLite's `SQLITE_IOERR_SHMLOCK` code.
    public static let SQLITE_IOERR_SHMLOCK = ResultCode(rawValue: 10 | (20 << 8))
    /// SQLite's `SQLITE_IOERR_SHMMAP` code.
    public static let SQLITE_IOERR_SHMMAP = ResultCode(rawValue: 10 | (21 << 8))
    /// SQLite's `SQLITE_IOERR_SEEK` code.
    public static let SQLITE_IOERR_SEEK = ResultCode(rawValue: 10 | (22 << 8))
    /// SQLite's `SQLITE_IOERR_DELETE_NOENT` code.
    public static let SQLITE_IOERR_DELETE_NOENT = ResultCode(rawValue: 10 | (23 << 8))
    /// SQLite's `SQLITE_IOERR_MMAP` code.
    public static let SQLITE_IOERR_MMAP = ResultCode(rawValue: 10 | (24 << 8))
    /// SQLite's `SQLITE_IOERR_GETTEMPPATH` code.
    public static let SQLITE_IOERR_GETTEMPPATH = ResultCode(rawValue: 10 | (25 << 8))
    /// SQLite's `SQLITE_IOERR_CONVPATH` code.
    public static let SQLITE_IOERR_CONVPATH = ResultCode(rawValue: 10 | (26 << 8))
    /// SQLite's `SQLITE_IOERR_VNODE` code.
    public static let SQLITE_IOERR_VNODE = ResultCode(rawValue: 10 | (27 << 8))
    /// SQLite's `SQLITE_IOERR_AUTH` code.
    public static let SQLITE_IOERR_AUTH = ResultCode(rawValue: 10 | (28 << 8))
    /// SQLite's `SQLITE_IOERR_BEGIN_ATOMIC` code.
    public static let SQLITE_IOERR_BEGIN_ATOMIC = ResultCode(rawValue: 10 | (29 << 8))
    /// SQLite's `SQLITE_IOERR_COMMIT_ATOMIC` code.
    public static let SQLITE_IOERR_COMMIT_ATOMIC = ResultCode(rawValue: 10 | (30 << 8))
    /// SQLite's `SQLITE_IOERR_ROLLBACK_ATOMIC` code.
    public static let SQLITE_IOERR_ROLLBACK_ATOMIC = ResultCode(rawValue: 10 | (31 << 8))
    /// SQLite's `SQLITE_IOERR_DATA` code.
    public static let SQLITE_IOERR_DATA = ResultCode(rawValue: 10 | (32 << 8))
    /// SQLite's `SQLITE_IOERR_CORRUPTFS` code.
    public static let SQLITE_IOERR_CORRUPTFS = ResultCode(rawValue: 10 | (33 << 8))
    /// SQLite's `SQLITE_LOCKED_SHAREDCACHE` code.
    public static let SQLITE_LOCKED_SHAREDCACHE = ResultCode(rawValue: 6 | (1 << 8))
    /// SQLite's `SQLITE_LOCKED_VTAB` code.
    public static let SQLITE_LOCKED_VTAB = ResultCode(rawValue: 6 | (2 << 8))
    /// SQLite's `SQLITE_BUSY_RECOVERY` code.
    public static let SQLITE_BUSY_RECOVERY = ResultCode(rawValue: 5 | (1 << 8))
    /// SQLite's `SQLITE_BUSY_SNAPSHOT` code.
    public static let SQLITE_BUSY_SNAPSHOT = ResultCode(rawValue: 5 | (2 << 8))
    /// SQLite's `SQLITE_BUSY_TIMEOUT` code.
    public static let SQLITE_BUSY_TIMEOUT = ResultCode(rawValue: 5 | (3 << 8))
    /// SQLite's `SQLITE_CANTOPEN_NOTEMPDIR` code.
    public static let SQLITE_CANTOPEN_NOTEMPDIR = ResultCode(rawValue: 14 | (1 << 8))
    /// SQLite's `SQLITE_CANTOPEN_ISDIR` code.
    public static let SQLITE_CANTOPEN_ISDIR = ResultCode(rawValue: 14 | (2 << 8))
    /// SQLite's `SQLITE_CANTOPEN_FULLPATH` code.
    public static let SQLITE_CANTOPEN_FULLPATH = ResultCode(rawValue: 14 | (3 << 8))
    /// SQLite's `SQLITE_CANTOPEN_CONVPATH` code.
    public static let SQLITE_CANTOPEN_CONVPATH = ResultCode(rawValue: 14 | (4 << 8))
    /// SQLite's `SQLITE_CANTOPEN_DIRTYWAL` code.
    public static let SQLITE_CANTOPEN_DIRTYWAL = ResultCode(rawValue: 14 | (5 << 8))
    /// SQLite's `SQLITE_CANTOPEN_SYMLINK` code.
    public static let SQLITE_CANTOPEN_SYMLINK = ResultCode(rawValue: 14 | (6 << 8))
    /// SQLite's `SQLITE_CORRUPT_VTAB` code.
    public static let SQLITE_CORRUPT_VTAB = ResultCode(rawValue: 11 | (1 << 8))
    /// SQLite's `SQLITE_CORRUPT_SEQUENCE` code.
    public static let SQLITE_CORRUPT_SEQUENCE = ResultCode(rawValue: 11 | (2 << 8))
    /// SQLite's `SQLITE_CORRUPT_INDEX` code.
    public static let SQLITE_CORRUPT_INDEX = ResultCode(rawValue: 11 | (3 << 8))
    /// SQLite's `SQLITE_READONLY_RECOVERY` code.
    public static let SQLITE_READONLY_RECOVERY = ResultCode(rawValue: 8 | (1 << 8))
    /// SQLite's `SQLITE_READONLY_CANTLOCK` code.
    public static let SQLITE_READONLY_CANTLOCK = ResultCode(rawValue: 8 | (2 << 8))
    /// SQLite's `SQLITE_READONLY_ROLLBACK` code.
    public static let SQLITE_READONLY_ROLLBACK = ResultCode(rawValue: 8 | (3 << 8))
    /// SQLite's `SQLITE_READONLY_DBMOVED` code.
    public static let SQLITE_READONLY_DBMOVED = ResultCode(rawValue: 8 | (4 << 8))
    /// SQLite's `SQLITE_READONLY_CANTINIT` code.
    public static let SQLITE_READONLY_CANTINIT = ResultCode(rawValue: 8 | (5 << 8))
    /// SQLite's `SQLITE_READONLY_DIRECTORY` code.
    public static let SQLITE_READONLY_DIRECTORY = ResultCode(rawValue: 8 | (6 << 8))
    /// SQLite's `SQLITE_ABORT_ROLLBACK` code.
    public static let SQLITE_ABORT_ROLLBACK = ResultCode(rawValue: 4 | (2 << 8))
    /// SQLite's `SQLITE_CONSTRAINT_CHECK` code.
    public static let SQLITE_CONSTRAINT_CHECK = ResultCode(rawValue: 19 | (1 << 8))
    /// SQLite's `SQLITE_CONSTRAINT_COMMITHOOK` code.
    public static let SQLITE_CONSTRAINT_COMMITHOOK = ResultCode(rawValue: 19 | (2 << 8))
    /// SQLite's `SQLITE_CONSTRAINT_FOREIGNKEY` code.
    public static let SQLITE_CONSTRAINT_FOREIGNKEY = ResultCode(rawValue: 19 | (3 << 8))
    /// SQLite's `SQLITE_CONSTRAINT_FUNCTION` code.
    public static let SQLITE_CONSTRAINT_FUNCTION = ResultCode(rawValue: 19 | (4 << 8))
    /// SQLite's `SQLITE_CONSTRAINT_NOTNULL` code.
    public static let SQLITE_CONSTRAINT_NOTNULL = ResultCode(rawValue: 19 | (5 << 8))
    /// SQLite's `SQLITE_CONSTRAINT_PRIMARYKEY` code.
    public static let SQLITE_CONSTRAINT_PRIMARYKEY = ResultCode(rawValue: 19 | (6 << 8))
    /// SQLite's `SQLITE_CONSTRAINT_TRIGGER` code.
    public static let SQLITE_CONSTRAINT_TRIGGER = ResultCode(rawValue: 19 | (7 << 8))
    /// SQLite's `SQLITE_CONSTRAINT_UNIQUE` code.
    public static let SQLITE_CONSTRAINT_UNIQUE = ResultCode(rawValue: 19 | (8 << 8))
    /// SQLite's `SQLITE_CONSTRAINT_VTAB` code.
    public static let SQLITE_CONSTRAINT_VTAB = ResultCode(rawValue: 19 | (9 << 8))
    /// SQLite's `SQLITE_CONSTRAINT_ROWID` code.
    public static let SQLITE_CONSTRAINT_ROWID = ResultCode(rawValue: 19 | (10 << 8))
    /// SQLite's `SQLITE_CONSTRAINT_PINNED` code.
    public static let SQLITE_CONSTRAINT_PINNED = ResultCode(rawValue: 19 | (11 << 8))
    /// SQLite's `SQLITE_CONSTRAINT_DATATYPE` code.
    public static let SQLITE_CONSTRAINT_DATATYPE = ResultCode(rawValue: 19 | (12 << 8))
    /// SQLite's `SQLITE_NOTICE_RECOVER_WAL` code.
    public static let SQLITE_NOTICE_RECOVER_WAL = ResultCode(rawValue: 27 | (1 << 8))
    /// SQLite's `SQLITE_NOTICE_RECOVER_ROLLBACK` code.
    public static let SQLITE_NOTICE_RECOVER_ROLLBACK = ResultCode(rawValue: 27 | (2 << 8))
    /// SQLite's `SQLITE_WARNING_AUTOINDEX` code.
    public static let SQLITE_WARNING_AUTOINDEX = ResultCode(rawValue: 28 | (1 << 8))
    /// SQLite's `SQLITE_AUTH_USER` code.
    public static let SQLITE_AUTH_USER = ResultCode(rawValue: 23 | (1 << 8))
    /// SQLite's `SQLITE_OK_LOAD_PERMANENTLY` code.
    public static let SQLITE_OK_LOAD_PERMANENTLY = ResultCode(rawValue: 0 | (1 << 8))
    /// SQLite's `SQLITE_OK_SYMLINK` code.
    public static let SQLITE_OK_SYMLINK = ResultCode(rawValue: 0 | (2 << 8))
}
