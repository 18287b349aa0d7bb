import Foundation
import GRDBCipher
import Synchronization

/// Runs SQLCipher's page check (`cipherIntegrityCheck`) on demand, and keeps
/// its verdict for a while.
///
/// The check reads and authenticates the whole file (on one of the pool's
/// readers: writes go on meanwhile). A verdict is reused for
/// `cacheDuration`, and calls that arrive while a check runs wait for that
/// check instead of starting another: health requests, however many, cost
/// at most one whole-file read per period. A check that could not complete
/// is not kept: the next call tries again.
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

    /// What a check found, and when it ran.
    struct Verdict: Sendable {
        let outcome: Outcome
        /// When the check ended, for clients to judge the verdict's age.
        let date: Date
        let instant: ContinuousClock.Instant
    }

    private enum Pending {
        case cached(Verdict)
        case running(Task<Verdict, any Error>)
    }

    private struct State {
        var running: Task<Verdict, any Error>?
        var cached: Verdict?
        var runs = 0
    }

    private let database: DatabasePool
    private let isEncrypted: Bool
    private let cacheDuration: Duration
    private let state = Mutex(State())

    init(database: DatabasePool, isEncrypted: Bool, cacheDuration: Duration) {
        self.database = database
        self.isEncrypted = isEncrypted
        self.cacheDuration = cacheDuration
    }

    /// How many checks have run (for tests).
    var runCount: Int { state.withLock { $0.runs } }

    /// The verdict of a check that ended less than `cacheDuration` ago, or
    /// of a new check, or of the check that already runs.
    ///
    /// - throws: A `DatabaseError` from the check (`SQLITE_BUSY` when WAL
    ///   pages kept out of the file make the answer unreliable).
    func check() async throws -> Verdict {
        let database = self.database
        let isEncrypted = self.isEncrypted
        let cacheDuration = self.cacheDuration
        let next = state.withLock { state -> Pending in
            if let cached = state.cached, ContinuousClock.now - cached.instant < cacheDuration {
                return .cached(cached)
            }
            if let task = state.running { return .running(task) }
            state.runs += 1
            let task = Task<Verdict, any Error> {
                let outcome: Outcome
                if isEncrypted {
                    let failures = try await database.cipherIntegrityCheck()
                    outcome = failures.isEmpty ? .intact : .damaged(failures)
                } else {
                    outcome = .notEncrypted
                }
                return Verdict(outcome: outcome, date: Date(), instant: .now)
            }
            state.running = task
            return .running(task)
        }
        let task: Task<Verdict, any Error>
        switch next {
        case .cached(let verdict): return verdict
        case .running(let running): task = running
        }
        do {
            let verdict = try await task.value
            state.withLock { state in
                if state.running == task {
                    state.running = nil
                    state.cached = verdict
                }
            }
            return verdict
        } catch {
            state.withLock { state in
                if state.running == task { state.running = nil }
            }
            throw error
        }
    }
}
