import CSQLCipher

/// The iteration of a statement shared by every database cursor: it steps the
/// statement and resets it when done, on error, or when the cursor goes away,
/// so that no read lock outlives the cursor.
@usableFromInline
final class StatementIteration {
    @usableFromInline let statement: Statement
    private var isDone = false

    init(_ statement: Statement, arguments: StatementArguments?) throws {
        if let arguments {
            try statement.setArguments(arguments)
        } else {
            statement.reset()
            try statement.prepareRunWithoutArguments()
        }
        try statement.database.checkCanExecute(statement)
        self.statement = statement
        statement.iterationCount += 1
    }

    deinit {
        statement.iterationCount -= 1
        if !isDone {
            statement.reset()
            // A write left before its end (RETURNING) commits now, in
            // autocommit mode: observers hear about it.
            let database = statement.database
            if database.observesStatements {
                database.noteAutocommitTransition()
                _ = database.statementDidFinish(statement, code: SQLITE_DONE)
            }
        }
    }

    /// Steps: true when a row is available.
    @usableFromInline
    func step() throws -> Bool {
        if isDone { return false }
        // A failed step does not end the iteration, as in GRDB: the next
        // call steps again, and SQLite reports an error again.
        if try statement.step() { return true }
        isDone = true
        statement.reset()
        return false
    }
}

/// A cursor of rows. The row it returns is reused at each step: call
/// ``Row/copy()`` to keep one.
public final class RowCursor: Cursor {
    @usableFromInline let iteration: StatementIteration
    @usableFromInline let row: Row

    /// The statement that produces the rows.
    public var statement: Statement { iteration.statement }

    /// With an adapter, the cursor returns adapted rows over its statement
    /// row; the adapter is applied to the statement's columns once, here.
    init(statement: Statement, arguments: StatementArguments?, adapter: (any RowAdapter)? = nil) throws {
        let layout = try adapter.map { try AdaptedRowLayout($0, statement: statement) }
        iteration = try StatementIteration(statement, arguments: arguments)
        row = Row(statement: statement).adapted(with: layout)
    }

    /// The next row, or nil.
    ///
    /// - throws: A ``DatabaseError``.
    @inlinable
    public func next() throws -> Row? {
        try iteration.step() ? row : nil
    }
}

/// A cursor of values decoded from the first column, through ``DatabaseValue``.
public final class DatabaseValueCursor<Value: DatabaseValueConvertible>: Cursor {
    private let iteration: StatementIteration
    /// The column read: 0, or the first column of the adapter.
    private let columnIndex: CInt

    /// The statement that produces the values.
    public var statement: Statement { iteration.statement }

    init(statement: Statement, arguments: StatementArguments?, adapter: (any RowAdapter)? = nil) throws {
        columnIndex = try CInt(adapter?.baseColumnIndex(atIndex: 0, in: statement) ?? 0)
        iteration = try StatementIteration(statement, arguments: arguments)
    }

    /// The next value, or nil.
    ///
    /// - throws: A ``DatabaseError``, or a ``RowDecodingError`` if the value
    ///   cannot be decoded.
    public func next() throws -> Value? {
        guard try iteration.step() else { return nil }
        let dbValue = DatabaseValue(sqliteStatement: statement.sqliteStatement, index: columnIndex)
        guard let value = Value.fromDatabaseValue(dbValue) else {
            throw RowDecodingError.valueMismatch(
                Value.self, dbValue: dbValue, row: Row(statement: statement), index: Int(columnIndex))
        }
        return value
    }
}

/// A cursor of values read straight from the first column (the fast path).
public final class FastDatabaseValueCursor<Value: DatabaseValueConvertible & StatementColumnConvertible>: Cursor {
    @usableFromInline let iteration: StatementIteration
    @usableFromInline let sqliteStatement: SQLiteStatement
    /// The column read: 0, or the first column of the adapter.
    @usableFromInline let columnIndex: CInt

    /// The statement that produces the values.
    public var statement: Statement { iteration.statement }

    @usableFromInline
    init(statement: Statement, arguments: StatementArguments?, adapter: (any RowAdapter)? = nil) throws {
        columnIndex = try CInt(adapter?.baseColumnIndex(atIndex: 0, in: statement) ?? 0)
        iteration = try StatementIteration(statement, arguments: arguments)
        sqliteStatement = statement.sqliteStatement
    }

    /// The next value, or nil.
    ///
    /// - throws: A ``DatabaseError``, or a ``RowDecodingError`` if the value
    ///   cannot be decoded.
    @inlinable
    public func next() throws -> Value? {
        // Inlined in client code, so that it is specialized for `Value`.
        guard try iteration.step() else { return nil }
        if let value = Value.fromStatement(sqliteStatement, atUncheckedIndex: columnIndex) {
            return value
        }
        throw decodingError()
    }

    @usableFromInline
    func decodingError() -> RowDecodingError {
        RowDecodingError.valueMismatch(
            Value.self, dbValue: DatabaseValue(sqliteStatement: sqliteStatement, index: columnIndex),
            row: Row(statement: statement), index: Int(columnIndex))
    }
}
