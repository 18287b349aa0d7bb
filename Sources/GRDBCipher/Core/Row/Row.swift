import CSQLCipher
import Foundation

/// A database row: column names and values.
///
/// ```swift
/// let row = try Row.fetchOne(db, sql: "SELECT name, score FROM player")!
/// let name: String = row["name"]
/// let score: Int? = row["score"]
/// ```
///
/// Column names compare case-insensitively; when several columns have the same
/// name, the leftmost wins.
///
/// Rows that a cursor returns are views on the cursor's statement: they change
/// as the cursor moves. Keep one with ``copy()``. `fetchAll`, `fetchSet` and
/// `fetchOne` return copies.
public final class Row {
    // A row has one of three representations, and the fields of the two
    // others are empty (debug builds check it, see `checkRepresentation`):
    // - a cursor row reads the current row of `statement`;
    // - an adapted row reads another row through `adaptation`;
    // - a copied row holds its `values`.
    // One enum would say it in types, but the paths that read a column
    // would then switch on every read; these fields are tested in the
    // order of the paths' likelihood instead.

    /// Set for a row that reads the current row of a statement.
    let statement: Statement?
    /// The statement's handle, for the inlined fast path; nil for a copied row.
    @usableFromInline let sqliteStatement: SQLiteStatement?
    /// The values of a copied row.
    private let values: [DatabaseValue]
    private let lookup: ColumnLookup

    /// The number of columns.
    public let count: Int

    /// Whether the row comes from the database: a cursor row, or a copy of
    /// one. Rows built from values are not. `Record` trusts a fetched row
    /// to tell what the database holds.
    let isFetched: Bool

    /// The index of the leftmost column of this name, for the inlined fast
    /// path when its guess missed.
    @usableFromInline
    func fastColumnIndex(_ columnName: String) -> Int? {
        // Only cursor rows, which live on one thread, keep a guess: copied
        // rows stay immutable, so they can cross threads.
        guard statement != nil else { return lookup.index(of: columnName) }
        #if DEBUG
        statement!.database.checkConfinement("a cursor row read a column")
        #endif
        let index = lookup.index(of: columnName, guess: nextColumnGuess)
        nextColumnGuess = (index ?? -1) + 1
        return index
    }

    // Unchecked: a cursor row is used by one thread at a time, like its cursor; the dynamic check
    // would cost a `swift_beginAccess` per decoded record (callgrind).
    /// For a cursor row, the column after the last one found by name: the
    /// likely next one. Code that reads columns in order finds each one with
    /// one comparison of equal strings, inlined in the caller. A cursor row
    /// is used by one thread at a time, like its statement, so updating it
    /// needs no exclusivity check; a copied row never updates it, and stays
    /// immutable.
    @exclusivity(unchecked) @usableFromInline final var nextColumnGuess = 0

    /// The column names a guess is checked against: empty when two columns
    /// have the same name, in any case, where the leftmost match must win
    /// and only the full lookup knows it.
    @usableFromInline let guessableColumnNames: [String]

    /// Set for an adapted row: the unadapted row it reads, and the index
    /// map. An adapted row has no statement and no values of its own, so
    /// the statement rows' paths never look at it: only the paths of rows
    /// without a statement check it, before reading their values.
    let adaptation: RowAdaptation?

    // Unchecked: a cursor row is used by one thread at a time, like its cursor; the dynamic check
    // would cost a `swift_beginAccess` per decoded record (callgrind).
    /// For the row of a record cursor: what record decoding reuses from one
    /// record to the next. The cursor sets it, and empties it when it goes
    /// away. Used by one thread at a time, like the cursor.
    @exclusivity(unchecked) final var decodingCache: (any RowDecodingCache)?

    /// The rows of the to-many associations a request prefetched
    /// (`including(all:)`), by association key; set once, by the fetch that
    /// made the row, before the row is returned (see ``prefetchedRows``).
    final var prefetchedRowsByKey: [String: [Row]] = [:]

    /// The rows prefetched for the scopes of the row (`including(all:)`
    /// inside an included association), by scope name; given to the
    /// scoped rows.
    final var prefetchedRowsOfScopes: [String: ScopePrefetchedRows] = [:]

