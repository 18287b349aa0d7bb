import Dispatch
import GRDBCipher
import Synchronization

/// The observations of the pages that event streams show, one per distinct
/// page: streams of the same page share one `SharedValueObservation`, so a
/// commit fetches each page once, whatever the number of its streams. An
/// observation is dropped when its last stream ends, so the registry holds
/// only pages that someone watches (at most ``StreamSlots/capacity``).
final class PageObservations: Sendable {
    private struct Entry {
        let observation: SharedValueObservation<[Todo]>
        var streams: Int
    }

    private let database: DatabasePool
    private let entries = Mutex<[TodoPage: Entry]>([:])
    private let fetches = FetchCounter()
    /// Where the shared observations notify their values (off the main queue,
    /// which a server does not drain).
    private let queue = DispatchQueue(label: "TodoServer.PageObservations")

    init(database: DatabasePool) {
        self.database = database
    }

    /// The number of page fetches made so far, by all observations.
    var fetchCount: Int { fetches.count.load(ordering: .relaxed) }

    /// The number of distinct pages observed now.
    var observedPageCount: Int { entries.withLock { $0.count } }

    /// The shared observation of `page`, for one more stream; give it back
    /// with ``release(_:)`` when the stream ends.
    func acquire(_ page: TodoPage) -> SharedValueObservation<[Todo]> {
        entries.withLock { entries in
            if var entry = entries[page] {
                entry.streams += 1
                entries[page] = entry
                return entry.observation
            }
            let request = page.request
            // A page always reads the same table and columns: its region is
            // constant, so the pool fetches it on readers, coalescing
            // commits, and writes never wait for the fetches (`tracking`
            // would fetch on the writer after each commit).
            let observation = ValueObservation
                .trackingConstantRegion { [fetches] db in
                    fetches.count.add(1, ordering: .relaxed)
                    return try request.fetchAll(db)
                }
                .removeDuplicates()
                .shared(in: database, scheduling: .async(onQueue: queue), extent: .whileObserved)
            entries[page] = Entry(observation: observation, streams: 1)
            return observation
        }
    }

    /// Ends one stream's use of the observation of `page`.
    func release(_ page: TodoPage) {
        entries.withLock { entries in
            guard var entry = entries[page] else { return }
            entry.streams -= 1
            entries[page] = entry.streams > 0 ? entry : nil
        }
    }
}

/// The count of page fetches, shared with the observations' fetch closures.
private final class FetchCounter: Sendable {
    let count = Atomic<Int>(0)
}
