import CSQLCipher

/// The values that a record stores in database columns: the argument of
/// ``EncodableRecord/encode(to:)``.
///
/// ```swift
/// func encode(to container: inout PersistenceContainer) {
///     container["id"] = id
///     container["name"] = name
/// }
/// ```
///
/// Columns keep the order in which they were first set. Column names compare
/// case-insensitively: setting `"NAME"` after `"name"` replaces the value of
/// the same column.
public struct PersistenceContainer: Sendable {
    /// A column and its value.
    struct Entry: Sendable {
        let column: String
        /// ``PersistenceContainer/foldedHash(_:)`` of the column: most
        /// lookups compare these integers, not strings.
        let foldedHash: Int
        var value: DatabaseValue
    }

    private(set) var entries: [Entry]

    /// The value of a column, or nil if the container has no such column.
    ///
    /// The value read back may not be the one that was set: it is its
    /// database value (setting `nil` stores NULL, which reads back as
    /// ``DatabaseValue/null``).
    public subscript(_ column: String) -> (any DatabaseValueConvertible)? {
        get {
            index(ofColumn: column).map { entries[$0].value }
        }
        set {
            // Read in place, as array-literal arguments are: copying the
            // optional existential cost more than the rest of the setter.
            let value: DatabaseValue
            if StatementArguments.optionalExistentialLayoutIsKnown {
                value = withUnsafePointer(to: newValue) { element in
                    LiteralValues.inlineDatabaseValue(at: element) ?? StatementArguments.databaseValue(at: element)
                }
            } else {
                value = newValue?.databaseValue ?? .null
            }
            setValue(value, forColumn: column)
        }
    }

    /// The value of a column, or nil if the container has no such column:
    /// `container[Columns.name] = name`.
    public subscript(_ column: some ColumnExpression) -> (any DatabaseValueConvertible)? {
        get { self[column.name] }
        set { self[column.name] = newValue }
    }

    /// An empty container.
    init() {
        entries = []
    }

    /// An empty container with room for `minimumCapacity` columns without
    /// reallocation: give it the number of columns of the table.
    init(minimumCapacity: Int) {
        entries = []
        entries.reserveCapacity(minimumCapacity)
    }

    /// The container that `record` fills.
    ///
    /// - throws: The error of ``EncodableRecord/encode(to:)``.
    init(_ record: some EncodableRecord) throws {
        self.init()
        try record.encode(to: &self)
    }

    /// Stores `value` in `column`, replacing the value of a column of the
    /// same name in any case (the first spelling stays).
    @inline(__always)
    mutating func setValue(_ value: DatabaseValue, forColumn column: String) {
        let hash = Self.foldedHash(column)
        if let index = index(ofColumn: column, foldedHash: hash) {
            entries[index].value = value
        } else {
            entries.append(Entry(column: column, foldedHash: hash, value: value))
        }
    }

    /// Makes room for `count` columns.
    mutating func reserveCapacity(_ count: Int) {
        entries.reserveCapacity(count)
    }

    /// The capacity of the storage, in columns.
    var capacity: Int { entries.capacity }

    /// The position of a column (case-insensitive), or nil.
    func index(ofColumn column: String) -> Int? {
        index(ofColumn: column, foldedHash: Self.foldedHash(column))
    }

    @inline(__always)
    private func index(ofColumn column: String, foldedHash hash: Int) -> Int? {
        for index in entries.indices where entries[index].foldedHash == hash {
            if Self.sameColumn(entries[index].column, column) { return index }
        }
        return nil
    }

    /// The column names, in order.
    var columns: [String] { entries.map(\.column) }

    /// The values, in column order.
    var values: [DatabaseValue] { entries.map(\.value) }

    /// The value of a column, NULL when the container has no such column.
    func databaseValue(at column: String) -> DatabaseValue {
        index(ofColumn: column).map { entries[$0].value } ?? .null
    }

    /// Whether the columns are `columns`, in this order and spelling: a
    /// cheap check that SQL built for a previous container still fits.
    func hasColumns(_ columns: [String]) -> Bool {
        guard columns.count == entries.count else { return false }
        for index in entries.indices where entries[index].column != columns[index] {
            return false
        }
        return true
    }

    /// Binds the values in order to the parameters of a statement, from
    /// `firstIndex` on, and returns the code of the first bind that fails,
    /// or `SQLITE_OK`.
    func bindValues(to sqliteStatement: SQLiteStatement, firstIndex: CInt = 1) -> CInt {
        // Through the buffer: iterating the array copies each entry, and
        // copying a value runs the outlined copy of its enum (callgrind).
        entries.withUnsafeBufferPointer { buffer in
            var parameter = firstIndex
            for index in buffer.indices {
                let code = buffer[index].value.bind(to: sqliteStatement, at: parameter)
                if code != SQLITE_OK { return code }
                parameter += 1
            }
            return SQLITE_OK
        }
    }

    /// The columns of this container whose value differs in `other` (a
    /// column missing there counts as NULL), with their value in `other`.
    func changes(from other: PersistenceContainer) -> [(String, DatabaseValue)] {
        var changes: [(String, DatabaseValue)] = []
        for entry in entries {
            let old = other.index(ofColumn: entry.column, foldedHash: entry.foldedHash).map { other.entries[$0].value } ?? .null
            if old != entry.value { changes.append((entry.column, old)) }
        }
        return changes
    }

    // MARK: - Case-insensitive names

    /// A hash of the lowercased name, computed without lowercasing an ASCII
    /// name: equal for names that compare equal case-insensitively.
    static func foldedHash(_ name: String) -> Int {
        // Over the contiguous UTF-8 bytes: iterating `name.utf8` costs about
        // ten times more per byte (callgrind, record inserts).
        let hash = name.utf8.withContiguousStorageIfAvailable { bytes -> UInt64? in
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes {
                if byte >= 0x80 { return nil }
                hash = (hash ^ UInt64(byte | (byte &- 65 < 26 ? 0x20 : 0))) &* 0x100_0000_01b3
            }
            return hash
        }
        if let hash = hash ?? nil { return Int(truncatingIfNeeded: hash) }
        return foldedHash(nonASCII: name)
    }

    /// The hash of a name that is not ASCII, or not contiguous: of its
    /// lowercased bytes, which for ASCII is what the fast path computes.
    private static func foldedHash(nonASCII name: String) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.lowercased().utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return Int(truncatingIfNeeded: hash)
    }

    /// Whether two column names are equal, case-insensitively (as SQLite
    /// and ``Row`` compare them).
    static func sameColumn(_ lhs: String, _ rhs: String) -> Bool {
        lhs == rhs || lhs.lowercased() == rhs.lowercased()
    }
}

extension PersistenceContainer: RandomAccessCollection {
    /// Positions are integers from 0.
    public typealias Index = Int

    /// 0.
    public var startIndex: Int { 0 }

    /// The number of columns.
    public var endIndex: Int { entries.count }

    /// The column and value at `position`.
    public subscript(position: Int) -> (String, DatabaseValue) {
        let entry = entries[position]
        return (entry.column, entry.value)
    }
}
