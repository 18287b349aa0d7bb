/// A cursor over the results of a prepared ``Statement``: ``RowCursor``,
/// ``DatabaseValueCursor`` and ``FastDatabaseValueCursor``.
///
/// It tells what it iterates without letting you change the statement under
/// it:
///
/// ```swift
/// let names = try String.fetchCursor(db, sql: "SELECT name FROM player WHERE score > ?", arguments: [100])
/// print(names.sql)         // "SELECT name FROM player WHERE score > ?"
/// print(names.columnNames) // ["name"]
/// ```
///
/// A database cursor is only valid inside the database access that created
/// it. It resets its statement when it is created and when it goes away: two
/// cursors must not share one statement.
public protocol DatabaseCursor<Element>: Cursor {
    /// The statement iterated by the cursor. Read it through ``sql``,
    /// ``arguments``, ``columnNames`` and ``columnCount`` instead.
    var _statement: Statement { get }
}

extension DatabaseCursor {
    /// The SQL of the statement. A statement that carries a key shows a
    /// redacted placeholder instead, as ``Statement/sql`` does.
    public var sql: String { _statement.sql }

    /// The arguments bound to the statement.
    public var arguments: StatementArguments { _statement.arguments }

    /// The names of the result columns, from left to right.
    public var columnNames: [String] { _statement.columnNames }

    /// The number of result columns.
    public var columnCount: Int { _statement.columnCount }

    /// The tables and columns the cursor reads (see ``Statement/databaseRegion``).
    ///
    /// ```swift
    /// let cursor = try Player.fetchCursor(db)
    /// cursor.databaseRegion // player(*)
    /// ```
    public var databaseRegion: DatabaseRegion { _statement.databaseRegion }
}

extension RowCursor: DatabaseCursor {
    /// The statement iterated by the cursor.
    public var _statement: Statement { statement }
}

extension DatabaseValueCursor: DatabaseCursor {
    /// The statement iterated by the cursor.
    public var _statement: Statement { statement }
}

extension FastDatabaseValueCursor: DatabaseCursor {
    /// The statement iterated by the cursor.
    public var _statement: Statement { statement }
}
