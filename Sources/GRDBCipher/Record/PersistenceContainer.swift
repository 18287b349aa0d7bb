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
public struct PersistenceContainer: @unchecked Sendable {
    /// A column name and ``foldedHash(_:)`` of it: most lookups compare
    /// these integers, not strings.
    struct ColumnName: Sendable {
        let name: String
        let foldedHash: Int
    }

    /// The columns that another container of the same record type set, in
    /// order: a container that sets the same columns in the same order
    /// shares this array instead of building its own, and finds each
    /// column with a single comparison of equal strings, without hashing
    /// or searching (see ``setValue(_:forColumn:)``).
    final class Layout: Sendable {
        let names: [ColumnName]

        /// The encoder of the `Encodable` records that fill containers of
        /// this layout, reused from one record to the next. A layout
        /// belongs to a plan of one connection, and records are encoded
        /// on its thread: the encoder is never used by two threads at once.
        nonisolated(unsafe) var recordEncoder: RecordEncoderBase?

        init(_ container: PersistenceContainer) {
            names = Array(container.storage.names[..<container.count])
        }

        deinit {
            // The encoder's keyed containers refer to it: let them all go.
            recordEncoder?.keyedContainers.removeAll()
        }
    }

    /// The columns and values. A class, so that copying a container (as
    /// the persistence callbacks do, through their success values) costs
    /// one retain; it is copied before a mutation when it is shared.
    final class Storage {
        /// The columns. While the container follows its layout, this is
        /// the layout's array, of which only the first `values.count`
        /// elements are set so far.
        // Unchecked: a storage is mutated only while uniquely referenced.
        @exclusivity(unchecked) var names: [ColumnName]
        /// The values, in column order.
        @exclusivity(unchecked) var values: [DatabaseValue]
        /// The layout the columns are expected in, if any.
        let layout: Layout?
        /// Whether the columns were set in the order of ``layout``, each
        /// once, so far.
        @exclusivity(unchecked) var followsLayout: Bool

        init(layout: Layout?) {
            self.layout = layout
            if let layout {
                names = layout.names
                values = []
                values.reserveCapacity(layout.names.count)
                followsLayout = true
            } else {
                names = []
                values = []
                followsLayout = false
            }
        }

        init(copying other: Storage) {
            names = other.names
            values = other.values
            layout = other.layout
            followsLayout = other.followsLayout
        }

        // The methods that mutate run on a storage that no other container
        // shares (see `PersistenceContainer.setValue(_:forColumn:)`), and
        // reach the properties without retaining anything.

        @inline(__always)
        func setValue(_ value: DatabaseValue, forColumn column: String) {
            if followsLayout {
                // The layout's columns differ case-insensitively: the
                // expected one cannot be set already.
                let position = values.count
                if position < names.count && names[position].name == column {
                    values.append(value)
                    return
                }
                stopFollowingLayout()
            }
            setValueSearching(value, forColumn: column)
        }

        /// Takes columns of its own: the ones set so far.
        private func stopFollowingLayout() {
            followsLayout = false
            names = Array(names[..<values.count])
        }

        private func setValueSearching(_ value: DatabaseValue, forColumn column: String) {
            let hash = PersistenceContainer.foldedHash(column)
            if let index = index(ofColumn: column, foldedHash: hash) {
                values[index] = value
            } else {
                names.append(ColumnName(name: column, foldedHash: hash))
                values.append(value)
            }
        }

        /// The position of a column (case-insensitive), or nil.
        func index(ofColumn column: String, foldedHash hash: Int) -> Int? {
            for index in 0..<values.count where names[index].foldedHash == hash {
                if PersistenceContainer.sameColumn(names[index].name, column) { return index }
            }
            return nil
        }
    }

    private var storage: Storage

    /// The values, in column order.
    var values: [DatabaseValue] { storage.values }

    /// The layout the columns are expected in, if any.
    var layout: Layout? { storage.layout }

