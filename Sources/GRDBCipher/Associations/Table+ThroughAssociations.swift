// `through` associations from a `Table`, as from a record type (see
// ``TableRecord/hasMany(_:through:using:key:)``).
//
//     let teams = Table<Team>("team")
//     let awards = teams.hasMany(Award.self, through: teams.hasMany(Player.self), using: Player.awards)
//     // SELECT "award".*, "player"."teamId" AS "grdb_teamId" FROM "award"
//     // JOIN "player" ON ("player"."id" = "award"."playerId") AND ("player"."teamId" IN (?, ?, ?))
//     let request = teams.including(all: awards)

extension Table {
    /// An association from this table to many records, through two other
    /// associations.
    ///
    /// ```swift
    /// let countries = Table<Country>("country")
    /// let passports = countries.hasMany(Passport.self)
    /// let citizens = countries.hasMany(Citizen.self, through: passports, using: Passport.citizen)
    /// let request = countries.including(all: citizens)
    /// ```
    ///
    /// - parameters:
    ///   - destination: The record type at the end of the chain.
    ///   - pivot: An association from this table to the intermediate type.
    ///   - target: An association from the intermediate type to the destination.
    ///   - key: The association key; by default the key of `target`.
    public func hasMany<Pivot: Association, Target: Association>(
        _ destination: Target.RowDecoder.Type,
        through pivot: Pivot,
        using target: Target,
        key: String? = nil)
    -> HasManyThroughAssociation<RowDecoder, Target.RowDecoder>
    where Pivot.OriginRowDecoder == RowDecoder, Pivot.RowDecoder == Target.OriginRowDecoder
    {
        let association = HasManyThroughAssociation<RowDecoder, Target.RowDecoder>(
            _SQLAssociation(through: pivot._sqlAssociation, using: target._sqlAssociation))
        return key.map { association.forKey($0) } ?? association
    }

    /// An association from this table to one record, through two other
    /// to-one associations.
    ///
    /// ```swift
    /// let books = Table<Book>("book")
    /// let library = books.belongsTo(Library.self)
    /// let returnAddress = books.hasOne(Address.self, through: library, using: Library.address)
    /// let request = books.including(optional: returnAddress)
    /// ```
    ///
    /// - parameters:
    ///   - destination: The record type at the end of the chain.
    ///   - pivot: A to-one association from this table to the intermediate type.
    ///   - target: A to-one association from the intermediate type to the destination.
    ///   - key: The association key; by default the key of `target`.
    public func hasOne<Pivot: AssociationToOne, Target: AssociationToOne>(
        _ destination: Target.RowDecoder.Type,
        through pivot: Pivot,
        using target: Target,
        key: String? = nil)
    -> HasOneThroughAssociation<RowDecoder, Target.RowDecoder>
    where Pivot.OriginRowDecoder == RowDecoder, Pivot.RowDecoder == Target.OriginRowDecoder
    {
        let association = HasOneThroughAssociation<RowDecoder, Target.RowDecoder>(
            _SQLAssociation(through: pivot._sqlAssociation, using: target._sqlAssociation))
        return key.map { association.forKey($0) } ?? association
    }
}
