// Declaring associations from a record type: `belongsTo`, `hasOne`,
// `hasMany`, their `through` variants, and associations to common table
// expressions and tables defined by a condition.

extension TableRecord {
    /// An association to the record that the foreign key of this record's
    /// table points to.
    ///
    /// ```swift
    /// struct Book: TableRecord {
    ///     static let author = belongsTo(Author.self)
    /// }
    /// ```
    ///
    /// - parameters:
    ///   - destination: The record type of the other table.
    ///   - key: The association key; by default the destination table name,
    ///     singularized.
    ///   - foreignKey: The foreign key; by default the only foreign key
    ///     from this table to the destination table in the schema.
    ///     Fetching throws a ``DatabaseError`` if there is none, or several.
    public static func belongsTo<Destination: TableRecord>(
        _ destination: Destination.Type,
        key: String? = nil,
        using foreignKey: ForeignKey? = nil)
    -> BelongsToAssociation<Self, Destination>
    {
        BelongsToAssociation(_SQLAssociation(
            key: key.map { .fixedSingular($0) } ?? .inflected(Destination.databaseTableName), isToMany: false,
            condition: .foreignKey(foreignKey, originIsLeft: true), relation: Destination.all().relation))
    }

    /// An association to the one record whose foreign key points to this
    /// record.
    ///
    /// ```swift
    /// struct Country: TableRecord {
    ///     static let profile = hasOne(Profile.self)
    /// }
    /// ```
    ///
    /// - parameters:
    ///   - destination: The record type of the other table.
    ///   - key: The association key; by default the destination table name,
    ///     singularized.
    ///   - foreignKey: The foreign key, from the destination table; by
    ///     default the only one of the schema.
    public static func hasOne<Destination: TableRecord>(
        _ destination: Destination.Type,
        key: String? = nil,
        using foreignKey: ForeignKey? = nil)
    -> HasOneAssociation<Self, Destination>
    {
        HasOneAssociation(_SQLAssociation(
            key: key.map { .fixedSingular($0) } ?? .inflected(Destination.databaseTableName), isToMany: false,
            condition: .foreignKey(foreignKey, originIsLeft: false), relation: Destination.all().relation))
    }

    /// An association to the records whose foreign key points to this record.
    ///
    /// ```swift
    /// struct Author: TableRecord {
    ///     static let books = hasMany(Book.self)
    /// }
    /// ```
    ///
    /// - parameters:
    ///   - destination: The record type of the other table.
    ///   - key: The association key; by default the destination table name,
    ///     pluralized.
    ///   - foreignKey: The foreign key, from the destination table; by
    ///     default the only one of the schema.
    public static func hasMany<Destination: TableRecord>(
        _ destination: Destination.Type,
        key: String? = nil,
        using foreignKey: ForeignKey? = nil)
    -> HasManyAssociation<Self, Destination>
    {
        HasManyAssociation(_SQLAssociation(
            key: key.map { .fixedPlural($0) } ?? .inflected(Destination.databaseTableName), isToMany: true,
            condition: .foreignKey(foreignKey, originIsLeft: false), relation: Destination.all().relation))
    }

    /// A `belongsTo` association to a table.
    public static func belongsTo<Destination>(
        _ destination: Table<Destination>,
        key: String? = nil,
        using foreignKey: ForeignKey? = nil)
    -> BelongsToAssociation<Self, Destination>
    {
        BelongsToAssociation(_SQLAssociation(
            key: key.map { .fixedSingular($0) } ?? .inflected(destination.tableName), isToMany: false,
            condition: .foreignKey(foreignKey, originIsLeft: true), relation: destination.all().relation))
    }

    /// A `hasOne` association to a table.
    public static func hasOne<Destination>(
        _ destination: Table<Destination>,
        key: String? = nil,
        using foreignKey: ForeignKey? = nil)
    -> HasOneAssociation<Self, Destination>
    {
        HasOneAssociation(_SQLAssociation(
            key: key.map { .fixedSingular($0) } ?? .inflected(destination.tableName), isToMany: false,
            condition: .foreignKey(foreignKey, originIsLeft: false), relation: destination.all().relation))
    }

    /// A `hasMany` association to a table.
    public static func hasMany<Destination>(
        _ destination: Table<Destination>,
        key: String? = nil,
        using foreignKey: ForeignKey? = nil)
    -> HasManyAssociation<Self, Destination>
    {
        HasManyAssociation(_SQLAssociation(
            key: key.map { .fixedPlural($0) } ?? .inflected(destination.tableName), isToMany: true,
            condition: .foreignKey(foreignKey, originIsLeft: false), relation: destination.all().relation))
    }

    // MARK: - Through

