/// Implementation details of ``ValueReducer``: a reducer turns the values
/// that its fetcher reads from the database into the values a
/// ``ValueObservation`` notifies.
///
/// The reducer itself is not `Sendable`: an observation only calls it from
/// one place at a time, in the order of the fetches. Its fetcher is
/// `Sendable`, because fetches run on database connections.
public protocol _ValueReducer: SendableMetatype {
    /// The `Sendable` type that reads database values.
    associatedtype Fetcher: _ValueReducerFetcher

    /// The type of the notified values.
    associatedtype Value: Sendable

    /// Returns the fetcher. It must not depend on the reducer's state.
    func _makeFetcher() -> Fetcher

    /// Turns a fetched value into the value to notify, or nil when nothing
    /// should be notified. The first call must return a value.
    ///
    /// - throws: The error that ends the observation.
    mutating func _value(_ fetched: Fetcher.Value) throws -> Value?
}

/// Implementation details of ``ValueReducer``: reads database values.
public protocol _ValueReducerFetcher: Sendable {
    /// The type of the fetched values.
    associatedtype Value

    /// Reads a value from the database.
    ///
    /// - throws: Any error, which ends the observation.
    func fetch(_ db: Database) throws -> Value
}

/// The type that fetches and transforms the values observed by a
/// ``ValueObservation``.
///
/// Do not declare new conformances: only the types of ``ValueReducers`` are
/// valid reducers.
public protocol ValueReducer: _ValueReducer {}

/// The namespace of the concrete ``ValueReducer`` types.
public enum ValueReducers {}