    /// The keys of ``prefetchedRowsOfScopes``, in the order of the request.
    final var prefetchedScopeOrder: [String] = []

    /// A row that reads the current row of a statement.
    init(statement: Statement) {
        self.statement = statement
        self.sqliteStatement = statement.sqliteStatement
        self.values = []
        self.lookup = statement.columnLookup
        self.count = statement.columnCount
        self.isFetched = true
        self.guessableColumnNames = lookup.hasUniqueNames ? lookup.columnNames : []
        self.adaptation = nil
        checkRepresentation()
    }

    private convenience init(columnNames: [String], values: [DatabaseValue]) {
        self.init(lookup: ColumnLookup(columnNames: columnNames), values: values)
    }

    /// A copied row. Rows copied from one statement share its column lookup.
    private init(lookup: ColumnLookup, values: [DatabaseValue], isFetched: Bool = false) {
        self.statement = nil
        self.sqliteStatement = nil
        self.values = values
        self.lookup = lookup
        self.count = values.count
        self.isFetched = isFetched
        self.guessableColumnNames = []
        self.adaptation = nil
        checkRepresentation()
    }

    /// The same columns and values, without prefetched rows.
    func copyWithoutPrefetchedRows() -> Row {
        Row(lookup: lookup, values: databaseValues, isFetched: isFetched)
    }

    /// A row that reads `base`, an unadapted row, through `layout`: no value
    /// is copied.
    init(base: Row, layout: AdaptedRowLayout) {
        assert(base.adaptation == nil, "an adapted row reads an unadapted row")
        self.statement = nil
        self.sqliteStatement = nil
        self.values = []
        self.lookup = layout.lookup
        self.count = layout.baseIndexes.count
        self.isFetched = base.isFetched
        self.guessableColumnNames = []
        self.adaptation = RowAdaptation(base: base, layout: layout)
        checkRepresentation()
    }

    /// Creates a row from column names and values, in order.
    public convenience init(_ pairs: [(String, (any DatabaseValueConvertible)?)]) {
        self.init(columnNames: pairs.map(\.0), values: pairs.map { $0.1?.databaseValue ?? .null })
    }

    /// Creates a row from a dictionary; the column order is the dictionary's.
    public convenience init(_ dictionary: [String: (any DatabaseValueConvertible)?]) {
        self.init(Array(dictionary))
    }

    /// Creates a row from a dictionary of any values; the column order is the
    /// dictionary's.
    ///
    /// The result is nil unless every key is a `String` and every value is
    /// ``DatabaseValueConvertible`` (see ``DatabaseValue/init(value:)``):
    ///
    /// ```swift
    /// let json: [String: Any] = ["name": "Arthur", "score": 1000]
    /// let row = Row(json)!                         // [name:"Arthur" score:1000]
    /// Row(["name": "Arthur", "date": Date()])      // a Row: Date is convertible
    /// Row([1: "Arthur"] as [AnyHashable: Any])     // nil: the key is not a String
    /// ```
    public convenience init?(_ dictionary: [AnyHashable: Any]) {
        var pairs: [(String, (any DatabaseValueConvertible)?)] = []
        pairs.reserveCapacity(dictionary.count)
        for (key, value) in dictionary {
            guard let columnName = key as? String, let dbValue = DatabaseValue(value: value) else { return nil }
            pairs.append((columnName, dbValue))
        }
        self.init(pairs)
    }

    /// Creates an empty row.
    public convenience init() {
        self.init(columnNames: [], values: [])
    }

    /// Returns a row that keeps the current values, independent of any cursor.
    ///
    /// The copy of an adapted row is adapted the same way, with the same
    /// scopes, over a copy of its ``unadapted`` row.
    public func copy() -> Row {
        guard statement != nil else {
            // Copied rows are immutable already. An adapted row is adapted
            // again, without the rows its request prefetched, as in GRDB
            // (the copy is then not equal to a row with prefetched rows).
            guard let adaptation else { return self }
            return Row(base: adaptation.base.copy(), layout: adaptation.layout)
        }
        return Row(lookup: lookup, values: databaseValues, isFetched: true)
    }

    /// The column names, in order.
    public var columnNames: [String] { lookup.columnNames }

