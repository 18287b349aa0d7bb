import CSQLCipher
import Foundation

/// One SQLite connection.
///
/// You do not create a `Database` yourself: a ``DatabaseQueue`` gives one to
/// the closures of its `read` and `write` methods, and serializes all access
/// to it. Do not let it escape these closures.
///
/// ```swift
/// try dbQueue.write { db in
///     try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT)")
///     try db.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: ["Arthur"])
///     print(db.lastInsertedRowID)
/// }
/// ```
public final class Database: CustomStringConvertible, CustomDebugStringConvertible {
    /// The raw SQLite connection (`sqlite3 *`), nil once closed.
    // Read before every statement runs. Every access is an instant read or
    // assignment, never an access held across a call, so the dynamic
    // exclusivity check, which costs more than the read, has nothing to catch.
    // Unchecked: a connection is used by one thread at a time, inside a database access; the
    // dynamic check would cost a `swift_beginAccess` per lookup (callgrind).
    @exclusivity(unchecked)
    public private(set) var sqliteConnection: SQLiteConnection?

    /// The configuration of the connection.
    public let configuration: Configuration

    /// A description of the connection ("GRDB.DatabaseQueue", or the
    /// configuration label), for debugging.
    public let description: String

    /// `<Database: description>`.
    public var debugDescription: String { "<Database: \(description)>" }

    /// What the connection knows of its encryption: its key, its cipher
    /// settings, the keys it shares with its pool (see `CipherState`).
    var cipherState: CipherState

    /// The path given at opening.
    let path: String

    private var statementCache: [String: Statement] = [:]
    /// What the connection knows of the schema; see `Database+SchemaCache.swift`.
    // Unchecked: a connection is used by one thread at a time, inside a
    // database access, and the dynamic check cost two `swift_beginAccess`
    // per lookup by key (callgrind).
    @exclusivity(unchecked) var schemaCache = SchemaCache()
    /// How many times the schema cache was about to be read: SQL whose
    /// generation changed it depends on the schema (see the query interface's memo of generated SQL).
    @exclusivity(unchecked) var schemaCacheValidationCount = 0
    /// What the schema does not tell: the primary keys of views. Starts as
    /// ``Configuration/schemaSource``; see ``withSchemaSource(_:execute:)``.
    public internal(set) var schemaSource: (any DatabaseSchemaSource)?
    /// Tells which statements change the schema, as they compile.
    let statementAuthorizer = StatementAuthorizer()
    /// What follows the statements of the connection from above Core (the
    /// transaction observers' broker), nil while nothing does.
    var statementListener: (any DatabaseStatementListener)?

    /// The error of the transaction observer that cancelled the commit of
    /// the statement that just failed, kept here rather than by the
    /// listener, which that failed commit may release (an observer of the
    /// next transaction only); see `takeCommitCancellationError()`.
    var commitCancellationError: (any Error)?
    /// The union of the regions read by the statements run inside
    /// ``recordingSelectedRegion(_:)``, nil outside.
    var selectedRegionRecording: DatabaseRegion?
    /// What tells other threads that an access of this connection changed
    /// the database; see `Database+ChangeGeneration.swift`.
    let changeGeneration = ChangeGeneration()
    /// Whether statements that run must be told to the observation broker
    /// or the region recording: the only cost of observation, one branch
    /// per statement, while nothing observes.
    // Unchecked, as `sqliteConnection`: read before and after every statement.
    @exclusivity(unchecked) var observesStatements = false
    /// The savepoints open on the connection, for transaction observers.
    var savepointStack = SavepointStack()
    var traceCallback: ((TraceEvent) -> Void)?
    var traceOptions: TracingOptions = []
    /// The depth of nested ``readOnly(_:)`` calls (and read accesses).
    var readOnlyDepth = 0
    /// The open handle, for ``interrupt()`` from other threads.
    private let interruptibleConnection: LockedValue<SQLiteConnection?>
    /// How Task cancellation reaches the async access that runs.
    let accessCancellation: AccessCancellation
    /// Whether the current code runs inside an access of this connection:
    /// set by what serializes the connection (a queue, a pool), nil when
    /// nothing does. Debug builds check it (see `DebugInvariants`).
    var runsInAccess: (@Sendable () -> Bool)?

