/// The column indexes of the coding keys of one record type, for one
/// statement: how a `Decodable` record finds its columns without searching
/// the column names on every row.
///
/// A statement keeps its tables (in its decoding cache), so a
/// key is resolved once per statement, on the first row that reads it, and
/// read by index afterwards. Keys are remembered in the order they are
/// read: a synthesized `init(from:)` reads them in the same order on every
/// row, and finds each one with a single comparison of equal strings. A row
/// that does not belong to a statement (a copied row) gets a table of its
/// own, used for that row only.
final class CodingKeyColumnTable {
    /// A coding key and its column.
    struct Entry {
        /// The key's `stringValue`.
        let key: String
        /// The column index, or nil when the row has no such column.
        let index: Int?
        /// The column name for the strategies: the key's name under the
        /// default column strategy, as GRDB does, or the matching column's.
        let column: String
        /// The type known to need JSON for this key, once a value of it
        /// asked for a container: later rows go to JSON directly.
        var jsonType: ObjectIdentifier?
        /// The bytes of the key value, when its type is a plain value of at
        /// most 8 bytes (as the enums of synthesized `CodingKeys` are), once
        /// a row read it: see ``slot(for:in:)``.
        var keyBits: UInt64?
    }

    let recordType: ObjectIdentifier
    let keyType: ObjectIdentifier
    let usesRecordStrategy: Bool

    /// Key name → column index, for a strategy other than the default one.
    private let strategyIndexes: [String: Int]?

    // Unchecked: a table is used by one thread at a time, like its
    // statement, and never accessed reentrantly.
    @exclusivity(unchecked) private(set) var entries: [Entry] = []

    /// Where the next key is expected in ``entries``.
    @exclusivity(unchecked) private var position = 0

    // Unchecked: used by one thread at a time, like the statement whose rows it decodes; the
    // dynamic check would cost a `swift_beginAccess` per decoded key (callgrind).
    /// The key that was decoded from the whole row (GRDB decodes one
    /// missing key this way), since the last ``startRow()``.
    @exclusivity(unchecked) var rootKey: String?

    /// The number of keys resolved against the column names: a test hook
    /// that proves it happens once per key, not once per row.
    private(set) var resolutionCount = 0

    private init(
        recordType: ObjectIdentifier, keyType: ObjectIdentifier, usesRecordStrategy: Bool,
        strategy: DatabaseColumnDecodingStrategy, row: Row)
    {
        self.recordType = recordType
        self.keyType = keyType
        self.usesRecordStrategy = usesRecordStrategy
        if case .useDefaultKeys = strategy {
            strategyIndexes = nil
        } else {
            // As in GRDB, when two columns map to the same key, the last one wins.
            var indexes: [String: Int] = [:]
            for (index, column) in row.columnNames.enumerated() {
                if let key = strategy.keyName(forColumn: column) { indexes[key] = index }
            }
            strategyIndexes = indexes
        }
    }

    /// The table of `Record` and `Key` for the row: the statement's, made on
    /// its first use, or a new one for a copied row.
    static func table<Record, Key>(
        for row: Row, record: Record.Type, key: Key.Type, usesRecordStrategy: Bool,
        strategy: @autoclosure () -> DatabaseColumnDecodingStrategy) -> CodingKeyColumnTable
    {
        let recordType = ObjectIdentifier(Record.self)
        let keyType = ObjectIdentifier(Key.self)
        func makeTable() -> CodingKeyColumnTable {
            CodingKeyColumnTable(
                recordType: recordType, keyType: keyType, usesRecordStrategy: usesRecordStrategy,
                strategy: strategy(), row: row)
        }
        // A statement keeps the tables of its rows; so does the layout of
        // an adapted row over a cursor row. Other rows get a new table.
        let tables: CodingKeyColumnTables
        if let statement = row.statement {
            tables = CodingKeyColumnTables.of(&statement.decodingCache)
        } else if let layout = row.cursorAdaptedLayout {
            tables = CodingKeyColumnTables.of(&layout.decodingCache)
        } else {
            return makeTable()
        }
        if let table = tables.table(recordType: recordType, keyType: keyType, usesRecordStrategy: usesRecordStrategy) {
            return table
        }
        let table = makeTable()
        tables.tables.append(table)
        return table
    }

    /// Prepares for the keys of a new row.
    @inline(__always)
    func startRow() {
        position = 0
        rootKey = nil
    }

