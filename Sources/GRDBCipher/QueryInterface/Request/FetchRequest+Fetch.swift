// Fetching rows and values from requests, as static methods of the fetched
// type (`Row.fetchAll(db, request)`) and as methods of the request
// (`request.fetchAll(db)`).

extension Row {
    /// A cursor over the rows of a request.
    ///
    /// - throws: A ``DatabaseError``, also for a request that prefetches
    ///   associations (`including(all:)`), which cursors do not support.
    public static func fetchCursor(_ db: Database, _ request: some FetchRequest) throws -> RowCursor {
        let prepared = try request.makePreparedRequest(db, forSingleResult: false)
        try prepared.checkNoSupplementaryFetch()
        return try fetchCursor(prepared.statement, adapter: prepared.adapter)
    }

    /// The rows of a request.
    ///
    /// - throws: A ``DatabaseError``.
    public static func fetchAll(_ db: Database, _ request: some FetchRequest) throws -> [Row] {
        let prepared = try request.makePreparedRequest(db, forSingleResult: false)
        let rows = try fetchAll(prepared.statement, adapter: prepared.adapter)
        try prepared.supplementaryFetch?(db, rows, nil)
        return rows
    }

    /// The rows of a request, without duplicates.
    ///
    /// - throws: A ``DatabaseError``.
    public static func fetchSet(_ db: Database, _ request: some FetchRequest) throws -> Set<Row> {
        let prepared = try request.makePreparedRequest(db, forSingleResult: false)
        guard let supplementaryFetch = prepared.supplementaryFetch else {
            return try fetchSet(prepared.statement, adapter: prepared.adapter)
        }
        let rows = try fetchAll(prepared.statement, adapter: prepared.adapter)
        try supplementaryFetch(db, rows, nil)
        return Set(rows)
    }

    /// The first row of a request, or nil.
    ///
    /// - throws: A ``DatabaseError``.
    public static func fetchOne(_ db: Database, _ request: some FetchRequest) throws -> Row? {
        let prepared = try request.makePreparedRequest(db, forSingleResult: true)
        let row = try fetchOne(prepared.statement, adapter: prepared.adapter)
        if let row, let supplementaryFetch = prepared.supplementaryFetch {
            try supplementaryFetch(db, [row], nil)
        }
        return row
    }
}

extension PreparedRequest {
    /// Throws if the request prefetches associations, which needs all the
    /// rows before they are returned: cursors cannot (GRDB can).
    func checkNoSupplementaryFetch() throws {
        if supplementaryFetch != nil {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "a request with including(all:) can not be fetched with a cursor: use fetchAll, fetchSet or fetchOne")
        }
    }
}

extension FetchRequest where RowDecoder == Row {
    /// A cursor over the rows of the request.
    ///
    /// - throws: A ``DatabaseError``.
    public func fetchCursor(_ db: Database) throws -> RowCursor { try Row.fetchCursor(db, self) }

    /// The rows of the request.
    ///
    /// - throws: A ``DatabaseError``.
    public func fetchAll(_ db: Database) throws -> [Row] { try Row.fetchAll(db, self) }

    /// The rows of the request, without duplicates.
    ///
    /// - throws: A ``DatabaseError``.
    public func fetchSet(_ db: Database) throws -> Set<Row> { try Row.fetchSet(db, self) }

    /// The first row of the request, or nil.
    ///
    /// - throws: A ``DatabaseError``.
    public func fetchOne(_ db: Database) throws -> Row? { try Row.fetchOne(db, self) }
}

extension DatabaseValueConvertible {
    /// A cursor over the values of a request's first column.
    ///
    /// - throws: A ``DatabaseError``.
    public static func fetchCursor(_ db: Database, _ request: some FetchRequest) throws -> DatabaseValueCursor<Self> {
        let prepared = try request.makePreparedRequest(db, forSingleResult: false)
        return try fetchCursor(prepared.statement, adapter: prepared.adapter)
    }

    /// The values of a request's first column.
    ///
    /// - throws: A ``DatabaseError`` or a ``RowDecodingError``.
    public static func fetchAll(_ db: Database, _ request: some FetchRequest) throws -> [Self] {
        let prepared = try request.makePreparedRequest(db, forSingleResult: false)
        return try fetchAll(prepared.statement, adapter: prepared.adapter)
    }

    /// The value of a request's first row, or nil when there is no row or
    /// the value is NULL.
    ///
    /// - throws: A ``DatabaseError`` or a ``RowDecodingError``.
    public static func fetchOne(_ db: Database, _ request: some FetchRequest) throws -> Self? {
        let prepared = try request.makePreparedRequest(db, forSingleResult: true)
        return try fetchOne(prepared.statement, adapter: prepared.adapter)
    }
}

