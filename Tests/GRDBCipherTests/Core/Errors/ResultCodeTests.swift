import Foundation
import Testing
@testable import GRDBCipher

/// Every result code GRDB 7 declares, with its value in SQLite's `sqlite3.h`
/// (Swift does not import the extended-code macros) and its `DatabaseError` spelling.
private let allResultCodes: [(code: ResultCode, sqlite: CInt, errorSpelling: ResultCode, name: String)] = [
    (ResultCode.SQLITE_OK, 0, DatabaseError.SQLITE_OK, "SQLITE_OK"),
    (ResultCode.SQLITE_ERROR, 1, DatabaseError.SQLITE_ERROR, "SQLITE_ERROR"),
    (ResultCode.SQLITE_INTERNAL, 2, DatabaseError.SQLITE_INTERNAL, "SQLITE_INTERNAL"),
    (ResultCode.SQLITE_PERM, 3, DatabaseError.SQLITE_PERM, "SQLITE_PERM"),
    (ResultCode.SQLITE_ABORT, 4, DatabaseError.SQLITE_ABORT, "SQLITE_ABORT"),
    (ResultCode.SQLITE_BUSY, 5, DatabaseError.SQLITE_BUSY, "SQLITE_BUSY"),
    (ResultCode.SQLITE_LOCKED, 6, DatabaseError.SQLITE_LOCKED, "SQLITE_LOCKED"),
    (ResultCode.SQLITE_NOMEM, 7, DatabaseError.SQLITE_NOMEM, "SQLITE_NOMEM"),
    (ResultCode.SQLITE_READONLY, 8, DatabaseError.SQLITE_READONLY, "SQLITE_READONLY"),
    (ResultCode.SQLITE_INTERRUPT, 9, DatabaseError.SQLITE_INTERRUPT, "SQLITE_INTERRUPT"),
    (ResultCode.SQLITE_IOERR, 10, DatabaseError.SQLITE_IOERR, "SQLITE_IOERR"),
    (ResultCode.SQLITE_CORRUPT, 11, DatabaseError.SQLITE_CORRUPT, "SQLITE_CORRUPT"),
    (ResultCode.SQLITE_NOTFOUND, 12, DatabaseError.SQLITE_NOTFOUND, "SQLITE_NOTFOUND"),
    (ResultCode.SQLITE_FULL, 13, DatabaseError.SQLITE_FULL, "SQLITE_FULL"),
    (ResultCode.SQLITE_CANTOPEN, 14, DatabaseError.SQLITE_CANTOPEN, "SQLITE_CANTOPEN"),
    (ResultCode.SQLITE_PROTOCOL, 15, DatabaseError.SQLITE_PROTOCOL, "SQLITE_PROTOCOL"),
    (ResultCode.SQLITE_EMPTY, 16, DatabaseError.SQLITE_EMPTY, "SQLITE_EMPTY"),
    (ResultCode.SQLITE_SCHEMA, 17, DatabaseError.SQLITE_SCHEMA, "SQLITE_SCHEMA"),
    (ResultCode.SQLITE_TOOBIG, 18, DatabaseError.SQLITE_TOOBIG, "SQLITE_TOOBIG"),
    (ResultCode.SQLITE_CONSTRAINT, 19, DatabaseError.SQLITE_CONSTRAINT, "SQLITE_CONSTRAINT"),
    (ResultCode.SQLITE_MISMATCH, 20, DatabaseError.SQLITE_MISMATCH, "SQLITE_MISMATCH"),
    (ResultCode.SQLITE_MISUSE, 21, DatabaseError.SQLITE_MISUSE, "SQLITE_MISUSE"),
    (ResultCode.SQLITE_NOLFS, 22, DatabaseError.SQLITE_NOLFS, "SQLITE_NOLFS"),
    (ResultCode.SQLITE_AUTH, 23, DatabaseError.SQLITE_AUTH, "SQLITE_AUTH"),
    (ResultCode.SQLITE_FORMAT, 24, DatabaseError.SQLITE_FORMAT, "SQLITE_FORMAT"),
    (ResultCode.SQLITE_RANGE, 25, DatabaseError.SQLITE_RANGE, "SQLITE_RANGE"),
    (ResultCode.SQLITE_NOTADB, 26, DatabaseError.SQLITE_NOTADB, "SQLITE_NOTADB"),
    (ResultCode.SQLITE_NOTICE, 27, DatabaseError.SQLITE_NOTICE, "SQLITE_NOTICE"),
    (ResultCode.SQLITE_WARNING, 28, DatabaseError.SQLITE_WARNING, "SQLITE_WARNING"),
    (ResultCode.SQLITE_ROW, 100, DatabaseError.SQLITE_ROW, "SQLITE_ROW"),
    (ResultCode.SQLITE_DONE, 101, DatabaseError.SQLITE_DONE, "SQLITE_DONE"),
    (ResultCode.SQLITE_ERROR_MISSING_COLLSEQ, 257, DatabaseError.SQLITE_ERROR_MISSING_COLLSEQ, "SQLITE_ERROR_MISSING_COLLSEQ"),
    (ResultCode.SQLITE_ERROR_RETRY, 513, DatabaseError.SQLITE_ERROR_RETRY, "SQLITE_ERROR_RETRY"),
    (ResultCode.SQLITE_ERROR_SNAPSHOT, 769, DatabaseError.SQLITE_ERROR_SNAPSHOT, "SQLITE_ERROR_SNAPSHOT"),
    (ResultCode.SQLITE_IOERR_READ, 266, DatabaseError.SQLITE_IOERR_READ, "SQLITE_IOERR_READ"),
    (ResultCode.SQLITE_IOERR_SHORT_READ, 522, DatabaseError.SQLITE_IOERR_SHORT_READ, "SQLITE_IOERR_SHORT_READ"),
    (ResultCode.SQLITE_IOERR_WRITE, 778, DatabaseError.SQLITE_IOERR_WRITE, "SQLITE_IOERR_WRITE"),
    (ResultCode.SQLITE_IOERR_FSYNC, 1034, DatabaseError.SQLITE_IOERR_FSYNC, "SQLITE_IOERR_FSYNC"),
    (ResultCode.SQLITE_IOERR_DIR_FSYNC, 1290, DatabaseError.SQLITE_IOERR_DIR_FSYNC, "SQLITE_IOERR_DIR_FSYNC"),
    (ResultCode.SQLITE_IOERR_TRUNCATE, 1546, DatabaseError.SQLITE_IOERR_TRUNCATE, "SQLITE_IOERR_TRUNCATE"),
    (ResultCode.SQLITE_IOERR_FSTAT, 1802, DatabaseError.SQLITE_IOERR_FSTAT, "SQLITE_IOERR_FSTAT"),
    (ResultCode.SQLITE_IOERR_UNLOCK, 2058, DatabaseError.SQLITE_IOERR_UNLOCK, "SQLITE_IOERR_UNLOCK"),
    (ResultCode.SQLITE_IOERR_RDLOCK, 2314, DatabaseError.SQLITE_IOERR_RDLOCK, "SQLITE_IOERR_RDLOCK"),
    (ResultCode.SQLITE_IOERR_DELETE, 2570, DatabaseError.SQLITE_IOERR_DELETE, "SQLITE_IOERR_DELETE"),
    (ResultCode.SQLITE_IOERR_BLOCKED, 2826, DatabaseError.SQLITE_IOERR_BLOCKED, "SQLITE_IOERR_BLOCKED"),
    (ResultCode.SQLITE_IOERR_NOMEM, 3082, DatabaseError.SQLITE_IOERR_NOMEM, "SQLITE_IOERR_NOMEM"),
    (ResultCode.SQLITE_IOERR_ACCESS, 3338, DatabaseError.SQLITE_IOERR_ACCESS, "SQLITE_IOERR_ACCESS"),
    (ResultCode.SQLITE_IOERR_CHECKRESERVEDLOCK, 3594, DatabaseError.SQLITE_IOERR_CHECKRESERVEDLOCK, "SQLITE_IOERR_CHECKRESERVEDLOCK"),
    (ResultCode.SQLITE_IOERR_LOCK, 3850, DatabaseError.SQLITE_IOERR_LOCK, "SQLITE_IOERR_LOCK"),
    (ResultCode.SQLITE_IOERR_CLOSE, 4106, DatabaseError.SQLITE_IOERR_CLOSE, "SQLITE_IOERR_CLOSE"),
    (ResultCode.SQLITE_IOERR_DIR_CLOSE, 4362, DatabaseError.SQLITE_IOERR_DIR_CLOSE, "SQLITE_IOERR_DIR_CLOSE"),
    (ResultCode.SQLITE_IOERR_SHMOPEN, 4618, DatabaseError.SQLITE_IOERR_SHMOPEN, "SQLITE_IOERR_SHMOPEN"),
    (ResultCode.SQLITE_IOERR_SHMSIZE, 4874, DatabaseError.SQLITE_IOERR_SHMSIZE, "SQLITE_IOERR_SHMSIZE"),
    (ResultCode.SQLITE_IOERR_SHMLOCK, 5130, DatabaseError.SQLITE_IOERR_SHMLOCK, "SQLITE_IOERR_SHMLOCK"),
    (ResultCode.SQLITE_IOERR_SHMMAP, 5386, DatabaseError.SQLITE_IOERR_SHMMAP, "SQLITE_IOERR_SHMMAP"),
    (ResultCode.SQLITE_IOERR_SEEK, 5642, DatabaseError.SQLITE_IOERR_SEEK, "SQLITE_IOERR_SEEK"),
    (ResultCode.SQLITE_IOERR_DELETE_NOENT, 5898, DatabaseError.SQLITE_IOERR_DELETE_NOENT, "SQLITE_IOERR_DELETE_NOENT"),
    (ResultCode.SQLITE_IOERR_MMAP, 6154, DatabaseError.SQLITE_IOERR_MMAP, "SQLITE_IOERR_MMAP"),
    (ResultCode.SQLITE_IOERR_GETTEMPPATH, 6410, DatabaseError.SQLITE_IOERR_GETTEMPPATH, "SQLITE_IOERR_GETTEMPPATH"),
    (ResultCode.SQLITE_IOERR_CONVPATH, 6666, DatabaseError.SQLITE_IOERR_CONVPATH, "SQLITE_IOERR_CONVPATH"),
    (ResultCode.SQLITE_IOERR_VNODE, 6922, DatabaseError.SQLITE_IOERR_VNODE, "SQLITE_IOERR_VNODE"),
    (ResultCode.SQLITE_IOERR_AUTH, 7178, DatabaseError.SQLITE_IOERR_AUTH, "SQLITE_IOERR_AUTH"),
    (ResultCode.SQLITE_IOERR_BEGIN_ATOMIC, 7434, DatabaseError.SQLITE_IOERR_BEGIN_ATOMIC, "SQLITE_IOERR_BEGIN_ATOMIC"),
    (ResultCode.SQLITE_IOERR_COMMIT_ATOMIC, 7690, DatabaseError.SQLITE_IOERR_COMMIT_ATOMIC, "SQLITE_IOERR_COMMIT_ATOMIC"),
    (ResultCode.SQLITE_IOERR_ROLLBACK_ATOMIC, 7946, DatabaseError.SQLITE_IOERR_ROLLBACK_ATOMIC, "SQLITE_IOERR_ROLLBACK_ATOMIC"),
    (ResultCode.SQLITE_IOERR_DATA, 8202, DatabaseError.SQLITE_IOERR_DATA, "SQLITE_IOERR_DATA"),
    (ResultCode.SQLITE_IOERR_CORRUPTFS, 8458, DatabaseError.SQLITE_IOERR_CORRUPTFS, "SQLITE_IOERR_CORRUPTFS"),
    (ResultCode.SQLITE_LOCKED_SHAREDCACHE, 262, DatabaseError.SQLITE_LOCKED_SHAREDCACHE, "SQLITE_LOCKED_SHAREDCACHE"),
    (ResultCode.SQLITE_LOCKED_VTAB, 518, DatabaseError.SQLITE_LOCKED_VTAB, "SQLITE_LOCKED_VTAB"),
    (ResultCode.SQLITE_BUSY_RECOVERY, 261, DatabaseError.SQLITE_BUSY_RECOVERY, "SQLITE_BUSY_RECOVERY"),
    (ResultCode.SQLITE_BUSY_SNAPSHOT, 517, DatabaseError.SQLITE_BUSY_SNAPSHOT, "SQLITE_BUSY_SNAPSHOT"),
    (ResultCode.SQLITE_BUSY_TIMEOUT, 773, DatabaseError.SQLITE_BUSY_TIMEOUT, "SQLITE_BUSY_TIMEOUT"),
    (ResultCode.SQLITE_CANTOPEN_NOTEMPDIR, 270, DatabaseError.SQLITE_CANTOPEN_NOTEMPDIR, "SQLITE_CANTOPEN_NOTEMPDIR"),
    (ResultCode.SQLITE_CANTOPEN_ISDIR, 526, DatabaseError.SQLITE_CANTOPEN_ISDIR, "SQLITE_CANTOPEN_ISDIR"),
    (ResultCode.SQLITE_CANTOPEN_FULLPATH, 782, DatabaseError.SQLITE_CANTOPEN_FULLPATH, "SQLITE_CANTOPEN_FULLPATH"),
    (ResultCode.SQLITE_CANTOPEN_CONVPATH, 1038, DatabaseError.SQLITE_CANTOPEN_CONVPATH, "SQLITE_CANTOPEN_CONVPATH"),
    (ResultCode.SQLITE_CANTOPEN_DIRTYWAL, 1294, DatabaseError.SQLITE_CANTOPEN_DIRTYWAL, "SQLITE_CANTOPEN_DIRTYWAL"),
    (ResultCode.SQLITE_CANTOPEN_SYMLINK, 1550, DatabaseError.SQLITE_CANTOPEN_SYMLINK, "SQLITE_CANTOPEN_SYMLINK"),
    (ResultCode.SQLITE_CORRUPT_VTAB, 267, DatabaseError.SQLITE_CORRUPT_VTAB, "SQLITE_CORRUPT_VTAB"),
    (ResultCode.SQLITE_CORRUPT_SEQUENCE, 523, DatabaseError.SQLITE_CORRUPT_SEQUENCE, "SQLITE_CORRUPT_SEQUENCE"),
    (ResultCode.SQLITE_CORRUPT_INDEX, 779, DatabaseError.SQLITE_CORRUPT_INDEX, "SQLITE_CORRUPT_INDEX"),
    (ResultCode.SQLITE_READONLY_RECOVERY, 264, DatabaseError.SQLITE_READONLY_RECOVERY, "SQLITE_READONLY_RECOVERY"),
    (ResultCode.SQLITE_READONLY_CANTLOCK, 520, DatabaseError.SQLITE_READONLY_CANTLOCK, "SQLITE_READONLY_CANTLOCK"),
    (ResultCode.SQLITE_READONLY_ROLLBACK, 776, DatabaseError.SQLITE_READONLY_ROLLBACK, "SQLITE_READONLY_ROLLBACK"),
    (ResultCode.SQLITE_READONLY_DBMOVED, 1032, DatabaseError.SQLITE_READONLY_DBMOVED, "SQLITE_READONLY_DBMOVED"),
    (ResultCode.SQLITE_READONLY_CANTINIT, 1288, DatabaseError.SQLITE_READONLY_CANTINIT, "SQLITE_READONLY_CANTINIT"),
    (ResultCode.SQLITE_READONLY_DIRECTORY, 1544, DatabaseError.SQLITE_READONLY_DIRECTORY, "SQLITE_READONLY_DIRECTORY"),
    (ResultCode.SQLITE_ABORT_ROLLBACK, 516, DatabaseError.SQLITE_ABORT_ROLLBACK, "SQLITE_ABORT_ROLLBACK"),
    (ResultCode.SQLITE_CONSTRAINT_CHECK, 275, DatabaseError.SQLITE_CONSTRAINT_CHECK, "SQLITE_CONSTRAINT_CHECK"),
    (ResultCode.SQLITE_CONSTRAINT_COMMITHOOK, 531, DatabaseError.SQLITE_CONSTRAINT_COMMITHOOK, "SQLITE_CONSTRAINT_COMMITHOOK"),
    (ResultCode.SQLITE_CONSTRAINT_FOREIGNKEY, 787, DatabaseError.SQLITE_CONSTRAINT_FOREIGNKEY, "SQLITE_CONSTRAINT_FOREIGNKEY"),
    (ResultCode.SQLITE_CONSTRAINT_FUNCTION, 1043, DatabaseError.SQLITE_CONSTRAINT_FUNCTION, "SQLITE_CONSTRAINT_FUNCTION"),
    (ResultCode.SQLITE_CONSTRAINT_NOTNULL, 1299, DatabaseError.SQLITE_CONSTRAINT_NOTNULL, "SQLITE_CONSTRAINT_NOTNULL"),
    (ResultCode.SQLITE_CONSTRAINT_PRIMARYKEY, 1555, DatabaseError.SQLITE_CONSTRAINT_PRIMARYKEY, "SQLITE_CONSTRAINT_PRIMARYKEY"),
    (ResultCode.SQLITE_CONSTRAINT_TRIGGER, 1811, DatabaseError.SQLITE_CONSTRAINT_TRIGGER, "SQLITE_CONSTRAINT_TRIGGER"),
    (ResultCode.SQLITE_CONSTRAINT_UNIQUE, 2067, DatabaseError.SQLITE_CONSTRAINT_UNIQUE, "SQLITE_CONSTRAINT_UNIQUE"),
    (ResultCode.SQLITE_CONSTRAINT_VTAB, 2323, DatabaseError.SQLITE_CONSTRAINT_VTAB, "SQLITE_CONSTRAINT_VTAB"),
    (ResultCode.SQLITE_CONSTRAINT_ROWID, 2579, DatabaseError.SQLITE_CONSTRAINT_ROWID, "SQLITE_CONSTRAINT_ROWID"),
    (ResultCode.SQLITE_CONSTRAINT_PINNED, 2835, DatabaseError.SQLITE_CONSTRAINT_PINNED, "SQLITE_CONSTRAINT_PINNED"),
    (ResultCode.SQLITE_CONSTRAINT_DATATYPE, 3091, DatabaseError.SQLITE_CONSTRAINT_DATATYPE, "SQLITE_CONSTRAINT_DATATYPE"),
    (ResultCode.SQLITE_NOTICE_RECOVER_WAL, 283, DatabaseError.SQLITE_NOTICE_RECOVER_WAL, "SQLITE_NOTICE_RECOVER_WAL"),
    (ResultCode.SQLITE_NOTICE_RECOVER_ROLLBACK, 539, DatabaseError.SQLITE_NOTICE_RECOVER_ROLLBACK, "SQLITE_NOTICE_RECOVER_ROLLBACK"),
    (ResultCode.SQLITE_WARNING_AUTOINDEX, 284, DatabaseError.SQLITE_WARNING_AUTOINDEX, "SQLITE_WARNING_AUTOINDEX"),
    (ResultCode.SQLITE_AUTH_USER, 279, DatabaseError.SQLITE_AUTH_USER, "SQLITE_AUTH_USER"),
    (ResultCode.SQLITE_OK_LOAD_PERMANENTLY, 256, DatabaseError.SQLITE_OK_LOAD_PERMANENTLY, "SQLITE_OK_LOAD_PERMANENTLY"),
    (ResultCode.SQLITE_OK_SYMLINK, 512, DatabaseError.SQLITE_OK_SYMLINK, "SQLITE_OK_SYMLINK"),
]