    /// Causes the statement that runs on this connection, if any, to stop
    /// with `SQLITE_INTERRUPT` as soon as possible; see `sqlite3_interrupt`.
    /// Can be called from any thread. A transaction may be rolled back.
    public func interrupt() {
        interruptibleConnection.withLock { connection in
            if let connection { sqlite3_interrupt(connection) }
        }
    }

    /// Whether an `inTransaction` or `inSavepoint` block runs: a statement
    /// that runs after SQLite rolled its transaction back then throws
    /// `SQLITE_ABORT` instead of running outside of any transaction.
    // Unchecked, as `sqliteConnection`: read before every statement runs.
    @exclusivity(unchecked) var isInsideTransactionBlock = false
    let usesURI: Bool
    /// The file this connection has open, as registered in `OpenDatabaseFiles`.
    private var openFileIdentity: FileIdentity?

    /// The functions and collations added to this connection, added again
    /// if it has to reopen (after a failed passphrase change).
    var addedFunctions: [String: DatabaseFunction] = [:]
    var addedCollations: [String: DatabaseCollation] = [:]

    /// The result of the transaction clock for the current transaction, nil
    /// outside of one. See ``transactionDate``.
    var transactionDateResult: Result<Date, any Error>?
    /// Whether ``transactionDateResult`` belongs to an open transaction.
    // Unchecked, as `sqliteConnection`: read after every statement runs.
    @exclusivity(unchecked) var hasTransactionDate = false

    /// Opens a connection and sets it up: keys it, runs the configuration's
    /// preparation functions and checks that the file can be read.
    ///
    /// - throws: A ``DatabaseError`` if the file cannot be opened, the linked
    ///   library is not SQLCipher 4.5+, or the key is wrong.
    init(
        path: String,
        description: String,
        configuration: Configuration,
        usesURI: Bool = false,
        cipherState: CipherState = CipherState(keyContext: nil)) throws
    {
        try CipherState.checkLinkedLibrary(configuration: configuration)
        self.path = path
        self.configuration = configuration
        self.schemaSource = configuration.schemaSource
        self.description = description
        self.cipherState = cipherState
        self.usesURI = usesURI
        let interruptibleConnection = LockedValue<SQLiteConnection?>(nil)
        self.interruptibleConnection = interruptibleConnection
        accessCancellation = AccessCancellation {
            interruptibleConnection.withLock { connection in
                if let connection { sqlite3_interrupt(connection) }
            }
        }
        try openTryingDerivedKey()
    }

    /// Closes the connection, even if statements are alive, and opens it
    /// again as it was opened: key (after the changes recorded in the key
    /// context), preparation functions, and the functions, collations and
    /// trace added since. Statements made before stay with the old, closed
    /// connection.
    func reopen() throws {
        let wasInsideTransaction = isInsideTransaction
        closeEvenIfBusy()
        needsReopen = true
        try reopenClosedConnection(wasInsideTransaction: wasInsideTransaction)
    }

    /// Opens again, as `reopen` does, a connection that was closed to be
    /// reopened (`needsReopen`). `wasInsideTransaction`: whether it was
    /// inside a transaction when it closed.
    func reopenClosedConnection(wasInsideTransaction: Bool) throws {
        // The set-up statements run outside of the caller's transaction
        // block, which SQLite has ended: they must not count as aborted.
        let wasInsideTransactionBlock = isInsideTransactionBlock
        isInsideTransactionBlock = false
        defer { isInsideTransactionBlock = wasInsideTransactionBlock }
        try openTryingDerivedKey()
        needsReopen = false
        for function in addedFunctions.values { add(function: function) }
        for collation in addedCollations.values { add(collation: collation) }
        if let traceCallback { trace(options: traceOptions, traceCallback) }
        connectionDidReopenForStatementListener(wasInsideTransaction: wasInsideTransaction)
    }