    /// The value of a column, or nil if the container has no such column.
    ///
    /// The value read back may not be the one that was set: it is its
    /// database value (setting `nil` stores NULL, which reads back as
    /// ``DatabaseValue/null``).
    @_disfavoredOverload
    public subscript(_ column: String) -> (any DatabaseValueConvertible)? {
        get {
            index(ofColumn: column).map { storage.values[$0] }
        }
        set {
            // Read in place, as array-literal arguments are: copying the
            // optional existential cost more than the rest of the setter.
            // (Inlining the setter in `encode(to:)` does not help: the
            // optimizer keeps the existential, and copies it.)
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
    @_disfavoredOverload
    public subscript(_ column: some ColumnExpression) -> (any DatabaseValueConvertible)? {
        get { self[column.name] }
        set { self[column.name] = newValue }
    }

    /// Sets the value of a column from a value of a known type:
    /// `container["score"] = score`.
    ///
    /// Swift picks this setter over the one that takes `(any DatabaseValueConvertible)?`
    /// whenever the type of the value is known where it is set, as in
    /// ``EncodableRecord/encode(to:)`` methods. It stores the same database
    /// value, without building an `any DatabaseValueConvertible` first.
    /// Read values back with the other subscript: this getter is
    /// unavailable, as it is absent from GRDB.
    @inlinable
    public subscript<Value: DatabaseValueConvertible>(_ column: String) -> Value? {
        @available(*, unavailable, message: "read the value as (any DatabaseValueConvertible)?")
        get { fatalError("unavailable") }
        set { setValue(newValue?.databaseValue ?? .null, forColumn: column) }
    }

    /// Sets the value of a column from a value of a known type:
    /// `container[Columns.score] = score`.
    @inlinable
    public subscript<Value: DatabaseValueConvertible>(_ column: some ColumnExpression) -> Value? {
        @available(*, unavailable, message: "read the value as (any DatabaseValueConvertible)?")
        get { fatalError("unavailable") }
        set { setValue(newValue?.databaseValue ?? .null, forColumn: column.name) }
    }

    /// An empty container.
    init() {
        self.init(layout: nil)
    }

    /// An empty container that expects the columns of `layout`, with room
    /// for them.
    init(layout: Layout?) {
        storage = Storage(layout: layout)
    }

    /// The container that `record` fills.
    ///
    /// - throws: The error of ``EncodableRecord/encode(to:)``.
    init(_ record: some EncodableRecord) throws {
        self.init()
        try record.encode(to: &self)
    }

    /// Whether the container has exactly the columns of `layout`, set in
    /// its order: SQL built for the layout fits it.
    @inline(__always)
    func hasColumns(of layout: Layout) -> Bool {
        storage.followsLayout && storage.layout === layout && storage.values.count == layout.names.count
    }

    /// Stores `value` in `column`, replacing the value of a column of the
    /// same name in any case (the first spelling stays).
    @usableFromInline @inline(__always)
    mutating func setValue(_ value: DatabaseValue, forColumn column: String) {
        if !isKnownUniquelyReferenced(&storage) { storage = Storage(copying: storage) }
        storage.setValue(value, forColumn: column)
    }

    /// Makes room for `count` columns.
    mutating func reserveCapacity(_ count: Int) {
        if !isKnownUniquelyReferenced(&storage) { storage = Storage(copying: storage) }
        if storage.followsLayout { return }
        storage.names.reserveCapacity(count)
        storage.values.reserveCapacity(count)
    }

    /// The capacity of the storage, in columns.
    var capacity: Int { storage.values.capacity }

    /// The position of a column (case-insensitive), or nil.
    func index(ofColumn column: String) -> Int? {
        storage.index(ofColumn: column, foldedHash: Self.foldedHash(column))
    }

    /// The column names, in order.
    var columns: [String] { storage.names[..<storage.values.count].map({ $0.name }) }

    /// The value of a column, NULL when the container has no such column.
    func databaseValue(at column: String) -> DatabaseValue {
        index(ofColumn: column).map { storage.values[$0] } ?? .null
    }

    /// Binds the values in order to the parameters of a statement, from
    /// `firstIndex` on, and returns the code of the first bind that fails,
    /// or `SQLITE_OK`.
    func bindValues(to sqliteStatement: SQLiteStatement, firstIndex: CInt = 1) -> CInt {
        // Through the buffer: iterating the array copies each value, and
        // copying a value runs the outlined copy of its enum (callgrind).
        storage.values.withUnsafeBufferPointer { buffer in
            var parameter = firstIndex
            for index in buffer.indices {
                let code = buffer[index].bind(to: sqliteStatement, at: parameter)
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
        let names = storage.names
        let values = storage.values
        for index in 0..<values.count {
            let column = names[index]
            let old = other.storage.index(ofColumn: column.name, foldedHash: column.foldedHash)
                .map { other.storage.values[$0] } ?? .null
            if old != values[index] { changes.append((column.name, old)) }
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
    public var endIndex: Int { storage.values.count }

    /// The column and value at `position`.
    public subscript(position: Int) -> (String, DatabaseValue) {
        (storage.names[position].name, storage.values[position])
    }
}
