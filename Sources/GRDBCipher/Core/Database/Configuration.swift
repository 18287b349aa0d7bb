import Foundation

/// The options of a database connection, queue or pool.
///
/// ```swift
/// var config = Configuration()
/// config.passphrase = "secret"
/// config.foreignKeysEnabled = true
/// config.prepareDatabase { db in
///     db.trace { print($0) }
/// }
/// let dbQueue = try DatabaseQueue(path: "/path/to/db.sqlite", configuration: config)
/// ```
///
/// The passphrase is kept as bytes that are zeroed when no configuration
/// refers to them any longer, and it never appears in a description or mirror.
public struct Configuration: Sendable {
    /// Whether foreign key constraints are enforced. Default true.
    public var foreignKeysEnabled = true

    /// Whether connections open the database read-only. Default false.
    public var readonly = false

    /// A label that names the connections' dispatch queues, for debugging.
    public var label: String?

    /// Whether SQLite accepts double-quoted string literals (`WHERE name = "foo"`),
    /// a misfeature that turns typos in column names into strings. Default false.
    public var acceptsDoubleQuotedStringLiterals = false

    /// Whether connections listen to ``Database/suspendNotification`` and
    /// ``Database/resumeNotification``. Default false.
    ///
    /// GRDB suspends databases to avoid the `0xdead10cc` exception that ends
    /// an iOS app suspended with a lock on a shared file. Linux and macOS
    /// servers have no such suspension: this library accepts the flag, so
    /// that GRDB code compiles, and does nothing with it.
    ///
    /// ```swift
    /// var config = Configuration()
    /// config.observesSuspensionNotifications = true   // no effect here
    /// ```
    public var observesSuspensionNotifications = false

    /// Whether statement arguments appear in error descriptions and traces.
    /// Default false, since arguments often hold user data.
    public var publicStatementArguments = false

    /// The clock that gives ``Database/transactionDate`` its value. Default
    /// `.default`: the date at which the current transaction began.
    ///
    /// ```swift
    /// config.transactionClock = .custom { db in fixedDate }
    /// ```
    public var transactionClock: any TransactionClock = .default

    /// How a connection behaves when another connection holds a lock.
    /// Default `.immediateError`; a ``DatabasePool``, whose own connections
    /// meet short WAL locks, waits up to 10 seconds instead.
    public var busyMode: Database.BusyMode = .immediateError

    /// How read-only connections behave when another connection holds a
    /// lock, instead of ``busyMode``; nil (the default) for ``busyMode``.
    /// Internal, as in GRDB.
    var readonlyBusyMode: Database.BusyMode?

    /// Whether a connection with an immediate busy error first waits a few
    /// milliseconds for a lock: a pool's writer, whose own readers take the
    /// WAL write lock for microseconds (see `Database.setUpBusyMode`).
    var waitsForReaderLockRaces = false

    /// Whether a connection whose first read fails with `SQLITE_NOTADB`
    /// tells what the key mistake is (see `KeyMistake`): off for the
    /// connections that the diagnosis itself opens.
    var diagnosesKeyMistakes = true

    /// The journal mode of a database queue.
    public enum JournalModeConfiguration: Sendable {
        /// SQLite's default (rollback journal), or whatever the file already uses.
        case `default`
        /// Write-ahead logging.
        case wal
    }

    /// The journal mode of a database queue. Default `.default`.
    public var journalMode = JournalModeConfiguration.default

    /// Whether a transaction may stay open after the access that began it
    /// (`writeWithoutTransaction { db in try db.beginTransaction() }`).
    /// Default false: such a transaction is rolled back and the process traps,
    /// as in GRDB, because later accesses would run inside it by surprise.
    /// Read-only connections always roll back silently.
    public var allowsUnsafeTransactions = false

    /// The maximum number of concurrent readers of a database pool. Default 5.
    public var maximumReaderCount = 5

