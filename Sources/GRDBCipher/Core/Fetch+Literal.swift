// Fetching with an `SQL` literal: the SQL and its arguments together, as in
// `Row.fetchAll(db, literal: "SELECT * FROM player WHERE name = \(name)")`.

extension Row {
    /// A cursor over the rows of an SQL literal.
    ///
    /// - throws: A ``DatabaseError``.
    public static func fetchCursor(_ db: Database, literal sqlLiteral: SQL) throws -> RowCursor {
        try fetchCursor(db, sql: sqlLiteral.sql, arguments: sqlLiteral.arguments)
    }

    /// All rows of an SQL literal.
    ///
    /// - throws: A ``DatabaseError``.
    public static func fetchAll(_ db: Database, literal sqlLiteral: SQL) throws -> [Row] {
        try fetchAll(db, sql: sqlLiteral.sql, arguments: sqlLiteral.arguments)
    }

    /// The distinct rows of an SQL literal.
    ///
    /// - throws: A ``DatabaseError``.
    public static func fetchSet(_ db: Database, literal sqlLiteral: SQL) throws -> Set<Row> {
        try fetchSet(db, sql: sqlLiteral.sql, arguments: sqlLiteral.arguments)
    }

    /// The first row of an SQL literal, or nil.
    ///
    /// - throws: A ``DatabaseError``.
    public static func fetchOne(_ db: Database, literal sqlLiteral: SQL) throws -> Row? {
        try fetchOne(db, sql: sqlLiteral.sql, arguments: sqlLiteral.arguments)
    }
}

extension DatabaseValueConvertible {
    /// A cursor over the values of the first column of an SQL literal.
    ///
    /// - throws: A ``DatabaseError``.
    public static func fetchCursor(_ db: Database, literal sqlLiteral: SQL) throws -> DatabaseValueCursor<Self> {
        try fetchCursor(db, sql: sqlLiteral.sql, arguments: sqlLiteral.arguments)
    }

    /// The values of the first column of an SQL literal.
    ///
    /// - throws: A ``DatabaseError``, or a decoding error for a value that
    ///   does not convert.
    public static func fetchAll(_ db: Database, literal sqlLiteral: SQL) throws -> [Self] {
        try fetchAll(db, sql: sqlLiteral.sql, arguments: sqlLiteral.arguments)
    }

    /// The value of the first column of the first row of an SQL literal, or
    /// nil when there is no row or the value is NULL.
    ///
    /// - throws: A ``DatabaseError``, or a decoding error.
    public static func fetchOne(_ db: Database, literal sqlLiteral: SQL) throws -> Self? {
        try fetchOne(db, sql: sqlLiteral.sql, arguments: sqlLiteral.arguments)
    }
}

extension DatabaseValueConvertible where Self: Hashable {
    /// The distinct values of the first column of an SQL literal.
    ///
    /// - throws: A ``DatabaseError``, or a decoding error.
    public static func fetchSet(_ db: Database, literal sqlLiteral: SQL) throws -> Set<Self> {
        try fetchSet(db, sql: sqlLiteral.sql, arguments: sqlLiteral.arguments)
    }
}

extension DatabaseValueConvertible where Self: StatementColumnConvertible {
    /// A cursor over the values of the first column of an SQL literal, read
    /// straight from SQLite.
    ///
    /// - throws: A ``DatabaseError``.
    public static func fetchCursor(_ db: Database, literal sqlLiteral: SQL) throws -> FastDatabaseValueCursor<Self> {
        try fetchCursor(db, sql: sqlLiteral.sql, arguments: sqlLiteral.arguments)
    }

    /// The values of the first column of an SQL literal, read straight from SQLite.
    ///
    /// - throws: A ``DatabaseError``, or a decoding error.
    public static func fetchAll(_ db: Database, literal sqlLiteral: SQL) throws -> [Self] {
        try fetchAll(db, sql: sqlLiteral.sql, arguments: sqlLiteral.arguments)
    }

    /// The value of the first column of the first row of an SQL literal.
    ///
    /// - throws: A ``DatabaseError``, or a decoding error.
    public static func fetchOne(_ db: Database, literal sqlLiteral: SQL) throws -> Self? {
        try fetchOne(db, sql: sqlLiteral.sql, arguments: sqlLiteral.arguments)
    }
}
