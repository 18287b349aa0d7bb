import CSQLCipher
import Foundation

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
    /// The values, in one of two forms. A statement keeps the arguments of
    /// each run, so the form of an array literal holds a single reference:
    /// one retain to keep it, one release to let it go (callgrind: three of
    /// each per cached insert when every field had its own).
    private enum Storage: Sendable {
        /// The elements of an array literal, kept as given so that binding
        /// them needs no conversion (see ``LiteralValues``).
        case literal(LiteralValues)
        /// Converted positional values and named values.
        case converted(positional: [DatabaseValue], named: [String: DatabaseValue])
    }

    private var storage: Storage

    /// The positional values, in order.
    public private(set) var values: [DatabaseValue] {
        get {
            switch storage {
            case .literal(let literal): literal.databaseValues
            case .converted(let positional, _): positional
            }
        }
        set { storage = .converted(positional: newValue, named: namedValues) }
    }

    /// The number of positional values.
    @inline(__always)
    var positionalCount: Int {
        switch storage {
        case .literal(let literal): literal.elements.count
        case .converted(let positional, _): positional.count
        }
    }

    /// The named values, keyed by name without the `:`, `$` or `@` prefix.
    public private(set) var namedValues: [String: DatabaseValue] {
        get {
            switch storage {
            case .literal: [:]
            case .converted(_, let named): named
            }
        }
        set { storage = .converted(positional: values, named: newValue) }
    }

    /// Arguments of converted values.
    private init(positional: [DatabaseValue], named: [String: DatabaseValue]) {
        storage = .converted(positional: positional, named: named)
    }

    /// Whether there is no value at all.
    @inline(__always)
    public var isEmpty: Bool {
        switch storage {
        case .literal(let literal): literal.elements.isEmpty
        case .converted(let positional, let named): positional.isEmpty && named.isEmpty
        }
    }

    /// Creates empty arguments.
    public init() {
        self.init(positional: [], named: [:])
    }

    /// Creates positional arguments; nil elements are NULL.
    public init(_ sequence: some Sequence<(any DatabaseValueConvertible)?>) {
        self.init(positional: sequence.map { $0?.databaseValue ?? .null }, named: [:])
    }

    /// Creates positional arguments from convertible values.
    public init<S: Sequence>(_ sequence: S) where S.Element: DatabaseValueConvertible {
        self.init(positional: sequence.map { $0.databaseValue }, named: [:])
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
        self.init(positional: [], named: dictionary.mapValues { $0?.databaseValue ?? .null })
    }

    /// Creates named arguments from key-value pairs; nil values are NULL.
    /// When a name appears twice, the last value wins.
    public init<S: Sequence>(_ pairs: S) where S.Element == (String, (any DatabaseValueConvertible)?) {
        var named: [String: DatabaseValue] = Dictionary(minimumCapacity: pairs.underestimatedCount)
        for (name, value) in pairs {
            named[name] = value?.databaseValue ?? .null
        }
        self.init(positional: [], named: named)
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
        self.init(positional: [], named: namedValues)
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
        var positional = values
        var named = namedValues
        positional.append(contentsOf: arguments.values)
        var replaced: [String: DatabaseValue] = [:]
        for (name, value) in arguments.namedValues {
            if let old = named.updateValue(value, forKey: name) {
                replaced[name] = old
            }
        }
        storage = .converted(positional: positional, named: named)
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

    /// Equal when both hold the same values, whichever way they were made.
    public static func == (lhs: StatementArguments, rhs: StatementArguments) -> Bool {
        lhs.values == rhs.values && lhs.namedValues == rhs.namedValues
    }

    /// Hashes the values, as `==` compares them.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(values)
        hasher.combine(namedValues)
    }

    /// Binds the positional values to parameters 1, 2, ..., and NULL to the
    /// parameters beyond them up to `parameterCount`; values beyond it are
    /// ignored. Returns the first error code, or `SQLITE_OK`.
    @inline(__always)
    func bindPositionalValues(to sqliteStatement: SQLiteStatement, parameterCount: Int) -> CInt {
        let bound: Int
        let code: CInt
        switch storage {
        case .literal(let literal):
            bound = min(literal.elements.count, parameterCount)
            code = literal.bind(to: sqliteStatement, count: bound)
        case .converted(let positional, _):
            bound = min(positional.count, parameterCount)
            code = positional.withUnsafeBufferPointer { buffer in
                for offset in 0..<bound {
                    let code = buffer[offset].bind(to: sqliteStatement, at: CInt(truncatingIfNeeded: offset + 1))
                    if code != SQLITE_OK { return code }
                }
                return SQLITE_OK
            }
        }
        if code != SQLITE_OK { return code }
        for offset in bound..<max(bound, parameterCount) {
            let code = sqlite3_bind_null(sqliteStatement, CInt(truncatingIfNeeded: offset + 1))
            if code != SQLITE_OK { return code }
        }
        return SQLITE_OK
    }
}

extension StatementArguments: ExpressibleByArrayLiteral {
    /// Creates positional arguments: `[1, "text", nil]`.
    public init(arrayLiteral elements: (any DatabaseValueConvertible)?...) {
        if OptionalExistentialLayout.isKnown && LiteralValues.acceptsAll(elements) {
            storage = .literal(LiteralValues(accepted: elements))
        } else {
            storage = .converted(positional: OptionalExistentialLayout.convert(elements), named: [:])
        }
    }
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
    /// The positional values, converted once.
    private let positional: [DatabaseValue]
    private let publicStatementArguments: Bool
    private var position = 0

    init(_ arguments: StatementArguments, publicStatementArguments: Bool) {
        self.arguments = arguments
        self.positional = arguments.values
        self.publicStatementArguments = publicStatementArguments
    }

    /// The names of a statement's parameters, without their `:`, `$` or `@`
    /// prefix; nil for `?` and `?NNN`.
    /// Whether one of a statement's parameters has a name (`:name`,
    /// `$name`, `@name`); `?` and `?NNN` have none.
    static func hasNamedParameters(_ sqliteStatement: OpaquePointer) -> Bool {
        (0..<sqlite3_bind_parameter_count(sqliteStatement)).contains { index in
            guard let cName = sqlite3_bind_parameter_name(sqliteStatement, index + 1) else { return false }
            return cName.pointee != CChar(UInt8(ascii: "?"))
        }
    }

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
        // Errors count the positional values this statement was offered, as GRDB does.
        let offered = positional.count - position
        for name in parameterNames {
            if let name, let value = arguments.namedValues[name] {
                result.append(value)
                continue
            }
            guard position < positional.count else {
                let message = name.map { "missing statement argument: \($0)" }
                    ?? "wrong number of statement arguments: \(offered)"
                throw DatabaseError.misuse(message, sql: sql)
            }
            result.append(positional[position])
            position += 1
        }
        return result
    }

    /// Throws if positional values were left unused. `sql` is the statement
    /// the values were meant for; nil after the last statement of several,
    /// where GRDB's error names no statement.
    func checkAllConsumed(sql: String?) throws {
        if position < positional.count {
            throw DatabaseError.misuse("wrong number of statement arguments: \(positional.count)", sql: sql)
        }
    }
}
