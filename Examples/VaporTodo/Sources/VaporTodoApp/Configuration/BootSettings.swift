import Foundation

/// What the application needs at boot, read from its environment: where the
/// database is, and the passphrase, from a secret file.
///
/// The passphrase never comes from the command line (any local user can list
/// a process's arguments) nor from a variable that holds it (a child process
/// inherits it, `/proc/<pid>/environ` shows it): only from the file that
/// `VAPORTODO_PASSPHRASE_FILE` names. Its ``description`` never shows it.
public struct BootSettings: Sendable, CustomStringConvertible, CustomReflectable {
    /// The variable that names the database file.
    public static let databasePathVariable = "VAPORTODO_DATABASE_PATH"
    /// The variable that names the secret file holding the passphrase.
    public static let passphraseFileVariable = "VAPORTODO_PASSPHRASE_FILE"

    /// The database file (`VAPORTODO_DATABASE_PATH`); created, encrypted, on first boot.
    public var databasePath: String
    /// The passphrase: the secret file's content without its final line break.
    public var passphrase: String

    /// Settings given directly.
    public init(databasePath: String, passphrase: String) {
        self.databasePath = databasePath
        self.passphrase = passphrase
    }

    /// The settings of `environment`.
    ///
    /// - parameters:
    ///   - environment: The process's environment, or a test's.
    ///   - defaultDatabasePath: The database file when
    ///     `VAPORTODO_DATABASE_PATH` is not set.
    /// - throws: A ``BootError`` when `VAPORTODO_PASSPHRASE_FILE` is not set,
    ///   or its file cannot be read, is not UTF-8 text, or is empty.
    public init(environment: [String: String], defaultDatabasePath: String) throws {
        guard let file = environment[Self.passphraseFileVariable], !file.isEmpty else {
            throw BootError.passphraseFileNotSet
        }
        let path = environment[Self.databasePathVariable].flatMap { $0.isEmpty ? nil : $0 }
        self.init(databasePath: path ?? defaultDatabasePath, passphrase: try Self.readPassphrase(fromFile: file))
    }

    /// The passphrase in a secret file, without one final line break (`\n`
    /// or `\r\n`), as `echo` or an editor leaves it. Other white space is
    /// part of the passphrase.
    ///
    /// - throws: A ``BootError`` when the file cannot be read, is not UTF-8
    ///   text, or holds nothing but that line break.
    public static func readPassphrase(fromFile path: String) throws -> String {
        guard var bytes = FileManager.default.contents(atPath: path).map({ [UInt8]($0) }) else {
            throw BootError.unreadablePassphraseFile(path: path)
        }
        if bytes.last == UInt8(ascii: "\n") {
            bytes.removeLast()
            if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        }
        guard !bytes.isEmpty else { throw BootError.emptyPassphraseFile(path: path) }
        guard let passphrase = String(bytes: bytes, encoding: .utf8) else {
            throw BootError.passphraseFileNotUTF8(path: path)
        }
        return passphrase
    }

    /// The database path, and no passphrase.
    public var description: String { "database \(databasePath) (encrypted)" }

    /// A mirror without the passphrase (for `dump`).
    public var customMirror: Mirror { Mirror(self, children: ["databasePath": databasePath]) }
}
