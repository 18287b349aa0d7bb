import Foundation
import GRDBCipher

/// How an input file opens: its key and the cipher settings that opened it.
struct DatabaseAccess {
    let path: String
    /// The key, nil for a plaintext file.
    let key: DatabaseKey?
    /// The settings that opened the file.
    let settings: CipherSettings
    /// The SQLCipher major version whose defaults opened the file, when the
    /// tool found it by trying; nil when the settings were given, or for a
    /// plaintext file.
    let detectedCompatibility: Int?

    /// Opens `input` with `key`, and the given settings, or else the defaults of
    /// SQLCipher 4, 3, 2 and 1 in turn, read-only, and closes it again.
    ///
    /// - throws: A `doesNotOpen` ``ToolError`` when no settings open it.
    static func find(_ input: InputFile, key: DatabaseKey?, given: CipherSettingsValues) throws -> DatabaseAccess {
        guard input.isEncrypted, let key else {
            let access = DatabaseAccess(path: input.path, key: nil, settings: CipherSettings(), detectedCompatibility: nil)
            try access.check()
            return access
        }
        let candidates: [(settings: CipherSettings, compatibility: Int?)] = given.isEmpty
            ? [(.sqlcipher4, 4), (.sqlcipher3, 3), (CipherSettings(compatibility: 2), 2), (CipherSettings(compatibility: 1), 1)]
            : [(given.applied(to: CipherSettings()), nil)]
        for candidate in candidates {
            let access = DatabaseAccess(
                path: input.path, key: key, settings: candidate.settings, detectedCompatibility: candidate.compatibility)
            do {
                try access.check()
                return access
            } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
                continue
            }
        }
        let tried = given.isEmpty
            ? "the defaults of SQLCipher 4, 3, 2 and 1 were tried; give other settings with --compatibility, "
                + "--kdf-iterations, --page-size, --kdf-algorithm, --hmac-algorithm"
            : "with the given cipher settings"
        throw ToolError(.doesNotOpen, "\(input.path) does not open: wrong passphrase or cipher settings (\(tried))")
    }

    /// The configuration that opens the file.
    func configuration(readonly: Bool) -> Configuration {
        var configuration = Configuration()
        configuration.key = key
        if key != nil { configuration.cipherSettings = settings }
        configuration.readonly = readonly
        configuration.busyMode = .timeout(5)
        configuration.cipherLogDestination = .discarded
        configuration.label = "grdbcipher"
        if !readonly {
            // A server may write the file meanwhile: its writer checkpoints,
            // never this tool. SQLite before 3.51.3 can corrupt a WAL file
            // when a second connection checkpoints while another commits and
            // resets the WAL; a last connection's checkpoint at close, with no
            // other connection left, stays.
            configuration.prepareDatabase { db in
                try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
            }
        }
        return configuration
    }

    /// A queue on the file.
    func openQueue(readonly: Bool) throws -> DatabaseQueue {
        try DatabaseQueue(path: path, configuration: configuration(readonly: readonly))
    }

    /// Opens the file read-only, reads its schema, and closes it.
    func check() throws {
        let queue = try openQueue(readonly: true)
        try queue.read { db in _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master") }
        try queue.close()
    }

    /// The settings as a person reads them: "SQLCipher 4 defaults",
    /// "SQLCipher 3 defaults", or the given values.
    var settingsDescription: String {
        guard key != nil else { return "none (plaintext)" }
        if let detectedCompatibility { return "SQLCipher \(detectedCompatibility) defaults" }
        return "as given (\(SettingsText.describe(settings)))"
    }
}

/// Cipher settings in the tool's words.
enum SettingsText {
    static func describe(_ settings: CipherSettings) -> String {
        var parts: [String] = []
        if let value = settings.compatibility { parts.append("compatibility \(value)") }
        if let value = settings.kdfIterations { parts.append("kdf iterations \(value)") }
        if let value = settings.kdfAlgorithm { parts.append("kdf \(value.rawValue)") }
        if let value = settings.hmacAlgorithm { parts.append("hmac \(value.rawValue)") }
        if let value = settings.pageSize { parts.append("page size \(value)") }
        return parts.isEmpty ? "SQLCipher 4 defaults" : parts.joined(separator: ", ")
    }
}
