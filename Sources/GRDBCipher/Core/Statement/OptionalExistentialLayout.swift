import CSQLCipher
import Foundation

// The fast paths that read Swift's layout of `(any DatabaseValueConvertible)?`
// in place, all of them here: the array-literal arguments of statements
// (`[1, "text", nil]`) and the values set in a `PersistenceContainer`.
//
// They rely on a layout that Swift does not promise: five words, no tag
// byte for the optional, the type metadata in the fourth word, zero for
// nil only, and integers, reals and strings stored inline from the first
// word. `OptionalExistentialLayout.isKnown` checks it once against the
// conversion through the witness table; if it ever differs, every path
// here falls back to that conversion. A test fails when the check says
// the layout is not the known one, so that the fast paths are never
// turned off in silence.

/// Reads of optional existentials in place (see the top of this file).
enum OptionalExistentialLayout {
    /// Converts literal elements. `element?.databaseValue`, and even
    /// `element == nil`, copy the optional existential and ask its type for
    /// the enum tag, which costs more than the conversion itself on the path
    /// of every cached insert (callgrind: 15% of a cached insert). Here nil
    /// is told by the metadata word of the container, where Swift stores it
    /// (an optional existential adds no tag byte), and a non-nil element is
    /// read as the existential it wraps. `isKnown`
    /// checks that layout once, on values whose bits are zero too; the plain
    /// conversion runs if it ever differs.
    static func convert(_ elements: [(any DatabaseValueConvertible)?]) -> [DatabaseValue] {
        guard isKnown else {
            return elements.map { $0?.databaseValue ?? .null }
        }
        return elements.withUnsafeBufferPointer { buffer in
            var values: [DatabaseValue] = []
            values.reserveCapacity(buffer.count)
            guard let base = buffer.baseAddress else { return values }
            for index in 0..<buffer.count {
                values.append(databaseValue(at: base + index))
            }
            return values
        }
    }

    /// The value of the optional existential at `element`, read in place.
    @inline(__always)
    static func databaseValue(at element: UnsafePointer<(any DatabaseValueConvertible)?>) -> DatabaseValue {
        let metadataWord = UnsafeRawPointer(element).load(fromByteOffset: 3 * MemoryLayout<Int>.size, as: Int.self)
        if metadataWord == 0 { return .null }
        return element.withMemoryRebound(to: (any DatabaseValueConvertible).self, capacity: 1) {
            $0.pointee.databaseValue
        }
    }

    /// Whether optional existentials have the layout `convert` relies on: no
    /// tag byte, the metadata word fourth, zero for nil only.
    static let isKnown: Bool = {
        guard MemoryLayout<(any DatabaseValueConvertible)?>.size == MemoryLayout<any DatabaseValueConvertible>.size,
              MemoryLayout<any DatabaseValueConvertible>.size == 5 * MemoryLayout<Int>.size else { return false }
        let samples: [(any DatabaseValueConvertible)?] = [
            nil, 0, false, 0.0, "", 42, "text", nil, Int64.min, -1.5, Int.max,
            "a string too long to be stored in the bits of String itself",
        ]
        let expected: [DatabaseValue] = samples.map { $0?.databaseValue ?? .null }
        return samples.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return false }
            return (0..<buffer.count).allSatisfy { index in
                let element = base + index
                let inline = LiteralValues.inlineDatabaseValue(at: element) ?? expected[index]
                return databaseValue(at: element) == expected[index] && inline == expected[index]
            }
        }
    }()
}

/// The elements of an array literal of arguments, kept as they were given
/// when each one is nil or a value of a standard type (integers, `Double`,
/// `Float`, `Bool`, `String`, `Data`): those are immutable and `Sendable`,
/// and binding them through ``DatabaseValueConvertible/bind(to:at:)`` costs
/// less than converting them to ``DatabaseValue`` first. Any other element
/// makes the literal convert its values at once.
struct LiteralValues: @unchecked Sendable {
    // Safe: `init` only accepts elements whose dynamic types are the
    // ones `accepts` lists, all Sendable value types.
    let elements: [(any DatabaseValueConvertible)?]

    /// The metadata word of a type, as the existential container stores
    /// it. The standard library's types have static metadata: the word is
    /// the address of a symbol, a constant (a static table of words cost a
    /// `swift_once` and a retain per use: callgrind).
    @inline(__always)
    static func metadataWord(of type: Any.Type) -> Int {
        unsafeBitCast(type, to: Int.self)
    }

    /// Whether an element of this metadata word is kept as given: nil, or
    /// one of the standard types.
    @inline(__always)
    static func accepts(_ metadata: Int) -> Bool {
        // `Int64` first, alone: in a chain of `||` the optimizer tests the
        // cases in an order of its own.
        if _fastPath(metadata == metadataWord(of: Int64.self)) { return true }
        return acceptsOther(metadata)
    }

