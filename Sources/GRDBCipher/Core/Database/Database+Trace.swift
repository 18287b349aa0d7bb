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
            /// What SQLite reports for a statement that starts: its SQL, or
            /// a `-- ` comment for a trigger's statements.
            private let unexpandedSQL: UnsafePointer<CChar>?
            private let publicStatementArguments: Bool

            init(sqliteStatement: SQLiteStatement, unexpandedSQL: UnsafePointer<CChar>?, publicStatementArguments: Bool) {
                self.sqliteStatement = sqliteStatement
                self.unexpandedSQL = unexpandedSQL
                self.publicStatementArguments = publicStatementArguments
            }

            /// The comment SQLite reports for the statements of a trigger.
            private var triggerComment: String? {
                guard let unexpandedSQL else { return nil }
                let text = String(cString: unexpandedSQL)
                return text.hasPrefix("--") ? text : nil
            }

            /// The SQL of the statement, without the whitespace and `;`
            /// around it, parameters not expanded. A statement that carries
            /// a key is redacted.
            public var sql: String {
                if let triggerComment { return triggerComment }
                return SecretRedaction.redactedSQL(String(cString: sqlite3_sql(sqliteStatement)).trimmedSQLStatement)
            }

            /// The SQL with its arguments inlined. It contains user data.
            public var expandedSQL: String {
                if let triggerComment { return triggerComment }
                guard let cString = sqlite3_expanded_sql(sqliteStatement) else { return "" }
                defer { sqlite3_free(cString) }
                return SecretRedaction.redactedSQL(String(cString: cString).trimmedSQLStatement)
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

        /// The description with the arguments inlined, whatever
        /// ``Configuration/publicStatementArguments`` says. It contains user
        /// data: for local debugging.
        public var expandedDescription: String {
            switch self {
            case .statement(let statement):
                return statement.expandedSQL
            case .profile(let statement, let duration):
                return String(format: "%.3f", duration) + "s " + statement.expandedSQL
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
            let isStart = mask == UInt32(SQLITE_TRACE_STMT)
            let statement = TraceEvent.Statement(
                sqliteStatement: OpaquePointer(p),
                unexpandedSQL: isStart ? x.map { UnsafePointer($0.assumingMemoryBound(to: CChar.self)) } : nil,
                publicStatementArguments: db.configuration.publicStatementArguments)
            if isStart {
                callback(.statement(statement))
            } else if mask == UInt32(SQLITE_TRACE_PROFILE), let x {
                let nanoseconds = x.assumingMemoryBound(to: Int64.self).pointee
                callback(.profile(statement: statement, duration: TimeInterval(nanoseconds) / 1e9))
            }
            return 0
        }, context)
    }
}