    /// The values, in column order.
    public var databaseValues: [DatabaseValue] {
        (0..<count).map { databaseValue(atIndex: $0) }
    }

    /// Whether the row has a column of this name (case-insensitive).
    public func hasColumn(_ columnName: String) -> Bool {
        lookup.index(of: columnName) != nil
    }

    /// Whether the value at `index` is NULL.
    public func hasNull(atIndex index: Int) -> Bool {
        precondition(index >= 0 && index < count, "row index out of range: \(index)")
        return hasNull(atUncheckedIndex: index)
    }

    /// Whether at least one value of the row, or of one of its scopes (see
    /// ``scopes``, at any depth), is not NULL, as in GRDB: a record decoded
    /// from a scope whose own columns are none, or all NULL, but whose nested
    /// scopes hold values, is not nil.
    ///
    /// ```swift
    /// try Row.fetchOne(db, sql: "SELECT 'foo', NULL")!.containsNonNullValue  // true
    /// try Row.fetchOne(db, sql: "SELECT NULL, NULL")!.containsNonNullValue   // false
    /// ```
    public var containsNonNullValue: Bool {
        if (0..<count).contains(where: { !hasNull(atUncheckedIndex: $0) }) { return true }
        guard adaptation != nil else { return false }
        return scopes.contains { $0.1.containsNonNullValue }
    }

    /// Whether the value at a valid `index` is NULL, without copying it out
    /// of the statement.
    private func hasNull(atUncheckedIndex index: Int) -> Bool {
        if let statement {
            return sqlite3_column_type(statement.sqliteStatement, CInt(index)) == SQLITE_NULL
        }
        if let adaptation {
            return adaptation.base.hasNull(atUncheckedIndex: adaptation.layout.baseIndexes[index])
        }
        return values[index].isNull
    }