    /// Opens the connection and sets it up (see `openTryingDerivedKey`).
    func openConnection(allowsDerivedKey: Bool) throws {
        cipherState.reset(allowsDerivedKey: allowsDerivedKey)
        var handle: OpaquePointer?
        var flags = configuration.readonly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        // Each connection is only used from its own serial queue.
        flags |= SQLITE_OPEN_NOMUTEX
        if usesURI { flags |= SQLITE_OPEN_URI }
        try createFileIfNeeded()
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let error = DatabaseError.fromConnection(handle, code: code)
            sqlite3_close_v2(handle)
            throw error
        }
        sqliteConnection = handle
        interruptibleConnection.withLock { $0 = handle }
        openFileIdentity = OpenDatabaseFiles.register(path: path)
        do {
            try setUp(handle)
        } catch {
            closeEvenIfBusy()
            throw error
        }
    }

    deinit {
        closeEvenIfBusy()
    }

    /// Creates a missing database file with the configured permissions
    /// before SQLite creates it with its own.
    private func createFileIfNeeded() throws {
        guard !configuration.readonly, !usesURI, !path.isEmpty, path != ":memory:",
              let permissions = configuration.newFilePermissions,
              FileIdentity(path: path) == nil else { return }
        try FileSystem.checkPermissions(permissions)
        do {
            try FileSystem.createEmptyFile(atPath: path, permissions: permissions)
        } catch {
            // Created meanwhile by someone else: SQLite opens it as it is.
            if FileIdentity(path: path) == nil { throw error }
        }
    }

    private func setUp(_ handle: OpaquePointer) throws {
        // Only C calls and pragmas that do not read the file before the
        // key: SQLCipher needs the key before the first read.
        sqlite3_extended_result_codes(handle, 1)
        statementAuthorizer.install(on: handle)
        // Commits are counted (see `ChangeGeneration`); an observation
        // broker takes the hooks over while it exists.
        changeGeneration.installHooks(on: handle)
        // Cleared, not replaced: its generation keeps counting, so that no
        // SQL generated before a reopening is taken for current.
        schemaCache.removeAll()
        schemaCache.hasSchemaChangeInTransaction = false
        // This Debian build writes temporary tables and indexes to files by
        // default, and SQLCipher does not encrypt them: memory, before any
        // preparation function can create one.
        try execute(sql: "PRAGMA temp_store = MEMORY")
        if !configuration.acceptsDoubleQuotedStringLiterals {
            sqlite3_db_config_int(handle, SQLITE_DBCONFIG_DQS_DDL, 0)
            sqlite3_db_config_int(handle, SQLITE_DBCONFIG_DQS_DML, 0)
        }
        setUpBusyMode(handle)
        for collation in DatabaseCollation.builtIn {
            add(collation: collation)
        }
        for function in DatabaseFunction.builtIn {
            add(function: function)
        }
        do {
            if let key = try configuration.resolvedKey() {
                try applyKey(key.material)
            }
            // Before the preparation functions, as in GRDB (they may change it).
            // The pragma does not read the file. Foreign keys are off by default.
            if configuration.foreignKeysEnabled {
                try execute(sql: "PRAGMA foreign_keys = ON")
            }
            cipherState.runsPreparationFunctions = true
            defer { cipherState.runsPreparationFunctions = false }
            for prepare in configuration.preparationFunctions {
                try prepare(self)
            }
            // A connection keyed with `PRAGMA key` in `prepareDatabase` gets its
            // settings here, still before its first read.
            try applyCipherSettings()
            // The first read of the file: a wrong key fails here, not later.
            try execute(sql: "SELECT count(*) FROM sqlite_master")
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB && configuration.diagnosesKeyMistakes {
            throw error.withKeyMistake(diagnoseKeyMistake())
        }
        if configuration.journalMode == .wal && !configuration.readonly {
            try enableWAL()
        }
        configuration.connectionDidOpen?()
    }

    /// Turns on WAL mode and checks that it took (an in-memory database stays
    /// in memory mode). In WAL mode, `synchronous = NORMAL` is durable across
    /// application crashes and much faster than the default `FULL`.
    func enableWAL() throws {
        let mode = try String.fetchOne(self, sql: "PRAGMA journal_mode = WAL")?.lowercased()
        if mode == "memory" { return }
        guard mode == "wal" else {
            throw DatabaseError(message: "could not enable WAL mode: the journal mode is \(mode ?? "unknown")")
        }
        try execute(sql: "PRAGMA synchronous = NORMAL")
        // As GRDB does, with GRDB's table name (it shows in traces): make
        // sure the -wal and -shm files exist, with a
        // first frame, so that read-only connections can open the database
        // (they cannot create them) and see it as WAL.
        let walSize = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? NSNumber)?.intValue ?? 0
        if walSize == 0 {
            try inSavepoint {
                try execute(sql: "CREATE TABLE grdb_issue_102 (id INTEGER PRIMARY KEY); DROP TABLE grdb_issue_102")
                return .commit
            }
        }
    }

    /// Throws if the connection is closed (see
    /// ``DatabaseError/closedConnection(sql:)``); reopens it first if it
    /// closed only because it could not reopen.
    @inline(__always)
    func checkUsable() throws {
        if sqliteConnection == nil {
            _ = try reopenedConnection(sql: nil)
        }
    }

    /// Reopens the connection if it closed only because it could not
    /// reopen. An access to a connection closed with `close()` goes on, as
    /// in GRDB: each statement it prepares throws
    /// ``DatabaseError/closedConnection(sql:)``.
    @inline(__always)
    func reopenIfNeeded() throws {
        if sqliteConnection == nil && needsReopen {
            try reopen()
        }
    }

    /// Set when the connection had to reopen and could not (after a failed
    /// passphrase change, on a full disk): the next access tries again.
    var needsReopen = false

    /// The connection of a statement, `sql`, that finds it closed: reopened
    /// if it closed only because it could not reopen.
    @inline(never)
    private func reopenedConnection(sql: String?) throws -> OpaquePointer {
        guard needsReopen else { throw DatabaseError.closedConnection(sql: sql) }
        try reopen()
        guard let sqliteConnection else { throw DatabaseError.closedConnection(sql: sql) }
        return sqliteConnection
    }

    /// Throws if `statement` must not run: the connection is closed, or
    /// SQLite rolled back the transaction of the enclosing transaction
    /// block (a `ROLLBACK` statement, a `RAISE(ROLLBACK)`, a full disk).
    @inline(__always)
    func checkCanExecute(_ statement: Statement) throws {
        #if DEBUG
        checkConfinement("a statement ran")
        #endif
        guard let sqliteConnection else {
            throw DatabaseError.closedConnection(sql: statement.sql)
        }
        if isInsideTransactionBlock && sqlite3_get_autocommit(sqliteConnection) != 0 {
            throw abortedTransactionError(sql: statement.sql, arguments: statement.arguments)
        }
        if accessCancellation.isStoppingStatements { try checkCancellation(before: statement) }
        if observesStatements { statementWillExecute(statement) }
    }

    func checkForAbortedTransaction() throws {
        if let sqliteConnection, isInsideTransactionBlock, sqlite3_get_autocommit(sqliteConnection) != 0 {
            throw abortedTransactionError(sql: nil, arguments: nil)
        }
    }

    private func abortedTransactionError(sql: String?, arguments: StatementArguments?) -> DatabaseError {
        DatabaseError(
            resultCode: .SQLITE_ABORT, message: "Transaction was aborted", sql: sql, arguments: arguments,
            publicStatementArguments: configuration.publicStatementArguments)
    }

    /// The connection, or the error that makes it unusable: what the
    /// callback-based accesses hand to their closure.
    var usable: Result<Database, any Error> {
        Result {
            try reopenIfNeeded()
            return self
        }
    }

    /// The SQLite connection, for running `sql` (if it is about a
    /// statement).
    ///
    /// - throws: ``DatabaseError/closedConnection(sql:)`` if the connection
    ///   is closed.
    @inline(__always)
    func connection(sql: String? = nil) throws -> OpaquePointer {
        guard let sqliteConnection else { return try reopenedConnection(sql: sql) }
        return sqliteConnection
    }

    /// Closes the connection. Throws `SQLITE_BUSY` if statements made by the
    /// user are still alive; the connection stays open then.
    func close() throws {
        needsReopen = false
        guard let handle = sqliteConnection else { return }
        statementCache.removeAll()
        // Persistence plans keep statements too.
        clearSchemaCache()
        // No interrupt may reach the handle while it closes.
        let code = interruptibleConnection.withLock { connection in
            let code = sqlite3_close(handle)
            if code == SQLITE_OK { connection = nil }
            return code
        }
        if code != SQLITE_OK {
            Self.logUnfinalizedStatements(handle, code: code)
            throw DatabaseError.fromConnection(handle, code: code)
        }
        sqliteConnection = nil
        // A closed connection keeps no key, not even the passphrase of its
        // derived key (an internal close keeps that one: the connection
        // reopens with it, or proves a rotation with it).
        cipherState.forgetKeys()
        unregisterOpenFile()
    }

    /// Throws the error ``close()`` would throw because statements made by
    /// the user are still alive, and leaves the connection open either way.
    ///
    /// A pool checks every connection with it before it closes any: a pool
    /// that cannot close stays fully open.
    func checkClosable() throws {
        guard let handle = sqliteConnection else { return }
        statementCache.removeAll()
        clearSchemaCache()
        guard sqlite3_next_stmt(handle, nil) != nil else { return }
        // With a statement alive, sqlite3_close refuses and leaves the
        // connection open: its error is SQLite's own (SQLITE_BUSY).
        let code = interruptibleConnection.withLock { _ in sqlite3_close(handle) }
        if code != SQLITE_OK {
            Self.logUnfinalizedStatements(handle, code: code)
            throw DatabaseError.fromConnection(handle, code: code)
        }
        // SQLite closed it after all (not expected): record it.
        interruptibleConnection.withLock { $0 = nil }
        sqliteConnection = nil
        // A closed connection keeps no key: a reopening keys it again.
        cipherState.passphrase = nil
        unregisterOpenFile()
    }

    /// Tells SQLite's log (``Database/logError``), as GRDB does, which
    /// statements kept a close from completing: "unfinalized statement:
    /// <sql>", with secrets redacted.
    private static func logUnfinalizedStatements(_ handle: OpaquePointer, code: CInt) {
        var statement = sqlite3_next_stmt(handle, nil)
        while let current = statement {
            if let sql = sqlite3_sql(current) {
                grdbcipher_log(code, "unfinalized statement: " + SecretRedaction.redactedSQL(String(cString: sql)))
            }
            statement = sqlite3_next_stmt(handle, current)
        }
    }

    private func unregisterOpenFile() {
        if let openFileIdentity { OpenDatabaseFiles.unregister(openFileIdentity) }
        openFileIdentity = nil
    }

    /// Closes the connection even if statements are alive (SQLite finishes
    /// closing when the last one is finalized).
    func closeEvenIfBusy() {
        guard let handle = sqliteConnection else { return }
        statementCache.removeAll()
        // Persistence plans keep statements too.
        clearSchemaCache()
        interruptibleConnection.withLock { connection in
            sqlite3_close_v2(handle)
            connection = nil
        }
        sqliteConnection = nil
        // A closed connection keeps no key: a reopening keys it again.
        cipherState.passphrase = nil
        unregisterOpenFile()
    }

    // MARK: - Properties

    /// The rowid of the last successful INSERT on this connection.
    public var lastInsertedRowID: Int64 {
        sqliteConnection.map { sqlite3_last_insert_rowid($0) } ?? 0
    }

    /// The number of rows changed by the last INSERT, UPDATE or DELETE.
    public var changesCount: Int {
        sqliteConnection.map { Int(sqlite3_changes64($0)) } ?? 0
    }

    /// The number of rows changed since the connection opened.
    public var totalChangesCount: Int {
        sqliteConnection.map { Int(sqlite3_total_changes64($0)) } ?? 0
    }

    /// Whether a transaction is open.
    public var isInsideTransaction: Bool {
        sqliteConnection.map { sqlite3_get_autocommit($0) == 0 } ?? false
    }

    /// Whether the connection cannot write (opened read-only, or inside a
    /// read-only access).
    public var isReadOnly: Bool {
        guard let sqliteConnection else { return true }
        if sqlite3_db_readonly(sqliteConnection, "main") == 1 { return true }
        return (try? Bool.fetchOne(self, sql: "PRAGMA query_only")) ?? false
    }

    // MARK: - Statements

    /// Prepares one statement.
    ///
    /// - throws: A ``DatabaseError`` if the SQL is invalid or holds more than
    ///   one statement.
    public func makeStatement(sql: String) throws -> Statement {
        let handle = try connection(sql: sql)
        return try sql.withCString { start -> Statement in
            var sqliteStatement: OpaquePointer?
            var tail: UnsafePointer<CChar>?
            statementAuthorizer.willCompile()
            let code = sqlite3_prepare_v3(handle, start, -1, 0, &sqliteStatement, &tail)
            guard code == SQLITE_OK else {
                if failedFromCancellation(code) { throw CancellationError() }
                throw DatabaseError.fromConnection(handle, code: code, sql: sql)
            }
            guard let sqliteStatement else {
                throw DatabaseError(resultCode: .SQLITE_ERROR, message: "empty statement", sql: sql)
            }
            let statement = Statement(database: self, sqliteStatement: sqliteStatement)
            if let tail, try containsStatement(tail, handle: handle) {
                throw DatabaseError.misuse(
                    "Multiple statements found. To execute multiple statements, use Database.execute(sql:) "
                        + "or Database.allStatements(sql:) instead.", sql: sql)
            }
            return statement
        }
    }

    /// Whether the rest of an SQL string holds another statement, and not only
    /// white space, semicolons or comments.
    func containsStatement(_ sql: UnsafePointer<CChar>, handle: OpaquePointer) throws -> Bool {
        var pointer = sql
        while let byte = Optional(UInt8(bitPattern: pointer.pointee)), byte != 0 {
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\t")
                || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: ";") {
                pointer += 1
                continue
            }
            var sqliteStatement: OpaquePointer?
            let code = sqlite3_prepare_v3(handle, pointer, -1, 0, &sqliteStatement, nil)
            sqlite3_finalize(sqliteStatement)
            return code != SQLITE_OK || sqliteStatement != nil
        }
        return false
    }

    /// Returns a prepared statement from the connection's cache, preparing it
    /// the first time. Reuse avoids parsing the SQL again.
    ///
    /// - throws: A ``DatabaseError`` if the SQL is invalid or holds more than
    ///   one statement.
    public func cachedStatement(sql: String) throws -> Statement {
        if let statement = statementCache[sql] {
            // A cursor may still iterate this statement: give a fresh one then.
            if statement.isBusy {
                return try makeStatement(sql: sql)
            }
            if statement.regionRefinement != nil { statement.regionRefinement = nil }
            return statement
        }
        let statement = try makeStatement(sql: sql)
        statementCache[sql] = statement
        return statement
    }

    /// Empties the statement cache; statements in use stay alive.
    func statementCacheRemoveAll() {
        statementCache.removeAll()
    }

    /// Removes the cached statements that match; statements in use stay alive.
    func removeCachedStatements(matching shouldRemove: (Statement) -> Bool) {
        statementCache = statementCache.filter { !shouldRemove($0.value) }
    }

    /// Runs one or several SQL statements, separated by semicolons.
    ///
    /// The statements share the arguments: each takes the positional values it
    /// needs, in order, and named values by name. Each statement is checked
    /// before it runs; unused positional values are an error.
    ///
    /// ```swift
    /// try db.execute(sql: """
    ///     INSERT INTO player (name) VALUES (?);
    ///     INSERT INTO player (name) VALUES (?);
    ///     """, arguments: ["Arthur", "Barbara"])
    /// ```
    ///
    /// - throws: A ``DatabaseError`` if the SQL is invalid, the arguments do
    ///   not fit, or SQLite fails.
    public func execute(sql: String, arguments: StatementArguments = StatementArguments()) throws {
        let statements = try allStatements(sql: sql, arguments: arguments)
        while let statement = try statements.next() {
            try statement.execute()
        }
    }

    // MARK: - Busy mode

    /// How a connection behaves when it meets a lock held by another connection.
    public enum BusyMode: Sendable {
        /// Fail at once with `SQLITE_BUSY`.
        case immediateError
        /// Retry for up to this many seconds, then fail with `SQLITE_BUSY`.
        case timeout(TimeInterval)
        /// Ask the callback, with the number of tries so far, whether to retry.
        case callback(BusyCallback)
    }

    /// Returns whether to retry after `numberOfTries` attempts to take a lock.
    public typealias BusyCallback = @Sendable (_ numberOfTries: Int) -> Bool

    private final class BusyCallbackBox {
        let callback: BusyCallback
        init(_ callback: @escaping BusyCallback) { self.callback = callback }
    }

    private var busyCallbackBox: BusyCallbackBox?

    func setUpBusyMode(_ handle: OpaquePointer) {
        let busyMode = configuration.readonly
            ? configuration.readonlyBusyMode ?? configuration.busyMode
            : configuration.busyMode
        switch busyMode {
        case .immediateError where configuration.waitsForReaderLockRaces && !configuration.readonly:
            // A reader that starts its transaction while the writer updates
            // the WAL index header reads a torn header, and SQLite makes it
            // take the WAL write lock while it reads the header again
            // (walIndexReadHdr). A pool's writer that begins its next
            // transaction in those microseconds would fail with SQLITE_BUSY,
            // although no other writer exists: it retries for up to about
            // 15 ms, then fails as configured.
            sqlite3_busy_handler(handle, { _, attempt in
                guard attempt < 20 else { return 0 }
                usleep(min(25 << UInt32(attempt), 1_000))
                return 1
            }, nil)
        case .immediateError:
            break
        case .timeout(let seconds):
            sqlite3_busy_timeout(handle, CInt(clamping: Int((seconds * 1000).rounded(.up))))
        case .callback(let callback):
            let box = BusyCallbackBox(callback)
            busyCallbackBox = box
            sqlite3_busy_handler(handle, { context, tries in
                let box = Unmanaged<BusyCallbackBox>.fromOpaque(context!).takeUnretainedValue()
                return box.callback(Int(tries)) ? 1 : 0
            }, Unmanaged.passUnretained(box).toOpaque())
        }
    }
}

/// `sqlite3_db_config` is variadic and cannot be called from Swift directly.
@discardableResult
private func sqlite3_db_config_int(_ handle: OpaquePointer, _ option: CInt, _ value: CInt) -> CInt {
    grdbcipher_db_config_int(handle, option, value)
}
