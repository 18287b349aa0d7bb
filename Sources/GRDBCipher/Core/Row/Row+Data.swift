import Foundation

// Reading blobs without copying them: the `Data` a closure receives may point
// into SQLite's own buffer.

extension Row {
    /// Calls `body` with the data at `index`, or nil if the value is NULL.
    ///
    /// For a row that a cursor returns, the data points into SQLite's buffer
    /// instead of being copied, and every value reads as bytes (a number as
    /// its text). A copied row converts a text to its UTF-8 bytes and throws
    /// for a number.
    ///
    /// ```swift
    /// let rows = try Row.fetchCursor(db, sql: "SELECT thumbnail FROM image")
    /// while let row = try rows.next() {
    ///     let size = try row.withUnsafeData(atIndex: 0) { $0?.count ?? 0 }
    /// }
    /// ```
    ///
    /// - warning: The data must not be kept or used after `body` returns.
    /// - throws: A ``RowDecodingError`` if the value cannot be read as data,
    ///   or what `body` throws.
    public func withUnsafeData<T>(atIndex index: Int, _ body: (Data?) throws -> T) throws -> T {
        precondition(index >= 0 && index < count, "row index out of range: \(index)")
        return try withUnsafeData(atUncheckedIndex: index, body)
    }

    /// Calls `body` with the data of the leftmost column of this name
    /// (case-insensitive), or nil if the value is NULL or the column is missing.
    ///
    /// See ``withUnsafeData(atIndex:_:)`` for what the data holds.
    ///
    /// - warning: The data must not be kept or used after `body` returns.
    /// - throws: A ``RowDecodingError`` if the value cannot be read as data,
    ///   or what `body` throws.
    public func withUnsafeData<T>(named columnName: String, _ body: (Data?) throws -> T) throws -> T {
        guard let index = index(forColumn: columnName) else { return try body(nil) }
        return try withUnsafeData(atUncheckedIndex: index, body)
    }

    /// The data at `index`, or nil for NULL, without copying it from a
    /// cursor's row: it is only valid until the cursor moves. Traps if the
    /// value cannot be read as data.
    @available(*, deprecated, message: "Use withUnsafeData(atIndex:_:) instead.")
    public func dataNoCopy(atIndex index: Int) -> Data? {
        try! withUnsafeData(atIndex: index) { $0 }
    }

    /// The data of the leftmost column of this name, or nil for NULL or a
    /// missing column, without copying it from a cursor's row: it is only
    /// valid until the cursor moves. Traps if the value cannot be read as data.
    @available(*, deprecated, message: "Use withUnsafeData(named:_:) instead.")
    public func dataNoCopy(named columnName: String) -> Data? {
        try! withUnsafeData(named: columnName) { $0 }
    }
}
