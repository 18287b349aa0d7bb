/// A request whose selection can change: `select`, `annotated(with:)`.
public protocol SelectionRequest {
    /// The request, selecting what `selection` returns when the request
    /// runs, instead of its current selection.
    func selectWhenConnected(_ selection: @escaping @Sendable (Database) throws -> [any SQLSelectable]) -> Self

    /// The request, selecting what `selection` returns when the request
    /// runs, after its current selection.
    func annotatedWhenConnected(with selection: @escaping @Sendable (Database) throws -> [any SQLSelectable]) -> Self
}

extension SelectionRequest {
    /// The request, selecting `selection` instead of its current selection.
    public func select(_ selection: [any SQLSelectable]) -> Self {
        let selection = selection.map(\.sqlSelection)
        if let request = self as? any ImmediateRequestClauses {
            return request.immediateSelect(selection) as! Self
        }
        return selectWhenConnected { _ in selection }
    }

    /// The request, selecting `selection` instead of its current selection.
    public func select(_ selection: any SQLSelectable...) -> Self {
        select(selection)
    }

    /// The request, selecting raw SQL instead of its current selection.
    public func select(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        select(literal: SQL(sql: sql, arguments: arguments))
    }

    /// The request, selecting an SQL literal instead of its current selection.
    public func select(literal sqlLiteral: SQL) -> Self {
        select([SQLSelection(literal: sqlLiteral)])
    }

    /// The request, selecting `selection` after its current selection.
    public func annotated(with selection: [any SQLSelectable]) -> Self {
        let selection = selection.map(\.sqlSelection)
        if let request = self as? any ImmediateRequestClauses {
            return request.immediateAnnotated(with: selection) as! Self
        }
        return annotatedWhenConnected { _ in selection }
    }

    /// The request, selecting `selection` after its current selection.
    public func annotated(with selection: any SQLSelectable...) -> Self {
        annotated(with: selection)
    }
}

extension SelectionRequest where Self: TypedRequest, RowDecoder: TableRecord {
    /// The record's database components (its `Columns` by default).
    public typealias DatabaseComponents = RowDecoder.DatabaseComponents

    /// The request, selecting a value of the record's components.
    public func select(_ selection: (RowDecoder.DatabaseComponents) throws -> any SQLSelectable) rethrows -> Self {
        try select([selection(RowDecoder.databaseComponents)])
    }

    /// The request, selecting values of the record's components.
    public func select(_ selection: (RowDecoder.DatabaseComponents) throws -> [any SQLSelectable]) rethrows -> Self {
        try select(selection(RowDecoder.databaseComponents))
    }

    /// The request, selecting a value of the record's components after its
    /// current selection.
    public func annotated(with selection: (RowDecoder.DatabaseComponents) throws -> any SQLSelectable) rethrows -> Self {
        try annotated(with: [selection(RowDecoder.databaseComponents)])
    }

    /// The request, selecting values of the record's components after its
    /// current selection.
    public func annotated(
        with selection: (RowDecoder.DatabaseComponents) throws -> [any SQLSelectable]) rethrows -> Self
    {
        try annotated(with: selection(RowDecoder.databaseComponents))
    }
}
