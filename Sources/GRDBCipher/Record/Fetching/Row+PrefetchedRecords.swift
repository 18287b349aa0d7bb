// Decoding the records an `including(all:)` association prefetched, in a
// hand-written `init(row:)`: `books = row["books"]`.

extension Row {
    /// The records prefetched under an association key, in the order of
    /// their rows. Traps if the key has no prefetched rows or a record
    /// cannot be decoded; use `decode(_:forKey:)-(Collection.Type,_)` to
    /// get an error instead.
    ///
    /// ```swift
    /// struct AuthorInfo: FetchableRecord {
    ///     var author: Author
    ///     var books: [Book]
    ///     init(row: Row) throws {
    ///         author = try Author(row: row)
    ///         books = row["books"]
    ///     }
    /// }
    /// let infos = try AuthorInfo.fetchAll(db, Author.including(all: Author.books))
    /// ```
    public subscript<Records>(_ key: String) -> Records
    where Records: RangeReplaceableCollection, Records.Element: FetchableRecord
    {
        try! decode(Records.self, forKey: key)
    }

    /// The set of records prefetched under an association key. Traps if the
    /// key has no prefetched rows or a record cannot be decoded.
    ///
    /// ```swift
    /// let books: Set<Book> = row["books"]
    /// ```
    public subscript<Record: FetchableRecord & Hashable>(_ key: String) -> Set<Record> {
        try! decode(Set<Record>.self, forKey: key)
    }

    /// The records prefetched under an association key, in the order of
    /// their rows.
    ///
    /// ```swift
    /// let books = try row.decode([Book].self, forKey: "books")
    /// ```
    ///
    /// - throws: A ``RowDecodingError`` if the key has no prefetched rows
    ///   (the error lists the keys that have some), or what
    ///   ``FetchableRecord/init(row:)`` throws.
    public func decode<Records>(_ type: Records.Type = Records.self, forKey key: String) throws -> Records
    where Records: RangeReplaceableCollection, Records.Element: FetchableRecord
    {
        let rows = try prefetchedRows(forKey: key)
        var records = Records()
        records.reserveCapacity(rows.count)
        for row in rows {
            records.append(try Records.Element(row: row))
        }
        return records
    }

    /// The set of records prefetched under an association key.
    ///
    /// - throws: A ``RowDecodingError`` if the key has no prefetched rows,
    ///   or what ``FetchableRecord/init(row:)`` throws.
    public func decode<Record: FetchableRecord & Hashable>(
        _ type: Set<Record>.Type = Set<Record>.self, forKey key: String) throws -> Set<Record>
    {
        let rows = try prefetchedRows(forKey: key)
        var records = Set<Record>(minimumCapacity: rows.count)
        for row in rows {
            records.insert(try Record(row: row))
        }
        return records
    }

    /// The rows prefetched under `key`, at any depth.
    private func prefetchedRows(forKey key: String) throws -> [Row] {
        guard let rows = prefetchedRows[key] else {
            throw RowDecodingError.prefetchKeyNotFound(key, row: self)
        }
        return rows
    }
}
