// A row is a random-access collection of (column name, value) pairs.

extension Row: RandomAccessCollection {
    /// A position in a ``Row``: its pairs are numbered from zero, left to right.
    public struct Index: Sendable {
        /// The column index.
        let index: Int

        init(_ index: Int) {
            self.index = index
        }
    }

    /// The position of the leftmost pair.
    public var startIndex: Index { Index(0) }

    /// The position after the rightmost pair.
    public var endIndex: Index { Index(count) }

    /// The column name and value at `position`.
    ///
    /// ```swift
    /// for (column, dbValue) in row {
    ///     print("\(column): \(dbValue)")
    /// }
    /// ```
    public subscript(position: Index) -> (String, DatabaseValue) {
        let dbValue = databaseValue(atIndex: position.index)
        return (columnNames[position.index], dbValue)
    }
}

extension Row.Index: Equatable, Comparable, Strideable {
    /// Whether both positions are the same.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.index == rhs.index }

    /// Whether `lhs` is to the left of `rhs`.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.index < rhs.index }

    /// The number of columns from this position to `other`.
    public func distance(to other: Self) -> Int { other.index - index }

    /// The position `n` columns to the right (to the left if `n` is negative).
    public func advanced(by n: Int) -> Self { Self(index + n) }
}