private struct OtherError: Error {}

/// A database with an author table and a book table whose rows reference it.
private func withLibrary(_ body: (Database) throws -> Void) throws {
    try inMemoryDatabase { db in
        try db.execute(sql: """
            PRAGMA foreign_keys = ON;
            CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
            CREATE TABLE book (id INTEGER PRIMARY KEY, authorId INTEGER REFERENCES author(id));
            INSERT INTO author (id, name) VALUES (1, 'Ursula');
            """)
        try body(db)
    }
}

@Suite("Result codes")
struct ResultCodeTests {
    // MARK: - Constants

    @Test func everyGRDBConstantHasSQLitesValue() {
        #expect(allResultCodes.count == 106)
        #expect(Set(allResultCodes.map(\.name)).count == 106)
        for entry in allResultCodes {
            #expect(entry.code.rawValue == entry.sqlite, "\(entry.name)")
            #expect(entry.errorSpelling == entry.code, "DatabaseError.\(entry.name)")
        }
    }

    @Test func extendedCodesBelongToTheirPrimaryFamily() {
        for entry in allResultCodes {
            let primaryName = allResultCodes.first { $0.code == entry.code.primaryResultCode }?.name
            #expect(primaryName.map { entry.name == $0 || entry.name.hasPrefix($0 + "_") } == true, "\(entry.name)")
        }
        #expect(ResultCode.SQLITE_CONSTRAINT_FOREIGNKEY.primaryResultCode == .SQLITE_CONSTRAINT)
        #expect(ResultCode.SQLITE_IOERR_CORRUPTFS.primaryResultCode == .SQLITE_IOERR)
        #expect(ResultCode.SQLITE_OK_SYMLINK.primaryResultCode == .SQLITE_OK)
        #expect(ResultCode.SQLITE_CONSTRAINT.primaryResultCode == .SQLITE_CONSTRAINT)
    }

