// Fetching with an `SQL` literal: the SQL and its arguments together, as in
// `Row.fetchAll(db, literal: "SELECT * FROM player WHERE name = \(name)")`.

extension Row {
    /// A cursor over the rows of an SQL literal.
    ///
    /// - throws: A ``DatabaseError``.
    public static func fetchCursor(_ db: Database, literal sqlLiteral: SQL) throws -> RowCursor {
        let (sql, arguments) = try sqlLiteral.build(db)
        return try fetchCursor(db, sql: sql, arguments: arguments)
    }

    /// All rows of an SQL literal.
    ///
    /// - throws: A ``DatabaseError``.
    public static func fetchAll(_ db: Database, literal sqlLiteral: SQL) throws -> [Row] {
        let (sql, arguments) = try sqlLiteral.build(db)
        return try fetchAll(db, sql: sql, arguments: arguments)
    }

    /// The distinct rows of an SQL literal.
    ///
    /// - throws: A ``DatabaseError``.
    public static func fetchSet(_ db: Database, literal sqlLiteral: SQL) throws -> Set<Row> {
        let (sql, arguments) = try sqlLiteral.build(db)
        return try fetchSet(db, sql: sql, arguments: arguments)
    }

    /// The first row of an SQL literal, or nil.
    ///
    /// - throws: A ``DatabaseError``.
    public static func fetchOne(_ db: Database, literal sqlLiteral: SQL) throws -> Row? {
        let (sql, arguments) = try sqlLiteral.build(db)
        return try fetchOne(db, sql: sql, arguments: arguments)
    }
}

extension DatabaseValueConvertible {
    /// A cursor over the values of the first column of an SQL literal.
    ///
    /// - throws: A ``DatabaseError``.
    public static func fetchCursor(_ db: Database, literal sqlLiteral: SQL) throws -> DatabaseValueCursor<Self> {
        let (sql, arguments) = try sqlLiteral.build(db)
        return try fetchCursor(db, sql: sql, arguments: arguments)
    }

    /// The values of the first column of an SQL literal.
    ///
    /// - throws: A ``DatabaseError``, or a decoding error for a value that
    ///   does not convert.
    public static func fetchAll(_ db: Database, literal sqlLiteral: SQL) throws -> [Self] {
        let (sql, arguments) = try sqlLiteral.build(db)
        return try fetchAll(db, sql: sql, arguments: arguments)
    }

    /// The value of the first column of the first row of an SQL literal, or
    /// nil when there is no row or the value is NULL.
    ///
    /// - throws: A ``DatabaseError``, or a decoding error.
    public static func fetchOne(_ db: Database, literal sqlLiteral: SQL) throws -> Self? {
        let (sql, arguments) = try sqlLiteral.build(db)
        return try fetchOne(db, sql: sql, arguments: arguments)
    }
}

extension DatabaseValueConvertible where Self: Hashable {
    /// The distinct values of the first column of an SQL literal.
    ///
    /// - throws: A ``DatabaseError``, or a decoding error.
    public static func fetchSet(_ db: Database, literal sqlLiteral: SQL) throws -> Set<Self> {
        let (sql, arguments) = try sqlLiteral.build(db)
        return try fetchSet(db, sql: sql, arguments: arguments)
    }
}

extension DatabaseValueConvertible where Self: StatementColumnConvertible {
    /// A cursor over the values of the first column of an SQL literal, read
    /// straight from SQLite.
    ///
    /// - throws: A ``DatabaseError``.
    public static func fetchCursor(_ db: Database, literal sqlLiteral: SQL) throws -> FastDatabaseValueCursor<Self> {
        let (sql, arguments) = try sqlLiteral.build(db)
        return try fetchCursor(db, sql: sql, arguments: arguments)
    }

    /// The values of the first column of an SQL literal, read straight from SQLite.
    ///
    /// - throws: A ``DatabaseError``, or a decoding error.
    public static func fetchAll(_ db: Database, literal sqlLiteral: SQL) throws -> [Self] {
        let (sql, arguments) = try sqlLiteral.build(db)
        return try fetchAll(db, sql: sql, arguments: arguments)
    }

    /// The value of the first column of the first row of an SQL literal.
    ///
    /// - throws: A ``DatabaseError``, or a decoding error.
    public static func fetchOne(_ db: Database, literal sqlLiteral: SQL) throws -> Self? {
        let (sql, arguments) = try sqlLiteral.build(db)
        return try fetchOne(db, sql: sql, arguments: arguments)
    }
}

extension DatabaseValueConvertible where Self: StatementColumnConvertible & Hashable {
    /// The distinct values of the first column of an SQL literal, read
    /// straight from SQLite.
    ///
    /// - throws: A ``DatabaseError``, or a decoding error.
    public static func fetchSet(_ db: Database, literal sqlLiteral: SQL) throws -> Set<Self> {
        let (sql, arguments) = try sqlLiteral.build(db)
        return try fetchSet(db, sql: sql, arguments: arguments)
    }
}
