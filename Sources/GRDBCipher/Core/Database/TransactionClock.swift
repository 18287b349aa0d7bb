import Foundation

/// What gives ``Database/transactionDate`` its value.
///
/// The connection asks its clock for the date once, when a transaction
/// begins (when the connection leaves SQLite's autocommit mode), and
/// ``Database/transactionDate`` returns that date until the transaction ends.
/// Outside of a transaction, each read of ``Database/transactionDate`` asks
/// the clock again.
///
/// ```swift
/// var config = Configuration()
/// config.transactionClock = .custom { db in fixedDate }
/// ```
public protocol TransactionClock: Sendable {
    /// The date of the transaction that begins now on `db`.
    ///
    /// - throws: Any error, which ``Database/transactionDate`` rethrows.
    func now(_ db: Database) throws -> Date
}

extension TransactionClock where Self == DefaultTransactionClock {
    /// The clock that gives the date at which the transaction began.
    public static var `default`: Self { DefaultTransactionClock() }
}

extension TransactionClock where Self == CustomTransactionClock {
    /// A clock that calls `now` when a transaction begins.
    ///
    /// ```swift
    /// config.transactionClock = .custom { db in
    ///     Date(timeIntervalSince1970: 0)
    /// }
    /// ```
    public static func custom(_ now: @escaping @Sendable (Database) throws -> Date) -> Self {
        CustomTransactionClock(now)
    }
}

/// The default ``TransactionClock``: the system date, read when the
/// transaction begins.
public struct DefaultTransactionClock: TransactionClock {
    /// Returns the current system date.
    public func now(_ db: Database) throws -> Date {
        Date()
    }
}

/// A ``TransactionClock`` that calls a closure.
public struct CustomTransactionClock: TransactionClock {
    private let body: @Sendable (Database) throws -> Date

    /// Creates a clock that calls `now` when a transaction begins.
    public init(_ now: @escaping @Sendable (Database) throws -> Date) {
        body = now
    }

    /// Returns the closure's date.
    ///
    /// - throws: The closure's error.
    public func now(_ db: Database) throws -> Date {
        try body(db)
    }
}
