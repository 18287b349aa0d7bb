import CSQLCipher
import Foundation
import Testing
@testable import GRDBCipher

/// A clock that returns 1, 2, 3... seconds after 1970, and counts its calls.
private func countingClock() -> (clock: CustomTransactionClock, calls: LockedValue<Int>) {
    let calls = LockedValue(0)
    let clock = CustomTransactionClock { _ in
        Date(timeIntervalSince1970: TimeInterval(calls.withLock { $0 += 1; return $0 }))
    }
    return (clock, calls)
}

private struct ClockFailure: Error {}

@Suite struct DatabaseAPITests {
    // MARK: - Last error

    @Test func lastErrorCodeAndMessageDescribeTheLastFailure() throws {
        try inMemoryDatabase { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY)")
            try db.execute(sql: "INSERT INTO t (id) VALUES (1)")
            #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO t (id) VALUES (1)") }
            #expect(db.lastErrorCode == .SQLITE_CONSTRAINT_PRIMARYKEY, "an extended code, as GRDB's connections report")
            #expect(db.lastErrorMessage == "UNIQUE constraint failed: t.id")

            #expect(throws: DatabaseError.self) { try db.execute(sql: "SELECT * FROM nowhere") }
            #expect(db.lastErrorCode == .SQLITE_ERROR)
            #expect(db.lastErrorMessage == "no such table: nowhere")
        }
    }

    @Test func lastErrorMessageHidesAStatementWithAKey() throws {
        try inMemoryDatabase { (db: Database) throws in
            #expect(throws: DatabaseError.self) { try db.execute(sql: "PRAGMA key = 'SECRET-PASS") }
            let message = try #require(db.lastErrorMessage)
            #expect(!message.contains("SECRET"), "lastErrorMessage shows the key: \(message)")
            #expect(message.contains("statement with a key failed"))
            #expect(db.lastErrorCode == .SQLITE_ERROR)

            // The next failure of an ordinary statement shows SQLite's message again.
            #expect(throws: DatabaseError.self) { try db.execute(sql: "SELECT * FROM nowhere") }
            #expect(db.lastErrorMessage == "no such table: nowhere")
        }
    }

    /// `Database.logError` only works when set before the first connection
    /// of the process: a child process sets it, and prints what it receives.
    @Test func logErrorReceivesSQLiteErrorsButNeverTheKey() throws {
        let dir = try TemporaryDirectory()
        let secret = "SECRET-PASS-42"
        let child = try ChildProcess(["log-errors", "--path", dir.path("db.sqlite"), "--key", secret, "--kdf-iter", "4000"])
        let status = child.waitUntilExit()
        #expect(status == 0, "\(child.transcript)")
        let lines = child.output
        #expect(lines.last == "DONE", "\(child.transcript)")
        #expect(lines.contains { $0.hasPrefix("LOG 1 ") && $0.contains("no such table: nowhere") }, "\(child.transcript)")
        #expect(lines.contains { $0.contains("statement with a key failed") }, "\(child.transcript)")
        #expect(!lines.contains { $0.contains("SECRET") }, "the log shows the key: \(child.transcript)")
    }

    // MARK: - Limits

    @Test func sqliteLibVersionNumberIsTheLinkedVersion() throws {
        let version = try inMemoryDatabase { db in try String.fetchOne(db, sql: "SELECT sqlite_version()")! }
        let parts = version.split(separator: ".").map { Int($0)! }
        #expect(Int(Database.sqliteLibVersionNumber) == parts[0] * 1_000_000 + parts[1] * 1_000 + parts[2])
        #expect(Database.sqliteLibVersionNumber >= 3_039_000)
    }

    @Test func maximumStatementArgumentCountFollowsSQLiteLimit() throws {
        try inMemoryDatabase { (db: Database) throws in
            #expect(db.maximumStatementArgumentCount == 32766, "SQLite's default SQLITE_MAX_VARIABLE_NUMBER")
            sqlite3_limit(db.sqliteConnection, SQLITE_LIMIT_VARIABLE_NUMBER, 3)
            #expect(db.maximumStatementArgumentCount == 3)
            #expect(try Int.fetchOne(db, sql: "SELECT ? + ? + ?", arguments: [1, 2, 3]) == 6)
            let error = #expect(throws: DatabaseError.self) {
                try db.execute(sql: "SELECT ?, ?, ?, ?", arguments: [1, 2, 3, 4])
            }
            #expect(error?.message == "too many SQL variables")
        }
    }

    // MARK: - Transaction date

    @Test func transactionDateIsStableInsideATransaction() throws {
        let dbQueue = try DatabaseQueue()
        let before = Date()
        let (first, second, later) = try dbQueue.write { db in
            let first = try db.transactionDate
            Thread.sleep(forTimeInterval: 0.02)
            try db.execute(sql: "CREATE TABLE t (a)")
            let second = try db.transactionDate
            return (first, second, Date())
        }
        #expect(first == second)
        #expect(before <= first && first < later.addingTimeInterval(-0.015), "the date is the start of the transaction")
    }

    @Test func transactionDateComesFromTheClockWhenTheTransactionBegins() throws {
        let (clock, calls) = countingClock()
        var config = Configuration()
        config.transactionClock = clock
        let dbQueue = try DatabaseQueue(configuration: config)
        try dbQueue.inDatabase { db in
            let base = calls.withLock { $0 }
            // Outside of a transaction: a new date on each call.
            let outside1 = try db.transactionDate
            let outside2 = try db.transactionDate
            #expect(outside2 > outside1)

            try db.beginTransaction()
            let atBegin = calls.withLock { $0 }
            #expect(atBegin == base + 3, "the clock runs when the transaction begins, not when its date is read")
            try db.execute(sql: "CREATE TABLE t (a)")
            #expect(try db.transactionDate == Date(timeIntervalSince1970: TimeInterval(atBegin)))
            #expect(try db.transactionDate == Date(timeIntervalSince1970: TimeInterval(atBegin)))
            try db.commit()

            try db.inTransaction { () throws in
                #expect(try db.transactionDate == Date(timeIntervalSince1970: TimeInterval(atBegin + 1)))
                return .commit
            }
            try db.inSavepoint { () throws in
                #expect(try db.transactionDate == Date(timeIntervalSince1970: TimeInterval(atBegin + 2)))
                return .rollback
            }
            #expect(try db.transactionDate == Date(timeIntervalSince1970: TimeInterval(atBegin + 3)))
        }
    }

    @Test func transactionDateRethrowsTheClockError() throws {
        var config = Configuration()
        config.transactionClock = .custom { _ in throw ClockFailure() }
        let dbQueue = try DatabaseQueue(configuration: config)
        try dbQueue.write { db in
            // The transaction began despite the clock's failure.
            #expect(db.isInsideTransaction)
            #expect(throws: ClockFailure.self) { try db.transactionDate }
            try db.execute(sql: "CREATE TABLE t (a)")
        }
        #expect(try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM t") } == 0)
    }

    @Test func aClockMayReadTheDatabase() throws {
        var config = Configuration()
        config.transactionClock = .custom { db in
            Date(timeIntervalSince1970: try Double.fetchOne(db, sql: "SELECT 86400.0")!)
        }
        let dbQueue = try DatabaseQueue(configuration: config)
        let date = try dbQueue.write { db in try db.transactionDate }
        #expect(date == Date(timeIntervalSince1970: 86400))
    }

    @Test func poolReadsHaveAStableTransactionDate() throws {
        let dir = try TemporaryDirectory()
        let (clock, _) = countingClock()
        var config = Configuration()
        config.transactionClock = clock
        let dbPool = try DatabasePool(path: dir.path("db.sqlite"), configuration: config)
        let (first, second) = try dbPool.read { db in (try db.transactionDate, try db.transactionDate) }
        #expect(first == second)
        let next = try dbPool.read { db in try db.transactionDate }
        #expect(next > first, "each read is its own transaction")
    }

    // MARK: - Built-in functions

    @Test func grdbStringFunctionsAreAddedToEveryConnection() throws {
        let dir = try TemporaryDirectory()
        let dbPool = try DatabasePool(path: dir.path("db.sqlite"), configuration: keyed("secret"))
        let sql = """
            SELECT swiftCapitalizedString('hello wORLD'), swiftLowercaseString('ÉCOLE'), swiftUppercaseString('straße'),
                   swiftLocalizedCapitalizedString('hello world'), swiftLocalizedLowercaseString('ÉTÉ'),
                   swiftLocalizedUppercaseString('été')
            """
        let expected: [String?] = ["Hello World", "école", "STRASSE", "Hello World", "été", "ÉTÉ"]
        let fromWriter = try dbPool.write { db in try Row.fetchOne(db, sql: sql)! }
        let fromReader = try dbPool.read { db in try Row.fetchOne(db, sql: sql)! }
        for row in [fromWriter, fromReader] {
            #expect((0..<6).map { row[$0] as String? } == expected)
        }
    }

    @Test func grdbStringFunctionsReturnNullForNonText() throws {
        try inMemoryDatabase { (db: Database) throws in
            let row = try Row.fetchOne(db, sql: """
                SELECT swiftUppercaseString(NULL), swiftUppercaseString(12), swiftUppercaseString(1.5),
                       swiftUppercaseString(CAST('abc' AS BLOB))
                """)!
            #expect(row[0] as DatabaseValue == .null)
            #expect(row[1] as DatabaseValue == .null)
            #expect(row[2] as DatabaseValue == .null)
            #expect(row[3] as String? == "ABC", "a blob reads as UTF-8, as String.fromDatabaseValue does")
        }
    }

    @Test func builtInFunctionsHaveGRDBNames() {
        #expect(DatabaseFunction.capitalize.name == "swiftCapitalizedString")
        #expect(DatabaseFunction.lowercase.name == "swiftLowercaseString")
        #expect(DatabaseFunction.uppercase.name == "swiftUppercaseString")
        #expect(DatabaseFunction.localizedCapitalize.name == "swiftLocalizedCapitalizedString")
        #expect(DatabaseFunction.localizedLowercase.name == "swiftLocalizedLowercaseString")
        #expect(DatabaseFunction.localizedUppercase.name == "swiftLocalizedUppercaseString")
        for function in DatabaseFunction.builtIn {
            #expect(function.argumentCount == 1 && function.isPure, "\(function.name)")
        }
    }

    @Test func builtInFunctionsCanBeUsedInIndexesAndRemoved() throws {
        try inMemoryDatabase { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE t (name TEXT)")
            // Only deterministic functions are allowed in an index.
            try db.execute(sql: "CREATE INDEX t_upper ON t (swiftUppercaseString(name))")
            db.remove(function: .uppercase)
            #expect(throws: DatabaseError.self) { try db.execute(sql: "SELECT swiftUppercaseString('a')") }
        }
    }

    // MARK: - Schema names

    @Test func columnTypesGiveTheirDeclaredTypes() throws {
        let types: [Database.ColumnType] = [
            .text, .jsonText, .jsonb, .integer, .double, .real, .numeric, .boolean, .blob, .date, .datetime, .any,
        ]
        #expect(types.map(\.rawValue) == [
            "TEXT", "TEXT", "BLOB", "INTEGER", "DOUBLE", "REAL", "NUMERIC", "BOOLEAN", "BLOB", "DATE", "DATETIME", "ANY",
        ])
        #expect(Database.ColumnType.text == .jsonText)
        try inMemoryDatabase { (db: Database) throws in
            let columns = types.enumerated().map { "c\($0.offset) \($0.element.rawValue)" }.joined(separator: ", ")
            try db.execute(sql: "CREATE TABLE t (\(columns))")
            let declared = try String.fetchAll(db, sql: "SELECT type FROM pragma_table_info('t') ORDER BY cid")
            #expect(declared == types.map(\.rawValue))
            // `DATETIME` has numeric affinity: a number stays a number.
            try db.execute(sql: "CREATE TABLE d (date \(Database.ColumnType.datetime.rawValue))")
            try db.execute(sql: "INSERT INTO d VALUES ('12')")
            #expect(try String.fetchOne(db, sql: "SELECT typeof(date) FROM d") == "integer")
        }
    }

    @Test func storageClassesAreSQLiteTypes() throws {
        #expect(
            [Database.StorageClass.integer, .real, .text, .blob].map(\.rawValue) == ["INTEGER", "REAL", "TEXT", "BLOB"])
        try inMemoryDatabase { (db: Database) throws in
            let types = try String.fetchAll(db, sql: "SELECT typeof(1) UNION ALL SELECT typeof(1.5) UNION ALL SELECT typeof('a') UNION ALL SELECT typeof(x'00')")
            #expect(types.map { Database.StorageClass(rawValue: $0.uppercased()) } == [.integer, .real, .text, .blob])
            // A STRICT table accepts the storage classes as column types.
            let columns = [Database.StorageClass.integer, .real, .text, .blob].map { "c_\($0.rawValue) \($0.rawValue)" }
            try db.execute(sql: "CREATE TABLE s (\(columns.joined(separator: ", "))) STRICT")
            #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO s (c_INTEGER) VALUES ('abc')") }
        }
    }

    @Test func conflictResolutionsRunInSQL() throws {
        #expect(Database.ConflictResolution.rollback.rawValue == "ROLLBACK")
        #expect(Database.ConflictResolution.abort.rawValue == "ABORT")
        #expect(Database.ConflictResolution.fail.rawValue == "FAIL")
        #expect(Database.ConflictResolution.ignore.rawValue == "IGNORE")
        #expect(Database.ConflictResolution.replace.rawValue == "REPLACE")
        #expect(Database.ForeignKeyAction.setNull.rawValue == "SET NULL")
        try inMemoryDatabase { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)")
            try db.execute(sql: "INSERT INTO t VALUES (1, 'a')")
            try db.execute(sql: "INSERT OR \(Database.ConflictResolution.ignore.rawValue) INTO t VALUES (1, 'b')")
            #expect(try String.fetchOne(db, sql: "SELECT name FROM t") == "a")
            try db.execute(sql: "INSERT OR \(Database.ConflictResolution.replace.rawValue) INTO t VALUES (1, 'c')")
            #expect(try String.fetchOne(db, sql: "SELECT name FROM t") == "c")
        }
    }

    @Test func collationNamesAreSQLiteCollations() throws {
        #expect([Database.CollationName.binary, .nocase, .rtrim].map(\.rawValue) == ["BINARY", "NOCASE", "RTRIM"])
        try inMemoryDatabase { (db: Database) throws in
            #expect(try Bool.fetchOne(db, sql: "SELECT 'abc' = 'ABC' COLLATE \(Database.CollationName.nocase.rawValue)") == true)
            #expect(try Bool.fetchOne(db, sql: "SELECT 'abc' = 'ABC' COLLATE \(Database.CollationName.binary.rawValue)") == false)
            #expect(try Bool.fetchOne(db, sql: "SELECT 'abc' = 'abc  ' COLLATE \(Database.CollationName.rtrim.rawValue)") == true)
            #expect(try Bool.fetchOne(db, sql: "SELECT 'a' = 'A' COLLATE \(DatabaseCollation.caseInsensitiveCompare.name)") == true)
        }
    }

    // MARK: - SQLCipher

    @Test func cipherProviderAndFipsStatusOfAKeyedConnection() throws {
        let dir = try TemporaryDirectory()
        let passphrase = "provider-secret"
        let dbQueue = try DatabaseQueue(path: dir.path("db.sqlite"), configuration: keyed(passphrase))
        let (provider, version, fips) = try dbQueue.read { db in
            (try db.cipherProvider, try db.cipherProviderVersion, try db.cipherFipsStatus)
        }
        #expect(provider == "openssl", "Debian's and Homebrew's SQLCipher use OpenSSL")
        #expect(version?.isEmpty == false)
        #expect(fips == "0", "not a FIPS build")
        for output in [provider, version, fips] {
            #expect(output?.contains(passphrase) != true)
        }
    }

    @Test func cipherProviderIsUnknownWithoutKey() throws {
        try inMemoryDatabase { (db: Database) throws in
            #expect(try db.cipherProvider == nil)
            #expect(try db.cipherFipsStatus == nil)
        }
    }

    @Test func aLicenseIsIgnoredByTheCommunityEdition() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        try makeEncryptedDatabase(at: path, passphrase: "secret")
        var config = keyed("secret")
        config.prepareDatabase { db in try db.applySQLCipherLicense("not-a-license'; DROP TABLE secret; --") }
        let dbQueue = try DatabaseQueue(path: path, configuration: config)
        #expect(try dbQueue.read { db in try String.fetchOne(db, sql: "SELECT value FROM secret") } == "MARKER-PLAINTEXT")
    }
}
