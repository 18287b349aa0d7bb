extension TableAliasBase {
    /// The column of the aliased table: `"alias"."column"`.
    ///
    /// ```swift
    /// let parent = TableAlias()
    /// let children = Child.filter(Column("parentId") == parent["id"])
    /// let request = Parent.aliased(parent).filter(children.exists())
    /// // SELECT * FROM "parent"
    /// // WHERE EXISTS (SELECT * FROM "child" WHERE "parentId" = "parent"."id")
    /// ```
    public subscript(_ column: String) -> SQLExpression {
        self[Column(column)]
    }
}

extension TableAlias where RowDecoder: TableRecord {
    /// The database components of the record type: its columns.
    public typealias DatabaseComponents = RowDecoder.DatabaseComponents

    /// An expression of the record's database components, qualified with
    /// the alias.
    ///
    /// ```swift
    /// // SELECT "p".* FROM "player" "p" WHERE "p"."score" > ?
    /// let p = TableAlias<Player>(name: "p")
    /// let request = Player.aliased(p).filter(p.score > 1000)
    /// ```
    public subscript<T>(dynamicMember keyPath: KeyPath<DatabaseComponents, T>) -> SQLExpression
    where T: SQLSpecificExpressible
    {
        self[RowDecoder.databaseComponents[keyPath: keyPath]]
    }

    /// A selection of the record's database components, qualified with
    /// the alias.
    ///
    /// ```swift
    /// extension Player {
    ///     enum Columns {
    ///         static let score = Column("score")
    ///         static let everything = AllColumns()
    ///     }
    /// }
    /// // SELECT "p".* FROM "player" "p"
    /// let p = TableAlias<Player>(name: "p")
    /// let request = Player.aliased(p).select(p.everything)
    /// ```
    public subscript<T>(dynamicMember keyPath: KeyPath<DatabaseComponents, T>) -> SQLSelection
    where T: SQLSelectable
    {
        self[RowDecoder.databaseComponents[keyPath: keyPath]]
    }

    /// An ordering of the record's database components, qualified with
    /// the alias.
    ///
    /// ```swift
    /// extension Player {
    ///     enum Columns {
    ///         static let score = Column("score")
    ///         static let byScore = Column("score").desc
    ///     }
    /// }
    /// // SELECT "p".* FROM "player" "p" ORDER BY "p"."score" DESC
    /// let p = TableAlias<Player>(name: "p")
    /// let request = Player.aliased(p).order(p.byScore)
    /// ```
    public subscript<T>(dynamicMember keyPath: KeyPath<DatabaseComponents, T>) -> SQLOrdering
    where T: SQLOrderingTerm
    {
        self[RowDecoder.databaseComponents[keyPath: keyPath]]
    }
}
