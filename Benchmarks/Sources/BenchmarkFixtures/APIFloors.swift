import CSQLCipherRaw
import Foundation
import GRDBCipher

// The floors: what GRDB's API makes any implementation pay on top of the
// raw C loop, for the workloads whose targets the raw loop alone cannot
// judge. Each floor is the raw loop plus only the work that the API's types
// force: the array of existentials of an array literal of arguments
// (W4, W4c), the NULL check of a row subscript (W1), the standard library's
// Codable containers and their dispatch (W10b, W11b: one container reused,
// no key checked against its column, so below any GRDB-compatible coder),
// a record's `encode(to:)` into a container set by column names (W11a),
// and the proof that an export must give before the copy has its name
// (W8b). Nothing of GRDBCipher runs here but its protocols (the existential
// layout is the API's). `make bench` times each floor against its raw loop
// and `make bench-instructions` counts it, so that a target can be stated
// as "the floor plus what the library adds".

public enum APIFloors {
    /// Workload 1's floor: GRDB's `row[index] as Int64` checks that the
    /// value is not NULL (a NULL traps, it does not read as 0): the
    /// cheapest check reads the column's value once, then its type and its
    /// integer.
    public static func fetchByIndex(_ connection: RawConnection) -> Int64 {
        let statement = connection.prepare("SELECT * FROM ints")
        defer { sqlite3_finalize(statement) }
        var sum: Int64 = 0
        while sqlite3_step(statement) == SQLITE_ROW {
            for index in 0..<CInt(10) {
                let value = sqlite3_column_value(statement, index)
                precondition(sqlite3_value_type(value) != SQLITE_NULL)
                sum &+= sqlite3_value_int64(value)
            }
        }
        return sum
    }

