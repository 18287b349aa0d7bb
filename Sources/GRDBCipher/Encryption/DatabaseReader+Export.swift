import Foundation

extension DatabaseReader {
    /// Writes a copy of the database to a new file, encrypted with another
    /// key or other cipher settings, or in plaintext, with SQLCipher's
    /// `sqlcipher_export`.
    ///
    /// ```swift
    /// // Re-encrypt with a new passphrase and SQLCipher 4 defaults.
    /// try dbPool.export(to: "/var/lib/app/db.new.sqlite", encryption: .encrypted(key: .passphrase("new secret")))
    /// // Decrypt, explicitly.
    /// try dbQueue.export(to: "/tmp/clear.sqlite", encryption: .plaintext)
    /// ```
    ///
    /// The copy holds one stable state of the database: its schema, rows,
    /// `user_version` and `application_id`. It is written to a temporary file
    /// in the destination's folder, opened with the new key and read page by
    /// page, put in WAL mode if the source uses WAL, and only then moved into
    /// place.
    /// On failure, no file is left behind.
    ///
    /// A ``DatabaseQueue`` exports through its own connection, so its other
    /// accesses wait; a ``DatabasePool`` exports through a connection of its
    /// own and keeps serving reads and writes (they are not in the copy). A
    /// ``DatabaseSnapshot`` exports its frozen state, and a read-only queue
    /// its current state, through an in-memory copy (it takes as much memory
    /// as the database), since their connections cannot write.
    ///
    /// - parameters:
    ///   - path: The destination file.
    ///   - encryption: How the copy is encrypted.
    ///   - replacingExistingFile: Whether an existing destination is replaced
    ///     (no connection may have it open), as
    ///     ``DatabaseFile/replace(atPath:with:)`` replaces it: a symbolic link
    ///     is followed, a file with several hard links refused, and the
    ///     rename made under the file's exclusive lock. Default false: an
    ///     existing destination is an error and stays untouched.
    ///   - filePermissions: The permission bits of the new file, such as
    ///     `0o600`, applied whatever the process's umask. Default nil:
    ///     `0o600` (owner only) for a plaintext copy, SQLite's default
    ///     (`0o644` less the umask) for an encrypted one.
    /// - throws: A ``DatabaseError``: the destination exists, its folder is
    ///   missing, the key or settings are invalid, or SQLite fails.
    public func export(
        to path: String, encryption: DatabaseEncryption, replacingExistingFile: Bool = false,
        filePermissions: Int? = nil) throws
    {
        try export(
            to: path, encryption: encryption, replacingExistingFile: replacingExistingFile,
            filePermissions: filePermissions, cancellation: nil)
    }

    /// The export, which stops with `CancellationError` when `cancellation`
    /// says so before or during the copy.
    func export(
        to path: String, encryption: DatabaseEncryption, replacingExistingFile: Bool, filePermissions: Int?,
        cancellation: CopyCancellation?) throws
    {
        guard let source = self as? any ExportSource else {
            throw DatabaseError.misuse("\(type(of: self)) cannot export: export from a DatabaseQueue or DatabasePool")
        }
        let destination = try ExportDestination(
            path: path, encryption: encryption, replacingExistingFile: replacingExistingFile, sourcePath: self.path,
            filePermissions: filePermissions)
        try destination.write { temporaryPath in
            try source.withExportConnection { db, sourceUsesWAL in
                let schemaObjectCount = try db.exportContent(
                    to: temporaryPath, key: destination.key, settings: destination.settings, cancellation: cancellation)
                return ExportDestination.Source(usesWAL: sourceUsesWAL, schemaObjectCount: schemaObjectCount)
            }
        }
    }

    /// The async twin of ``export(to:encryption:replacingExistingFile:filePermissions:)``:
    /// the export runs off the cooperative thread pool. Cancelling the task
    /// interrupts the copy and leaves no file behind; a copy that is already
    /// complete is still checked and moved into place. A snapshot or a
    /// read-only queue first copies the database into memory, and notices a
    /// cancellation only after that.
    ///
    /// The copy is interrupted with SQLite's progress handler: on a
    /// ``DatabaseQueue``, which exports through its own connection, a handler
    /// installed on ``Database/sqliteConnection`` with the C API is removed.
    ///
    /// - throws: `CancellationError`, or a ``DatabaseError``.
    public func export(
        to path: String, encryption: DatabaseEncryption, replacingExistingFile: Bool = false,
        filePermissions: Int? = nil) async throws
    {
        try await CopyCancellation.runCancellable { cancellation in
            try self.export(
                to: path, encryption: encryption, replacingExistingFile: replacingExistingFile,
                filePermissions: filePermissions, cancellation: cancellation)
        }
    }
}

/// A reader that can lend a writable connection, outside of any transaction,
/// that sees what the reader sees: `sqlcipher_export` attaches the
/// destination, which a read-only connection would open read-only.
protocol ExportSource {
    /// Runs `body` with such a connection, and whether the source uses WAL.
    func withExportConnection<T>(_ body: (_ db: Database, _ sourceUsesWAL: Bool) throws -> T) throws -> T
}

extension DatabaseQueue: ExportSource {
    /// The queue's own connection, or an in-memory copy when it is read-only.
    func withExportConnection<T>(_ body: (_ db: Database, _ sourceUsesWAL: Bool) throws -> T) throws -> T {
        if configuration.readonly {
            return try read { db in try db.withWritableMemoryCopy { try body($0, db.journalMode() == "wal") } }
        }
        return try writeWithoutTransaction { db in try body(db, db.journalMode() == "wal") }
    }
}

extension DatabasePool: ExportSource {
    /// A connection of its own, keyed like the pool's: the writer and the
    /// readers go on serving while it exports.
    func withExportConnection<T>(_ body: (_ db: Database, _ sourceUsesWAL: Bool) throws -> T) throws -> T {
        var exportConfiguration = configuration
        exportConfiguration.readonly = false
        exportConfiguration.journalMode = .default
        exportConfiguration.label = (configuration.label ?? "GRDB.DatabasePool") + ".export"
        let db = try Database(
            path: path, description: exportConfiguration.label!, configuration: exportConfiguration,
            cipherState: CipherState(keyContext: keyContext))
        defer { db.closeEvenIfBusy() }
        return try body(db, true)
    }
}

extension DatabaseSnapshot: ExportSource {
    /// An in-memory copy of the frozen state: the snapshot's connection is
    /// read-only, and a new connection would not see the same state.
    func withExportConnection<T>(_ body: (_ db: Database, _ sourceUsesWAL: Bool) throws -> T) throws -> T {
        try read { db in try db.withWritableMemoryCopy { try body($0, db.journalMode() == "wal") } }
    }
}
