// Requests of a record's table that start with an alias, an annotation,
// a common table expression or a typed selection: `Player.aliased(p)`,
// `Player.with(cte)`.

extension TableRecord {
    /// A request of the table, named by `alias`.
    ///
    /// ```swift
    /// // SELECT "p".* FROM "player" "p"
    /// let request = Player.aliased(TableAlias(name: "p"))
    /// ```
    public static func aliased(_ alias: TableAliasBase) -> QueryInterfaceRequest<Self> {
        all().aliased(alias)
    }

    /// A request of the table with the `WITH` clause of a common table expression.
    ///
    /// ```swift
    /// // WITH "name" AS (...) SELECT * FROM "player" WHERE "name" IN "name"
    /// let request = Player.with(names).filter(names.contains(Column("name")))
    /// ```
    public static func with<T>(_ cte: CommonTableExpression<T>) -> QueryInterfaceRequest<Self> {
        all().with(cte)
    }

    /// A request of the table selecting the record's columns and these values.
    ///
    /// ```swift
    /// // SELECT *, "score" * 2 AS "double" FROM "player"
    /// let request = Player.annotated(with: (Column("score") * 2).forKey("double"))
    /// ```
    public static func annotated(with selection: [any SQLSelectable]) -> QueryInterfaceRequest<Self> {
        all().annotated(with: selection)
    }

    /// A request of the table selecting the record's columns and these values.
    public static func annotated(with selection: any SQLSelectable...) -> QueryInterfaceRequest<Self> {
        all().annotated(with: selection)
    }

    /// A request of the table selecting these values, decoded as `type`.
    public static func select<T>(_ selection: [any SQLSelectable], as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        all().select(selection, as: type)
    }

    /// A request of the table selecting this SQL, decoded as `type`.
    public static func select<T>(
        sql: String, arguments: StatementArguments = StatementArguments(), as type: T.Type = T.self
    ) -> QueryInterfaceRequest<T> {
        all().select(sql: sql, arguments: arguments, as: type)
    }

    /// A request of the table selecting this SQL literal, decoded as `type`.
    public static func select<T>(literal sqlLiteral: SQL, as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        all().select(literal: sqlLiteral, as: type)
    }
}