    /// The quality of service of the connections' dispatch queues. Default
    /// `.userInitiated`. Ignored for the connections whose queue targets
    /// ``targetQueue`` or ``writeTargetQueue``.
    public var qos: DispatchQoS = .userInitiated

    /// The dispatch queue that the connections' own serial queues target,
    /// for database accesses. Default nil: no target, and ``qos``.
    ///
    /// With a ``DatabasePool``, make it a concurrent queue: a serial target
    /// queue runs one access at a time, and a read that waits for a write
    /// (or the reverse) on it deadlocks.
    public var targetQueue: DispatchQueue?

    /// The dispatch queue that the queues of the connections that can write
    /// target, instead of ``targetQueue``. Default nil: ``targetQueue``.
    public var writeTargetQueue: DispatchQueue?

    /// Whether a database pool derives the key of its passphrase once and
    /// keys its other connections with that raw key, instead of paying
    /// SQLCipher's key derivation (about 100 ms) on each. Default true. The
    /// pool falls back to the passphrase on its own when the derived key
    /// does not open the file (non-default cipher settings).
    public var reusesDerivedKeys = true

    /// Where SQLCipher writes its own log lines (a wrong key logs "hmac check
    /// failed" errors; a failed passphrase change logs why it failed).
    ///
    /// SQLCipher's log is process-wide: the destination applies to all
    /// connections from the moment a connection opens with it, until one
    /// opens with another. Default nil: leave the log as it is, which is
    /// SQLCipher's own default until something changes it (on Linux, lines
    /// of level WARN and above on standard error, once a connection is
    /// keyed). `.discarded` silences it; ``Database/enableCipherLogging(logLevel:target:)``
    /// and ``Database/disableCipherLogging()`` are GRDB's way of setting it.
    public var cipherLogDestination: CipherLogDestination?

    /// The passphrase that encrypts the database, applied to every connection
    /// before any other statement. nil (the default) opens plaintext databases.
    ///
    /// ```swift
    /// var config = Configuration()
    /// config.passphrase = "secret"
    /// ```
    ///
    /// Setting it sets ``key``; reading it returns nil when ``key`` is a raw key.
    public var passphrase: String? {
        get {
            guard let key, !key.isRawKey else { return nil }
            return String(decoding: key.material.bytes, as: UTF8.self)
        }
        set { key = newValue.map { DatabaseKey.passphrase($0) } }
    }

    /// The passphrase or raw key that encrypts the database, applied to every
    /// connection before any other statement. nil (the default) opens
    /// plaintext databases.
    ///
    /// ```swift
    /// var config = Configuration()
    /// config.key = try .rawKey(keyBytes)
    /// ```
    public var key: DatabaseKey?

    /// Returns the key when a connection opens, when ``key`` is nil: the
    /// configuration then holds no key, only this function. A pool calls it
    /// for each connection it opens (with derived-key reuse, it derives the
    /// key of a passphrase once and keeps only the derived key, locked in
    /// memory where the system allows, zeroed when the pool closes). An
    /// error it throws is the error of the opening.
    ///
    /// ```swift
    /// config.keyProvider = { try .passphrase(vault.databasePassphrase()) }
    /// ```
    ///
    /// To leave no copy of a passphrase behind, give it as bytes
    /// (``DatabaseKey/passphrase(_:)-(Data)``) and zero your own buffer once
    /// the key is made: the library zeroes every copy it makes.
    public var keyProvider: (@Sendable () throws -> DatabaseKey)?

    /// The key of a connection that opens: ``key``, or what ``keyProvider``
    /// returns.
    func resolvedKey() throws -> DatabaseKey? {
        if let key { return key }
        return try keyProvider?()
    }

    /// Whether connections are keyed by the configuration.
    var hasKey: Bool { key != nil || keyProvider != nil }

    /// How the database is encrypted, applied to every connection right after
    /// its key. Default: SQLCipher 4's defaults. Settings that do not match
    /// the file fail at open with `SQLITE_NOTADB`, like a wrong passphrase.
    ///
    /// ```swift
    /// config.cipherSettings = .sqlcipher3
    /// ```
    public var cipherSettings = CipherSettings()

