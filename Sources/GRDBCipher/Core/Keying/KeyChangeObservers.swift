import Foundation

/// Code told of every key change of a database file made in this process,
/// before it starts and after it ends (whether it succeeded or not).
///
/// A replicator of the file registers here: it must not ship a frame that
/// the key change writes into the generation of the old key. Observers are
/// called on the thread of the key change, which holds the file's
/// ``KeyChangeLock`` and its writer: they must not wait for either.
enum KeyChangeObservers {
    /// What an observer hears.
    enum Event: Sendable {
        case willChange
        case didChange
    }

    /// The registration of one observer; it ends with ``remove()``.
    final class Registration: Sendable {
        fileprivate let path: String
        fileprivate let id: UInt64

        fileprivate init(path: String, id: UInt64) {
            self.path = path
            self.id = id
        }

        /// Stops calling the observer.
        func remove() {
            KeyChangeObservers.observers.withLock { $0[path]?.removeAll { $0.id == id } }
        }
    }

    private static let observers = LockedValue<[String: [(id: UInt64, observer: @Sendable (Event) -> Void)]]>([:])
    private static let nextID = LockedValue<UInt64>(0)

    /// Calls `observer` around each key change of the database at `path`
    /// (a symbolic link and its target are one file).
    static func add(forDatabaseAt path: String, _ observer: @escaping @Sendable (Event) -> Void) -> Registration {
        let id = nextID.withLock { id -> UInt64 in
            id += 1
            return id
        }
        let canonical = KeyChangeLock.canonicalPath(path)
        observers.withLock { $0[canonical, default: []].append((id, observer)) }
        return Registration(path: canonical, id: id)
    }

    /// Runs `body`, a key change of the database at `path`, between the
    /// observers' two events.
    static func announcing<T>(forDatabaseAt path: String, _ body: () throws -> T) rethrows -> T {
        let canonical = KeyChangeLock.canonicalPath(path)
        let current = observers.withLock { $0[canonical] ?? [] }
        guard !current.isEmpty else { return try body() }
        for entry in current { entry.observer(.willChange) }
        defer { for entry in current { entry.observer(.didChange) } }
        return try body()
    }
}