    /// Workloads 4 and 4c's floor: the raw insert, plus the array of ten
    /// `(any DatabaseValueConvertible)?` that an array literal of
    /// `StatementArguments` makes the caller allocate on the heap, fill and
    /// free for each row: the initializer lives in another module, and the
    /// values must outlive it (GRDB's `Statement.arguments` returns the
    /// last run's arguments), so the array escapes and cannot live on the
    /// stack. The values are bound from the loop, as the raw loop binds
    /// them: reading them back from the array is the library's cost.
    ///
    /// With `clearingBindings` (workload 4, `execute(arguments:)`), each
    /// run ends with `sqlite3_clear_bindings`, as GRDB's does: arguments
    /// given to a run are bound for that run only, and GRDB's own tests
    /// step the raw statement afterwards and expect NULL.
    public static func insertThroughArrayLiterals(_ connection: RawConnection, clearingBindings: Bool) {
        connection.execute("BEGIN")
        let statement = connection.cachedStatement("INSERT INTO ints VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
        let kept = KeptLiteral()
        for row in 0..<Int64(Fixtures.insertCount) {
            kept.keep([
                row, row &+ 1, row &+ 2, row &+ 3, row &+ 4, row &+ 5, row &+ 6, row &+ 7, row &+ 8, row &+ 9,
            ])
            for index in 0..<CInt(10) {
                sqlite3_bind_int64(statement, index + 1, row &+ Int64(index))
            }
            precondition(sqlite3_step(statement) == SQLITE_DONE)
            sqlite3_reset(statement)
            if clearingBindings { sqlite3_clear_bindings(statement) }
        }
        connection.execute("COMMIT")
    }

    /// Workload 10b's floor: the rows of workload 3, decoded by the
    /// record's synthesized `init(from:)` through the smallest decoder the
    /// standard library allows: one keyed container made once and handed to
    /// every row (each `decode` still goes through the library's type-erased
    /// box), each key reading the next column with a NULL check. It does
    /// not check that a key names its column: GRDB's decoding must, so the
    /// floor is below what any GRDB-compatible decoder can reach.
    public static func fetchDecodableRecords(_ connection: RawConnection) throws -> Int64 {
        let statement = connection.prepare("SELECT * FROM ints")
        defer { sqlite3_finalize(statement) }
        let position = UnsafeMutablePointer<CInt>.allocate(capacity: 1)
        defer { position.deallocate() }
        let decoder = FloorDecoder(statement: statement, position: position)
        var sum: Int64 = 0
        while sqlite3_step(statement) == SQLITE_ROW {
            position.pointee = 0
            sum &+= try IntsCodableRecord(from: decoder).sum
        }
        return sum
    }

    /// Workload 11a's floor: the raw insert, with each row set by a record's
    /// `encode(to:)` (a call the record's module makes opaque) into a
    /// container shaped as GRDB's `PersistenceContainer` (a `String`
    /// subscript), each column checked against the statement's by name, and
    /// each value bound at once with its own type.
    public static func insertThroughContainers(_ connection: RawConnection) {
        connection.execute("BEGIN")
        let statement = connection.cachedStatement("INSERT INTO ints VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
        let names = (0..<10).map { "c\($0)" }
        var container = FloorPersistenceContainer(statement: statement, names: names)
        for row in 0..<Int64(Fixtures.insertCount) {
            container.removeAll()
            FloorPersistableRecord(row: row).encode(to: &container)
            precondition(sqlite3_step(statement) == SQLITE_DONE)
            sqlite3_reset(statement)
        }
        connection.execute("COMMIT")
    }

    /// Workload 11b's floor: the raw insert, each row encoded by the
    /// record's synthesized `encode(to:)` through the smallest encoder: one
    /// keyed container made once, each key binding the next parameter. As
    /// the decoding floor, it does not check that a key names its column.
    public static func insertEncodableRecords(_ connection: RawConnection) throws {
        connection.execute("BEGIN")
        let statement = connection.cachedStatement("INSERT INTO ints VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
        let position = UnsafeMutablePointer<CInt>.allocate(capacity: 1)
        defer { position.deallocate() }
        let encoder = FloorEncoder(statement: statement, position: position)
        for row in 0..<Int64(Fixtures.insertCount) {
            position.pointee = 0
            try IntsEncodableRecord(row: row).encode(to: encoder)
            precondition(sqlite3_step(statement) == SQLITE_DONE)
            sqlite3_reset(statement)
        }
        connection.execute("COMMIT")
    }
}

extension APIFloors {
    /// Workload 8b's floor: what an export must do to promise that the
    /// copy is whole and opens with its key, before the copy has its name.
    /// The raw export (`sqlcipher_export` into a temporary file), the file
    /// flushed to disk, a fresh connection that decrypts and authenticates
    /// every page with the copy's key, then the rename and the folder
    /// flushed. Not part of it: the library's checks of its arguments, of
    /// the schema, and its removal of leftovers.
    public static func exportWithProof(from source: RawConnection, to path: String, key: String) {
        let temporaryPath = path + ".floor-tmp"
        source.execute("ATTACH DATABASE '\(temporaryPath)' AS copy KEY '\(key)'")
        source.execute("BEGIN; SELECT sqlcipher_export('copy'); COMMIT")
        source.execute("DETACH DATABASE copy")
        let file = open(temporaryPath, O_RDONLY)
        precondition(file >= 0 && fsync(file) == 0)
        close(file)
        // Every page, as the library reads them: SQLite's page reader when the
        // library has it, else a quick check (this SQLCipher build has no
        // sqlite_dbpage).
        let copy = RawConnection(path: temporaryPath, key: key)
        var statement: OpaquePointer?
        if sqlite3_prepare_v2(copy.handle, "SELECT sum(length(data)) FROM sqlite_dbpage", -1, &statement, nil) != SQLITE_OK {
            sqlite3_finalize(statement)
            statement = copy.prepare("PRAGMA quick_check")
        }
        precondition(sqlite3_step(statement) == SQLITE_ROW)
        sqlite3_finalize(statement)
        precondition(rename(temporaryPath, path) == 0)
        let folder = open((path as NSString).deletingLastPathComponent, O_RDONLY | O_DIRECTORY)
        precondition(folder >= 0 && fsync(folder) == 0)
        close(folder)
    }
}

struct FloorError: Error {}

/// Holds the keyed container of one key type, made once.
final class FloorContainerHolder<Container> {
    let container: Container
    init(_ container: Container) { self.container = container }
}

/// The decoder of the floor: it hands out one keyed container, made for the
/// first row. Its containers hold no reference (the standard library copies
/// them on every call): a statement and the position of the next column.
final class FloorDecoder: Decoder {
    let statement: OpaquePointer
    let position: UnsafeMutablePointer<CInt>
    private var holder: AnyObject?
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(statement: OpaquePointer, position: UnsafeMutablePointer<CInt>) {
        self.statement = statement
        self.position = position
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        // One key type in the floor's workload: the holder is of this type.
        if let holder { return unsafeDowncast(holder, to: FloorContainerHolder<KeyedDecodingContainer<Key>>.self).container }
        let container = KeyedDecodingContainer(FloorKeyedDecodingContainer<Key>(statement: statement, position: position))
        holder = FloorContainerHolder(container)
        return container
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw FloorError() }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { throw FloorError() }
}

struct FloorKeyedDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let statement: OpaquePointer
    let position: UnsafeMutablePointer<CInt>
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { [] }

    /// The next column.
    @inline(__always)
    private func nextColumn() -> CInt {
        let column = position.pointee
        position.pointee = column + 1
        return column
    }

    func contains(_ key: Key) -> Bool { true }

    func decodeNil(forKey key: Key) throws -> Bool {
        sqlite3_column_type(statement, position.pointee) == SQLITE_NULL
    }

    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
        let value = sqlite3_column_value(statement, nextColumn())
        guard sqlite3_value_type(value) != SQLITE_NULL else { throw FloorError() }
        return sqlite3_value_int64(value)
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { throw FloorError() }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey>
    {
        throw FloorError()
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { throw FloorError() }
    func superDecoder() throws -> any Decoder { throw FloorError() }
    func superDecoder(forKey key: Key) throws -> any Decoder { throw FloorError() }
}

/// The encoder of the floor, as its decoder: one keyed container, each key
/// binding the next parameter.
final class FloorEncoder: Encoder {
    let statement: OpaquePointer
    let position: UnsafeMutablePointer<CInt>
    private var holder: AnyObject?
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(statement: OpaquePointer, position: UnsafeMutablePointer<CInt>) {
        self.statement = statement
        self.position = position
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if let holder { return unsafeDowncast(holder, to: FloorContainerHolder<KeyedEncodingContainer<Key>>.self).container }
        let container = KeyedEncodingContainer(FloorKeyedEncodingContainer<Key>(statement: statement, position: position))
        holder = FloorContainerHolder(container)
        return container
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer { fatalError("not in the floor") }
    func singleValueContainer() -> any SingleValueEncodingContainer { fatalError("not in the floor") }
}

struct FloorKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let statement: OpaquePointer
    let position: UnsafeMutablePointer<CInt>
    var codingPath: [any CodingKey] { [] }

    /// The next parameter.
    @inline(__always)
    private func nextParameter() -> CInt {
        let column = position.pointee
        position.pointee = column + 1
        return column + 1
    }

    mutating func encode(_ value: Int64, forKey key: Key) throws {
        sqlite3_bind_int64(statement, nextParameter(), value)
    }

    mutating func encodeNil(forKey key: Key) throws {
        sqlite3_bind_null(statement, nextParameter())
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { throw FloorError() }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey>
    {
        fatalError("not in the floor")
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        fatalError("not in the floor")
    }

    mutating func superEncoder() -> any Encoder { fatalError("not in the floor") }
    mutating func superEncoder(forKey key: Key) -> any Encoder { fatalError("not in the floor") }
}

/// A container with the shape of GRDB's `PersistenceContainer`: values set
/// by column name. Its setter is generic, as GRDBCipher's is beside GRDB's
/// `(any DatabaseValueConvertible)?` one, so that a value of a known type
/// is bound with its own type, at once. A column is expected in the
/// statement's order first (one string comparison), then searched by name.
struct FloorPersistenceContainer {
    let statement: OpaquePointer
    let names: [String]
    private var count = 0

    init(statement: OpaquePointer, names: [String]) {
        self.statement = statement
        self.names = names
    }

    mutating func removeAll() {
        count = 0
    }

    subscript<Value: DatabaseValueConvertible>(column: String) -> Value? {
        get { nil }
        set {
            let index = count < names.count && names[count] == column ? count : names.firstIndex(of: column)!
            if let newValue {
                _ = newValue.bind(to: statement, at: CInt(index + 1))
            } else {
                sqlite3_bind_null(statement, CInt(index + 1))
            }
            count += 1
        }
    }
}

/// `IntsPersistableRecord`, writing into the floor's container.
struct FloorPersistableRecord {
    var c0, c1, c2, c3, c4, c5, c6, c7, c8, c9: Int64

    init(row: Int64) {
        (c0, c1, c2, c3, c4) = (row, row &+ 1, row &+ 2, row &+ 3, row &+ 4)
        (c5, c6, c7, c8, c9) = (row &+ 5, row &+ 6, row &+ 7, row &+ 8, row &+ 9)
    }

    @inline(never)
    func encode(to container: inout FloorPersistenceContainer) {
        container["c0"] = c0
        container["c1"] = c1
        container["c2"] = c2
        container["c3"] = c3
        container["c4"] = c4
        container["c5"] = c5
        container["c6"] = c6
        container["c7"] = c7
        container["c8"] = c8
        container["c9"] = c9
    }
}

/// Holds the array literal of the last row, as a statement holds the
/// arguments of its last run: the next row's array replaces it, and the
/// replaced one is freed then.
final class KeptLiteral {
    private var literal: [(any DatabaseValueConvertible)?] = []

    /// Takes the array as an initializer takes it (owned): out of line, so
    /// that the caller cannot see that it is kept here and nowhere else.
    @inline(never)
    func keep(_ literal: __owned [(any DatabaseValueConvertible)?]) {
        self.literal = literal
    }
}

