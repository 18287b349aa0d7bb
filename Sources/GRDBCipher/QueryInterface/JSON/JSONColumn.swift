/// A column that holds JSON text: read as a JSON value by the query
/// interface (see ``SQLJSONExpressible``).
///
/// ```swift
/// struct Player: Codable, FetchableRecord, PersistableRecord {
///     var id: Int64
///     var info: Info   // stored as JSON
///
///     enum Columns {
///         static let info = JSONColumn("info")
///     }
/// }
///
/// // SELECT * FROM "player" WHERE "info" ->> 'country' = 'FR'
/// let players = try Player.filter(Player.Columns.info["country"] == "FR").fetchAll(db)
/// ```
public struct JSONColumn: ColumnExpression, SQLJSONExpressible, Sendable {
    /// The column name, unqualified.
    public var name: String

    /// A column of this name.
    public init(_ name: String) {
        self.name = name
    }

    /// The column of a coding key.
    public init(_ codingKey: some CodingKey) {
        self.name = codingKey.stringValue
    }
}
