import CSQLCipher
import Foundation

/// A prepared SQL statement.
///
/// Make one with ``Database/makeStatement(sql:)``, or take a reusable one from
/// the connection's cache with ``Database/cachedStatement(sql:)``:
///
/// ```swift
/// let statement = try db.cachedStatement(sql: "INSERT INTO player (name) VALUES (?)")
/// for name in names {
///     try statement.execute(arguments: [name])
/// }
/// ```
///
/// A statement belongs to the connection that made it and must only be used
/// inside the database access that made it.
public final class Statement {
    /// The raw SQLite statement handle (`sqlite3_stmt *`).
    public let sqliteStatement: SQLiteStatement

    /// The SQL of the statement, without the white space and semicolons
    /// around it. A statement that carries a key (`PRAGMA key = ...`,
    /// `ATTACH ... KEY ...`) shows a redacted placeholder instead.
    public let sql: String

    unowned let database: Database

    /// The arguments bound by the last ``setArguments(_:)`` or
    /// ``execute(arguments:)``; empty after ``execute(values:)``, which does
    /// not keep its values. Setting them validates and binds them, and
    /// traps if they do not fit: use ``setArguments(_:)`` to get an error.
    public var arguments: StatementArguments {
        get { boundArguments }
        set {
            try! setArguments(newValue)
        }
    }

    // Unchecked: a statement is used by one thread at a time, inside a
    // database access, and the dynamic check cost a `swift_beginAccess` on
    // every bind of a cached insert (callgrind).
    @exclusivity(unchecked) var boundArguments = StatementArguments()

    /// The key that a primary-key lookup bound (see `stepOnce(binding:)`),
    /// which keeps no ``arguments``; cleared by ``execute(values:)`` and the
    /// next lookup. Unchecked, as `boundArguments`.
    @exclusivity(unchecked) var boundKeyValue: DatabaseValue?

    /// The arguments that descriptions show: the bound arguments, or the
    /// key of a primary-key lookup, as GRDB shows its lookup's arguments.
    var describedArguments: StatementArguments {
        if boundArguments.isEmpty, let boundKeyValue { return StatementArguments([boundKeyValue]) }
        return boundArguments
    }

    /// Whether values were bound to the parameters since the statement was
    /// made: a statement with parameters does not run on none (as in GRDB).
    // Unchecked, as `boundArguments`.
    @exclusivity(unchecked) @usableFromInline var argumentsAreBound = false

    /// Throws, as GRDB does, if the statement has parameters and no
    /// arguments were ever bound.
    func checkArgumentsBound() throws {
        if !argumentsAreBound && parameterCount > 0 {
            try validateArguments(StatementArguments())
        }
    }

    /// The names of the result columns, in order.
    public private(set) lazy var columnNames: [String] = (0..<columnCount).map { index in
        String(cString: sqlite3_column_name(sqliteStatement, CInt(index)))
    }

    /// The number of result columns.
    public let columnCount: Int

    /// What running the statement does to the schema, as the authorizer
    /// saw it compile: the connection's schema cache depends on it.
    let schemaEffects: StatementSchemaEffects

    /// What else the authorizer saw: transaction effect, pragma, deletions.
    let facts: StatementCompilationFacts

    /// What the statement reads and may change, when known; see
    /// `Statement+Accesses.swift`.
    var recordedAccesses: StatementAccesses?

    // Unchecked: a statement is used by one thread at a time, inside a database access; the dynamic
    // check would cost a `swift_beginAccess` per row (callgrind).
    /// Set by the request that prepared the statement: turns the region
    /// SQLite reports into the region the request reads (narrowed to the
    /// rows its conditions name, and with the tables its prefetched
    /// associations read), as GRDB's prepared requests do. Cleared when
    /// the statement is handed out by ``Database/cachedStatement(sql:)``.
    @exclusivity(unchecked) var regionRefinement: (@Sendable (Database, DatabaseRegion) throws -> DatabaseRegion)?

    /// Case-insensitive column index lookup, built once per statement.
    private(set) lazy var columnLookup = ColumnLookup(columnNames: columnNames)

    // Unchecked: a statement is used by one thread at a time, inside a database access; the dynamic
    // check would cost a `swift_beginAccess` per row (callgrind).
    /// What record decoding keeps for the rows of this statement: built on
    /// the first row, reused for every later one.
    @exclusivity(unchecked) var decodingCache: (any StatementDecodingCache)?

    /// Whether the statement does not write to the database (per `sqlite3_stmt_readonly`).
    public var isReadonly: Bool { sqlite3_stmt_readonly(sqliteStatement) != 0 }

    /// The SQL with the current arguments inlined. It contains user data:
    /// for local debugging.
    public var expandedSQL: String {
        guard let cString = sqlite3_expanded_sql(sqliteStatement) else { return sql }
        defer { sqlite3_free(cString) }
        return SecretRedaction.redactedSQL(String(cString: cString))
    }

