import CSQLCipher

extension Database {
    /// Copies the whole content of this database into `destination`, page
    /// by page, replacing what the destination held.
    ///
    /// Both databases must be encrypted with the same cipher settings (or both
    /// be plaintext). Their keys may differ: each page is decrypted with the
    /// source's key and re-encrypted with the destination's, which keeps its
    /// own key. Between a plaintext and an encrypted database, or between
    /// different cipher settings, use `DatabaseReader/export(to:encryption:replacingExistingFile:)`.
    ///
    /// ```swift
    /// try source.backup(to: destination, pagesPerStep: 100) { progress in
    ///     print("\(progress.completedPageCount) of \(progress.totalPageCount)")
    /// }
    /// ```
    ///
    /// Outside of a transaction, a write committed by another connection
    /// between two steps restarts the copy: back up from a read access to
    /// copy one stable state while writes go on.
    ///
    /// `progress` is called after each step, and once with `isCompleted`
    /// true. An error it throws before completion cancels the backup and
    /// leaves the destination as it was; an error thrown on completion is
    /// ignored, since the destination is already written.
    ///
    /// - parameters:
    ///   - destination: The destination connection, outside of a transaction.
    ///   - pagesPerStep: The number of pages copied by each step; -1 (the
    ///     default) copies everything in one step.
    ///   - progress: Called after each step.
    /// - throws: A ``DatabaseError`` if the pages cannot be copied, or the
    ///   error thrown by `progress`.
    public func backup(
        to destination: Database,
        pagesPerStep: CInt = -1,
        progress: ((DatabaseBackupProgress) throws -> Void)? = nil) throws
    {
        let sourceHandle = try connection()
        let destinationHandle = try destination.connection()
        guard sourceHandle != destinationHandle else {
            throw DatabaseError.misuse("a database cannot be backed up into itself")
        }
        guard pagesPerStep != 0 else {
            throw DatabaseError.misuse("pagesPerStep must be positive, or -1 to copy everything in one step")
        }
        try checkBackupCompatibility(with: destination)
        if isInsideTransaction {
            // Fix the snapshot of a deferred transaction now. Otherwise each
            // step opens and closes its own read, and a write committed by
            // another connection between two steps restarts the copy.
            try execute(sql: "SELECT rootpage FROM sqlite_master LIMIT 1")
        }
        guard let backup = sqlite3_backup_init(destinationHandle, "main", sourceHandle, "main") else {
            let error = DatabaseError.fromConnection(destinationHandle, code: sqlite3_errcode(destinationHandle))
            if error.message?.contains("encrypted") == true {
                throw Self.backupNeedsExport()
            }
            throw error
        }
        var isFinished = false
        defer { if !isFinished { sqlite3_backup_finish(backup) } }
        while true {
            let code = sqlite3_backup_step(backup, pagesPerStep)
            switch code {
            case SQLITE_DONE:
                // Read before finishing: finishing frees the backup object.
                let total = Int(sqlite3_backup_pagecount(backup))
                isFinished = true
                let finishCode = sqlite3_backup_finish(backup)
                guard finishCode == SQLITE_OK else {
                    throw DatabaseError.fromConnection(destinationHandle, code: finishCode)
                }
                try? progress?(DatabaseBackupProgress(remainingPageCount: 0, totalPageCount: total, isCompleted: true))
                return
            case SQLITE_OK:
                try progress?(DatabaseBackupProgress(
                    remainingPageCount: Int(sqlite3_backup_remaining(backup)),
                    totalPageCount: Int(sqlite3_backup_pagecount(backup)),
                    isCompleted: false))
            default:
                // Finishing rolls the destination back and reports the error.
                isFinished = true
                sqlite3_backup_finish(backup)
                throw DatabaseError.fromConnection(destinationHandle, code: code)
            }
        }
    }

    /// Throws unless pages of this database can be copied as they are into
    /// `destination`: SQLCipher re-encrypts each page with the destination's
    /// key, but does not convert between page formats, and silently writes
    /// an unreadable file when they differ.
    private func checkBackupCompatibility(with destination: Database) throws {
        let sourceFormat = try cipherSettings?.pageFormat
        let destinationFormat = try destination.cipherSettings?.pageFormat
        guard sourceFormat == destinationFormat else {
            throw Self.backupNeedsExport()
        }
    }

    private static func backupNeedsExport() -> DatabaseError {
        DatabaseError(
            resultCode: .SQLITE_ERROR,
            message: "backup copies pages as they are, and cannot copy between a plaintext and an encrypted "
                + "database, or between different cipher settings: use export(to:encryption:) instead")
    }
}
