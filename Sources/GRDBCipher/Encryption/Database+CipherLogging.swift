import CSQLCipher

extension Database {
    /// A destination of SQLCipher's log (`PRAGMA cipher_log`).
    public struct SQLCipherLogTarget: Sendable {
        /// The value given to `PRAGMA cipher_log`.
        public var rawValue: String

        /// A target from its `PRAGMA cipher_log` value.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// The process's standard output.
        public static let stdout = Self(rawValue: "stdout")
        /// The process's standard error.
        public static let stderr = Self(rawValue: "stderr")
        /// The system log on Apple platforms and Android; nowhere on Linux.
        public static let device = Self(rawValue: "device")
        /// A file, appended to.
        public static func file(_ path: String) -> Self { Self(rawValue: path) }
    }

    /// How much SQLCipher logs (`PRAGMA cipher_log_level`), each level more
    /// than the one before.
    public struct SQLCipherLogLevel: RawRepresentable, Sendable {
        /// The value given to `PRAGMA cipher_log_level`.
        public var rawValue: String

        /// A level from its `PRAGMA cipher_log_level` value.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// Nothing.
        public static let none = Self(rawValue: "NONE")
        /// Errors only.
        public static let error = Self(rawValue: "ERROR")
        /// Errors and warnings (SQLCipher's default).
        public static let warn = Self(rawValue: "WARN")
        /// And information.
        public static let info = Self(rawValue: "INFO")
        /// And debugging details: a lot of output.
        public static let debug = Self(rawValue: "DEBUG")
        /// Everything: even more output.
        public static let trace = Self(rawValue: "TRACE")
    }

    /// Sets SQLCipher's process-wide log level and destination
    /// (`PRAGMA cipher_log_level` and `PRAGMA cipher_log`).
    ///
    /// ```swift
    /// try db.enableCipherLogging(logLevel: .error, target: .stderr)
    /// ```
    ///
    /// SQLCipher resets a level set before the first key of the process:
    /// call this on a keyed connection (from a database access, or from
    /// ``Configuration/prepareDatabase(_:)`` after the key).
    ///
    /// The destination is the same setting as
    /// ``Configuration/cipherLogDestination``: whichever was applied last
    /// wins. A connection that opens later with a `cipherLogDestination`
    /// routes the log to that destination again; a connection that opens
    /// with none leaves it where this method put it. The level is only set
    /// here (or by ``disableCipherLogging()``). The `.debug` and `.trace`
    /// levels are verbose.
    ///
    /// - parameters:
    ///   - logLevel: Default `.debug`.
    ///   - target: Default `.device` (nowhere on Linux: pass `.stderr` or a file).
    /// - throws: A ``DatabaseError`` if SQLCipher refuses the target (a file
    ///   it cannot open).
    public func enableCipherLogging(logLevel: SQLCipherLogLevel = .debug, target: SQLCipherLogTarget = .device) throws {
        // Pragmas take no arguments: the values are quoted as SQL literals.
        let status = try String.fetchOne(self, sql: "PRAGMA cipher_log = \(Self.quoted(target.rawValue))")
        if status == "1" {
            throw DatabaseError(resultCode: .SQLITE_CANTOPEN, message: "SQLCipher cannot log to \(target.rawValue)")
        }
        SQLCipherLibrary.forgetLogDestination()
        try execute(sql: "PRAGMA cipher_log_level = \(Self.quoted(logLevel.rawValue.uppercased()))")
    }

    /// Stops SQLCipher's log, process-wide (`PRAGMA cipher_log_level = NONE`).
    ///
    /// The level stays `NONE` whatever ``Configuration/cipherLogDestination``
    /// later connections open with: the destination does not set the level.
    /// ``Configuration/cipherLogDestination`` `= .discarded` is the way to
    /// silence SQLCipher from the configuration.
    ///
    /// - throws: A ``DatabaseError`` if the connection is closed.
    public func disableCipherLogging() throws {
        try execute(sql: "PRAGMA cipher_log_level = NONE")
    }

    private static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }
}

extension Database {
    /// A function that receives SQLite's error log: a result code and a
    /// short message. See ``logError``.
    public typealias LogErrorFunction = @Sendable (_ resultCode: ResultCode, _ message: String) -> Void

    /// The function that receives SQLite's error log (SQLite's
    /// `SQLITE_CONFIG_LOG`), and the failures that GRDBCipher detects where
    /// SQLCipher reports success, such as a passphrase change that could not
    /// be written.
    ///
    /// ```swift
    /// Database.logError = { resultCode, message in
    ///     logger.error("SQLite error \(resultCode): \(message)")
    /// }
    /// ```
    ///
    /// Set it before any database connection of the process opens: SQLite
    /// ignores it afterwards. SQLCipher's own log lines do not go through it
    /// (see ``Configuration/cipherLogDestination``).
    ///
    /// A message about a statement that carries a key (`PRAGMA key = ...`)
    /// is replaced by one that only names the result code: SQLite's message
    /// would show the statement.
    nonisolated(unsafe) public static var logError: LogErrorFunction? {
        didSet {
            if logError == nil {
                _ = grdbcipher_config_log(nil, nil)
            } else {
                _ = grdbcipher_config_log({ _, code, message in
                    guard let logError = Database.logError, let message else { return }
                    let resultCode = ResultCode(rawValue: code)
                    let text = String(cString: message)
                    let shown = SecretRedaction.containsKey(text) ? KeyErrorMessages.replacement(for: resultCode) : text
                    logError(resultCode, shown)
                }, nil)
            }
        }
    }

    /// Sends a message to SQLite's error log, hence to ``logError``.
    static func log(_ code: ResultCode, _ message: String) {
        grdbcipher_log(code.rawValue, message)
    }
}
