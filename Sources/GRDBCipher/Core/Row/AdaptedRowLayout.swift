/// A layouted adapter ready for reading rows: the index map of the adapted
/// row, its column lookup, and the layouts of its scopes.
///
/// Built once per fetch, from the statement's columns; every row of the
/// fetch (and every copy, every scope) shares it. Indexes always point into
/// the fetched, unadapted row: scopes at any depth are layouted from the
/// statement's columns too, so reading a value is one array access, never a
/// chain of them.
final class AdaptedRowLayout: @unchecked Sendable {
    // Unchecked: everything is immutable after init, except
    // `decodingCache`, which only rows over a cursor row use (see there).

    /// The layouted adapter, as the adapter gave it.
    let mapping: _LayoutedColumnMapping

    /// The fetched row's index of each adapted column.
    let baseIndexes: [Int]

    /// The adapted column names, for lookups by name.
    let lookup: ColumnLookup

    /// The layouted adapters of the scopes: what ``Row/ScopesView`` iterates.
    let scopeAdapters: [String: any _LayoutedRowAdapter]

    /// The layouts of the scopes, built with this one.
    let scopes: [String: AdaptedRowLayout]

    // Unchecked: used by one thread at a time, like the cursor row it adapts; the dynamic check
    // would cost a `swift_beginAccess` per decoded record (callgrind).
    /// What record decoding keeps for rows of this layout over a cursor
    /// row, as a statement keeps it for its own rows. Like the cursor row,
    /// it is used by one thread at a time; copied rows never use it.
    @exclusivity(unchecked) var decodingCache: (any StatementDecodingCache)?

    init(_ adapter: any _LayoutedRowAdapter) {
        let mapping = adapter._mapping
        let scopeAdapters = adapter._scopes
        self.mapping = mapping
        self.baseIndexes = mapping.baseIndexes
        self.lookup = mapping.lookup
        self.scopeAdapters = scopeAdapters
        self.scopes = scopeAdapters.mapValues { AdaptedRowLayout($0) }
    }

    /// The layout of `adapter` applied to the columns of `statement`.
    ///
    /// - throws: A ``DatabaseError`` if the adapter does not fit.
    convenience init(_ adapter: any RowAdapter, statement: Statement) throws {
        self.init(try adapter._layoutedAdapter(from: statement))
    }

    /// The same columns, without scopes.
    var unscoped: AdaptedRowLayout {
        scopes.isEmpty ? self : AdaptedRowLayout(mapping)
    }
}
