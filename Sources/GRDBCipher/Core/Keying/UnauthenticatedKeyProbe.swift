import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Tries a key on a copy of the start of a database file, before a read-only
/// connection whose cipher settings authenticate no page opens the file.
///
/// Without an HMAC (SQLCipher 1's defaults, or `usesHMAC = false`), a wrong
/// key is only caught when SQLite checks the header it decrypted, which is
/// then random bytes under SQLCipher's restored "SQLite format 3". One wrong
/// key in 256 gives a read version byte of 2, "WAL": SQLite opens the WAL
/// before it finds the rest of the header invalid, and a read-only connection
/// leaves the empty `-wal` and the `-shm` it created beside the file (a
/// read-write connection removes them as it closes). Tools that try the
/// settings of each SQLCipher version in turn with a wrong passphrase met it
/// once in a few dozen runs.
///
/// The copy lives in a private directory, removed afterwards, which takes
/// those files instead. The file itself is opened only if the key does not
/// fail on the copy with `SQLITE_NOTADB`.
enum UnauthenticatedKeyProbe {
    /// The bytes copied: the header, and the first pages with any page size.
    static let copiedByteCount = 65_536

    /// Whether a read-only connection with these settings needs the probe.
    static func isNeeded(for settings: CipherSettings) -> Bool {
        !(settings.usesHMAC ?? (settings.compatibility != 1))
    }

    /// Returns when `key` may open the database at `path` (the open itself
    /// decides), and throws the `SQLITE_NOTADB` error of a key that does not
    /// open the copy.
    static func check(path: String, key: KeyMaterial, settings: CipherSettings) throws {
        if let error = tryCopy(path: path, key: key, settings: settings) { throw error }
    }

    /// Whether `key` with `settings` opens a copy of the start of the file
    /// at `path` (true unless it fails with `SQLITE_NOTADB`), or nil when
    /// no copy could be made.
    static func keyOpensCopy(path: String, key: KeyMaterial, settings: CipherSettings) -> Bool? {
        guard let bytes = DatabaseFileHeader.read(atPath: path, count: 16), !bytes.isEmpty else { return nil }
        return tryCopy(path: path, key: key, settings: settings) == nil
    }

    /// The `SQLITE_NOTADB` error of opening a copy of the start of the file
    /// with `key` and `settings`; nil when the open did not fail so, or the
    /// copy could not be made.
    private static func tryCopy(path: String, key: KeyMaterial, settings: CipherSettings) -> DatabaseError? {
        guard let bytes = DatabaseFileHeader.read(atPath: path, count: copiedByteCount), !bytes.isEmpty,
              let directory = makePrivateDirectory() else { return nil }
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let copy = directory + "/probe.sqlite"
        guard FileManager.default.createFile(atPath: copy, contents: Data(bytes), attributes: [.posixPermissions: 0o600])
        else { return nil }
        var configuration = Configuration()
        configuration.key = DatabaseKey(material: key)
        configuration.cipherSettings = settings
        configuration.diagnosesKeyMistakes = false
        do {
            let db = try Database(path: copy, description: "GRDBCipher.keyProbe", configuration: configuration)
            db.closeEvenIfBusy()
            return nil
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            return error
        } catch {
            // Another failure: the copy lacks pages that the schema needs, say.
            return nil
        }
    }

    /// A new directory only this user reads, under the temporary directory.
    private static func makePrivateDirectory() -> String? {
        var template = Array(((NSTemporaryDirectory() as NSString).appendingPathComponent("GRDBCipher-probe-XXXXXX")).utf8CString)
        guard let created = mkdtemp(&template) else { return nil }
        return String(cString: created)
    }
}
