import Foundation
import GRDBCipher
import GRDBCipherS3

/// What the server needs to start: where the database is, how it is keyed,
/// where it listens, and whether the admin routes are on.
///
/// The key never comes from the command line (any local user can read a
/// process's arguments): `GRDBCIPHER_PASSPHRASE` or a secret file named by
/// `GRDBCIPHER_PASSPHRASE_FILE`. Its ``description`` never shows it.
public struct ServerConfiguration: Sendable, CustomStringConvertible {
    /// How the database file is keyed. Its descriptions and mirror never
    /// show the passphrase.
    public enum Encryption: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
        /// Encrypted with SQLCipher 4's defaults, keyed with this passphrase.
        case passphrase(String)
        /// Encrypted with a random data key, wrapped in `<database>.envelope`
        /// by this key-encryption key (`GRDBCIPHER_KEK_FILE` or
        /// `GRDBCIPHER_KEK_COMMAND`).
        case envelope(KeyEncryptionKey)
        /// Not encrypted: only for comparisons (the load test), opted into
        /// with `TODOSERVER_PLAINTEXT=1`.
        case plaintext

        /// "encrypted" or "plaintext".
        public var description: String {
            switch self {
            case .passphrase: return "encrypted"
            case .envelope: return "encrypted, enveloped"
            case .plaintext: return "plaintext"
            }
        }

        /// Same as ``description``.
        public var debugDescription: String { description }