    @Test func isRawRepresentableAndHashable() {
        #expect(ResultCode(rawValue: 787) == .SQLITE_CONSTRAINT_FOREIGNKEY)
        #expect(ResultCode(rawValue: 19) != .SQLITE_CONSTRAINT_FOREIGNKEY)
        let codes: Set<ResultCode> = [.SQLITE_BUSY, .SQLITE_BUSY_SNAPSHOT, ResultCode(rawValue: 5)]
        #expect(codes == [.SQLITE_BUSY, .SQLITE_BUSY_SNAPSHOT])
    }

    @Test func descriptionIsTheCodeAndSQLitesWording() {
        #expect(ResultCode.SQLITE_CONSTRAINT.description == "19 (constraint failed)")
        #expect(ResultCode.SQLITE_CONSTRAINT_FOREIGNKEY.description == "787 (constraint failed)")
        #expect(ResultCode.SQLITE_ABORT_ROLLBACK.description == "516 (abort due to ROLLBACK)")
        #expect(ResultCode.SQLITE_DONE.description == "101 (no more rows available)")
        #expect("\(ResultCode(rawValue: 255))" == "255 (unknown error)")
    }

    // MARK: - Matching codes

    /// What a `switch` from the most precise code to the least picks.
    private func category(_ code: ResultCode) -> String {
        switch code {
        case .SQLITE_CONSTRAINT_FOREIGNKEY: return "foreign key"
        case .SQLITE_CONSTRAINT: return "other constraint"
        case .SQLITE_BUSY_SNAPSHOT: return "stale snapshot"
        default: return "other"
        }
    }

