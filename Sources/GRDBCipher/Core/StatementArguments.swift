import CSQLCipher

/// The values bound to the parameters of a statement: positional (`?`) and named
/// (`:name`, `$name`, `@name`).
///
/// ```swift
/// try db.execute(sql: "INSERT INTO player (name, score) VALUES (?, ?)", arguments: ["Arthur", 1000])
/// try db.execute(sql: "INSERT INTO player (name, score) VALUES (:name, :score)",
///                arguments: ["name": "Barbara", "score": 1000])
/// ```
///
/// A named parameter takes its value from the named values; if none has its
/// name, it takes the next positional value, like a `?`. A statement that
/// lacks a value, or leaves positional values unused, throws a
/// ``DatabaseError`` before it runs.
public struct StatementArguments: Hashable, Sendable, CustomStringConvertible {
    /// The positional values, in order.
    public private(set) var values: [DatabaseValue]

    /// The named values, keyed by name without the `:`, `$` or `@` prefix.
    public private(set) var namedValues: [String: DatabaseValue]

    /// Whether there is no value at all.
    public var isEmpty: Bool { values.isEmpty && namedValues.isEmpty }

    /// Creates empty arguments.
    public init() {
        values = []
        namedValues = [:]
    }

    /// Creates positional arguments; nil elements are NULL.
    public init(_ sequence: some Sequence<(any DatabaseValueConvertible)?>) {
        values = sequence.map { $0?.databaseValue ?? .null }
        namedValues = [:]
    }

    /// Creates positional arguments from convertible values.
    public init<S: Sequence>(_ sequence: S) where S.Element: DatabaseValueConvertible {
        values = sequence.map(\.databaseValue)
        namedValues = [:]
    }

    /// Creates positional arguments from an array of any values, or nil if
    /// an element is not ``DatabaseValueConvertible``.
    ///
    /// ```swift
    /// let values: [Any] = ["Arthur", 1000]
    /// let arguments = StatementArguments(values)!   // ["Arthur", 1000]
    /// StatementArguments([[1, 2]] as [Any])          // nil: an array is not convertible
    /// ```
    public init?(_ array: [Any]) {
        var values: [DatabaseValue] = []
        values.reserveCapacity(array.count)
        for element in array {
            guard let dbValue = DatabaseValue(value: element) else { return nil }
            values.append(dbValue)
        }
        self.init(values)
    }

    /// Creates named arguments; nil values are NULL.
    public init(_ dictionary: [String: (any DatabaseValueConvertible)?]) {
        values = []
        namedValues = dictionary.mapValues { $0?.databaseValue ?? .null }
    }

    /// Creates named arguments from key-value pairs; nil values are NULL.
    /// When a name appears twice, the last value wins.
    public init<S: Sequence>(_ pairs: S) where S.Element == (String, (any DatabaseValueConvertible)?) {
        values = []
        namedValues = Dictionary(minimumCapacity: pairs.underestimatedCount)
        for (name, value) in pairs {
            namedValues[name] = value?.databaseValue ?? .null
        }
    }

    /// Creates named arguments from a dictionary of any values, or nil unless
    /// every key is a `String` and every value is ``DatabaseValueConvertible``.
    ///
    /// ```swift
    /// let json: [String: Any] = ["name": "Arthur", "score": 1000]
    /// try db.execute(
    ///     sql: "INSERT INTO player (name, score) VALUES (:name, :score)",
    ///     arguments: StatementArguments(json)!)
    /// ```
    public init?(_ dictionary: [AnyHashable: Any]) {
        var namedValues: [String: DatabaseValue] = Dictionary(minimumCapacity: dictionary.count)
        for (key, value) in dictionary {
            guard let name = key as? String, let dbValue = DatabaseValue(value: value) else { return nil }
            namedValues[name] = dbValue
        }
        self.values = []
        self.namedValues = namedValues
    }

    /// Appends positional values and inserts named values, replacing the named
    /// values of the same names. Returns the values that were replaced.
    ///
    /// ```swift
    /// var arguments: StatementArguments = ["foo": 1, "bar": 2]
    /// let replaced = arguments.append(contentsOf: ["foo": 3, 4])
    /// print(arguments)  // ["bar": 2, "foo": 3, 4]
    /// print(replaced)   // ["foo": 1]
    /// ```
    @discardableResult
    public mutating func append(contentsOf arguments: StatementArguments) -> [String: DatabaseValue] {
        values.append(contentsOf: arguments.values)
        var replaced: [String: DatabaseValue] = [:]
        for (name, value) in arguments.namedValues {
            if let old = namedValues.updateValue(value, forKey: name) {
                replaced[name] = old
            }
        }
        return replaced
    }

    /// Concatenates positional values and merges named values. Traps if both
    /// sides define the same name: use `&+` to let the right side win.
    ///
    /// ```swift
    /// let arguments: StatementArguments = ["foo": 1] + [2, 3]  // ["foo": 1, 2, 3]
    /// ```
    public static func + (lhs: StatementArguments, rhs: StatementArguments) -> StatementArguments {
        var result = lhs
        result += rhs
        return result
    }

    /// Concatenates positional values and merges named values; for a name that
    /// both sides define, the right side wins.
    ///
    /// ```swift
    /// let arguments: StatementArguments = ["foo": 1] &+ ["foo": 2]  // ["foo": 2]
    /// ```
    public static func &+ (lhs: StatementArguments, rhs: StatementArguments) -> StatementArguments {
        var result = lhs
        result.append(contentsOf: rhs)
        return result
    }

