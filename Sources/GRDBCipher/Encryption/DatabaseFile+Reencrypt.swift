import Foundation

extension DatabaseFile {
    /// Re-encrypts, in place, the database file at `path` with another key
    /// or other cipher settings, or both, keeping its schema, rows,
    /// `user_version` and `application_id` (and WAL mode, if it uses it).
    /// Afterwards it opens with `newKey` and `newSettings` only.
    ///
    /// SQLCipher's own rekey cannot change the cipher settings; this does it
    /// by copy and swap: the database is exported to a temporary file beside
    /// it (SQLCipher's `sqlcipher_export`), the copy is opened and checked
    /// with the new key, synced, and renamed over the file, and the folder is
    /// synced. If it fails, the file stays as it was, readable with its old
    /// key and settings; after a power loss the file is either the original
    /// or the re-encrypted copy. It needs free space for a second copy.
    ///
    /// No other connection may use the file meanwhile, and none can: from
    /// before the copy until after the rename, this holds SQLite's exclusive
    /// lock on the file (it waits up to 5 seconds for other connections'
    /// locks), so that no commit of another process can be lost in between.
    /// It fails if a connection of this process has the file open, or one of
    /// another process keeps it open in WAL mode, or keeps a transaction
    /// open. A connection of another process that has the file open in
    /// rollback-journal mode, idle, holds no lock and cannot be seen: the
    /// replaced file is made unreadable, so that its next statement fails
    /// (`SQLITE_NOTADB`) instead of committing into a file that no name
    /// reaches any longer.
    ///
    /// A symbolic link is followed: the file it points to is re-encrypted,
    /// and the link still points to it afterwards. A file with several hard
    /// links is refused: the rename would leave its other names on the old
    /// file, with the old key. Export it to a new file instead.
    ///
    /// ```swift
    /// try DatabaseFile.reencrypt(
    ///     atPath: path, key: .passphrase("old"),
    ///     newKey: .passphrase("new"), newSettings: CipherSettings(kdfIterations: 500_000))
    /// ```
    ///
    /// - parameters:
    ///   - path: The encrypted database file.
    ///   - key: Its current key.
    ///   - settings: Its current cipher settings (default: SQLCipher 4's).
    ///   - newKey: The new key, which may be `key`.
    ///   - newSettings: The new cipher settings (default: SQLCipher 4's).
    /// - throws: A ``DatabaseError``: `SQLITE_NOTADB` when the key and
    ///   settings do not open the file, `SQLITE_BUSY` when a connection has
    ///   it open, `SQLITE_CANTOPEN` when it is missing or has several hard
    ///   links, `SQLITE_MISUSE` for invalid new settings, or the error of the
    ///   failed copy.
    public static func reencrypt(
        atPath path: String, key: DatabaseKey, settings: CipherSettings = CipherSettings(),
        newKey: DatabaseKey, newSettings: CipherSettings = CipherSettings()) throws
    {
        let target = try InPlaceTarget.resolve(path, operation: "re-encrypt")
        try rewriteInPlace(
            target: target, shownPath: path, key: key, settings: settings,
            into: .encrypted(key: newKey, settings: newSettings), operation: "re-encrypt")
    }

    /// The async twin of ``reencrypt(atPath:key:settings:newKey:newSettings:)``:
    /// the copy and the key derivations run off the cooperative thread pool.
    ///
    /// - throws: `CancellationError`, or a ``DatabaseError``.
    public static func reencrypt(
        atPath path: String, key: DatabaseKey, settings: CipherSettings = CipherSettings(),
        newKey: DatabaseKey, newSettings: CipherSettings = CipherSettings()) async throws
    {
        try await runOffCooperativePool {
            try reencrypt(atPath: path, key: key, settings: settings, newKey: newKey, newSettings: newSettings)
        }
    }

    /// Exports the file at `target` (a real path, see `InPlaceTarget`), opened
    /// with `key` and `settings` (nil: a plaintext file), to a checked copy
    /// encrypted as `encryption`, and renames the copy over it, all under
    /// the file's exclusive lock, and its key-change lock unless the caller
    /// holds it (`held`).
    static func rewriteInPlace(
        target: String, shownPath: String, key: DatabaseKey?, settings: CipherSettings,
        into encryption: DatabaseEncryption, operation: String, held: KeyChangeLock.Held? = nil) throws
    {
        try KeyChangeLock.run(forDatabaseAt: target, operation: operation, held: held) { _ in
            try rewriteInPlaceLocked(
                target: target, shownPath: shownPath, key: key, settings: settings, into: encryption, operation: operation)
        }
    }

    private static func rewriteInPlaceLocked(
        target: String, shownPath: String, key: DatabaseKey?, settings: CipherSettings,
        into encryption: DatabaseEncryption, operation: String) throws
    {
        try InPlaceTarget.checkSingleLink(target, shownPath: shownPath, operation: operation)
        if OpenDatabaseFiles.isOpen(path: target) {
            throw DatabaseError(
                resultCode: .SQLITE_BUSY,
                message: "cannot \(operation) \(shownPath): a connection of this process has it open; close it first")
        }
        let destination = try ExportDestination(
            path: target, encryption: encryption, replacingExistingFile: true, sourcePath: target, replacesSource: true)
        var configuration = Configuration()
        configuration.key = key
        configuration.cipherSettings = settings
        configuration.label = "GRDBCipher.\(operation)"
        let connection = try ExclusiveConnection(
            path: target, shownPath: shownPath, configuration: configuration, operation: operation)
        defer { connection.close() }
        try destination.write(moveIntoPlace: { try connection.replaceFile(with: $0, shownPath: shownPath) }) { temporaryPath in
            let schemaObjectCount = try connection.db.exportContent(
                to: temporaryPath, key: destination.key, settings: destination.settings, cancellation: nil)
            return ExportDestination.Source(usesWAL: connection.usesWAL, schemaObjectCount: schemaObjectCount)
        }
    }
}
