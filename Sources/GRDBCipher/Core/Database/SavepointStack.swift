/// The savepoints open on a connection (see <https://www.sqlite.org/lang_savepoint.html>),
/// kept so that changes made inside a savepoint are told to observers only
/// once they can commit: when the last savepoint is released.
///
/// Each savepoint remembers how many changes were buffered when it began,
/// so that rolling back to it drops the changes made since.
struct SavepointStack {
    private var savepoints: [(name: String, bufferedEventCount: Int)] = []

    var isEmpty: Bool { savepoints.isEmpty }

    mutating func removeAll() {
        savepoints.removeAll()
    }

    mutating func begin(_ name: String, bufferedEventCount: Int) {
        savepoints.append((name.lowercased(), bufferedEventCount))
    }

    /// `ROLLBACK TO name`: the savepoints above `name` go, `name` stays.
    /// Returns the number of buffered changes to keep.
    mutating func rollback(to name: String) -> Int? {
        let name = name.lowercased()
        while let last = savepoints.last, last.name != name {
            savepoints.removeLast()
        }
        return savepoints.last?.bufferedEventCount
    }

    /// `RELEASE name`: `name` and the savepoints above it go.
    mutating func release(_ name: String) {
        let name = name.lowercased()
        while let last = savepoints.last, last.name != name {
            savepoints.removeLast()
        }
        if !savepoints.isEmpty { savepoints.removeLast() }
    }
}
