/// How far a backup has gone, reported after each step of
/// `DatabaseReader/backup(to:pagesPerStep:progress:)`.
public struct DatabaseBackupProgress: Sendable, Hashable {
    /// The number of pages left to copy.
    public let remainingPageCount: Int

    /// The number of pages of the source database.
    public let totalPageCount: Int

    /// The number of pages copied so far.
    public var completedPageCount: Int { totalPageCount - remainingPageCount }

    /// Whether the backup is complete: every page is copied and the
    /// destination holds the source's content.
    public let isCompleted: Bool

    /// Creates a progress value.
    public init(remainingPageCount: Int, totalPageCount: Int, isCompleted: Bool) {
        self.remainingPageCount = remainingPageCount
        self.totalPageCount = totalPageCount
        self.isCompleted = isCompleted
    }
}
