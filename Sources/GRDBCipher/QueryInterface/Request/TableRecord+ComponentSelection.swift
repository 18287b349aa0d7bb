// The closure forms of `select(_:as:)` and `annotated(with:)` that start a
// request from a record type, as GRDB's TableRecord offers them.

extension TableRecord {
    /// A request of the table selecting a value of the record's components,
    /// decoded as `type`.
    ///
    /// ```swift
    /// // SELECT MAX("score") FROM "player"
    /// let maxScore = try Player.select({ max($0.score) }, as: Int.self).fetchOne(db)
    /// // SELECT "name" FROM "player"
    /// let names = try Player.select(\.name, as: String.self).fetchAll(db)
    /// ```
    public static func select<T>(
        _ selection: (DatabaseComponents) throws -> any SQLSelectable, as type: T.Type = T.self
    ) rethrows -> QueryInterfaceRequest<T> {
        try all().select(selection, as: type)
    }

    /// A request of the table selecting values of the record's components,
    /// decoded as `type`.
    ///
    /// ```swift
    /// // SELECT "name", "score" FROM "player"
    /// let rows = try Player.select({ [$0.name, $0.score] }, as: Row.self).fetchAll(db)
    /// ```
    public static func select<T>(
        _ selection: (DatabaseComponents) throws -> [any SQLSelectable], as type: T.Type = T.self
    ) rethrows -> QueryInterfaceRequest<T> {
        try all().select(selection, as: type)
    }

    /// A request of the table selecting all columns and a value of the
    /// record's components.
    ///
    /// ```swift
    /// // SELECT *, "score" + "bonus" AS "total" FROM "player"
    /// let request = Player.annotated { ($0.score + $0.bonus).forKey("total") }
    /// ```
    public static func annotated(
        with selection: (DatabaseComponents) throws -> any SQLSelectable) rethrows -> QueryInterfaceRequest<Self>
    {
        try all().annotated(with: selection)
    }

    /// A request of the table selecting all columns and values of the
    /// record's components.
    public static func annotated(
        with selection: (DatabaseComponents) throws -> [any SQLSelectable]) rethrows -> QueryInterfaceRequest<Self>
    {
        try all().annotated(with: selection)
    }
}
