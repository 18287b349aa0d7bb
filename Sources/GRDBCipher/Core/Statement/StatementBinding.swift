import CSQLCipher

/// A type that binds itself to a parameter of a prepared statement.
///
/// Every ``DatabaseValueConvertible`` type is one: its default binds its
/// ``DatabaseValueConvertible/databaseValue``. A `RawRepresentable` type
/// whose raw value binds gets a default too, so that a wrapper such as
/// GRDB's documented `Tagged` recipe binds as its raw value:
///
/// ```swift
/// extension Tagged: StatementBinding where RawValue: StatementBinding { }
/// ```
///
/// Related SQLite documentation: <https://www.sqlite.org/c3ref/bind_blob.html>
public protocol StatementBinding {
    /// Binds the value to a parameter of a statement and returns the result
    /// code of the `sqlite3_bind_*` call.
    ///
    /// - parameters:
    ///   - sqliteStatement: A prepared statement that is not running.
    ///   - index: The 1-based index of the parameter.
    func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt
}

extension StatementBinding where Self: RawRepresentable, Self.RawValue: StatementBinding {
    /// Binds the raw value.
    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        rawValue.bind(to: sqliteStatement, at: index)
    }
}

extension Optional: StatementBinding where Wrapped: StatementBinding {
    /// Binds NULL for nil, the wrapped value otherwise.
    @inlinable
    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        guard let self else { return sqlite3_bind_null(sqliteStatement, index) }
        return self.bind(to: sqliteStatement, at: index)
    }
}
