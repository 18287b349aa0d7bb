// Decoding records from the scopes of a row: `let team: Team? = row["team"]`.

extension Row {
    /// The record decoded from the scope of this name, found at any depth
    /// (see ``scopesTree``).
    ///
    /// ```swift
    /// let adapter = ScopeAdapter(["player": RangeRowAdapter(0..<3), "team": SuffixRowAdapter(fromIndex: 3)])
    /// let row = try Row.fetchOne(db, sql: sql, adapter: adapter)!
    /// let player: Player = try row.decode(forKey: "player")
    /// ```
    ///
    /// - throws: A ``RowDecodingError`` if there is no such scope, or if it
    ///   only holds NULL values (a missing left-joined row), or what
    ///   ``FetchableRecord/init(row:)`` throws.
    public func decode<Record: FetchableRecord>(_ type: Record.Type = Record.self, forKey scope: String) throws -> Record {
        guard let scopedRow = scopeInTree(named: scope) else {
            throw RowDecodingError.scopeNotFound(scope, row: self)
        }
        guard scopedRow.containsNonNullValue else {
            throw RowDecodingError.nullScope(scope, row: self)
        }
        return try Record(row: scopedRow)
    }

    /// The record decoded from the scope of this name, found at any depth,
    /// or nil if there is no such scope or if it only holds NULL values (a
    /// missing left-joined row).
    ///
    /// ```swift
    /// let team: Team? = try row.decodeIfPresent(forKey: "team")
    /// ```
    ///
    /// - throws: What ``FetchableRecord/init(row:)`` throws.
    public func decodeIfPresent<Record: FetchableRecord>(
        _ type: Record.Type = Record.self, forKey scope: String) throws -> Record?
    {
        guard let scopedRow = scopeInTree(named: scope), scopedRow.containsNonNullValue else { return nil }
        return try Record(row: scopedRow)
    }

    /// The record decoded from the scope of this name, found at any depth.
    /// Traps if there is no such scope, if it only holds NULL values, or if
    /// the record cannot be decoded; use `decode(_:forKey:)` to get an
    /// error instead.
    ///
    /// ```swift
    /// let player: Player = row["player"]
    /// ```
    public subscript<Record: FetchableRecord>(_ scope: String) -> Record {
        try! decode(Record.self, forKey: scope)
    }

    /// The record decoded from the scope of this name, found at any depth,
    /// or nil if there is no such scope or if it only holds NULL values.
    /// Traps if the record cannot be decoded.
    ///
    /// ```swift
    /// let team: Team? = row["team"]   // nil when the LEFT JOIN found no team
    /// ```
    public subscript<Record: FetchableRecord>(_ scope: String) -> Record? {
        try! decodeIfPresent(Record.self, forKey: scope)
    }
}
