import Foundation

// GRDB's suspension of databases, which avoids the `0xdead10cc` exception of
// iOS apps suspended while they hold a lock on a shared file. The platforms
// of this library have no such suspension: the names exist so that GRDB code
// compiles, and posting them changes nothing.

extension Database {
    /// The notification that suspends, in GRDB on iOS, the databases opened
    /// with ``Configuration/observesSuspensionNotifications``.
    ///
    /// Posting it has no effect on this library's databases: Linux and macOS
    /// processes are not suspended with their locks held.
    ///
    /// ```swift
    /// NotificationCenter.default.post(name: Database.suspendNotification, object: nil)
    /// ```
    public static let suspendNotification = Notification.Name("GRDB.Database.Suspend")

    /// The notification that resumes, in GRDB on iOS, the databases suspended
    /// by ``suspendNotification``.
    ///
    /// Posting it has no effect on this library's databases.
    public static let resumeNotification = Notification.Name("GRDB.Database.Resume")
}
