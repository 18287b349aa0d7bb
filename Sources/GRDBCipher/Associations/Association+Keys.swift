// Conditions on the primary or unique key of the destination of an
// association, in the `ON` clause of its join:
//
//     // JOIN "team" ON ("team"."id" = "player"."teamId") AND ("team"."id" = ?)
//     Player.joining(required: Player.team.filter(key: 1))

extension Association {
    /// The association, filtered by the primary key of its destination;
    /// nil matches nothing.
    ///
    /// Fetching throws if the table has no single-column primary key.
    public func filter(key: some DatabaseValueConvertible) -> Self {
        mapDestination { $0 = QueryInterfaceRequest<RowDecoder>(relation: $0).filter(key: key).relation }
    }

    /// The association, filtered by primary keys of its destination.
    public func filter<Keys: Collection>(keys: Keys) -> Self where Keys.Element: DatabaseValueConvertible {
        mapDestination { $0 = QueryInterfaceRequest<RowDecoder>(relation: $0).filter(keys: keys).relation }
    }

    /// The association, filtered by a unique key of its destination; nil
    /// matches nothing.
    ///
    /// Fetching throws if the columns hold no primary key or unique index.
    public func filter(key: [String: (any DatabaseValueConvertible)?]?) -> Self {
        mapDestination { $0 = QueryInterfaceRequest<RowDecoder>(relation: $0).filter(key: key).relation }
    }

    /// The association, filtered by unique keys of its destination.
    public func filter(keys: [[String: (any DatabaseValueConvertible)?]]) -> Self {
        mapDestination { $0 = QueryInterfaceRequest<RowDecoder>(relation: $0).filter(keys: keys).relation }
    }
}

extension Association where RowDecoder: Identifiable, RowDecoder.ID: DatabaseValueConvertible {
    /// The association, filtered by the id of its destination.
    ///
    /// ```swift
    /// Player.joining(required: Player.team.filter(id: 1))
    /// ```
    public func filter(id: RowDecoder.ID) -> Self {
        filter(key: id)
    }

    /// The association, filtered by ids of its destination.
    public func filter(ids: some Collection<RowDecoder.ID>) -> Self {
        filter(keys: ids)
    }
}
