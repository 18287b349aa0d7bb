/// A name for a table in SQL, whose columns can be used in expressions.
///
/// Upserts give one, named `excluded`, to their `doUpdate` closure: it
/// refers to the values that failed to insert.
///
/// ```swift
/// try message.upsertAndFetch(db) { excluded in
///     [Column("date").set(to: excluded["date"])]   // "date" = "excluded"."date"
/// }
/// ```
public final class TableAlias<RowDecoder>: Sendable {
    /// The name of the alias in SQL.
    let name: String

    /// An alias with this name.
    public init(name: String) {
        self.name = name
    }

    /// The column of the aliased table: `"alias"."column"`.
    public subscript(_ column: String) -> SQLExpression {
        SQLExpression(literal: SQL(sql: name.quotedDatabaseIdentifier + "." + column.quotedDatabaseIdentifier))
    }

    /// The column of the aliased table: `"alias"."column"`.
    public subscript(_ column: some ColumnExpression) -> SQLExpression {
        self[column.name]
    }
}