    /// Appends positional values and named values. Traps if a name is already
    /// defined: use ``append(contentsOf:)`` to replace it.
    ///
    /// ```swift
    /// var arguments: StatementArguments = ["Arthur"]
    /// arguments += [1000]   // ["Arthur", 1000]
    /// ```
    public static func += (lhs: inout StatementArguments, rhs: StatementArguments) {
        let replaced = lhs.append(contentsOf: rhs)
        precondition(replaced.isEmpty, "already defined statement argument: \(replaced.keys.sorted().joined(separator: ", "))")
    }

    /// The arguments as GRDB prints them: named values first (sorted by
    /// name), then positional ones: `["name": "Arthur", 1, NULL]`. Arguments
    /// hold user data: they are only shown in errors when
    /// ``Configuration/publicStatementArguments`` is true.
    public var description: String {
        let named = namedValues.sorted { $0.key < $1.key }.map { "\(String(reflecting: $0.key)): \($0.value)" }
        let positional = values.map(\.description)
        return "[" + (named + positional).joined(separator: ", ") + "]"
    }
}

extension StatementArguments: ExpressibleByArrayLiteral {
    /// Creates positional arguments: `[1, "text", nil]`.
    public init(arrayLiteral elements: (any DatabaseValueConvertible)?...) {
        values = Self.convert(elements)
        namedValues = Dictionary()
    }

    /// Converts literal elements. `element?.databaseValue`, and even
    /// `element == nil`, copy the optional existential and ask its type for
    /// the enum tag, which costs more than the conversion itself on the path
    /// of every cached insert (callgrind: 15% of a cached insert). Here nil
    /// is told by the metadata word of the container, where Swift stores it
    /// (an optional existential adds no tag byte), and a non-nil element is
    /// read as the existential it wraps. `optionalExistentialLayoutIsKnown`
    /// checks that layout once, on values whose bits are zero too; the plain
    /// conversion runs if it ever differs.
    private static func convert(_ elements: [(any DatabaseValueConvertible)?]) -> [DatabaseValue] {
        guard optionalExistentialLayoutIsKnown else {
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
    private static func databaseValue(at element: UnsafePointer<(any DatabaseValueConvertible)?>) -> DatabaseValue {
        let metadataWord = UnsafeRawPointer(element).load(fromByteOffset: 3 * MemoryLayout<Int>.size, as: Int.self)
        if metadataWord == 0 { return .null }
        return element.withMemoryRebound(to: (any DatabaseValueConvertible).self, capacity: 1) {
            $0.pointee.databaseValue
        }
    }

    /// Whether optional existentials have the layout `convert` relies on: no
    /// tag byte, the metadata word fourth, zero for nil only.
    private static let optionalExistentialLayoutIsKnown: Bool = {
        guard MemoryLayout<(any DatabaseValueConvertible)?>.size == MemoryLayout<any DatabaseValueConvertible>.size,
              MemoryLayout<any DatabaseValueConvertible>.size == 5 * MemoryLayout<Int>.size else { return false }
        let samples: [(any DatabaseValueConvertible)?] = [nil, 0, false, 0.0, "", 42, "text", nil]
        let expected: [DatabaseValue] = samples.map { $0?.databaseValue ?? .null }
        return samples.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return false }
            return (0..<buffer.count).map { databaseValue(at: base + $0) } == expected
        }
    }()
}

extension StatementArguments: ExpressibleByDictionaryLiteral {
    /// Creates named arguments: `["name": "Arthur", "score": 1000]`.
    public init(dictionaryLiteral elements: (String, (any DatabaseValueConvertible)?)...) {
        self.init(elements)
    }
}

/// Binds arguments to statements, consuming positional values in order, so that
/// a string of several statements can share one argument list.
struct ArgumentConsumer {
    private let arguments: StatementArguments
    private let publicStatementArguments: Bool
    private var position = 0

    init(_ arguments: StatementArguments, publicStatementArguments: Bool) {
        self.arguments = arguments
        self.publicStatementArguments = publicStatementArguments
    }

    /// The names of a statement's parameters, without their `:`, `$` or `@`
    /// prefix; nil for `?` and `?NNN`.
    static func parameterNames(of sqliteStatement: OpaquePointer) -> [String?] {
        (0..<sqlite3_bind_parameter_count(sqliteStatement)).map { index in
            guard let cName = sqlite3_bind_parameter_name(sqliteStatement, index + 1),
                  cName.pointee != CChar(UInt8(ascii: "?")) else { return nil }
            return String(cString: cName + 1)
        }
    }

    /// Returns the value of each parameter, without binding anything, or
    /// throws if one is missing.
    mutating func values(forParameters parameterNames: [String?], sql: String) throws -> [DatabaseValue] {
        var result: [DatabaseValue] = []
        result.reserveCapacity(parameterNames.count)
        for name in parameterNames {
            if let name, let value = arguments.namedValues[name] {
                result.append(value)
                continue
            }
            guard position < arguments.values.count else {
                let message = name.map { "missing statement argument: \($0)" }
                    ?? "wrong number of statement arguments: \(arguments.values.count) given, more expected"
                throw DatabaseError.misuse(
                    message, sql: sql, arguments: arguments, publicStatementArguments: publicStatementArguments)
            }
            result.append(arguments.values[position])
            position += 1
        }
        return result
    }

    /// Throws if positional values were left unused.
    func checkAllConsumed(sql: String) throws {
        if position < arguments.values.count {
            throw DatabaseError.misuse(
                "wrong number of statement arguments: \(arguments.values.count) given, \(position) expected",
                sql: sql, arguments: arguments, publicStatementArguments: publicStatementArguments)
        }
    }
}
