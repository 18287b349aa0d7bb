import Foundation

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
        /// Not encrypted: only for comparisons (the load test), opted into
        /// with `TODOSERVER_PLAINTEXT=1`.
        case plaintext

        /// "encrypted" or "plaintext".
        public var description: String {
            switch self {
            case .passphrase: return "encrypted"
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

    /// A configuration with the given values and defaults for the others.
    public init(
        databasePath: String = "./todos.sqlite",
        encryption: Encryption,
        host: String = "127.0.0.1",
        port: Int = 8080,
        adminToken: String? = nil,
        backupDirectory: String? = nil,
        maximumReaderCount: Int = 5,
        maximumEventStreams: Int = 64,
        eventHeartbeat: Duration = .seconds(15))
    {
        self.databasePath = databasePath
        self.encryption = encryption
        self.host = host
        self.port = port
        self.adminToken = adminToken
        self.backupDirectory = backupDirectory
            ?? URL(fileURLWithPath: databasePath).deletingLastPathComponent().appendingPathComponent("backups").path
        self.maximumReaderCount = maximumReaderCount
        self.maximumEventStreams = maximumEventStreams
        self.eventHeartbeat = eventHeartbeat
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
        switch (inline, file) {
        case (.some, .some):
            throw ConfigurationError("set GRDBCIPHER_PASSPHRASE or GRDBCIPHER_PASSPHRASE_FILE, not both")
        case (.some(let passphrase), nil):
            guard !passphrase.isEmpty else { throw ConfigurationError("GRDBCIPHER_PASSPHRASE is empty") }
            encryption = .passphrase(passphrase)
        case (nil, .some(let path)):
            encryption = .passphrase(try readSecretFile(atPath: path))
        case (nil, nil):
            if environment["TODOSERVER_PLAINTEXT"] == "1" {
                encryption = .plaintext
            } else {
                throw ConfigurationError(
                    "no database key: set GRDBCIPHER_PASSPHRASE_FILE to a file that holds the passphrase "
                        + "(or GRDBCIPHER_PASSPHRASE); the key is never read from the command line")
            }
        }
        let port = try integer(environment["PORT"], name: "PORT", default: 8080, range: 0...65535)
        let readers = try integer(environment["TODOSERVER_READERS"], name: "TODOSERVER_READERS", default: 5, range: 1...64)
        let streams = try integer(
            environment["TODOSERVER_EVENT_STREAMS"], name: "TODOSERVER_EVENT_STREAMS", default: 64, range: 0...10_000)
        let heartbeat = try integer(
            environment["TODOSERVER_EVENT_HEARTBEAT"], name: "TODOSERVER_EVENT_HEARTBEAT", default: 15, range: 1...3600)
        let token = environment["TODOSERVER_ADMIN_TOKEN"]
        if let token, token.count < 16 {
            throw ConfigurationError("TODOSERVER_ADMIN_TOKEN must have at least 16 characters")
        }
        return ServerConfiguration(
            databasePath: environment["DATABASE_PATH"].flatMap { $0.isEmpty ? nil : $0 } ?? "./todos.sqlite",
            encryption: encryption,
            host: environment["HOST"].flatMap { $0.isEmpty ? nil : $0 } ?? "127.0.0.1",
            port: port,
            adminToken: token,
            backupDirectory: environment["TODOSERVER_BACKUP_DIRECTORY"].flatMap { $0.isEmpty ? nil : $0 },
            maximumReaderCount: readers,
            maximumEventStreams: streams,
            eventHeartbeat: .seconds(heartbeat))
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
        case .plaintext: key = "PLAINTEXT"
        }
        return "database: \(databasePath) (\(key)), listening on \(host):\(port), admin routes: \(adminToken == nil ? "off" : "on")"
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
