extension ValueObservation {
    /// Returns an observation that notifies the values of this one,
    /// transformed by `transform`.
    ///
    /// ```swift
    /// let names = ValueObservation
    ///     .tracking { db in try Player.fetchAll(db) }
    ///     .map { players in players.map(\.name) }
    /// ```
    ///
    /// `transform` runs outside of any database access, so it does not hold
    /// a connection while it works. An error it throws ends the observation.
    ///
    /// - parameter transform: A closure that turns a value into a new one.
    public func map<T>(_ transform: @escaping @Sendable (Reducer.Value) throws -> T)
        -> ValueObservation<ValueReducers.Map<Reducer, T>>
    {
        withReducer { ValueReducers.Map(base: $0, transform: transform) }
    }
}

extension ValueReducers {
    /// A ``ValueReducer`` that transforms the values of its base reducer.
    ///
    /// See ``ValueObservation/map(_:)``.
    public struct Map<Base: _ValueReducer, Value: Sendable>: ValueReducer {
        var base: Base
        let transform: @Sendable (Base.Value) throws -> Value

        /// Returns the fetcher of the base reducer.
        public func _makeFetcher() -> Base.Fetcher {
            base._makeFetcher()
        }

        /// Reduces `fetched` with the base reducer, then transforms the result.
        ///
        /// - throws: The error of the base reducer or of the transform.
        public mutating func _value(_ fetched: Base.Fetcher.Value) throws -> Value? {
            guard let value = try base._value(fetched) else { return nil }
            return try transform(value)
        }
    }
}
