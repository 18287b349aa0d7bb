import GRDBCipher
import Synchronization

/// Runs SQLCipher's page check (`cipherIntegrityCheck`) on demand. Calls
/// that arrive while a check runs wait for that check instead of starting
/// another: the check reads the whole file, and a burst of health requests
/// must not multiply it.
final class IntegrityChecker: Sendable {
    /// What a check found.
    enum Outcome: Sendable {
        /// Every page authenticates.
        case intact
        /// These pages fail authentication.
        case damaged([Database.CipherIntegrityFailure])
        /// The database is not encrypted: nothing to check.
        case notEncrypted
    }

    private let database: DatabasePool
    private let isEncrypted: Bool
    private let running = Mutex<Task<Outcome, any Error>?>(nil)

    init(database: DatabasePool, isEncrypted: Bool) {
        self.database = database
        self.isEncrypted = isEncrypted
    }

    /// Checks the file, or waits for the check that already runs.
    ///
    /// - throws: A `DatabaseError` from the check (`SQLITE_BUSY` when WAL
    ///   pages kept out of the file make the answer unreliable).
    func check() async throws -> Outcome {
        guard isEncrypted else { return .notEncrypted }
        let database = self.database
        let task = running.withLock { running in
            if let task = running { return task }
            let task = Task<Outcome, any Error> {
                let failures = try await database.cipherIntegrityCheck()
                return failures.isEmpty ? .intact : .damaged(failures)
            }
            running = task
            return task
        }
        defer {
            running.withLock { running in
                if running == task { running = nil }
            }
        }
        return try await task.value
    }
}