    /// An association to many records, through two other associations.
    ///
    /// ```swift
    /// struct Country: TableRecord {
    ///     static let passports = hasMany(Passport.self)
    ///     static let citizens = hasMany(Citizen.self, through: passports, using: Passport.citizen)
    /// }
    /// ```
    ///
    /// - parameters:
    ///   - destination: The record type at the end of the chain.
    ///   - pivot: An association from `Self` to the intermediate type.
    ///   - target: An association from the intermediate type to the destination.
    ///   - key: The association key; by default the key of `target`.
    public static func hasMany<Pivot: Association, Target: Association>(
        _ destination: Target.RowDecoder.Type,
        through pivot: Pivot,
        using target: Target,
        key: String? = nil)
    -> HasManyThroughAssociation<Self, Target.RowDecoder>
    where Pivot.OriginRowDecoder == Self, Pivot.RowDecoder == Target.OriginRowDecoder
    {
        let association = HasManyThroughAssociation<Self, Target.RowDecoder>(
            _SQLAssociation(through: pivot._sqlAssociation, using: target._sqlAssociation))
        return key.map { association.forKey($0) } ?? association
    }

    /// An association to one record, through two other to-one associations.
    ///
    /// ```swift
    /// struct Book: TableRecord {
    ///     static let library = belongsTo(Library.self)
    ///     static let returnAddress = hasOne(Address.self, through: library, using: Library.address)
    /// }
    /// ```
    ///
    /// - parameters:
    ///   - destination: The record type at the end of the chain.
    ///   - pivot: An association from `Self` to the intermediate type.
    ///   - target: An association from the intermediate type to the destination.
    ///   - key: The association key; by default the key of `target`.
    public static func hasOne<Pivot: AssociationToOne, Target: AssociationToOne>(
        _ destination: Target.RowDecoder.Type,
        through pivot: Pivot,
        using target: Target,
        key: String? = nil)
    -> HasOneThroughAssociation<Self, Target.RowDecoder>
    where Pivot.OriginRowDecoder == Self, Pivot.RowDecoder == Target.OriginRowDecoder
    {
        let association = HasOneThroughAssociation<Self, Target.RowDecoder>(
            _SQLAssociation(through: pivot._sqlAssociation, using: target._sqlAssociation))
        return key.map { association.forKey($0) } ?? association
    }

    // MARK: - Common table expressions

    /// An association to a common table expression, joined on a condition.
    /// Add the common table expression to the request with `with(_:)`.
    ///
    /// ```swift
    /// // WITH "latestMessage" AS (SELECT *, MAX("date") FROM "message" GROUP BY "chatId")
    /// // SELECT "chat".*, "latestMessage".* FROM "chat"
    /// // LEFT JOIN "latestMessage" ON "chat"."id" = "latestMessage"."chatId"
    /// let latestMessage = Chat.association(to: latestMessageCTE) { chat, latestMessage in
    ///     chat[Column("id")] == latestMessage[Column("chatId")]
    /// }
    /// let request = Chat.with(latestMessageCTE).including(optional: latestMessage)
    /// ```
    ///
    /// - parameters:
    ///   - cte: The common table expression.
    ///   - condition: The joining condition, from an alias of this table
    ///     (left) and an alias of the common table expression (right).
    ///   - The key of the association is the name of the common table expression.
    public static func association<Destination>(
        to cte: CommonTableExpression<Destination>,
        on condition: @escaping @Sendable (_ left: TableAlias<Self>, _ right: TableAlias<Destination>) -> any SQLExpressible)
    -> JoinAssociation<Self, Destination>
    {
        JoinAssociation(.joining(cte.all().relation, on: condition))
    }

    /// An association to a common table expression, without condition: a
    /// cross join. The key of the association is the name of the common
    /// table expression.
    public static func association<Destination>(to cte: CommonTableExpression<Destination>)
    -> JoinAssociation<Self, Destination>
    {
        JoinAssociation(.crossJoining(cte.all().relation))
    }
}

extension _SQLAssociation {
    /// A to-one association joined on a condition of two typed aliases,
    /// keyed by the destination table name.
    static func joining<Left, Right>(
        _ relation: SQLRelation,
        on condition: @escaping @Sendable (_ left: TableAlias<Left>, _ right: TableAlias<Right>) -> any SQLExpressible)
    -> _SQLAssociation
    {
        _SQLAssociation(
            key: .inflected(relation.tableName), isToMany: false,
            condition: .expression { left, right in
                condition(TableAlias<Left>(proxying: left), TableAlias<Right>(proxying: right)).sqlExpression
            },
            relation: relation)
    }

    /// A to-one association without condition, keyed by the destination
    /// table name.
    static func crossJoining(_ relation: SQLRelation) -> _SQLAssociation {
        _SQLAssociation(key: .inflected(relation.tableName), isToMany: false, condition: .none, relation: relation)
    }
}