    @Test func primaryPatternMatchesItsWholeFamily() {
        #expect(category(.SQLITE_CONSTRAINT_FOREIGNKEY) == "foreign key")
        #expect(category(.SQLITE_CONSTRAINT_UNIQUE) == "other constraint")
        #expect(category(.SQLITE_CONSTRAINT_NOTNULL) == "other constraint")
        #expect(category(.SQLITE_CONSTRAINT) == "other constraint")
        #expect(ResultCode.SQLITE_CONSTRAINT ~= .SQLITE_CONSTRAINT_DATATYPE)
        #expect(!(ResultCode.SQLITE_CONSTRAINT ~= .SQLITE_ERROR))
    }

    @Test func extendedPatternMatchesOnlyItself() {
        #expect(category(.SQLITE_BUSY_SNAPSHOT) == "stale snapshot")
        #expect(category(.SQLITE_BUSY) == "other")
        #expect(category(.SQLITE_BUSY_RECOVERY) == "other")
        #expect(!(ResultCode.SQLITE_CONSTRAINT_FOREIGNKEY ~= .SQLITE_CONSTRAINT))
        #expect(!(ResultCode.SQLITE_CONSTRAINT_FOREIGNKEY ~= .SQLITE_CONSTRAINT_UNIQUE))
    }

