/// The database files that connections of this process have open, by file
/// identity, so that a file is never replaced under a live connection.
enum OpenDatabaseFiles {
    private static let counts = LockedValue<[FileIdentity: Int]>([:])

    /// Records that a connection opened the file at `path`; returns its
    /// identity, to give back to ``unregister(_:)`` when it closes. nil for
    /// in-memory databases and URIs.
    static func register(path: String) -> FileIdentity? {
        guard !path.isEmpty, path != ":memory:", !path.hasPrefix("file:"),
              let identity = FileIdentity(path: path) else { return nil }
        counts.withLock { $0[identity, default: 0] += 1 }
        return identity
    }

    static func unregister(_ identity: FileIdentity) {
        counts.withLock { counts in
            guard let count = counts[identity] else { return }
            counts[identity] = count > 1 ? count - 1 : nil
        }
    }

    /// Whether a connection of this process has the file at `path` open.
    static func isOpen(path: String) -> Bool {
        guard let identity = FileIdentity(path: path) else { return false }
        return counts.withLock { $0[identity] != nil }
    }
}