    /// Calls `body` with the bytes at a valid `index`: nil for NULL.
    ///
    /// A statement row lends SQLite's own buffer, valid until the statement
    /// moves; SQLite gives any value as bytes (an integer as its text). A
    /// copied row gives a blob, or the UTF-8 bytes of a text, and throws for
    /// a number.
    func withUnsafeData<T>(atUncheckedIndex index: Int, _ body: (Data?) throws -> T) throws -> T {
        guard let statement else {
            if let adaptation {
                return try adaptation.base.withUnsafeData(atUncheckedIndex: adaptation.layout.baseIndexes[index], body)
            }
            let dbValue = values[index]
            if dbValue.isNull { return try body(nil) }
            guard let data = Data.fromDatabaseValue(dbValue) else {
                throw RowDecodingError.valueMismatch(Data.self, dbValue: dbValue, row: self, index: index)
            }
            return try body(data)
        }
        let sqliteStatement = statement.sqliteStatement
        let column = CInt(index)
        if sqlite3_column_type(sqliteStatement, column) == SQLITE_NULL { return try body(nil) }
        // SQLite documents this order: the pointer first, then the size.
        guard let bytes = sqlite3_column_blob(sqliteStatement, column) else { return try body(Data()) }
        let byteCount = Int(sqlite3_column_bytes(sqliteStatement, column))
        return try body(Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: bytes), count: byteCount, deallocator: .none))
    }

    /// Returns the index of the leftmost column of this name, or nil.
    public func index(forColumn columnName: String) -> Int? {
        lookup.index(of: columnName)
    }

    @inline(__always)
    func databaseValue(atIndex index: Int) -> DatabaseValue {
        precondition(index >= 0 && index < count, "row index out of range: \(index)")
        if let statement {
            #if DEBUG
            statement.database.checkConfinement("a cursor row read a column")
            #endif
            return DatabaseValue(sqliteStatement: statement.sqliteStatement, index: CInt(index))
        }
        if let adaptation {
            return adaptation.base.databaseValue(atIndex: adaptation.layout.baseIndexes[index])
        }
        return values[index]
    }

    // MARK: - Decoding

    /// Decodes the value at `index`, with SQLite's value when it reads a
    /// statement; the caller checked the index.
    @inline(__always)
    private func decodeValue<Value: DatabaseValueConvertible>(
        _ type: Value.Type, atIndex index: Int, column: String?) throws -> Value
    {
        let dbValue = databaseValue(atIndex: index)
        guard let value = Value.fromDatabaseValue(dbValue) else {
            throw RowDecodingError.valueMismatch(Value.self, dbValue: dbValue, row: self, index: index)
        }
        return value
    }

    @inline(__always)
    private func decodeColumn<Value: DatabaseValueConvertible & StatementColumnConvertible>(
        _ type: Value.Type, atIndex index: Int, column: String?) throws -> Value
    {
        precondition(index >= 0 && index < count, "row index out of range: \(index)")
        guard let statement else {
            // An adapted row over a statement row reads the statement too.
            if let adaptation, let sqliteStatement = adaptation.base.sqliteStatement,
               let value = Value.fromStatement(
                sqliteStatement, atUncheckedIndex: CInt(adaptation.layout.baseIndexes[index]))
            {
                return value
            }
            return try decodeValue(type, atIndex: index, column: column)
        }
        // Fast path: straight from the statement, no DatabaseValue.
        if let value = Value.fromStatement(statement.sqliteStatement, atUncheckedIndex: CInt(index)) {
            return value
        }
        let dbValue = databaseValue(atIndex: index)
        throw RowDecodingError.valueMismatch(Value.self, dbValue: dbValue, row: self, index: index)
    }

    /// The index of a column, or nil when it is missing and `Value` decodes
    /// a missing column (an optional type gets nil, as in GRDB).
    private func columnIndex<Value: DatabaseValueConvertible>(
        _ columnName: String, for type: Value.Type, missingValue: inout Value?) throws -> Int?
    {
        if let index = lookup.index(of: columnName) { return index }
        if let value = Value.fromMissingColumn() {
            missingValue = value
            return nil
        }
        throw RowDecodingError.columnNotFound(columnName, row: self)
    }

    /// Decodes the value at `index`.
    ///
    /// - throws: A ``RowDecodingError`` if the value cannot be decoded.
    public func decode<Value: DatabaseValueConvertible>(
        _ type: Value.Type = Value.self, atIndex index: Int) throws -> Value
    {
        precondition(index >= 0 && index < count, "row index out of range: \(index)")
        return try decodeValue(type, atIndex: index, column: nil)
    }

    /// Decodes the value at `index`, on the fast path.
    ///
    /// - throws: A ``RowDecodingError`` if the value cannot be decoded.
    public func decode<Value: DatabaseValueConvertible & StatementColumnConvertible>(
        _ type: Value.Type = Value.self, atIndex index: Int) throws -> Value
    {
        try decodeColumn(type, atIndex: index, column: nil)
    }

    /// Decodes the value of the leftmost column of this name. A missing
    /// column decodes as nil into an optional type.
    ///
    /// - throws: A ``RowDecodingError`` if there is no such column (for a
    ///   non-optional type) or the value cannot be decoded.
    public func decode<Value: DatabaseValueConvertible>(
        _ type: Value.Type = Value.self, forColumn columnName: String) throws -> Value
    {
        var missingValue: Value?
        guard let index = try columnIndex(columnName, for: type, missingValue: &missingValue) else { return missingValue! }
        return try decodeValue(type, atIndex: index, column: columnName)
    }

    /// Decodes the value of the leftmost column of this name, on the fast path.
    ///
    /// - throws: A ``RowDecodingError`` if there is no such column or the
    ///   value cannot be decoded.
    public func decode<Value: DatabaseValueConvertible & StatementColumnConvertible>(
        _ type: Value.Type = Value.self, forColumn columnName: String) throws -> Value
    {
        var missingValue: Value?
        guard let index = try columnIndex(columnName, for: type, missingValue: &missingValue) else { return missingValue! }
        return try decodeColumn(type, atIndex: index, column: columnName)
    }

    /// Decodes the value of a column, or returns nil if the column is missing
    /// or NULL.
    ///
    /// - throws: A ``RowDecodingError`` if a non-NULL value cannot be decoded.
    public func decodeIfPresent<Value: DatabaseValueConvertible>(
        _ type: Value.Type = Value.self, forColumn columnName: String) throws -> Value?
    {
        guard let index = lookup.index(of: columnName) else { return nil }
        let dbValue = databaseValue(atIndex: index)
        if dbValue.isNull { return nil }
        return try decodeValue(type, atIndex: index, column: columnName)
    }

    /// Decodes the value at `index`, or returns nil if it is NULL.
    ///
    /// - throws: A ``RowDecodingError`` if a non-NULL value cannot be decoded.
    public func decodeIfPresent<Value: DatabaseValueConvertible>(
        _ type: Value.Type = Value.self, atIndex index: Int) throws -> Value?
    {
        if hasNull(atIndex: index) { return nil }
        return try decodeValue(type, atIndex: index, column: nil)
    }

    // MARK: - Subscripts

    /// The value at `index`, as its natural Swift type (`Int64`, `Double`,
    /// `String`, `Data`), or nil for NULL.
    public subscript(_ index: Int) -> (any DatabaseValueConvertible)? {
        databaseValue(atIndex: index).storage.value
    }

    /// The value at `index`, decoded. Traps with a clear message if it cannot
    /// be decoded; use `decode(_:atIndex:)-(Value.Type,_)` to get an error instead.
    public subscript<Value: DatabaseValueConvertible>(_ index: Int) -> Value {
        try! decode(Value.self, atIndex: index)
    }

    /// The value at `index`, decoded on the fast path. Traps with a clear
    /// message if it cannot be decoded.
    @inlinable @inline(__always)
    public subscript<Value: DatabaseValueConvertible & StatementColumnConvertible>(_ index: Int) -> Value {
        // Inlined in client code, so that it is specialized for `Value`.
        if let sqliteStatement, index >= 0, index < count,
           let value = Value.fromStatement(sqliteStatement, atUncheckedIndex: CInt(index))
        {
            return value
        }
        return decodeOrTrap(Value.self, atIndex: index, column: nil)
    }

    /// The slow path of the fast subscripts: a copied row, or an error.
    @usableFromInline
    func decodeOrTrap<Value: DatabaseValueConvertible & StatementColumnConvertible>(
        _ type: Value.Type, atIndex index: Int, column: String?) -> Value
    {
        try! decodeColumn(Value.self, atIndex: index, column: column)
    }

    /// The value of the leftmost column of this name, as its natural Swift
    /// type, or nil for NULL or a missing column.
    public subscript(_ columnName: String) -> (any DatabaseValueConvertible)? {
        guard let index = lookup.index(of: columnName) else { return nil }
        return self[index]
    }

    /// The value of the leftmost column of this name, decoded.
    ///
    /// A missing column reads as NULL for an optional type (`let x: Int? =
    /// row["missing"]` is nil) and traps for other types. A value that cannot
    /// be decoded traps with a clear message; use
    /// `decode(_:forColumn:)-(Value.Type,String)` to get an error instead.
    public subscript<Value: DatabaseValueConvertible>(_ columnName: String) -> Value {
        guard let index = lookup.index(of: columnName) else { return missingColumnValue(columnName) }
        return try! decodeValue(Value.self, atIndex: index, column: columnName)
    }

    /// The value of the leftmost column of this name, decoded on the fast path.
    @inlinable @inline(__always)
    public subscript<Value: DatabaseValueConvertible & StatementColumnConvertible>(_ columnName: String) -> Value {
        // The guess first, inlined: for columns read in order it costs one
        // comparison of identical strings.
        if let sqliteStatement {
            // After the last column, the next row starts again at the first.
            var guess = nextColumnGuess
            if guess == guessableColumnNames.count { guess = 0 }
            if guess < guessableColumnNames.count, guessableColumnNames[guess] == columnName {
                nextColumnGuess = guess + 1
                // `guess` is below the statement's column count, a CInt.
                if let value = Value.fromStatement(sqliteStatement, atUncheckedIndex: CInt(truncatingIfNeeded: guess)) {
                    return value
                }
                return decodeOrTrap(Value.self, atIndex: guess, column: columnName)
            }
        }
        if let index = fastColumnIndex(columnName) {
            if let sqliteStatement,
               let value = Value.fromStatement(sqliteStatement, atUncheckedIndex: CInt(index))
            {
                return value
            }
            return decodeOrTrap(Value.self, atIndex: index, column: columnName)
        }
        return missingColumnValue(columnName)
    }

    /// NULL for an optional type, a trap otherwise.
    @usableFromInline
    func missingColumnValue<Value: DatabaseValueConvertible>(_ columnName: String) -> Value {
        guard let value = Value.fromMissingColumn() else { missingColumn(columnName) }
        return value
    }

    // MARK: - Coalescing

    /// The first non-NULL value among these columns, decoded, or nil: SQL's
    /// `COALESCE`. A missing column counts as NULL; a value that cannot be
    /// decoded traps, as the subscripts do.
    ///
    /// ```swift
    /// let name: String? = row.coalesce(["nickname", "name"])
    /// ```
    ///
    /// Prefer it to `row["nickname"] ?? row["name"]`, where the optional
    /// subscript already succeeds with nil and `name` is never read.
    public func coalesce<T: DatabaseValueConvertible>(_ columns: some Collection<String>) -> T? {
        for column in columns {
            if let value = self[column] as T? { return value }
        }
        return nil
    }

    private func missingColumn(_ columnName: String) -> Never {
        fatalError("\(RowDecodingError.columnNotFound(columnName, row: self))")
    }
}