    init(database: Database, sqliteStatement: SQLiteStatement) {
        self.database = database
        self.sqliteStatement = sqliteStatement
        self.sql = SecretRedaction.redactedSQL(String(cString: sqlite3_sql(sqliteStatement)).trimmedSQLStatement)
        self.columnCount = Int(sqlite3_column_count(sqliteStatement))
        self.parameterCount = Int(sqlite3_bind_parameter_count(sqliteStatement))
        self.hasNamedParameters = ArgumentConsumer.hasNamedParameters(sqliteStatement)
        self.schemaEffects = database.statementAuthorizer.takeEffects()
        self.facts = database.statementAuthorizer.takeFacts()
        if database.statementAuthorizer.recordsAccesses {
            self.recordedAccesses = database.statementAuthorizer.takeAccesses()
        }
    }

    deinit {
        sqlite3_finalize(sqliteStatement)
    }

    /// Returns the index of the leftmost column with this name, compared
    /// case-insensitively, or nil.
    public func index(ofColumn name: String) -> Int? {
        columnLookup.index(of: name)
    }

    /// Throws if the arguments do not fit the statement's parameters: a wrong
    /// number of positional values or a missing named value.
    public func validateArguments(_ arguments: StatementArguments) throws {
        var consumer = ArgumentConsumer(
            arguments, publicStatementArguments: database.configuration.publicStatementArguments)
        _ = try consumer.values(forParameters: parameterNames, sql: sql)
        try consumer.checkAllConsumed(sql: sql)
    }

    /// The parameter names (nil for `?`): computed once.
    private lazy var parameterNames = ArgumentConsumer.parameterNames(of: sqliteStatement)

    /// Whether a parameter is named: read on every bind, so known from the
    /// start (a lazy property costs a call per read).
    private let hasNamedParameters: Bool

    /// The number of parameters (the largest `?NNN` index, when there is one).
    @usableFromInline let parameterCount: Int

    /// Validates and binds arguments.
    ///
    /// - throws: A ``DatabaseError`` if the arguments do not fit.
    public func setArguments(_ arguments: consuming StatementArguments) throws {
        // Fast path: only `?` parameters take the positional values as they are.
        if !hasNamedParameters {
            guard arguments.positionalCount == parameterCount else {
                throw DatabaseError.misuse("wrong number of statement arguments: \(arguments.positionalCount)", sql: sql)
            }
            try bindPositionalValues(of: consume arguments)
            return
        }
        var consumer = ArgumentConsumer(
            copy arguments, publicStatementArguments: database.configuration.publicStatementArguments)
        let values = try consumer.values(forParameters: parameterNames, sql: sql)
        try consumer.checkAllConsumed(sql: sql)
        try bind(values, arguments: arguments)
    }

    /// Binds arguments without validating them first: a missing value binds
    /// NULL and extra values are ignored. For code that validated them already.
    public func setUncheckedArguments(_ arguments: consuming StatementArguments) {
        // Fast path: only `?` parameters take the positional values as they
        // are, with no matching and no intermediate array.
        if !hasNamedParameters {
            try? bindPositionalValues(of: consume arguments)
            return
        }
        if sqlite3_stmt_busy(sqliteStatement) != 0 { reset() }
        boundArguments = copy arguments
        argumentsAreBound = true
        var consumer = ArgumentConsumer(
            arguments, publicStatementArguments: database.configuration.publicStatementArguments)
        for (offset, name) in parameterNames.enumerated() {
            let value = (try? consumer.values(forParameters: [name], sql: sql).first) ?? .null
            _ = value.bind(to: sqliteStatement, at: CInt(truncatingIfNeeded: offset + 1))
        }
    }

    /// Binds the positional values of `arguments` to the parameters, in
    /// order, NULL to parameters beyond them; values beyond the parameters
    /// are ignored. Takes the arguments (`consuming`), so that keeping them
    /// moves them: no retain, as the caller's array literal is let go.
    @inline(__always)
    private func bindPositionalValues(of arguments: consuming StatementArguments) throws {
        // A statement that ran to the end was reset already.
        if sqlite3_stmt_busy(sqliteStatement) != 0 { reset() }
        let code = arguments.bindPositionalValues(to: sqliteStatement, parameterCount: parameterCount)
        boundArguments = consume arguments
        argumentsAreBound = true
        if code != SQLITE_OK {
            throw makeError(code)
        }
    }

