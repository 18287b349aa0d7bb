// Requests built from the record's database components (its `Columns` by
// default), with closures or key paths:
//
//     Player.filter { $0.score > 1000 }.order(\.name).select { [$0.id, $0.name] }

extension QueryInterfaceRequest where RowDecoder: TableRecord {
    /// The record's database components (its `Columns` by default).
    public typealias DatabaseComponents = RowDecoder.DatabaseComponents

    /// The request, with one more condition on the record's components.
    public func filter(
        _ predicate: (RowDecoder.DatabaseComponents) throws -> any SQLSpecificExpressible) rethrows -> Self
    {
        try filter(predicate(RowDecoder.databaseComponents))
    }

    /// The request, ordered by a term of the record's components.
    public func order(_ ordering: (RowDecoder.DatabaseComponents) throws -> any SQLOrderingTerm) rethrows -> Self {
        try order([ordering(RowDecoder.databaseComponents)])
    }

    /// The request, ordered by terms of the record's components.
    public func order(
        _ orderings: (RowDecoder.DatabaseComponents) throws -> [any SQLOrderingTerm]) rethrows -> Self
    {
        try order(orderings(RowDecoder.databaseComponents))
    }

    /// The request, selecting a value of the record's components.
    public func select(_ selection: (RowDecoder.DatabaseComponents) throws -> any SQLSelectable) rethrows -> Self {
        try select([selection(RowDecoder.databaseComponents)])
    }

    /// The request, selecting values of the record's components.
    public func select(
        _ selection: (RowDecoder.DatabaseComponents) throws -> [any SQLSelectable]) rethrows -> Self
    {
        try select(selection(RowDecoder.databaseComponents))
    }
}

extension QueryInterfaceRequest where RowDecoder: TableRecord {
    /// The request, selecting a value of the record's components, decoded as `type`.
    ///
    /// ```swift
    /// let names = try Player.all().select({ $0.name }, as: String.self).fetchAll(db)
    /// ```
    public func select<T>(
        _ selection: (RowDecoder.DatabaseComponents) throws -> any SQLSelectable, as type: T.Type = T.self
    ) rethrows -> QueryInterfaceRequest<T> {
        try select([selection(RowDecoder.databaseComponents)], as: type)
    }

    /// The request, selecting values of the record's components, decoded as `type`.
    public func select<T>(
        _ selection: (RowDecoder.DatabaseComponents) throws -> [any SQLSelectable], as type: T.Type = T.self
    ) rethrows -> QueryInterfaceRequest<T> {
        try select(selection(RowDecoder.databaseComponents), as: type)
    }

    /// The request, selecting a value of the record's components after its
    /// current selection.
    public func annotated(with selection: (RowDecoder.DatabaseComponents) throws -> any SQLSelectable) rethrows -> Self {
        try annotated(with: [selection(RowDecoder.databaseComponents)])
    }

    /// The request, selecting values of the record's components after its
    /// current selection.
    public func annotated(with selection: (RowDecoder.DatabaseComponents) throws -> [any SQLSelectable]) rethrows -> Self {
        try annotated(with: selection(RowDecoder.databaseComponents))
    }

    /// The request, grouped by an expression of the record's components.
    public func group(_ expression: (RowDecoder.DatabaseComponents) throws -> any SQLExpressible) rethrows -> Self {
        try group([expression(RowDecoder.databaseComponents)])
    }

    /// The request, grouped by expressions of the record's components.
    public func group(_ expressions: (RowDecoder.DatabaseComponents) throws -> [any SQLExpressible]) rethrows -> Self {
        try group(expressions(RowDecoder.databaseComponents))
    }

    /// The request, with one more condition on its groups, over the record's components.
    public func having(_ predicate: (RowDecoder.DatabaseComponents) throws -> any SQLExpressible) rethrows -> Self {
        try having(predicate(RowDecoder.databaseComponents))
    }
}

extension TableRecord {
    /// A request of the rows that match a condition on the record's components.
    ///
    /// ```swift
    /// let request = Player.filter { $0.score > 1000 }
    /// ```
    public static func filter(
        _ predicate: (DatabaseComponents) throws -> any SQLSpecificExpressible) rethrows -> QueryInterfaceRequest<Self>
    {
        try all().filter(predicate)
    }

    /// A request of the table ordered by a term of the record's components:
    /// `Player.order(\.score.desc)`.
    public static func order(
        _ ordering: (DatabaseComponents) throws -> any SQLOrderingTerm) rethrows -> QueryInterfaceRequest<Self>
    {
        try all().order(ordering)
    }

    /// A request of the table ordered by terms of the record's components.
    public static func order(
        _ orderings: (DatabaseComponents) throws -> [any SQLOrderingTerm]) rethrows -> QueryInterfaceRequest<Self>
    {
        try all().order(orderings)
    }

    /// A request of the table selecting a value of the record's components.
    public static func select(
        _ selection: (DatabaseComponents) throws -> any SQLSelectable) rethrows -> QueryInterfaceRequest<Self>
    {
        try all().select(selection)
    }

    /// A request of the table selecting values of the record's components.
    public static func select(
        _ selection: (DatabaseComponents) throws -> [any SQLSelectable]) rethrows -> QueryInterfaceRequest<Self>
    {
        try all().select(selection)
    }
}
