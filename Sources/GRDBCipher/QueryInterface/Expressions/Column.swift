/// An expression that is a column of a table, by name.
///
/// ``Column`` is the usual one; define your own to carry more than a name.
public protocol ColumnExpression: SQLSpecificExpressible {
    /// The column name.
    var name: String { get }
}

extension ColumnExpression {
    /// The column, quoted, as SQL: `"name"`.
    public var sqlExpression: SQLExpression { .column(name) }

    /// The column as an expression that belongs to no table: it is always
    /// written as its quoted name, never qualified with a table or alias.
    /// Use it to refer to a column alias of the selection.
    ///
    /// ```swift
    /// // SELECT "score" + "bonus" AS "total" FROM "player" ORDER BY "total"
    /// let request = Player
    ///     .select { ($0.score + $0.bonus).forKey("total") }
    ///     .order(Column("total").detached)
    /// ```
    ///
    /// As in GRDB, it is an expression literal: it is parenthesized when it
    /// is the operand of an operator.
    public var detached: SQLExpression {
        SQLExpression(literal: SQL(sql: name.quotedDatabaseIdentifier))
    }
}

extension ColumnExpression where Self: RawRepresentable, RawValue == String {
    /// The raw value: `enum Columns: String, ColumnExpression { case id, name }`.
    public var name: String { rawValue }
}

/// A column, by name: for requests, ``Row`` subscripts and SQL interpolation.
///
/// As in GRDB, a column is neither `Equatable` nor a string literal: `==`
/// between a column and a value builds an SQL expression, never a `Bool`.
///
/// ```swift
/// let nameColumn = Column("name")
/// let name: String = row[nameColumn]
/// let request = Player.filter(nameColumn == "Arthur")
/// try db.execute(literal: "UPDATE player SET \(nameColumn) = \(newName)")
/// ```
public struct Column: ColumnExpression, Sendable, CustomStringConvertible {
    /// The hidden `rowid` column.
    public static let rowID = Column("rowid")

    /// The column name.
    public let name: String

    /// Creates a column.
    public init(_ name: String) {
        self.name = name
    }

    /// Creates a column named after a coding key's string value.
    public init(_ codingKey: some CodingKey) {
        self.name = codingKey.stringValue
    }

    /// The column name.
    public var description: String { name }
}

extension SQLSelectable where Self == Column {
    /// The hidden `rowid` column, for selections: `[.allColumns, .rowID]`.
    public static var rowID: Self { Column.rowID }
}

extension SQLSpecificExpressible where Self == Column {
    /// The hidden `rowid` column, for expressions and orderings.
    public static var rowID: Self { Column.rowID }
}

extension ColumnExpression where Self == Column {
    /// The hidden `rowid` column.
    public static var rowID: Self { Column.rowID }
}