    @inline(never)
    private static func acceptsOther(_ metadata: Int) -> Bool {
        if metadata == 0 || metadata == metadataWord(of: Int.self) || metadata == metadataWord(of: Double.self)
            || metadata == metadataWord(of: String.self)
        {
            return true
        }
        // Compared one by one: an array of the types would be allocated
        // on every call.
        return metadata == metadataWord(of: Bool.self) || metadata == metadataWord(of: Int32.self)
            || metadata == metadataWord(of: Int16.self) || metadata == metadataWord(of: Int8.self)
            || metadata == metadataWord(of: UInt8.self) || metadata == metadataWord(of: UInt16.self)
            || metadata == metadataWord(of: UInt32.self) || metadata == metadataWord(of: Float.self)
            || metadata == metadataWord(of: Data.self)
    }

    /// Whether every element is nil or of an accepted type. The caller
    /// checked `OptionalExistentialLayout.isKnown`.
    static func acceptsAll(_ elements: borrowing [(any DatabaseValueConvertible)?]) -> Bool {
        elements.withUnsafeBufferPointer { buffer -> Bool in
            guard let base = buffer.baseAddress else { return true }
            for index in 0..<buffer.count where !accepts(metadataWord(at: base + index)) {
                return false
            }
            return true
        }
    }

    /// Keeps elements that ``acceptsAll(_:)`` accepted. Takes the array
    /// (`consuming`), so that keeping it costs no retain.
    init(accepted elements: consuming [(any DatabaseValueConvertible)?]) {
        self.elements = elements
    }

    /// The type metadata word of an optional existential: 0 for nil.
    @inline(__always)
    static func metadataWord(at element: UnsafePointer<(any DatabaseValueConvertible)?>) -> Int {
        UnsafeRawPointer(element).load(fromByteOffset: 3 * MemoryLayout<Int>.size, as: Int.self)
    }

    var databaseValues: [DatabaseValue] {
        elements.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return [] }
            return (0..<buffer.count).map { OptionalExistentialLayout.databaseValue(at: base + $0) }
        }
    }

    /// Binds the first `count` elements to parameters 1 to `count`.
    ///
    /// Integers, reals and strings are read where the existential container
    /// stores them inline (its first words), with no copy of the container
    /// and no call through its witness table: per value, that was most of
    /// the cost of `setUncheckedArguments` (callgrind).
    /// `OptionalExistentialLayout.isKnown` checks these
    /// reads once, against the conversion through the witness table.
    @inline(__always)
    func bind(to sqliteStatement: SQLiteStatement, count: Int) -> CInt {
        elements.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return SQLITE_OK }
            for offset in 0..<count {
                let code = Self.bind(base + offset, to: sqliteStatement, at: CInt(truncatingIfNeeded: offset + 1))
                if code != SQLITE_OK { return code }
            }
            return SQLITE_OK
        }
    }

    @inline(__always)
    private static func bind(
        _ element: UnsafePointer<(any DatabaseValueConvertible)?>,
        to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt
    {
        let metadata = metadataWord(at: element)
        let payload = UnsafeRawPointer(element)
        if metadata == metadataWord(of: Int64.self) {
            return sqlite3_bind_int64(sqliteStatement, index, payload.load(as: Int64.self))
        }
        if metadata == 0 { return sqlite3_bind_null(sqliteStatement, index) }
        if metadata == metadataWord(of: Int.self) {
            return sqlite3_bind_int64(sqliteStatement, index, Int64(payload.load(as: Int.self)))
        }
        if metadata == metadataWord(of: Double.self) {
            return sqlite3_bind_double(sqliteStatement, index, payload.load(as: Double.self))
        }
        if metadata == metadataWord(of: String.self) {
            return payload.assumingMemoryBound(to: String.self).pointee.bind(to: sqliteStatement, at: index)
        }
        return element.withMemoryRebound(to: (any DatabaseValueConvertible).self, capacity: 1) {
            $0.pointee.bind(to: sqliteStatement, at: index)
        }
    }

    /// The value of an element, read as `bind` reads it.
    static func inlineDatabaseValue(at element: UnsafePointer<(any DatabaseValueConvertible)?>) -> DatabaseValue? {
        let metadata = metadataWord(at: element)
        let payload = UnsafeRawPointer(element)
        if metadata == 0 { return .null }
        if metadata == metadataWord(of: Int64.self) { return payload.load(as: Int64.self).databaseValue }
        if metadata == metadataWord(of: Int.self) { return payload.load(as: Int.self).databaseValue }
        if metadata == metadataWord(of: Double.self) { return payload.load(as: Double.self).databaseValue }
        if metadata == metadataWord(of: String.self) {
            return payload.assumingMemoryBound(to: String.self).pointee.databaseValue
        }
        return nil
    }
}

