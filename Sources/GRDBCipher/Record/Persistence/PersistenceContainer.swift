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
    // Safe: the container's only stored property is its `Storage`, a class
    // of database values and column names (all Sendable values). Every
    // mutation goes through `setValue`/`recycle`, which copy the storage
    // first unless it is uniquely referenced (copy on write): a container
    // sent to another thread shares no storage that either side mutates.
    // The storage's `Layout` is shared, but its only mutable fields (the
    // reused encoder and spare storage) are touched by the persistence
    // methods of the connection that owns the layout's plan, on the thread
    // of its access, never through a container.
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
    @usableFromInline
    final class Layout: Sendable {
        let names: [ColumnName]

        /// The encoder of the `Encodable` records that fill containers of
        /// this layout, reused from one record to the next. A layout
        /// belongs to a plan of one connection, and records are encoded
        /// on its thread: the encoder is never used by two threads at once.
        // Unchecked, for the same reason: the dynamic check cost a
        // `swift_beginAccess` per `Encodable` record written (callgrind).
        @usableFromInline @exclusivity(unchecked) nonisolated(unsafe) var recordEncoder: RecordEncoderBase?

        /// The storage of the last container of this layout that was
        /// written and then released by the persistence methods, emptied
        /// and kept for the next one: writing many records then allocates
        /// no storage (see ``PersistenceContainer/recycle()``). Used on the
        /// thread of the plan's connection only, as ``recordEncoder``.
        ///
        /// The spare storage refers to the layout: the plan that owns the
        /// layout breaks this cycle when it goes (``retire()``).
        // Unchecked, as ``recordEncoder``: one thread, the plan's connection's.
        @exclusivity(unchecked) nonisolated(unsafe) var spareStorage: Storage?

        /// Whether the plan of this layout is gone: a storage given back
        /// then is not kept, as nothing would break its cycle.
        nonisolated(unsafe) private(set) var isRetired = false

        /// Lets the spare storage go, and keeps no other one.
        func retire() {
            isRetired = true
            spareStorage = nil
        }

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
    ///
    /// The values live in a buffer of its own rather than in an array:
    /// setting a value then checks no array for uniqueness and capacity,
    /// and emptying a storage for reuse destroys its values without the
    /// runtime's generic array destruction (callgrind, record inserts).
    final class Storage {
        /// The columns. While the container follows its layout, this is
        /// the layout's array, of which only the first `count` elements
        /// are set so far.
        // Unchecked: a storage is mutated only while uniquely referenced.
        @exclusivity(unchecked) var names: [ColumnName]
        /// The values, in column order: the first `count` elements are
        /// initialized.
        private var buffer: UnsafeMutablePointer<DatabaseValue>
        /// The number of values.
        @exclusivity(unchecked) private(set) var count: Int
        /// The number of values the buffer has room for.
        @exclusivity(unchecked) private(set) var capacity: Int
        // Unchecked: a container is used by one thread at a time, the write that fills it; the
        // dynamic check would cost a `swift_beginAccess` per stored value (callgrind).
        /// Whether a value may hold a reference (a string or a blob): when
        /// none does, emptying the storage has nothing to release.
        @exclusivity(unchecked) private var mayHoldReferences: Bool
        /// The layout the columns are expected in, if any.
        let layout: Layout?
        // Unchecked: a container is used by one thread at a time, the write that fills it; the
        // dynamic check would cost a `swift_beginAccess` per stored value (callgrind).
        /// Whether the columns were set in the order of ``layout``, each
        /// once, so far.
        @exclusivity(unchecked) var followsLayout: Bool

        init(layout: Layout?) {
            self.layout = layout
            if let layout {
                names = layout.names
                capacity = Swift.max(layout.names.count, 1)
                followsLayout = true
            } else {
                names = []
                capacity = 8
                followsLayout = false
            }
            buffer = .allocate(capacity: capacity)
            count = 0
            mayHoldReferences = false
        }

        init(copying other: Storage) {
            names = other.names
            layout = other.layout
            followsLayout = other.followsLayout
            capacity = Swift.max(other.capacity, 1)
            buffer = .allocate(capacity: capacity)
            buffer.initialize(from: other.buffer, count: other.count)
            count = other.count
            mayHoldReferences = other.mayHoldReferences
        }

        deinit {
            removeAllValues()
            buffer.deallocate()
        }

        /// The values, in column order.
        var values: UnsafeBufferPointer<DatabaseValue> {
            UnsafeBufferPointer(start: buffer, count: count)
        }

        /// The value at `index`, which is less than `count`.
        subscript(index: Int) -> DatabaseValue {
            precondition(index >= 0 && index < count, "PersistenceContainer: index out of range")
            return buffer[index]
        }

        // The methods that mutate run on a storage that no other container
        // shares (see `PersistenceContainer.setValue(_:forColumn:)`), and
        // reach the properties without retaining anything.

        /// Adds a value after the others.
        @inline(__always)
        func append(_ value: consuming DatabaseValue) {
            noteReferences(of: value)
            if count == capacity { grow() }
            (buffer + count).initialize(to: consume value)
            count += 1
        }

        private func grow() {
            let newCapacity = capacity * 2
            let newBuffer = UnsafeMutablePointer<DatabaseValue>.allocate(capacity: newCapacity)
            newBuffer.moveInitialize(from: buffer, count: count)
            buffer.deallocate()
            buffer = newBuffer
            capacity = newCapacity
        }

        /// Makes room for `minimumCapacity` values.
        func reserveCapacity(_ minimumCapacity: Int) {
            while capacity < minimumCapacity { grow() }
        }

        @inline(__always)
        private func noteReferences(of value: DatabaseValue) {
            switch value.storage {
            case .null, .int64, .double: break
            case .string, .blob: mayHoldReferences = true
            }
        }

        /// Replaces the value at `index`, which is less than `count`.
        func replaceValue(at index: Int, with value: __owned DatabaseValue) {
            noteReferences(of: value)
            buffer[index] = value
        }

        /// Destroys the values. Numbers and NULL own no memory: when only
        /// they were stored, there is nothing to destroy, and the values
        /// are left as they are, to be overwritten (destroying them one by
        /// one cost more than the rest of emptying the storage).
        private func removeAllValues() {
            if mayHoldReferences {
                buffer.deinitialize(count: count)
                mayHoldReferences = false
            }
            count = 0
        }

        /// Forgets the values, keeps the room for them, and expects the
        /// columns of the layout again.
        func reset(layout: Layout) {
            removeAllValues()
            if !followsLayout {
                names = layout.names
                followsLayout = true
            }
        }

        @inline(__always)
        func setValue(_ value: consuming DatabaseValue, forColumn column: String) {
            if followsLayout {
                // The layout's columns differ case-insensitively: the
                // expected one cannot be set already.
                let position = count
                if position < names.count && names[position].name == column {
                    append(value)
                    return
                }
                // A column set already (the rowid an insertion stores):
                // the columns keep the layout's order.
                if let index = index(ofColumn: column, foldedHash: PersistenceContainer.foldedHash(column)) {
                    replaceValue(at: index, with: value)
                    return
                }
                stopFollowingLayout()
            }
            setValueSearching(value, forColumn: column)
        }

        /// Takes columns of its own: the ones set so far.
        private func stopFollowingLayout() {
            followsLayout = false
            names = Array(names[..<count])
        }

        private func setValueSearching(_ value: DatabaseValue, forColumn column: String) {
            let hash = PersistenceContainer.foldedHash(column)
            if let index = index(ofColumn: column, foldedHash: hash) {
                replaceValue(at: index, with: value)
            } else {
                names.append(ColumnName(name: column, foldedHash: hash))
                append(value)
            }
        }

        /// The position of a column (case-insensitive), or nil.
        func index(ofColumn column: String, foldedHash hash: Int) -> Int? {
            for index in 0..<count where names[index].foldedHash == hash {
                if PersistenceContainer.sameColumn(names[index].name, column) { return index }
            }
            return nil
        }
    }

    private var storage: Storage

    /// The values, in column order.
    var values: [DatabaseValue] { Array(storage.values) }

    /// The layout the columns are expected in, if any.
    @usableFromInline var layout: Layout? { storage.layout }

    /// The value of a column, or nil if the container has no such column.
    ///
    /// The value read back may not be the one that was set: it is its
    /// database value (setting `nil` stores NULL, which reads back as
    /// ``DatabaseValue/null``).
    @_disfavoredOverload
    public subscript(_ column: String) -> (any DatabaseValueConvertible)? {
        get {
            index(ofColumn: column).map { storage[$0] }
        }
        set {
            // Read in place, as array-literal arguments are: copying the
            // optional existential cost more than the rest of the setter.
            // (Inlining the setter in `encode(to:)` does not help: the
            // optimizer keeps the existential, and copies it.)
            let value: DatabaseValue
            if OptionalExistentialLayout.isKnown {
                value = withUnsafePointer(to: newValue) { element in
                    LiteralValues.inlineDatabaseValue(at: element) ?? OptionalExistentialLayout.databaseValue(at: element)
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
        if let spare = layout?.spareStorage {
            layout?.spareStorage = nil
            storage = spare
        } else {
            storage = Storage(layout: layout)
        }
    }

    /// Gives the storage back to the layout for the next container, when
    /// no other container shares it, and leaves this container empty: the
    /// persistence methods call this when they are done with a container,
    /// callbacks included. A storage that a callback kept a copy of is
    /// left alone.
    @usableFromInline
    mutating func recycle() {
        guard let layout = storage.layout, !layout.isRetired, isKnownUniquelyReferenced(&storage) else { return }
        storage.reset(layout: layout)
        // Swapped, then moved: the storage changes hands with no retain
        // and release of its own.
        var spare = Self.emptyStorage
        swap(&storage, &spare)
        layout.spareStorage = consume spare
    }

    /// The storage of emptied containers: shared, so never mutated in place.
    nonisolated(unsafe) private static let emptyStorage = Storage(layout: nil)

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
        storage.followsLayout && storage.layout === layout && storage.count == layout.names.count
    }

    /// Stores `value` in `column`, replacing the value of a column of the
    /// same name in any case (the first spelling stays).
    @usableFromInline @inline(__always)
    mutating func setValue(_ value: consuming DatabaseValue, forColumn column: String) {
        if !isKnownUniquelyReferenced(&storage) { storage = Storage(copying: storage) }
        storage.setValue(consume value, forColumn: column)
    }

    /// Whether the columns were set in the order of the container's layout,
    /// each once, so far.
    var followsLayout: Bool { storage.followsLayout }

    /// Stores `value` in the next column of the layout, without checking
    /// its name: the caller knows it is that column. Returns false, and
    /// stores nothing, when the container does not follow its layout or
    /// has all its columns.
    @inline(__always)
    mutating func appendFollowingLayout(_ value: DatabaseValue) -> Bool {
        guard storage.followsLayout, storage.count < storage.names.count else { return false }
        if !isKnownUniquelyReferenced(&storage) { storage = Storage(copying: storage) }
        storage.append(value)
        return true
    }

    /// Makes room for `count` columns.
    @usableFromInline
    mutating func reserveCapacity(_ count: Int) {
        if !isKnownUniquelyReferenced(&storage) { storage = Storage(copying: storage) }
        if storage.followsLayout { return }
        storage.names.reserveCapacity(count)
        storage.reserveCapacity(count)
    }

    /// The capacity of the storage, in columns.
    @usableFromInline var capacity: Int { storage.capacity }

    /// The position of a column (case-insensitive), or nil.
    func index(ofColumn column: String) -> Int? {
        storage.index(ofColumn: column, foldedHash: Self.foldedHash(column))
    }

    /// The column names, in order.
    var columns: [String] { storage.names[..<storage.count].map({ $0.name }) }

    /// The value at a position, which is less than the number of columns.
    func databaseValue(atIndex index: Int) -> DatabaseValue {
        storage[index]
    }

    /// The value of a column, NULL when the container has no such column.
    func databaseValue(at column: String) -> DatabaseValue {
        index(ofColumn: column).map { storage[$0] } ?? .null
    }

    /// Binds the values in order to the parameters of a statement, from
    /// `firstIndex` on, and returns the code of the first bind that fails,
    /// or `SQLITE_OK`.
    func bindValues(to sqliteStatement: SQLiteStatement, firstIndex: CInt = 1) -> CInt {
        let values = storage.values
        var parameter = firstIndex
        for index in values.indices {
            // Integers first, without copying the value (callgrind).
            let code: CInt
            if case .int64(let int64) = values[index].storage {
                code = sqlite3_bind_int64(sqliteStatement, parameter, int64)
            } else {
                code = values[index].bind(to: sqliteStatement, at: parameter)
            }
            if code != SQLITE_OK { return code }
            parameter += 1
        }
        return SQLITE_OK
    }

    /// The columns of this container whose value differs in `other` (a
    /// column missing there counts as NULL), with their value in `other`.
    func changes(from other: PersistenceContainer) -> [(String, DatabaseValue)] {
        var changes: [(String, DatabaseValue)] = []
        let names = storage.names
        let values = storage.values
        for index in values.indices {
            let column = names[index]
            let old = other.storage.index(ofColumn: column.name, foldedHash: column.foldedHash)
                .map { other.storage[$0] } ?? .null
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
    public var endIndex: Int { storage.count }

    /// The column and value at `position`.
    public subscript(position: Int) -> (String, DatabaseValue) {
        (storage.names[position].name, storage[position])
    }
}