    // MARK: - Matching errors

    @Test func catchClausesPickTheMostPreciseCode() throws {
        try withLibrary { db in
            func failure(_ sql: String) -> String {
                do {
                    try db.execute(sql: sql)
                    return "none"
                } catch ResultCode.SQLITE_CONSTRAINT_FOREIGNKEY {
                    return "foreign key"
                } catch DatabaseError.SQLITE_CONSTRAINT_NOTNULL {
                    return "not null"
                } catch DatabaseError.SQLITE_CONSTRAINT {
                    return "other constraint"
                } catch {
                    return "other"
                }
            }
            #expect(failure("INSERT INTO book (authorId) VALUES (42)") == "foreign key")
            #expect(failure("INSERT INTO author (name) VALUES (NULL)") == "not null")
            #expect(failure("INSERT INTO author (name) VALUES ('Ursula')") == "other constraint")
            #expect(failure("INSERT INTO nowhere DEFAULT VALUES") == "other")
            #expect(failure("INSERT INTO book (authorId) VALUES (1)") == "none")
        }
    }

    @Test func switchOverAnErrorMatchesItsExtendedCode() {
        let error: any Error = DatabaseError(resultCode: .SQLITE_CONSTRAINT_UNIQUE, message: "UNIQUE constraint failed")
        var matched: [String] = []
        if case DatabaseError.SQLITE_CONSTRAINT = error { matched.append("constraint") }
        if case ResultCode.SQLITE_CONSTRAINT_UNIQUE = error { matched.append("unique") }
        if case ResultCode.SQLITE_CONSTRAINT_FOREIGNKEY = error { matched.append("foreign key") }
        if case ResultCode.SQLITE_ERROR = error { matched.append("error") }
        #expect(matched == ["constraint", "unique"])
    }