extension DatabaseValueConvertible where Self: Hashable {
    /// The distinct values of a request's first column.
    ///
    /// - throws: A ``DatabaseError`` or a ``RowDecodingError``.
    public static func fetchSet(_ db: Database, _ request: some FetchRequest) throws -> Set<Self> {
        let prepared = try request.makePreparedRequest(db, forSingleResult: false)
        return try fetchSet(prepared.statement, adapter: prepared.adapter)
    }
}

extension DatabaseValueConvertible where Self: StatementColumnConvertible {
    /// A cursor over the values of a request's first column, on the fast path.
    ///
    /// - throws: A ``DatabaseError``.
    public static func fetchCursor(_ db: Database, _ request: some FetchRequest) throws -> FastDatabaseValueCursor<Self> {
        let prepared = try request.makePreparedRequest(db, forSingleResult: false)
        return try fetchCursor(prepared.statement, adapter: prepared.adapter)
    }

    /// The values of a request's first column, on the fast path.
    ///
    /// - throws: A ``DatabaseError`` or a ``RowDecodingError``.
    public static func fetchAll(_ db: Database, _ request: some FetchRequest) throws -> [Self] {
        let prepared = try request.makePreparedRequest(db, forSingleResult: false)
        return try fetchAll(prepared.statement, adapter: prepared.adapter)
    }

    /// The value of a request's first row, on the fast path.
    ///
    /// - throws: A ``DatabaseError`` or a ``RowDecodingError``.
    public static func fetchOne(_ db: Database, _ request: some FetchRequest) throws -> Self? {
        let prepared = try request.makePreparedRequest(db, forSingleResult: true)
        return try fetchOne(prepared.statement, adapter: prepared.adapter)
    }
}

extension DatabaseValueConvertible where Self: StatementColumnConvertible & Hashable {
    /// The distinct values of a request's first column, on the fast path.
    ///
    /// - throws: A ``DatabaseError`` or a ``RowDecodingError``.
    public static func fetchSet(_ db: Database, _ request: some FetchRequest) throws -> Set<Self> {
        let prepared = try request.makePreparedRequest(db, forSingleResult: false)
        return try fetchSet(prepared.statement, adapter: prepared.adapter)
    }
}

extension FetchRequest where RowDecoder: DatabaseValueConvertible {
    /// A cursor over the values of the request's first column.
    ///
    /// - throws: A ``DatabaseError``.
    public func fetchCursor(_ db: Database) throws -> DatabaseValueCursor<RowDecoder> {
        try RowDecoder.fetchCursor(db, self)
    }

    /// The values of the request's first column.
    ///
    /// - throws: A ``DatabaseError`` or a ``RowDecodingError``.
    public func fetchAll(_ db: Database) throws -> [RowDecoder] { try RowDecoder.fetchAll(db, self) }

    /// The value of the request's first row, or nil.
    ///
    /// - throws: A ``DatabaseError`` or a ``RowDecodingError``.
    public func fetchOne(_ db: Database) throws -> RowDecoder? { try RowDecoder.fetchOne(db, self) }
}

extension FetchRequest where RowDecoder: DatabaseValueConvertible & Hashable {
    /// The distinct values of the request's first column.
    ///
    /// - throws: A ``DatabaseError`` or a ``RowDecodingError``.
    public func fetchSet(_ db: Database) throws -> Set<RowDecoder> { try RowDecoder.fetchSet(db, self) }
}

extension FetchRequest where RowDecoder: DatabaseValueConvertible & StatementColumnConvertible {
    /// A cursor over the values of the request's first column, on the fast path.
    ///
    /// - throws: A ``DatabaseError``.
    public func fetchCursor(_ db: Database) throws -> FastDatabaseValueCursor<RowDecoder> {
        try RowDecoder.fetchCursor(db, self)
    }

    /// The values of the request's first column, on the fast path.
    ///
    /// - throws: A ``DatabaseError`` or a ``RowDecodingError``.
    public func fetchAll(_ db: Database) throws -> [RowDecoder] { try RowDecoder.fetchAll(db, self) }

    /// The value of the request's first row, on the fast path.
    ///
    /// - throws: A ``DatabaseError`` or a ``RowDecodingError``.
    public func fetchOne(_ db: Database) throws -> RowDecoder? { try RowDecoder.fetchOne(db, self) }
}

extension FetchRequest where RowDecoder: DatabaseValueConvertible & StatementColumnConvertible & Hashable {
    /// The distinct values of the request's first column, on the fast path.
    ///
    /// - throws: A ``DatabaseError`` or a ``RowDecodingError``.
    public func fetchSet(_ db: Database) throws -> Set<RowDecoder> { try RowDecoder.fetchSet(db, self) }
}
