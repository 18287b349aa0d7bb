/// All the columns of a table but some: the selection of
/// ``SQLSelectable/allColumns(excluding:)-(Collection<String>)``.
///
/// The remaining columns are listed when the request runs, from the schema
/// of the table; excluded names are compared case-insensitively.
///
/// ```swift
/// struct Player: TableRecord {
///     static var databaseSelection: [any SQLSelectable] {
///         [.allColumns(excluding: ["secret"])]
///     }
/// }
/// // SELECT "id", "name", "score" FROM "player"
/// let players = try Player.fetchAll(db)
/// ```
public struct AllColumnsExcluding: SQLSelectable, Sendable {
    let excluded: Set<String>

    /// All columns except these.
    ///
    /// ```swift
    /// let request = Player.select(AllColumnsExcluding(["secret"]))
    /// ```
    public init(_ excludedColumns: some Collection<String>) {
        excluded = Set(excludedColumns)
    }

    /// The list of the columns that are not excluded.
    public var sqlSelection: SQLSelection { SQLSelection(.allColumns(excluding: excluded)) }
}

extension SQLSelectable where Self == AllColumnsExcluding {
    /// All columns except these (names compared case-insensitively).
    ///
    /// ```swift
    /// // SELECT "id", "name", "score" FROM "player"
    /// let request = Player.select(.allColumns(excluding: ["secret"]))
    /// ```
    public static func allColumns(excluding excludedColumns: some Collection<String>) -> AllColumnsExcluding {
        AllColumnsExcluding(excludedColumns)
    }

    /// All columns except these.
    ///
    /// ```swift
    /// // SELECT "id", "name", "score" FROM "player"
    /// let request = Player.select(.allColumns(excluding: [Column("secret")]))
    /// ```
    public static func allColumns(excluding excludedColumns: some Collection<any ColumnExpression>) -> AllColumnsExcluding {
        AllColumnsExcluding(excludedColumns.map({ $0.name }))
    }
}