    @Test func otherErrorsNeverMatch() {
        let error: any Error = OtherError()
        #expect(!(ResultCode.SQLITE_ERROR ~= error))
        #expect(!(ResultCode.SQLITE_OK ~= error))
    }

    @Test func interruptionErrorsAreInterruptAndAbort() {
        #expect(DatabaseError(resultCode: .SQLITE_INTERRUPT).isInterruptionError)
        #expect(DatabaseError(resultCode: .SQLITE_ABORT).isInterruptionError)
        #expect(DatabaseError(resultCode: .SQLITE_ABORT_ROLLBACK).isInterruptionError)
        #expect(!DatabaseError(resultCode: .SQLITE_BUSY).isInterruptionError)
        #expect(!DatabaseError(resultCode: .SQLITE_CONSTRAINT).isInterruptionError)
    }

    // MARK: - NSError bridging

    @Test func bridgesToNSErrorWithGRDBsDomainAndTheExtendedCode() throws {
        try withLibrary { db in
            let error = #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO book (authorId) VALUES (42)")
            }
            let databaseError = try #require(error)
            let nsError = databaseError as NSError
            #expect(DatabaseError.errorDomain == "GRDB.DatabaseError")
            #expect(nsError.domain == "GRDB.DatabaseError")
            #expect(nsError.code == 787)
            #expect(nsError.userInfo[NSLocalizedDescriptionKey] as? String == databaseError.description)
            #expect(nsError.userInfo[NSLocalizedFailureReasonErrorKey] as? String == databaseError.message)
            #expect(databaseError.localizedDescription == databaseError.description)
        }
    }

    @Test func errorWithoutMessageHasSQLitesWordingAsFailureReason() {
        let nsError = DatabaseError(resultCode: .SQLITE_BUSY) as NSError
        #expect(nsError.code == 5)
        #expect(nsError.userInfo[NSLocalizedFailureReasonErrorKey] as? String == "database is locked")
        #expect(nsError.userInfo[NSLocalizedDescriptionKey] as? String == DatabaseError(resultCode: .SQLITE_BUSY).description)
    }

    @Test func bridgedErrorHidesPrivateArgumentsAndKeys() {
        let withArguments = DatabaseError(
            resultCode: .SQLITE_CONSTRAINT, message: "failed",
            sql: "INSERT INTO player (email) VALUES (?)", arguments: ["secret@example.com"])
        let keyed = DatabaseError(resultCode: .SQLITE_NOTADB, message: "near 'hunter2'", sql: "PRAGMA key = 'hunter2'")
        for error in [withArguments, keyed] {
            let nsError = error as NSError
            let texts = nsError.userInfo.values.compactMap { $0 as? String } + [nsError.localizedDescription]
            #expect(!texts.isEmpty)
            for text in texts {
                #expect(!text.contains("secret@example.com"))
                #expect(!text.contains("hunter2"))
            }
        }
    }
}