// Not Sendable, as in GRDB: a cursor row reads its statement and must not
// leave the database access that made it, like the cursor itself.
@available(*, unavailable)
extension Row: Sendable {}

extension Row: Equatable, Hashable {
    /// Rows are equal when they have the same column names (case-sensitive)
    /// and equal values, in the same order.
    ///
    /// Adapted rows must also have the same scopes, with equal rows, and
    /// rows fetched with `including(all:)` the same prefetched rows.
    public static func == (lhs: Row, rhs: Row) -> Bool {
        if lhs === rhs { return true }
        guard lhs.columnNames == rhs.columnNames && lhs.databaseValues == rhs.databaseValues else { return false }
        if lhs.adaptation != nil || rhs.adaptation != nil {
            guard lhs.hasSameScopes(as: rhs) else { return false }
        }
        // As in GRDB, rows differ by their prefetched rows too.
        return lhs.prefetchedRows == rhs.prefetchedRows
    }

    /// Hashes the column names and values.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(columnNames)
        hasher.combine(databaseValues)
    }
}

extension Row: ExpressibleByDictionaryLiteral {
    /// Creates a row from a dictionary literal, in the literal's order:
    /// `["name": "Arthur", "score": 1000]`.
    public convenience init(dictionaryLiteral elements: (String, (any DatabaseValueConvertible)?)...) {
        self.init(elements)
    }
}

