import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Backups and exports of an enveloped database that carry the envelope
// along: the copy is keyed with the same data key (and the same salt), and
// a copy of the envelope is written beside it, so that the same
// key-encryption key opens it. A copy without its envelope would be
// unreadable: its data key exists nowhere else.

extension DatabaseReader {
    /// Exports this enveloped database to a new file at `path`, under the
    /// same data key, and writes a copy of its envelope beside it
    /// (`<path>.envelope`): `keyEncryptionKey` opens the copy as it opens
    /// this database. The export is SQLCipher's (see
    /// `export(to:encryption:replacingExistingFile:filePermissions:)`):
    /// a new file, checked, then moved into place.
    ///
    /// ```swift
    /// try dbPool.exportWithEnvelope(to: "/var/backups/app.sqlite", keyEncryptionKey: kek)
    /// let copyKey = try DatabaseEnvelope.unwrap(forDatabaseAt: "/var/backups/app.sqlite",
    ///                                           keyEncryptionKey: kek).key
    /// ```
    ///
    /// - throws: A ``DatabaseEnvelopeError`` if this database's envelope is
    ///   missing, altered, of another file, or not opened by
    ///   `keyEncryptionKey`; a ``DatabaseError`` if the destination exists,
    ///   or the export fails. No file is left at the destination then.
    public func exportWithEnvelope(to path: String, keyEncryptionKey: KeyEncryptionKey) throws {
        try exportWithEnvelope(to: path, keyEncryptionKey: keyEncryptionKey, cancellation: nil)
    }

    /// The async twin of ``exportWithEnvelope(to:keyEncryptionKey:)``: the
    /// export runs off the cooperative thread pool, and cancelling the task
    /// interrupts it and leaves no file behind, as
    /// `export(to:encryption:replacingExistingFile:filePermissions:)` does.
    ///
    /// - throws: `CancellationError`, a ``DatabaseEnvelopeError``, or a
    ///   ``DatabaseError``.
    public func exportWithEnvelope(to path: String, keyEncryptionKey: KeyEncryptionKey) async throws {
        try await CopyCancellation.runCancellable { cancellation in
            try self.exportWithEnvelope(to: path, keyEncryptionKey: keyEncryptionKey, cancellation: cancellation)
        }
    }

    private func exportWithEnvelope(
        to path: String, keyEncryptionKey: KeyEncryptionKey, cancellation: CopyCancellation?) throws
    {
        let settings = configuration.cipherSettings
        try EnvelopedCopy.write(from: self.path, to: path, keyEncryptionKey: keyEncryptionKey) { key, destination in
            try export(
                to: destination, encryption: .encrypted(key: key, settings: settings), replacingExistingFile: false,
                filePermissions: nil, cancellation: cancellation)
        }
    }

    /// Backs this enveloped database up into a new file at `path`, under
    /// the same data key, and writes a copy of its envelope beside it
    /// (`<path>.envelope`): `keyEncryptionKey` opens the copy as it opens
    /// this database. The pages are copied by SQLite's backup (see
    /// `backup(to:pagesPerStep:progress:)`) into a temporary file beside
    /// the destination, which is synced and renamed into place once
    /// complete.
    ///
    /// - throws: A ``DatabaseEnvelopeError`` if this database's envelope is
    ///   missing, altered, of another file, or not opened by
    ///   `keyEncryptionKey`; a ``DatabaseError`` if the destination exists
    ///   or the backup fails; or the error thrown by `progress`. No file is
    ///   left at the destination then.
    public func backupWithEnvelope(
        to path: String, keyEncryptionKey: KeyEncryptionKey, pagesPerStep: CInt = -1,
        progress: ((DatabaseBackupProgress) throws -> Void)? = nil) throws
    {
        var copyConfiguration = Configuration()
        copyConfiguration.cipherSettings = configuration.cipherSettings
        copyConfiguration.journalMode = .default
        try EnvelopedCopy.write(from: self.path, to: path, keyEncryptionKey: keyEncryptionKey) { key, destination in
            // Named as an export's temporary file, so that the next copy to
            // the same destination removes it if this process is killed.
            AbandonedFiles.remove(besideDatabaseAt: destination)
            let temporary = AbandonedFiles.temporaryCopyPath(for: destination)
            copyConfiguration.key = key
            do {
                let copy = try DatabaseQueue(path: temporary, configuration: copyConfiguration)
                do {
                    try backup(to: copy, pagesPerStep: pagesPerStep, progress: progress)
                    try copy.close()
                } catch {
                    try? copy.close()
                    throw error
                }
                try FileDurability.syncFile(atPath: temporary)
                switch try FileSystem.renameWithoutReplacing(temporary, to: destination) {
                case .renamed:
                    break
                case .destinationExists:
                    throw DatabaseError(resultCode: .SQLITE_CANTOPEN, message: "\(destination) already exists")
                case .unsupported:
                    guard rename(temporary, destination) == 0 else {
                        throw FileSystem.systemError("cannot move the backup to \(destination)")
                    }
                }
                try FileDurability.syncDirectory(containing: destination)
            } catch {
                // The copy's journal or WAL files too, if a failure left them.
                for suffix in ["", "-journal", "-wal", "-shm"] {
                    try? FileManager.default.removeItem(atPath: temporary + suffix)
                }
                throw error
            }
        }
    }

