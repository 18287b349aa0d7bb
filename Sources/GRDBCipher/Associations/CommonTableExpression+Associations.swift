// Associations from common table expressions and tables, defined by a
// joining condition (or none, for a cross join).

extension CommonTableExpression {
    /// An association from this common table expression to another one,
    /// joined on a condition of their aliases (left: this one).
    public func association<Destination>(
        to cte: CommonTableExpression<Destination>,
        on condition: @escaping @Sendable (_ left: TableAlias<RowDecoder>, _ right: TableAlias<Destination>) -> any SQLExpressible)
    -> JoinAssociation<RowDecoder, Destination>
    {
        JoinAssociation(.joining(cte.all().relation, on: condition))
    }

    /// An association from this common table expression to another one,
    /// without condition.
    public func association<Destination>(to cte: CommonTableExpression<Destination>)
    -> JoinAssociation<RowDecoder, Destination>
    {
        JoinAssociation(.crossJoining(cte.all().relation))
    }

    /// An association from this common table expression to a record's
    /// table, joined on a condition of their aliases (left: this one).
    ///
    /// ```swift
    /// let association = bestCTE.association(to: Team.self) { best, team in
    ///     team[Column("id")] == best[Column("teamId")]
    /// }
    /// let request = bestCTE.all().with(bestCTE).including(required: association)
    /// ```
    public func association<Destination: TableRecord>(
        to destination: Destination.Type,
        on condition: @escaping @Sendable (_ left: TableAlias<RowDecoder>, _ right: TableAlias<Destination>) -> any SQLExpressible)
    -> JoinAssociation<RowDecoder, Destination>
    {
        JoinAssociation(.joining(Destination.all().relation, on: condition))
    }

    /// An association from this common table expression to a record's
    /// table, without condition.
    public func association<Destination: TableRecord>(to destination: Destination.Type)
    -> JoinAssociation<RowDecoder, Destination>
    {
        JoinAssociation(.crossJoining(Destination.all().relation))
    }

    /// An association from this common table expression to a table,
    /// joined on a condition of their aliases (left: this one).
    public func association<Destination>(
        to destination: Table<Destination>,
        on condition: @escaping @Sendable (_ left: TableAlias<RowDecoder>, _ right: TableAlias<Destination>) -> any SQLExpressible)
    -> JoinAssociation<RowDecoder, Destination>
    {
        JoinAssociation(.joining(destination.all().relation, on: condition))
    }

    /// An association from this common table expression to a table,
    /// without condition.
    public func association<Destination>(to destination: Table<Destination>)
    -> JoinAssociation<RowDecoder, Destination>
    {
        JoinAssociation(.crossJoining(destination.all().relation))
    }
}

extension Table {
    /// An association from this table to a common table expression,
    /// joined on a condition of their aliases (left: this table).
    ///
    /// ```swift
    /// let association = Table("team").association(to: bestCTE) { team, best in
    ///     team[Column("id")] == best[Column("teamId")]
    /// }
    /// ```
    public func association<Destination>(
        to cte: CommonTableExpression<Destination>,
        on condition: @escaping @Sendable (_ left: TableAlias<RowDecoder>, _ right: TableAlias<Destination>) -> any SQLExpressible)
    -> JoinAssociation<RowDecoder, Destination>
    {
        JoinAssociation(.joining(cte.all().relation, on: condition))
    }

    /// An association from this table to a common table expression,
    /// without condition.
    public func association<Destination>(to cte: CommonTableExpression<Destination>)
    -> JoinAssociation<RowDecoder, Destination>
    {
        JoinAssociation(.crossJoining(cte.all().relation))
    }

    /// A `belongsTo` association from this table to a record's table.
    public func belongsTo<Destination: TableRecord>(
        _ destination: Destination.Type, key: String? = nil, using foreignKey: ForeignKey? = nil)
    -> BelongsToAssociation<RowDecoder, Destination>
    {
        BelongsToAssociation(_SQLAssociation(
            key: key.map { .fixedSingular($0) } ?? .inflected(Destination.databaseTableName), isToMany: false,
            condition: .foreignKey(foreignKey, originIsLeft: true), relation: Destination.all().relation))
    }

    /// A `hasOne` association from this table to a record's table.
    public func hasOne<Destination: TableRecord>(
        _ destination: Destination.Type, key: String? = nil, using foreignKey: ForeignKey? = nil)
    -> HasOneAssociation<RowDecoder, Destination>
    {
        HasOneAssociation(_SQLAssociation(
            key: key.map { .fixedSingular($0) } ?? .inflected(Destination.databaseTableName), isToMany: false,
            condition: .foreignKey(foreignKey, originIsLeft: false), relation: Destination.all().relation))
    }

    /// A `hasMany` association from this table to a record's table.
    public func hasMany<Destination: TableRecord>(
        _ destination: Destination.Type, key: String? = nil, using foreignKey: ForeignKey? = nil)
    -> HasManyAssociation<RowDecoder, Destination>
    {
        HasManyAssociation(_SQLAssociation(
            key: key.map { .fixedPlural($0) } ?? .inflected(Destination.databaseTableName), isToMany: true,
            condition: .foreignKey(foreignKey, originIsLeft: false), relation: Destination.all().relation))
    }

    /// A `belongsTo` association from this table to another table.
    public func belongsTo<Destination>(
        _ destination: Table<Destination>, key: String? = nil, using foreignKey: ForeignKey? = nil)
    -> BelongsToAssociation<RowDecoder, Destination>
    {
        BelongsToAssociation(_SQLAssociation(
            key: key.map { .fixedSingular($0) } ?? .inflected(destination.tableName), isToMany: false,
            condition: .foreignKey(foreignKey, originIsLeft: true), relation: destination.all().relation))
    }

    /// A `hasOne` association from this table to another table.
    public func hasOne<Destination>(
        _ destination: Table<Destination>, key: String? = nil, using foreignKey: ForeignKey? = nil)
    -> HasOneAssociation<RowDecoder, Destination>
    {
        HasOneAssociation(_SQLAssociation(
            key: key.map { .fixedSingular($0) } ?? .inflected(destination.tableName), isToMany: false,
            condition: .foreignKey(foreignKey, originIsLeft: false), relation: destination.all().relation))
    }

    /// A `hasMany` association from this table to another table.
    public func hasMany<Destination>(
        _ destination: Table<Destination>, key: String? = nil, using foreignKey: ForeignKey? = nil)
    -> HasManyAssociation<RowDecoder, Destination>
    {
        HasManyAssociation(_SQLAssociation(
            key: key.map { .fixedPlural($0) } ?? .inflected(destination.tableName), isToMany: true,
            condition: .foreignKey(foreignKey, originIsLeft: false), relation: destination.all().relation))
    }
}
