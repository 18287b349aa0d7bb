/// An assignment of a column, for batch updates (`updateAll`) and the
/// `DO UPDATE SET` clause of an upsert: `"score" = "score" + 1`, or a
/// column left untouched.
///
/// ```swift
/// // UPDATE "player" SET "score" = "score" + ?, "bonus" = ?
/// try Player.updateAll(db, Column("score") += 10, Column("bonus").set(to: 0))
/// ```
///
/// ```swift
/// let upserted = try vocabulary.upsertAndFetch(db, onConflict: ["word"]) { excluded in
///     [Column("count") += 1,                               // "count" = "count" + 1
///      Column("isTainted").noOverwrite,                    // left as it is
///      Column("kind").set(to: excluded["kind"])]           // "kind" = "excluded"."kind"
/// }
/// ```
public struct ColumnAssignment: Sendable {
    /// The assigned column.
    let columnName: String

    /// The new value; nil for a column that must keep its value.
    let value: SQLExpression?

    init(columnName: String, value: SQLExpression?) {
        self.columnName = columnName
        self.value = value
    }

    /// `"column" = value`, or nil for a column that keeps its value.
    var sql: SQL? {
        guard let value else { return nil }
        return SQL(sql: columnName.quotedDatabaseIdentifier + " = ") + value.sql
    }
}

/// Which columns an upsert overwrites when the row exists, besides those
/// given explicit assignments.
public struct UpsertUpdateStrategy: OptionSet, Sendable {
    /// The raw value.
    public let rawValue: Int

    /// A strategy from its raw value.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// Only the columns given an assignment are updated.
    public static let noColumnUnlessSpecified = UpsertUpdateStrategy([])

    /// Every inserted column but the primary key and the conflict target is
    /// overwritten with its inserted value, unless given an assignment.
    public static let allColumns = UpsertUpdateStrategy(rawValue: 1 << 0)
}

extension ColumnExpression {
    /// Assigns a value, or NULL when `value` is nil: `"column" = value`.
    public func set(to value: (any SQLExpressible)?) -> ColumnAssignment {
        ColumnAssignment(columnName: name, value: value?.sqlExpression ?? .value(.null))
    }

    /// Keeps the value of the column: an upsert does not overwrite it.
    public var noOverwrite: ColumnAssignment {
        ColumnAssignment(columnName: name, value: nil)
    }

    /// `"column" = "column" + value`.
    public static func += (column: Self, value: some SQLExpressible) -> ColumnAssignment {
        column.set(to: SQLExpression(.binary("+", column.sqlExpression, value.sqlExpression)))
    }

    /// `"column" = "column" - value`.
    public static func -= (column: Self, value: some SQLExpressible) -> ColumnAssignment {
        column.set(to: SQLExpression(.binary("-", column.sqlExpression, value.sqlExpression)))
    }

    /// `"column" = "column" * value`.
    public static func *= (column: Self, value: some SQLExpressible) -> ColumnAssignment {
        column.set(to: SQLExpression(.binary("*", column.sqlExpression, value.sqlExpression)))
    }

    /// `"column" = "column" / value`.
    public static func /= (column: Self, value: some SQLExpressible) -> ColumnAssignment {
        column.set(to: SQLExpression(.binary("/", column.sqlExpression, value.sqlExpression)))
    }

    /// `"column" = "column" & value`.
    public static func &= (column: Self, value: some SQLExpressible) -> ColumnAssignment {
        column.set(to: column & value)
    }

    /// `"column" = "column" | value`.
    public static func |= (column: Self, value: some SQLExpressible) -> ColumnAssignment {
        column.set(to: column | value)
    }

    /// `"column" = "column" << value`.
    public static func <<= (column: Self, value: some SQLExpressible) -> ColumnAssignment {
        column.set(to: column << value)
    }

    /// `"column" = "column" >> value`.
    public static func >>= (column: Self, value: some SQLExpressible) -> ColumnAssignment {
        column.set(to: column >> value)
    }
}