    /// Binds values already matched to the parameters: one for each, so no
    /// earlier binding survives.
    func bind(_ values: [DatabaseValue], arguments: StatementArguments) throws {
        // A statement that ran to the end was reset already.
        if sqlite3_stmt_busy(sqliteStatement) != 0 { reset() }
        boundArguments = arguments
        argumentsAreBound = true
        let code = values.withUnsafeBufferPointer { buffer -> CInt in
            for offset in 0..<buffer.count {
                let code = buffer[offset].bind(to: sqliteStatement, at: CInt(truncatingIfNeeded: offset + 1))
                if code != SQLITE_OK { return code }
            }
            return SQLITE_OK
        }
        if code != SQLITE_OK {
            throw makeError(code)
        }
    }

    /// Runs the statement until it is done, after binding `arguments` if given.
    ///
    /// Arguments given here are bound for this run only, as in GRDB: SQLite
    /// lets go of their values when the run ends, and ``arguments`` keeps
    /// them, so that a later `execute()` binds them again. Arguments set with
    /// ``setArguments(_:)`` stay bound, and so do arguments given here to a
    /// statement with more than 20 parameters, as in GRDB.
    ///
    /// ```swift
    /// let statement = try db.makeStatement(sql: "INSERT INTO player (name) VALUES (?)")
    /// try statement.execute(arguments: ["Arthur"])
    /// try statement.execute()   // inserts "Arthur" again
    /// ```
    ///
    /// - throws: A ``DatabaseError`` if the arguments do not fit or SQLite fails.
    public func execute(arguments: consuming StatementArguments? = nil) throws {
        if let arguments = consume arguments {
            try setArguments(consume arguments)
            if parameterCount > Self.maximumRunBindingCount {
                try run()
                return
            }
            defer { clearRunBindings() }
            try run()
        } else {
            try prepareRunWithoutArguments()
            try run()
        }
    }

    /// The most parameters whose arguments `execute(arguments:)` binds for
    /// one run only; a statement with more keeps them bound, as in GRDB.
    static let maximumRunBindingCount = 20

    @inline(__always)
    private func run() throws {
        let database = self.database
        try database.checkCanExecute(self)
        let code = stepToCompletion(on: database)
        if code != SQLITE_DONE {
            throw failure(code)
        }
    }

    /// Lets SQLite drop the values bound for one run (which may be large, or
    /// secret); ``arguments`` keeps them for a later run. Numbers too: GRDB's
    /// tests step the raw statement after such a run and expect NULL.
    /// (`run` leaves the statement reset: it stepped to completion, or not
    /// at all.)
    private func clearRunBindings() {
        sqlite3_clear_bindings(sqliteStatement)
        argumentsAreBound = false
    }

    /// Readies a run that gives no arguments: binds again the arguments of
    /// a previous run given to ``execute(arguments:)``, or checks that the
    /// statement needs none.
    func prepareRunWithoutArguments() throws {
        // A statement that ran to the end was reset already.
        if sqlite3_stmt_busy(sqliteStatement) != 0 { reset() }
        if !argumentsAreBound && !boundArguments.isEmpty {
            try setArguments(boundArguments)
        } else {
            try checkArgumentsBound()
        }
    }

    /// Steps until the statement is done, then resets it. Returns
    /// `SQLITE_DONE`, or the code of the failing step.
    @usableFromInline
    func stepToCompletion() -> CInt {
        stepToCompletion(on: database)
    }

    /// ``stepToCompletion()``, given the connection that the caller loaded
    /// already: each load of the unowned reference is a
    /// `swift_unownedRetainStrong` and a release (callgrind).
    @usableFromInline @inline(__always)
    func stepToCompletion(on database: Database) -> CInt {
        while true {
            let code = sqlite3_step(sqliteStatement)
            if code == SQLITE_ROW { continue }
            reset()
            return didEnd(code, on: database)
        }
    }

    /// Called when the statement has run to its end or failed: the
    /// connection updates what depends on it (schema cache, transaction
    /// date, savepoints, transaction observers). Returns the result code,
    /// which observers may turn into a failure (a cancelled commit).
    @inline(__always)
    func didEnd(_ code: CInt) -> CInt {
        didEnd(code, on: database)
    }

    /// ``didEnd(_:)``, given the connection: one load of the unowned
    /// reference, not one per use (callgrind: two `swift_unownedRetainStrong`
    /// per cached insert).
    @inline(__always)
    func didEnd(_ code: CInt, on database: Database) -> CInt {
        if !schemaEffects.isEmpty { database.statementDidRun(self, code: code) }
        database.noteAutocommitTransition()
        if database.observesStatements {
            return database.statementDidFinish(self, code: code)
        }
        return code
    }

    /// The error for a failed run: the error of the transaction observer
    /// that cancelled the commit, if one did, or SQLite's.
    func failure(_ code: CInt) -> any Error {
        if let error = database.takeCommitCancellationError() { return error }
        if database.failedFromCancellation(code) { return CancellationError() }
        return makeError(code)
    }