    /// The position in ``entries`` of `key`, resolved if it is new.
    ///
    /// A key of a plain type (no references, 8 bytes at most: the enums
    /// of synthesized `CodingKeys`) is found by comparing its bytes with
    /// the ones of the expected entry, without asking for its
    /// `stringValue` through its witness table and comparing strings:
    /// that was a quarter of the cost of decoding a column (callgrind).
    /// Equal bytes are an equal value, so a match is the same key; a
    /// mismatch (another key, or padding bytes that differ) falls back
    /// to the string.
    @inline(__always)
    func slot<Key: CodingKey>(for key: Key, in row: Row) -> Int {
        guard let bits = Self.bits(of: key) else {
            return slot(forKey: key.stringValue, in: row)
        }
        let position = self.position
        if position < entries.count && entries[position].keyBits == bits {
            self.position = position + 1
            return position
        }
        let slot = slot(forKey: key.stringValue, in: row)
        entries[slot].keyBits = bits
        return slot
    }

    /// The bytes of a key of a plain type of at most 8 bytes, or nil.
    @inline(__always)
    static func bits<Key>(of key: Key) -> UInt64? {
        guard _isPOD(Key.self) else { return nil }
        switch MemoryLayout<Key>.size {
        // Casts, not `withUnsafeBytes`: its closure is not inlined in
        // unspecialized code, and cost more than the string (callgrind).
        case 0: return 0
        case 1: return UInt64(unsafeBitCast(key, to: UInt8.self))
        case 2: return UInt64(unsafeBitCast(key, to: UInt16.self))
        case 4: return UInt64(unsafeBitCast(key, to: UInt32.self))
        case 8: return unsafeBitCast(key, to: UInt64.self)
        default: return nil
        }
    }

    /// The position in ``entries`` of the key named `key`, resolved if it
    /// is new.
    @inline(__always)
    func slot(forKey key: String, in row: Row) -> Int {
        let position = self.position
        if position < entries.count && entries[position].key == key {
            self.position = position + 1
            return position
        }
        return slowSlot(forKey: key, in: row)
    }

    private func slowSlot(forKey key: String, in row: Row) -> Int {
        if let slot = entries.firstIndex(where: { $0.key == key }) {
            position = slot + 1
            return slot
        }
        resolutionCount += 1
        let entry: Entry
        if let strategyIndexes {
            if let index = strategyIndexes[key] {
                entry = Entry(key: key, index: index, column: row.columnNames[index])
            } else {
                entry = Entry(key: key, index: nil, column: key)
            }
        } else {
            entry = Entry(key: key, index: row.index(forColumn: key), column: key)
        }
        entries.append(entry)
        position = entries.count
        return entries.count - 1
    }

    /// Remembers that values of `type` need JSON for the key at `slot`.
    func setNeedsJSON(_ type: Any.Type, slot: Int) {
        entries[slot].jsonType = ObjectIdentifier(type)
    }

    /// The keys the row provides, as a keyed container's `allKeys`.
    func availableKeyNames(in row: Row) -> [String] {
        if let strategyIndexes { return Array(strategyIndexes.keys) }
        return row.columnNames
    }
}

/// The coding key tables that a statement, or the layout of adapted rows
/// over a cursor row, keeps in its decoding cache.
final class CodingKeyColumnTables: StatementDecodingCache {
    // Unchecked: used by one thread at a time, like its statement.
    @exclusivity(unchecked) var tables: [CodingKeyColumnTable] = []

    /// The tables in `slot`, put there on first use.
    @inline(__always)
    static func of(_ slot: inout (any StatementDecodingCache)?) -> CodingKeyColumnTables {
        // Invariant: this class is the only one that adopts
        // StatementDecodingCache, so the slot holds one of it or nothing
        // (checked in debug builds by unsafeDowncast).
        if let slot { return unsafeDowncast(slot, to: CodingKeyColumnTables.self) }
        let tables = CodingKeyColumnTables()
        slot = tables
        return tables
    }

    func table(recordType: ObjectIdentifier, keyType: ObjectIdentifier, usesRecordStrategy: Bool) -> CodingKeyColumnTable? {
        for table in tables
        where table.keyType == keyType && table.recordType == recordType && table.usesRecordStrategy == usesRecordStrategy
        {
            return table
        }
        return nil
    }
}
