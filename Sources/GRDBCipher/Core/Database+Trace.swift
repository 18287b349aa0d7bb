import CSQLCipher
import Foundation

extension Database {
    /// What ``Database/trace(options:_:)`` reports.
    public struct TracingOptions: OptionSet, Sendable {
        /// The raw `SQLITE_TRACE_*` mask.
        public let rawValue: CInt

        /// Creates options from a raw `SQLITE_TRACE_*` mask.
        public init(rawValue: CInt) {
            self.rawValue = rawValue
        }

        /// Each statement as it starts.
        public static let statement = TracingOptions(rawValue: CInt(SQLITE_TRACE_STMT))

        /// Each statement when it ends, with its duration.
        public static let profile = TracingOptions(rawValue: CInt(SQLITE_TRACE_PROFILE))
    }

    /// An event reported by ``Database/trace(options:_:)``.
    public enum TraceEvent: CustomStringConvertible {
        /// A traced statement.
        public struct Statement: CustomStringConvertible {
            private let sqliteStatement: SQLiteStatement
            private let publicStatementArguments: Bool

            init(sqliteStatement: SQLiteStatement, publicStatementArguments: Bool) {
                self.sqliteStatement = sqliteStatement
                self.publicStatementArguments = publicStatementArguments
            }

            /// The SQL of the statement. A statement that carries a key is
            /// redacted.
            public var sql: String {
                SecretRedaction.redactedSQL(String(cString: sqlite3_sql(sqliteStatement)))
            }

            /// The SQL with its arguments inlined. It contains user data.
            public var expandedSQL: String {
                guard let cString = sqlite3_expanded_sql(sqliteStatement) else { return sql }
                defer { sqlite3_free(cString) }
                return SecretRedaction.redactedSQL(String(cString: cString))
            }

            /// The SQL, with arguments inlined only when
            /// ``Configuration/publicStatementArguments`` is true.
            public var description: String {
                publicStatementArguments ? expandedSQL : sql
            }
        }

        /// A statement starts.
        case statement(Statement)

        /// A statement ended after `duration` seconds.
        case profile(statement: Statement, duration: TimeInterval)

        /// The SQL, and the duration for a profile event.
        public var description: String {
            switch self {
            case .statement(let statement):
                return statement.description
            case .profile(let statement, let duration):
                return String(format: "%.3f", duration) + "s " + statement.description
            }
        }
    }

    /// Reports the statements that run on this connection, or stops reporting
    /// when `trace` is nil. Statements that carry a key are redacted.
    ///
    /// ```swift
    /// db.trace { print("SQL: \($0)") }
    /// db.trace(options: .profile) { print($0) }
    /// ```
    public func trace(options: TracingOptions = .statement, _ trace: ((TraceEvent) -> Void)? = nil) {
        guard let sqliteConnection else { return }
        traceCallback = trace
        traceOptions = options
        guard trace != nil, !options.isEmpty else {
            sqlite3_trace_v2(sqliteConnection, 0, nil, nil)
            return
        }
        let context = Unmanaged.passUnretained(self).toOpaque()
        sqlite3_trace_v2(sqliteConnection, UInt32(options.rawValue), { mask, context, p, x in
            guard let context, let p else { return 0 }
            let db = Unmanaged<Database>.fromOpaque(context).takeUnretainedValue()
            guard let callback = db.traceCallback else { return 0 }
            let statement = TraceEvent.Statement(
                sqliteStatement: OpaquePointer(p),
                publicStatementArguments: db.configuration.publicStatementArguments)
            if mask == UInt32(SQLITE_TRACE_STMT) {
                callback(.statement(statement))
            } else if mask == UInt32(SQLITE_TRACE_PROFILE), let x {
                let nanoseconds = x.assumingMemoryBound(to: Int64.self).pointee
                callback(.profile(statement: statement, duration: TimeInterval(nanoseconds) / 1e9))
            }
            return 0
        }, context)
    }
}