    /// Steps once: true if a row is available, false when done.
    @inline(__always)
    func step() throws -> Bool {
        #if DEBUG
        database.checkConfinement("a statement stepped")
        #endif
        let code = sqlite3_step(sqliteStatement)
        if code == SQLITE_ROW { return true }
        if code == SQLITE_DONE {
            let finalCode = didEnd(code)
            if finalCode != SQLITE_DONE { throw failure(finalCode) }
            return false
        }
        reset()
        let error: any Error = database.failedFromCancellation(code) ? CancellationError() : makeError(code)
        _ = didEnd(code)
        throw database.takeCommitCancellationError() ?? error
    }

    /// Resets the statement so it can run again and releases its read locks.
    /// Keeps the bindings.
    func reset() {
        sqlite3_reset(sqliteStatement)
    }

    /// The number of cursors that iterate the statement, stepped or not yet.
    var iterationCount = 0

    /// Whether a cursor or a step holds the statement: the statement cache
    /// must not hand it out again.
    var isBusy: Bool { iterationCount > 0 || sqlite3_stmt_busy(sqliteStatement) != 0 }

    func makeError(_ code: CInt) -> DatabaseError {
        DatabaseError.fromConnection(
            database.sqliteConnection, code: code, sql: sql, arguments: arguments,
            publicStatementArguments: database.configuration.publicStatementArguments)
    }
}

/// Finds column indexes by name, case-insensitively, leftmost first.
final class ColumnLookup: Sendable {
    let columnNames: [String]
    private let exact: [String: Int]
    private let lowercased: [String: Int]
    /// Whether two columns differ only by case: then the leftmost
    /// case-insensitive match must win over a later exact one.
    let hasCaseVariants: Bool
    /// Whether every name is unique, case-insensitively: only then may a
    /// guessed index be used without checking the columns on its left.
    let hasUniqueNames: Bool

    init(columnNames: [String]) {
        self.columnNames = columnNames
        var exact: [String: Int] = [:]
        var lowercased: [String: Int] = [:]
        for (index, name) in columnNames.enumerated() {
            if exact[name] == nil { exact[name] = index }
            let key = name.lowercased()
            if lowercased[key] == nil { lowercased[key] = index }
        }
        self.exact = exact
        self.lowercased = lowercased
        self.hasCaseVariants = exact.count != lowercased.count
        self.hasUniqueNames = lowercased.count == columnNames.count
    }

    /// Like `index(of:)`, trying `guess` first: code that reads columns in
    /// order finds each one with a single comparison of equal strings, which
    /// is far cheaper than comparing different ones.
    @inline(__always)
    func index(of name: String, guess: Int) -> Int? {
        if hasUniqueNames, guess < columnNames.count, columnNames[guess] == name {
            return guess
        }
        return index(of: name)
    }

    @inline(__always)
    func index(of name: String) -> Int? {
        // The exact spelling is the common case: a scan with `==` beats
        // hashing for the handful of columns of a typical row.
        if !hasCaseVariants {
            if columnNames.count <= 16 {
                for index in columnNames.indices where columnNames[index] == name {
                    return index
                }
            } else if let index = exact[name] {
                return index
            }
        }
        return lowercased[name.lowercased()]
    }
}

extension Statement: CustomStringConvertible {
    /// The SQL of the statement (redacted when it carries a key).
    public var description: String { sql }
}

extension String {
    /// The string without the white space, newlines and semicolons that
    /// surround an SQL statement: how statements are shown in errors,
    /// descriptions and traces.
    var trimmedSQLStatement: String {
        // ASCII ends are trimmed byte by byte: Foundation's trimming costs
        // tens of thousands of instructions, paid by every statement that
        // `execute(sql:)` prepares. A non-ASCII end may be Unicode white
        // space: Foundation decides then.
        let bytes = utf8
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start < end, Self.isASCIISeparator(bytes[start]) {
            start = bytes.index(after: start)
        }
        while start < end, Self.isASCIISeparator(bytes[bytes.index(before: end)]) {
            end = bytes.index(before: end)
        }
        if start < end, bytes[start] >= 0x80 || bytes[bytes.index(before: end)] >= 0x80 {
            return trimmingCharacters(in: Self.sqlStatementSeparators)
        }
        if start == bytes.startIndex && end == bytes.endIndex { return self }
        return String(self[start..<end])
    }

    /// Space, tab, line feed, vertical tab, form feed, carriage return, `;`.
    private static func isASCIISeparator(_ byte: UInt8) -> Bool {
        byte == 0x20 || (0x09...0x0D).contains(byte) || byte == 0x3B
    }

    private static let sqlStatementSeparators = CharacterSet.whitespacesAndNewlines.union(CharacterSet(charactersIn: ";"))
}
