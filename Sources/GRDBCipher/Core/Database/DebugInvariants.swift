/// The rules that unchecked fields rely on, checked in debug builds.
///
/// Fields marked `@exclusivity(unchecked)`, `nonisolated(unsafe)` or kept in
/// `@unchecked Sendable` types rely on "one thread at a time": a
/// connection, its statements, its cursors and their rows are used by the
/// thread that runs an access of the connection, and by no other. Debug
/// builds check it where it matters (each statement that runs, each step,
/// each column a cursor row reads by name), and check that a row has
/// exactly one representation. Release builds check nothing.
enum DebugInvariants {
    /// What a failed check does: by default, it stops the process with the
    /// message (`assertionFailure`). Tests replace it to see that a check
    /// fires, with ``withViolationHandler(_:_:)``.
    private static let handler = LockedValue<(@Sendable (String) -> Void)?>(nil)

    /// Reports a broken rule.
    static func report(_ message: @autoclosure () -> String) {
        let message = message()
        if let handler = handler.withLock({ $0 }) {
            handler(message)
        } else {
            assertionFailure(message)
        }
    }

    /// Runs `body` with `violationHandler` called instead of stopping the
    /// process when a check fails.
    static func withViolationHandler<T>(
        _ violationHandler: @escaping @Sendable (String) -> Void, _ body: () throws -> T) rethrows -> T
    {
        handler.withLock { $0 = violationHandler }
        defer { handler.withLock { $0 = nil } }
        return try body()
    }

    /// Whether this build checks (a debug build).
    static var areChecked: Bool {
        #if DEBUG
        true
        #else
        false
        #endif
    }
}

extension Database {
    /// In debug builds, reports `operation` unless it runs on the thread of
    /// an access of this connection (when something serializes it: see
    /// ``runsInAccess``).
    @inline(__always)
    func checkConfinement(_ operation: @autoclosure () -> String) {
        #if DEBUG
        if let runsInAccess, !runsInAccess() {
            DebugInvariants.report(
                "\(operation()) outside of an access of \(description): a connection, its statements, cursors "
                    + "and cursor rows are used by one thread at a time, inside a database access")
        }
        #endif
    }
}