    /// The async twin of ``backupWithEnvelope(to:keyEncryptionKey:pagesPerStep:progress:)``:
    /// the copy runs off the cooperative thread pool. Cancelling the task
    /// stops it at its next step (give `pagesPerStep` to copy in several)
    /// and leaves no file behind.
    ///
    /// - throws: `CancellationError`, a ``DatabaseEnvelopeError``, a
    ///   ``DatabaseError``, or the error thrown by `progress`.
    public func backupWithEnvelope(
        to path: String, keyEncryptionKey: KeyEncryptionKey, pagesPerStep: CInt = -1,
        progress: (@Sendable (DatabaseBackupProgress) throws -> Void)? = nil) async throws
    {
        try await CopyCancellation.runCancellable { cancellation in
            try self.backupWithEnvelope(to: path, keyEncryptionKey: keyEncryptionKey, pagesPerStep: pagesPerStep) { report in
                if !report.isCompleted, cancellation.isCancelled() { throw CancellationError() }
                try progress?(report)
            }
        }
    }
}

/// The steps that both enveloped copies share.
enum EnvelopedCopy {
    /// Unwraps the envelope of the database at `sourcePath`, writes its copy
    /// for `destinationPath`, then runs `copy` with the data key; if `copy`
    /// fails, or the copy turns out not to belong to the envelope, removes
    /// what was written.
    static func write(
        from sourcePath: String, to destinationPath: String, keyEncryptionKey: KeyEncryptionKey,
        copy: (_ key: DatabaseKey, _ destination: String) throws -> Void) throws
    {
        // Under the source's key-change lock: no rotation or rewrap changes
        // the envelope or the key while the copy is made, and one that a
        // crash interrupted is completed or undone first.
        try KeyChangeLock.run(forDatabaseAt: sourcePath, operation: "copy", held: nil) { held in
            let key = try DatabaseEnvelope.unwrap(
                forDatabaseAt: sourcePath, keyEncryptionKey: keyEncryptionKey, creatingIfMissing: false, held: held).key
            let envelope = try EnvelopeFile.read(atPath: DatabaseEnvelope.path(forDatabaseAt: sourcePath))
            try write(envelope, key: key, to: destinationPath, copy: copy)
        }
    }

    private static func write(
        _ envelope: EnvelopeFile, key: DatabaseKey, to destinationPath: String,
        copy: (_ key: DatabaseKey, _ destination: String) throws -> Void) throws
    {
        // An existing destination keeps its file and its envelope. An
        // envelope with no database beside it (left by a copy that a crash
        // stopped) protects nothing, and is replaced.
        guard !FileManager.default.fileExists(atPath: destinationPath) else {
            throw DatabaseError(resultCode: .SQLITE_CANTOPEN, message: "\(destinationPath) already exists")
        }
        let destinationEnvelope = DatabaseEnvelope.path(forDatabaseAt: destinationPath)
        // The envelope first: a crash then leaves an envelope without a
        // database, never a database that nothing can open.
        try envelope.write(toPath: destinationEnvelope, replacing: true)
        do {
            try copy(key, destinationPath)
        } catch {
            // The copy left no file (an existing one is not ours to remove).
            try? FileManager.default.removeItem(atPath: destinationEnvelope)
            throw error
        }
        do {
            // The copy starts with the salt of the data key's envelope.
            try envelope.checkBelongs(toDatabaseAt: destinationPath)
        } catch {
            try? FileManager.default.removeItem(atPath: destinationPath)
            try? FileManager.default.removeItem(atPath: destinationEnvelope)
            throw error
        }
    }
}
