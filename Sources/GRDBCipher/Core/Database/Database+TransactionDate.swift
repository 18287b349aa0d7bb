import CSQLCipher
import Foundation

extension Database {
    /// The date of the current transaction.
    ///
    /// Inside a transaction, the date does not change: the connection reads
    /// it from ``Configuration/transactionClock`` when the transaction begins
    /// (when SQLite leaves its autocommit mode, with `BEGIN` or a first
    /// `SAVEPOINT`). By default, it is the date at which the transaction
    /// began. Outside of a transaction, each call returns a new date.
    ///
    /// ```swift
    /// try dbQueue.write { db in
    ///     let date = try db.transactionDate
    ///     try db.execute(sql: "UPDATE player SET modifiedAt = ?", arguments: [date])
    ///     // Same date until the transaction ends.
    ///     let sameDate = try db.transactionDate // == date
    /// }
    /// ```
    ///
    /// - throws: The error of the clock, when it failed for the current
    ///   transaction or fails now.
    public var transactionDate: Date {
        get throws {
            // Statements that bypass `Statement` (the rekey's own
            // transactions) are noticed here.
            noteAutocommitTransition()
            if let transactionDateResult {
                return try transactionDateResult.get()
            }
            return try configuration.transactionClock.now(self)
        }
    }

    /// Called after each statement ends: records the transaction date when
    /// the connection has just left autocommit mode, and forgets it when
    /// the transaction has ended.
    @inline(__always)
    func noteAutocommitTransition() {
        changeGeneration.statementDidEnd()
        let isInside = sqliteConnection.map { sqlite3_get_autocommit($0) == 0 } ?? false
        guard isInside != hasTransactionDate else { return }
        // Set first: a clock that runs statements does not come back here.
        hasTransactionDate = isInside
        schemaCacheTransactionDidBeginOrEnd()
        if isInside {
            transactionDateResult = Result { try configuration.transactionClock.now(self) }
        } else {
            transactionDateResult = nil
            savepointStack.removeAll()
        }
    }
}
