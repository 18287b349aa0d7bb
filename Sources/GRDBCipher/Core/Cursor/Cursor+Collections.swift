// Standard collections built from, or extended with, the remaining elements of
// a cursor. Each one reads the cursor to its end with `forEach`.

extension RangeReplaceableCollection {
    /// Creates a collection with the remaining elements of a cursor.
    ///
    /// ```swift
    /// let names = try Array(String.fetchCursor(db, sql: "SELECT name FROM player"))
    /// ```
    ///
    /// - throws: The error of the cursor.
    @inlinable
    public init(_ cursor: some Cursor<Element>) throws {
        self.init()
        try append(contentsOf: cursor)
    }

    /// Creates a collection with the remaining elements of a cursor, with
    /// room reserved for `minimumCapacity` elements.
    ///
    /// ```swift
    /// let names = try Array(String.fetchCursor(db, sql: "SELECT name FROM player"), minimumCapacity: 100)
    /// ```
    ///
    /// - throws: The error of the cursor.
    @inlinable
    public init(_ cursor: some Cursor<Element>, minimumCapacity: Int) throws {
        self.init()
        reserveCapacity(minimumCapacity)
        try append(contentsOf: cursor)
    }

    /// Appends the remaining elements of a cursor. If the cursor throws, the
    /// elements read before the error have been appended.
    ///
    /// ```swift
    /// var names = ["Arthur"]
    /// try names.append(contentsOf: String.fetchCursor(db, sql: "SELECT name FROM player"))
    /// ```
    ///
    /// - throws: The error of the cursor.
    @inlinable
    public mutating func append(contentsOf newElements: some Cursor<Element>) throws {
        try newElements.forEach { append($0) }
    }
}

extension Set {
    /// Creates a set with the remaining elements of a cursor.
    ///
    /// ```swift
    /// let names = try Set(String.fetchCursor(db, sql: "SELECT name FROM player"))
    /// ```
    ///
    /// - throws: The error of the cursor.
    @inlinable
    public init(_ cursor: some Cursor<Element>) throws {
        self.init()
        try formUnion(cursor)
    }

    /// Creates a set with the remaining elements of a cursor, with room
    /// reserved for `minimumCapacity` elements.
    ///
    /// - throws: The error of the cursor.
    @inlinable
    public init(_ cursor: some Cursor<Element>, minimumCapacity: Int) throws {
        self.init(minimumCapacity: minimumCapacity)
        try formUnion(cursor)
    }

    /// A new set with the elements of this set and the remaining elements of
    /// a cursor. An element of this set is kept over an equal one of the
    /// cursor, and the first of equal elements of the cursor over the later
    /// ones.
    ///
    /// - throws: The error of the cursor.
    @inlinable
    public func union(_ cursor: some Cursor<Element>) throws -> Set<Element> {
        var result = self
        try result.formUnion(cursor)
        return result
    }

    /// Inserts the remaining elements of a cursor. An element of this set is
    /// kept over an equal one of the cursor, and the first of equal elements
    /// of the cursor over the later ones.
    ///
    /// - throws: The error of the cursor.
    @inlinable
    public mutating func formUnion(_ cursor: some Cursor<Element>) throws {
        try cursor.forEach { insert($0) }
    }

    /// A new set with the elements of this set that the cursor also has. The
    /// cursor is read to its end.
    ///
    /// - throws: The error of the cursor.
    @inlinable
    public func intersection(_ cursor: some Cursor<Element>) throws -> Set<Element> {
        var result = self
        try result.formIntersection(cursor)
        return result
    }

    /// Removes the elements that the cursor does not have. The cursor is read
    /// to its end.
    ///
    /// - throws: The error of the cursor; the set is then left unchanged.
    @inlinable
    public mutating func formIntersection(_ cursor: some Cursor<Element>) throws {
        let other = try Set(cursor)
        formIntersection(other)
    }
}

extension Dictionary {
    /// Creates a dictionary of arrays of the remaining elements of a cursor,
    /// grouped by the key that `keyForValue` returns for each. Each array
    /// keeps the cursor's order.
    ///
    /// ```swift
    /// // [Int64: [String]]
    /// let namesByTeam = try Dictionary(
    ///     grouping: Row.fetchCursor(db, sql: "SELECT teamID, name FROM player").map { $0.copy() },
    ///     by: { $0["teamID"] as Int64 })
    /// ```
    ///
    /// - throws: The error of the cursor or of `keyForValue`.
    @inlinable
    public init<C: Cursor>(grouping cursor: C, by keyForValue: (C.Element) throws -> Key) throws
        where Value == [C.Element]
    {
        self.init()
        try cursor.forEach { element in
            try self[keyForValue(element), default: []].append(element)
        }
    }

    /// Creates a dictionary of arrays of the remaining elements of a cursor,
    /// grouped by the key that `keyForValue` returns for each, with room
    /// reserved for `minimumCapacity` keys. Each array keeps the cursor's
    /// order.
    ///
    /// - throws: The error of the cursor or of `keyForValue`.
    @inlinable
    public init<C: Cursor>(minimumCapacity: Int, grouping cursor: C, by keyForValue: (C.Element) throws -> Key)
        throws where Value == [C.Element]
    {
        self.init(minimumCapacity: minimumCapacity)
        try cursor.forEach { element in
            try self[keyForValue(element), default: []].append(element)
        }
    }

    /// Creates a dictionary from the remaining key-value pairs of a cursor.
    ///
    /// ```swift
    /// // [Int64: String]
    /// let nameByID = try Dictionary(uniqueKeysWithValues: Row
    ///     .fetchCursor(db, sql: "SELECT id, name FROM player")
    ///     .map { ($0["id"] as Int64, $0["name"] as String) })
    /// ```
    ///
    /// - precondition: The keys are unique: a duplicate key is a fatal error.
    /// - throws: The error of the cursor.
    @inlinable
    public init(uniqueKeysWithValues keysAndValues: some Cursor<(Key, Value)>) throws {
        self.init()
        try insertUniqueKeysWithValues(keysAndValues)
    }

    /// Creates a dictionary from the remaining key-value pairs of a cursor,
    /// with room reserved for `minimumCapacity` keys.
    ///
    /// - precondition: The keys are unique: a duplicate key is a fatal error.
    /// - throws: The error of the cursor.
    @inlinable
    public init(minimumCapacity: Int, uniqueKeysWithValues keysAndValues: some Cursor<(Key, Value)>) throws {
        self.init(minimumCapacity: minimumCapacity)
        try insertUniqueKeysWithValues(keysAndValues)
    }

    @usableFromInline
    mutating func insertUniqueKeysWithValues(_ keysAndValues: some Cursor<(Key, Value)>) throws {
        try keysAndValues.forEach { key, value in
            guard updateValue(value, forKey: key) == nil else {
                fatalError("duplicate key in a cursor of unique keys: \(String(reflecting: key))")
            }
        }
    }
}
