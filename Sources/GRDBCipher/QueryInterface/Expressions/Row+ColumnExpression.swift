import Foundation

// The row accessors that take a column of the query interface
// (`row[Column("name")]`): each reads the column of the same name.

extension Row {
    /// Decodes the value of a column.
    ///
    /// - throws: A ``RowDecodingError`` if there is no such column or the
    ///   value cannot be decoded.
    public func decode<Value: DatabaseValueConvertible>(
        _ type: Value.Type = Value.self, forColumn column: some ColumnExpression) throws -> Value
    {
        try decode(type, forColumn: column.name)
    }

    /// Decodes the value of a column, on the fast path.
    ///
    /// - throws: A ``RowDecodingError`` if there is no such column or the
    ///   value cannot be decoded.
    public func decode<Value: DatabaseValueConvertible & StatementColumnConvertible>(
        _ type: Value.Type = Value.self, forColumn column: some ColumnExpression) throws -> Value
    {
        try decode(type, forColumn: column.name)
    }

    /// The value of a column, as its natural Swift type, or nil.
    public subscript(_ column: some ColumnExpression) -> (any DatabaseValueConvertible)? {
        self[column.name]
    }

    /// The value of a column, decoded.
    public subscript<Value: DatabaseValueConvertible>(_ column: some ColumnExpression) -> Value {
        self[column.name]
    }

    /// The value of a column, decoded on the fast path.
    public subscript<Value: DatabaseValueConvertible & StatementColumnConvertible>(
        _ column: some ColumnExpression) -> Value
    {
        self[column.name]
    }

    /// The first non-NULL value among these columns, decoded, or nil: SQL's
    /// `COALESCE`.
    ///
    /// ```swift
    /// let name: String? = row.coalesce([Column("nickname"), Column("name")])
    /// ```
    public func coalesce<T: DatabaseValueConvertible>(_ columns: some Collection<any ColumnExpression>) -> T? {
        coalesce(columns.lazy.map(\.name))
    }

    /// Calls `body` with the data of a column, or nil if the value is NULL or
    /// the column is missing.
    ///
    /// - warning: The data must not be kept or used after `body` returns.
    /// - throws: A ``RowDecodingError`` if the value cannot be read as data,
    ///   or what `body` throws.
    public func withUnsafeData<T>(at column: some ColumnExpression, _ body: (Data?) throws -> T) throws -> T {
        try withUnsafeData(named: column.name, body)
    }

    /// The data of a column, or nil for NULL or a missing column, without
    /// copying it from a cursor's row. Traps if the value cannot be read as data.
    @available(*, deprecated, message: "Use withUnsafeData(at:_:) instead.")
    public func dataNoCopy(_ column: Column) -> Data? {
        try! withUnsafeData(at: column) { $0 }
    }
}
