extension DatabaseReader {
    /// Copies the whole content of this database into `writer`, replacing
    /// what it held. See ``Database/backup(to:pagesPerStep:progress:)`` for
    /// the rules on keys and cipher settings.
    ///
    /// ```swift
    /// let source = try DatabasePool(path: "/var/lib/app/db.sqlite", configuration: config)
    /// let copy = try DatabaseQueue(path: "/var/backups/db.sqlite", configuration: config)
    /// try source.backup(to: copy)
    /// ```
    ///
    /// The copy reads one stable state of the source in a read access, so a
    /// ``DatabasePool`` source keeps accepting writes meanwhile (they are not
    /// in the copy). The destination is held by a barrier write, taken
    /// first: none of its other accesses runs during the copy.
    ///
    /// - parameters:
    ///   - writer: The destination, another database than this one.
    ///   - pagesPerStep: The number of pages copied by each step; -1 (the
    ///     default) copies everything in one step.
    ///   - progress: Called after each step and on completion; an error it
    ///     throws before completion cancels the backup and leaves the
    ///     destination as it was. It runs inside accesses of both databases:
    ///     it must not access them itself (that traps, as any nested access).
    /// - throws: A ``DatabaseError``, or the error thrown by `progress`.
    public func backup(
        to writer: some DatabaseWriter,
        pagesPerStep: CInt = -1,
        progress: ((DatabaseBackupProgress) throws -> Void)? = nil) throws
    {
        guard self !== writer else {
            throw DatabaseError.misuse("a database cannot be backed up into itself")
        }
        // The destination first, then the source, as in GRDB.
        try writer.barrierWriteWithoutTransaction { destination in
            try read { source in
                try source.backup(to: destination, pagesPerStep: pagesPerStep, progress: progress)
            }
        }
    }

    /// The async twin of ``backup(to:pagesPerStep:progress:)``: the copy runs
    /// off the cooperative thread pool. Cancelling the task cancels the
    /// backup at its next step (give `pagesPerStep` to copy in several
    /// steps) and leaves the destination as it was.
    ///
    /// - throws: `CancellationError`, a ``DatabaseError``, or the error thrown
    ///   by `progress`.
    public func backup(
        to writer: some DatabaseWriter,
        pagesPerStep: CInt = -1,
        progress: (@Sendable (DatabaseBackupProgress) throws -> Void)? = nil) async throws
    {
        try await CopyCancellation.runCancellable { cancellation in
            try self.backup(to: writer, pagesPerStep: pagesPerStep) { report in
                if !report.isCompleted, cancellation.isCancelled() { throw CancellationError() }
                try progress?(report)
            }
        }
    }
}
