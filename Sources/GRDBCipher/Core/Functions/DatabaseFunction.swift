import CSQLCipher
import Foundation

/// A custom SQL function or aggregate, written in Swift.
///
/// ```swift
/// let succ = DatabaseFunction("succ", argumentCount: 1, pure: true) { values in
///     Int.fromDatabaseValue(values[0]).map { $0 + 1 }
/// }
/// db.add(function: succ)
/// try Int.fetchOne(db, sql: "SELECT succ(1)") // 2
/// ```
///
/// An error thrown by the function makes the statement fail with that
/// error's message (and result code, for a ``DatabaseError``).
public final class DatabaseFunction: Sendable {
    /// The SQL name of the function.
    public let name: String

    /// The number of arguments, or nil for a variadic function.
    public let argumentCount: Int?

    /// Whether the function returns the same result for the same arguments,
    /// which lets SQLite optimize and use it in indexes.
    public let isPure: Bool

    let kind: Kind

    enum Kind: Sendable {
        case function(@Sendable ([DatabaseValue]) throws -> (any DatabaseValueConvertible)?)
        case aggregate(@Sendable () -> any DatabaseAggregate)
    }

    /// Creates a scalar function.
    ///
    /// - parameters:
    ///   - name: The SQL name.
    ///   - argumentCount: The number of arguments, or nil for any number.
    ///   - pure: Whether the result only depends on the arguments. Default false.
    ///   - function: Receives exactly `argumentCount` values (when not nil) and
    ///     returns the result; nil is NULL.
    public init(
        _ name: String,
        argumentCount: Int? = nil,
        pure: Bool = false,
        function: @escaping @Sendable ([DatabaseValue]) throws -> (any DatabaseValueConvertible)?)
    {
        self.name = name
        self.argumentCount = argumentCount
        self.isPure = pure
        self.kind = .function(function)
    }

    /// Creates an aggregate function: a new `Aggregate` is made for each group,
    /// receives each row's arguments through `step`, and gives the result
    /// through `finalize`.
    ///
    /// - parameters:
    ///   - name: The SQL name.
    ///   - argumentCount: The number of arguments, or nil for any number.
    ///   - pure: Whether the result only depends on the arguments. Default false.
    ///   - aggregate: The aggregate type.
    public init<Aggregate: DatabaseAggregate>(
        _ name: String,
        argumentCount: Int? = nil,
        pure: Bool = false,
        aggregate: Aggregate.Type)
    {
        self.name = name
        self.argumentCount = argumentCount
        self.isPure = pure
        self.kind = .aggregate { Aggregate() }
    }

    var sqliteArgumentCount: CInt { argumentCount.map(CInt.init) ?? -1 }

    var textEncodingFlags: CInt {
        SQLITE_UTF8 | (isPure ? SQLITE_DETERMINISTIC : 0)
    }
}

/// A custom aggregate: one value is created for each group of rows.
///
/// ```swift
/// struct MySum: DatabaseAggregate {
///     var sum: Int = 0
///     mutating func step(_ values: [DatabaseValue]) {
///         sum += Int.fromDatabaseValue(values[0]) ?? 0
///     }
///     func finalize() -> (any DatabaseValueConvertible)? { sum }
/// }
/// db.add(function: DatabaseFunction("mysum", argumentCount: 1, aggregate: MySum.self))
/// ```
public protocol DatabaseAggregate: SendableMetatype {
    /// Creates an aggregate for a new group.
    init()

    /// Adds the arguments of one row.
    ///
    /// - throws: Any error, which fails the statement.
    mutating func step(_ dbValues: [DatabaseValue]) throws

    /// Returns the result for the group; nil is NULL.
    ///
    /// - throws: Any error, which fails the statement.
    func finalize() throws -> (any DatabaseValueConvertible)?
}

/// The state of one aggregate group, kept in SQLite's aggregate context.
private final class AggregateState {
    var aggregate: any DatabaseAggregate
    /// Whether `step` threw: the statement fails, and `finalize` is not called.
    var hasFailed = false
    init(_ aggregate: any DatabaseAggregate) { self.aggregate = aggregate }
}