        /// A mirror without the passphrase (for `dump`).
        public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .enum) }
    }

    /// The database file (`DATABASE_PATH`, default `./todos.sqlite`).
    public var databasePath: String
    /// How the database is keyed.
    public var encryption: Encryption
    /// The address the server listens on (`HOST`, default `127.0.0.1`).
    public var host: String
    /// The port (`PORT`, default 8080; 0 picks a free port).
    public var port: Int
    /// The bearer token of the admin routes (`TODOSERVER_ADMIN_TOKEN`); the
    /// admin routes do not exist when it is nil.
    public var adminToken: String?
    /// The bearer token that `GET /todos/events` requires
    /// (`TODOSERVER_EVENTS_TOKEN`); streams are open to any client when it is
    /// nil, like the rest of the to-do API.
    public var eventStreamToken: String?
    /// Where `POST /admin/backup` writes (`TODOSERVER_BACKUP_DIRECTORY`,
    /// default: a `backups` folder beside the database).
    public var backupDirectory: String
    /// The most reader connections of the pool (`TODOSERVER_READERS`, default 5).
    public var maximumReaderCount: Int
    /// The most `GET /todos/events` streams at once (`TODOSERVER_EVENT_STREAMS`,
    /// default 64); each holds an observation of the pool.
    public var maximumEventStreams: Int
    /// How often an idle event stream sends a `: keep-alive` comment line
    /// (`TODOSERVER_EVENT_HEARTBEAT`, in seconds, default 15).
    public var eventHeartbeat: Duration
    /// The most connections open at once (`TODOSERVER_MAX_CONNECTIONS`,
    /// default 512); over it, the server accepts no connection until one closes.
    public var maximumConnections: Int
    /// How long a connection may stay without a request before the server
    /// closes it; a request whose head does not arrive whole in that time
    /// counts as none (`TODOSERVER_IDLE_TIMEOUT`, in seconds, default 30).
    public var idleTimeout: Duration
    /// How long a request may take to arrive whole, from its head to the
    /// end of its body, before the server closes the connection
    /// (`TODOSERVER_REQUEST_TIMEOUT`, in seconds, default 10).
    public var requestTimeout: Duration
    /// How long the server waits for a client that does not read what it is
    /// sent (a response, an event) before it closes the connection
    /// (`TODOSERVER_WRITE_TIMEOUT`, in seconds, default 10).
    public var writeTimeout: Duration
    /// How long the graceful shutdown may take before the server cancels what
    /// still runs (`TODOSERVER_SHUTDOWN_TIMEOUT`, in seconds, default 15).
    public var shutdownTimeout: Duration
    /// The host names that requests may name in `Host`
    /// (`TODOSERVER_ALLOWED_HOSTS`; by default the listen address and the
    /// loopback names).
    public var allowedHosts: AllowedHosts
    /// How long a verdict of `GET /health?integrity=true` is reused before the
    /// file is checked again (`TODOSERVER_INTEGRITY_CACHE`, in seconds, default 300).
    public var integrityCacheDuration: Duration
    /// Where the database replicates (`TODOSERVER_REPLICA`): `file:///path`,
    /// a folder, or `s3://bucket/prefix`, object storage reached with the
    /// `AWS_*` variables. The replicator ships WAL frames and snapshots
    /// there, as SQLCipher wrote them. Nil: no replication.
    public var replica: String?
    /// The store of ``replica``.
    public var replicaStore: (any ReplicaStore)?

    /// A configuration with the given values and defaults for the others.
    public init(
        databasePath: String = "./todos.sqlite",
        encryption: Encryption,
        host: String = "127.0.0.1",
        port: Int = 8080,
        adminToken: String? = nil,
        eventStreamToken: String? = nil,
        backupDirectory: String? = nil,
        maximumReaderCount: Int = 5,
        maximumEventStreams: Int = 64,
        eventHeartbeat: Duration = .seconds(15),
        maximumConnections: Int = 512,
        idleTimeout: Duration = .seconds(30),
        requestTimeout: Duration = .seconds(10),
        writeTimeout: Duration = .seconds(10),
        shutdownTimeout: Duration = .seconds(15),
        allowedHosts: AllowedHosts? = nil,
        integrityCacheDuration: Duration = .seconds(300),
        replica: String? = nil,
        replicaStore: (any ReplicaStore)? = nil)
    {
        self.databasePath = databasePath
        self.encryption = encryption
        self.host = host
        self.port = port
        self.adminToken = adminToken
        self.eventStreamToken = eventStreamToken
        self.backupDirectory = backupDirectory
            ?? URL(fileURLWithPath: databasePath).deletingLastPathComponent().appendingPathComponent("backups").path
        self.maximumReaderCount = maximumReaderCount
        self.maximumEventStreams = maximumEventStreams
        self.eventHeartbeat = eventHeartbeat
        self.maximumConnections = maximumConnections
        self.idleTimeout = idleTimeout
        self.requestTimeout = requestTimeout
        self.writeTimeout = writeTimeout
        self.shutdownTimeout = shutdownTimeout
        self.allowedHosts = allowedHosts ?? AllowedHosts(listeningOn: host)
        self.integrityCacheDuration = integrityCacheDuration
        self.replica = replica
        self.replicaStore = replicaStore
    }

    /// Reads the configuration from environment variables.
    ///
    /// - throws: A ``ConfigurationError`` when no key is given, both are
    ///   given, the secret file cannot be read or is empty, or a number is
    ///   malformed.
    public static func fromEnvironment(_ environment: [String: String]) throws -> ServerConfiguration {
        let encryption: Encryption
        let inline = environment["GRDBCIPHER_PASSPHRASE"]
        let file = environment["GRDBCIPHER_PASSPHRASE_FILE"]
        switch (try keyEncryptionKey(environment), inline, file) {
        case (.some, .some, _), (.some, _, .some):
            throw ConfigurationError(
                "set a key-encryption key (GRDBCIPHER_KEK_FILE or GRDBCIPHER_KEK_COMMAND) or a passphrase, not both")
        case (.some(let kek), nil, nil):
            encryption = .envelope(kek)
        case (nil, .some, .some):
            throw ConfigurationError("set GRDBCIPHER_PASSPHRASE or GRDBCIPHER_PASSPHRASE_FILE, not both")
        case (nil, .some(let passphrase), nil):
            guard !passphrase.isEmpty else { throw ConfigurationError("GRDBCIPHER_PASSPHRASE is empty") }
            encryption = .passphrase(passphrase)
        case (nil, nil, .some(let path)):
            encryption = .passphrase(try readSecretFile(atPath: path))
        case (nil, nil, nil):
            if environment["TODOSERVER_PLAINTEXT"] == "1" {
                encryption = .plaintext
            } else {
                throw ConfigurationError(
                    "no database key: set GRDBCIPHER_PASSPHRASE_FILE to a file that holds the passphrase "
                        + "(or GRDBCIPHER_PASSPHRASE, or a key-encryption key: GRDBCIPHER_KEK_FILE or "
                        + "GRDBCIPHER_KEK_COMMAND); the key is never read from the command line")
            }
        }
        let port = try integer(environment["PORT"], name: "PORT", default: 8080, range: 0...65535)
        let readers = try integer(environment["TODOSERVER_READERS"], name: "TODOSERVER_READERS", default: 5, range: 1...64)
        let streams = try integer(
            environment["TODOSERVER_EVENT_STREAMS"], name: "TODOSERVER_EVENT_STREAMS", default: 64, range: 0...10_000)
        let heartbeat = try integer(
            environment["TODOSERVER_EVENT_HEARTBEAT"], name: "TODOSERVER_EVENT_HEARTBEAT", default: 15, range: 1...3600)
        func seconds(_ name: String, default value: Int, range: ClosedRange<Int>) throws -> Duration {
            .seconds(try integer(environment[name], name: name, default: value, range: range))
        }
        let connections = try integer(
            environment["TODOSERVER_MAX_CONNECTIONS"], name: "TODOSERVER_MAX_CONNECTIONS", default: 512, range: 1...100_000)
        let token = environment["TODOSERVER_ADMIN_TOKEN"]
        if let token, token.count < 16 {
            throw ConfigurationError("TODOSERVER_ADMIN_TOKEN must have at least 16 characters")
        }
        let streamToken = environment["TODOSERVER_EVENTS_TOKEN"]
        if let streamToken, streamToken.count < 16 {
            throw ConfigurationError("TODOSERVER_EVENTS_TOKEN must have at least 16 characters")
        }
        let host = environment["HOST"].flatMap { $0.isEmpty ? nil : $0 } ?? "127.0.0.1"
        let replica = environment["TODOSERVER_REPLICA"].flatMap { $0.isEmpty ? nil : $0 }
        let replicaStore = try replica.map { try Self.replicaStore($0, encryption: encryption, environment: environment) }
        return ServerConfiguration(
            databasePath: environment["DATABASE_PATH"].flatMap { $0.isEmpty ? nil : $0 } ?? "./todos.sqlite",
            encryption: encryption,
            host: host,
            port: port,
            adminToken: token,
            eventStreamToken: streamToken,
            backupDirectory: environment["TODOSERVER_BACKUP_DIRECTORY"].flatMap { $0.isEmpty ? nil : $0 },
            maximumReaderCount: readers,
            maximumEventStreams: streams,
            eventHeartbeat: .seconds(heartbeat),
            maximumConnections: connections,
            idleTimeout: try seconds("TODOSERVER_IDLE_TIMEOUT", default: 30, range: 1...3600),
            requestTimeout: try seconds("TODOSERVER_REQUEST_TIMEOUT", default: 10, range: 1...3600),
            writeTimeout: try seconds("TODOSERVER_WRITE_TIMEOUT", default: 10, range: 1...3600),
            shutdownTimeout: try seconds("TODOSERVER_SHUTDOWN_TIMEOUT", default: 15, range: 1...3600),
            allowedHosts: try environment["TODOSERVER_ALLOWED_HOSTS"].flatMap { $0.isEmpty ? nil : $0 }
                .map(AllowedHosts.init(list:)),
            integrityCacheDuration: try seconds("TODOSERVER_INTEGRITY_CACHE", default: 300, range: 0...86_400),
            replica: replica,
            replicaStore: replicaStore)
    }

    /// The store of a replica; refuses a replica the server cannot ship
    /// to, and the databases whose replica would not be zero-knowledge.
    static func replicaStore(_ replica: String, encryption: Encryption, environment: [String: String]) throws
        -> any ReplicaStore
    {
        if case .plaintext = encryption {
            throw ConfigurationError("TODOSERVER_REPLICA needs an encrypted database: a replica of a plaintext one is plaintext")
        }
        if replica.hasPrefix("s3://") {
            do {
                return try S3ReplicaStore(url: replica, environment: environment)
            } catch {
                throw ConfigurationError("TODOSERVER_REPLICA=\(replica): \(error)")
            }
        }
        guard replica.hasPrefix("file:///") else {
            throw ConfigurationError("TODOSERVER_REPLICA must be file:///path or s3://bucket/prefix")
        }
        do {
            return try FolderReplicaStore(path: String(replica.dropFirst("file://".count)))
        } catch {
            throw ConfigurationError("TODOSERVER_REPLICA=\(replica): \(error)")
        }
    }

    /// The key-encryption key of an enveloped database: a passphrase file
    /// (`GRDBCIPHER_KEK_FILE`), or a command line split on spaces and run
    /// without a shell (`GRDBCIPHER_KEK_COMMAND`) that prints 64 hex digits.
    static func keyEncryptionKey(_ environment: [String: String]) throws -> KeyEncryptionKey? {
        switch (environment["GRDBCIPHER_KEK_FILE"], environment["GRDBCIPHER_KEK_COMMAND"]) {
        case (nil, nil):
            return nil
        case (.some, .some):
            throw ConfigurationError("set GRDBCIPHER_KEK_FILE or GRDBCIPHER_KEK_COMMAND, not both")
        case (.some(let path), nil):
            do {
                return try KeyEncryptionKey.passphraseFile(atPath: path)
            } catch let error as DatabaseEnvelopeError {
                throw ConfigurationError(error.message)
            }
        case (nil, .some(let command)):
            let arguments = command.split(separator: " ").map(String.init)
            guard !arguments.isEmpty else { throw ConfigurationError("GRDBCIPHER_KEK_COMMAND is empty") }
            return KeyEncryptionKey.command(arguments)
        }
    }

    /// The passphrase in a secret file, without its final line break.
    static func readSecretFile(atPath path: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigurationError("cannot read the passphrase file named by GRDBCIPHER_PASSPHRASE_FILE (\(path))")
        }
        guard var passphrase = String(data: data, encoding: .utf8) else {
            throw ConfigurationError("the passphrase file (\(path)) is not UTF-8 text")
        }
        while passphrase.hasSuffix("\n") || passphrase.hasSuffix("\r") { passphrase.removeLast() }
        guard !passphrase.isEmpty else {
            throw ConfigurationError("the passphrase file (\(path)) is empty")
        }
        return passphrase
    }

    private static func integer(_ text: String?, name: String, default value: Int, range: ClosedRange<Int>) throws -> Int {
        guard let text, !text.isEmpty else { return value }
        guard let number = Int(text), range.contains(number) else {
            throw ConfigurationError("\(name) must be an integer in \(range.lowerBound)...\(range.upperBound)")
        }
        return number
    }

    /// The configuration without its secrets.
    public var description: String {
        let key: String
        switch encryption {
        case .passphrase: key = "encrypted"
        case .envelope: key = "encrypted, enveloped"
        case .plaintext: key = "PLAINTEXT"
        }
        return "database: \(databasePath) (\(key)), listening on \(host):\(port), hosts: \(allowedHosts), "
            + "admin routes: \(adminToken == nil ? "off" : "on"), "
            + "event streams: \(eventStreamToken == nil ? "open" : "token")"
    }
}

/// A configuration that cannot be used; the message says what to fix and
/// never contains a secret.
public struct ConfigurationError: Error, CustomStringConvertible {
    /// What is wrong.
    public let message: String

    init(_ message: String) { self.message = message }

    /// The message.
    public var description: String { message }
}