extension Row: CustomStringConvertible, CustomDebugStringConvertible {
    /// `[name:'Arthur' score:1000]`.
    public var description: String {
        "[" + zip(columnNames, databaseValues).map { "\($0):\($1)" }.joined(separator: " ") + "]"
    }

    /// The description, and for an adapted row its ``unadapted`` row and
    /// its scopes, as GRDB prints them:
    ///
    /// ```
    /// ▿ [consumed:"Hello"]
    ///   unadapted: [produced:"Hello"]
    /// ```
    public var debugDescription: String { debugDescription(level: 0) }
}

extension Row {
    /// What is wrong with a row whose fields are set as given, or nil for
    /// one of the three representations: a cursor row (a statement, no
    /// values, no adaptation), an adapted row (an adaptation only), or a
    /// copied row (values only, maybe none).
    static func representationViolation(hasStatement: Bool, hasValues: Bool, hasAdaptation: Bool) -> String? {
        switch (hasStatement, hasAdaptation) {
        case (true, true):
            return "a row has both a statement and an adaptation"
        case (true, false) where hasValues, (false, true) where hasValues:
            return "a cursor or adapted row has values of its own"
        default:
            return nil
        }
    }

    /// Debug builds: reports a row that has more than one representation.
    @inline(__always)
    func checkRepresentation() {
        #if DEBUG
        if let violation = Self.representationViolation(
            hasStatement: statement != nil, hasValues: !values.isEmpty, hasAdaptation: adaptation != nil)
        {
            DebugInvariants.report(violation)
        }
        #endif
    }
}