extension Database {
    /// Adds or replaces an SQL function on this connection.
    ///
    /// To add it to every connection of a queue or pool, add it from
    /// ``Configuration/prepareDatabase(_:)``.
    public func add(function: DatabaseFunction) {
        guard let sqliteConnection else { return }
        addedFunctions[function.registrationKey] = function
        let context = Unmanaged.passRetained(function).toOpaque()
        let destroy: @convention(c) (UnsafeMutableRawPointer?) -> Void = { context in
            Unmanaged<DatabaseFunction>.fromOpaque(context!).release()
        }
        let code: CInt
        switch function.kind {
        case .function:
            code = sqlite3_create_function_v2(
                sqliteConnection, function.name, function.sqliteArgumentCount, function.textEncodingFlags, context,
                { sqliteContext, argc, argv in
                    let function = Unmanaged<DatabaseFunction>.fromOpaque(sqlite3_user_data(sqliteContext)).takeUnretainedValue()
                    guard case .function(let body) = function.kind else { return }
                    do {
                        let result = try body(functionArguments(argc, argv))
                        (result?.databaseValue ?? .null).setResult(of: sqliteContext)
                    } catch {
                        setError(error, on: sqliteContext)
                    }
                }, nil, nil, destroy)
        case .aggregate:
            code = sqlite3_create_function_v2(
                sqliteConnection, function.name, function.sqliteArgumentCount, function.textEncodingFlags, context,
                nil,
                { sqliteContext, argc, argv in
                    guard let state = aggregateState(sqliteContext, create: true) else {
                        sqlite3_result_error_nomem(sqliteContext)
                        return
                    }
                    // SQLite stops the statement at the first error, but
                    // may still call step for another group of the same row.
                    if state.hasFailed { return }
                    do {
                        try state.aggregate.step(functionArguments(argc, argv))
                    } catch {
                        state.hasFailed = true
                        setError(error, on: sqliteContext)
                    }
                },
                { sqliteContext in
                    // A group without rows never stepped: finalize a fresh aggregate.
                    let state = aggregateState(sqliteContext, create: false)
                    let function = Unmanaged<DatabaseFunction>.fromOpaque(sqlite3_user_data(sqliteContext)).takeUnretainedValue()
                    guard case .aggregate(let makeAggregate) = function.kind else { return }
                    let aggregate = state?.aggregate ?? makeAggregate()
                    releaseAggregateState(sqliteContext)
                    // After a failed step, SQLite only finalizes to clean up:
                    // the error is already the statement's.
                    if state?.hasFailed == true { return }
                    do {
                        let result = try aggregate.finalize()
                        (result?.databaseValue ?? .null).setResult(of: sqliteContext)
                    } catch {
                        setError(error, on: sqliteContext)
                    }
                }, destroy)
        }
        // SQLite calls `destroy` itself when registration fails.
        precondition(code == SQLITE_OK, "could not add function \(function.name): \(String(cString: sqlite3_errstr(code)))")
    }

    /// Removes an SQL function from this connection.
    public func remove(function: DatabaseFunction) {
        guard let sqliteConnection else { return }
        addedFunctions[function.registrationKey] = nil
        sqlite3_create_function_v2(
            sqliteConnection, function.name, function.sqliteArgumentCount, function.textEncodingFlags,
            nil, nil, nil, nil, nil)
    }
}

extension DatabaseFunction {
    /// SQLite tells functions apart by name and argument count.
    var registrationKey: String { "\(name.lowercased())/\(sqliteArgumentCount)" }
}

private func functionArguments(_ argc: CInt, _ argv: UnsafeMutablePointer<OpaquePointer?>?) -> [DatabaseValue] {
    (0..<Int(argc)).map { DatabaseValue(sqliteValue: argv![$0]!) }
}

private func setError(_ error: any Error, on sqliteContext: OpaquePointer?) {
    if let error = error as? DatabaseError {
        // Without a message, SQLite's own message for the code (as in GRDB).
        if let message = error.message {
            sqlite3_result_error(sqliteContext, message, -1)
        }
        sqlite3_result_error_code(sqliteContext, error.extendedResultCode.rawValue)
    } else {
        sqlite3_result_error(sqliteContext, "\(error)", -1)
    }
}

/// The aggregate context holds one retained pointer to the group's state.
private func aggregateState(_ sqliteContext: OpaquePointer?, create: Bool) -> AggregateState? {
    let size = create ? CInt(MemoryLayout<UnsafeMutableRawPointer?>.size) : 0
    guard let slot = sqlite3_aggregate_context(sqliteContext, size)?
        .assumingMemoryBound(to: UnsafeMutableRawPointer?.self) else { return nil }
    if let pointer = slot.pointee {
        return Unmanaged<AggregateState>.fromOpaque(pointer).takeUnretainedValue()
    }
    guard create else { return nil }
    let function = Unmanaged<DatabaseFunction>.fromOpaque(sqlite3_user_data(sqliteContext)).takeUnretainedValue()
    guard case .aggregate(let makeAggregate) = function.kind else { return nil }
    let state = AggregateState(makeAggregate())
    slot.pointee = Unmanaged.passRetained(state).toOpaque()
    return state
}

private func releaseAggregateState(_ sqliteContext: OpaquePointer?) {
    guard let slot = sqlite3_aggregate_context(sqliteContext, 0)?
        .assumingMemoryBound(to: UnsafeMutableRawPointer?.self),
        let pointer = slot.pointee else { return }
    Unmanaged<AggregateState>.fromOpaque(pointer).release()
    slot.pointee = nil
}