    /// Whether a database pool opens all its readers when it opens, and keeps
    /// them open: ``DatabasePool/releaseMemory()`` does not close them, and
    /// they reopen at once after a passphrase change. Reads then never pay
    /// for opening a connection. Default false: readers open on demand.
    public var persistentReadOnlyConnections = false

    /// Schema information that SQLite does not give, such as the primary
    /// keys of views, so that records can read a view by key. Migrations
    /// do not use it: they see the schema as SQLite writes it.
    ///
    /// ```swift
    /// config.schemaSource = ViewKeys()
    /// ```
    public var schemaSource: (any DatabaseSchemaSource)?

    /// The permission bits, such as `0o600`, of a database file that a queue
    /// or pool creates (SQLite gives its journal, WAL and shared-memory files
    /// the same), applied whatever the process's umask. Existing files keep
    /// theirs.
    ///
    /// Default nil: SQLite's default (`0o644` less the umask) when the
    /// configuration has a ``key``, and `0o600` (owner only) when it has
    /// none: a plaintext database, or one keyed in ``prepareDatabase(_:)``,
    /// which cannot be told apart before the file exists.
    public var filePermissions: Int?

    /// The permissions a new database file gets, nil for SQLite's default.
    var newFilePermissions: Int? {
        filePermissions ?? (hasKey ? nil : 0o600)
    }

    private(set) var preparationFunctions: [@Sendable (Database) throws -> Void] = []

    /// Runs when a connection has opened and is set up. See ``onConnectionDidOpen(_:)``.
    private(set) var connectionDidOpen: (@Sendable () -> Void)?

    /// Creates the default configuration.
    public init() {}

    /// Adds a function that runs when each connection opens, after the
    /// ``passphrase`` is applied and before the library's own set-up runs.
    /// The place to call ``Database/usePassphrase(_:)-(String)`` when the
    /// passphrase comes from elsewhere:
    ///
    /// ```swift
    /// config.prepareDatabase { db in
    ///     try db.usePassphrase(try keychain.passphrase())
    /// }
    /// ```
    ///
    /// An error thrown by the function fails the opening of the connection.
    public mutating func prepareDatabase(_ setup: @escaping @Sendable (Database) throws -> Void) {
        preparationFunctions.append(setup)
    }

    /// Sets the function that runs each time a connection has opened and is
    /// set up, after the preparation functions, the first read of the file
    /// and the journal mode. Internal, as in GRDB: tests count connections
    /// with it.
    mutating func onConnectionDidOpen(_ callback: @escaping @Sendable () -> Void) {
        connectionDidOpen = callback
    }
}

extension Configuration: CustomStringConvertible, CustomReflectable {
    /// A description that never shows the passphrase.
    public var description: String {
        "Configuration(label: \(label ?? "nil"), readonly: \(readonly), "
            + "foreignKeysEnabled: \(foreignKeysEnabled), key: \(hasKey ? "<redacted>" : "nil"), cipherSettings: \(cipherSettings))"
    }

    /// A mirror that never shows the passphrase.
    public var customMirror: Mirror {
        Mirror(self, children: [
            "label": label as Any,
            "readonly": readonly,
            "foreignKeysEnabled": foreignKeysEnabled,
            "key": hasKey ? "<redacted>" : "nil",
            "cipherSettings": cipherSettings,
        ])
    }
}

/// Where SQLCipher writes its own log lines.
public enum CipherLogDestination: Hashable, Sendable {
    /// Nowhere.
    case discarded
    /// The process's standard error.
    case standardError
    /// The process's standard output.
    case standardOutput
    /// A file, appended to.
    case file(String)

    var pragmaValue: String {
        switch self {
        case .discarded: return "/dev/null"
        case .standardError: return "stderr"
        case .standardOutput: return "stdout"
        case .file(let path): return path
        }
    }
}
