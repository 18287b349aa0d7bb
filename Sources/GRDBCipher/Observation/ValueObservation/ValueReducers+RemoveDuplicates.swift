extension ValueObservation {
    /// Returns an observation that skips a value that `predicate` finds
    /// equivalent to the last notified one.
    ///
    /// - parameter predicate: Returns true when its second argument is a
    ///   duplicate of its first (the last notified value).
    public func removeDuplicates(
        by predicate: sending @escaping (Reducer.Value, Reducer.Value) -> Bool
    ) -> ValueObservation<ValueReducers.RemoveDuplicates<Reducer>> {
        // The observation calls its reducer from one place at a time (see
        // `_ValueReducer`), and `sending` gives it the only reference to
        // `predicate`: it never runs concurrently.
        nonisolated(unsafe) let isDuplicate = predicate
        return withReducer { ValueReducers.RemoveDuplicates(base: $0, isDuplicate: isDuplicate) }
    }
}

extension ValueObservation where Reducer.Value: Equatable {
    /// Returns an observation that skips a value equal to the last notified
    /// one.
    ///
    /// ```swift
    /// let playerCount = ValueObservation
    ///     .tracking { db in try Player.fetchCount(db) }
    ///     .removeDuplicates()
    /// ```
    ///
    /// An observation is triggered by any change to the database region it
    /// tracks, so it may notify the same value twice: this operator filters
    /// such repetitions out.
    public func removeDuplicates() -> ValueObservation<ValueReducers.RemoveDuplicates<Reducer>> {
        withReducer { ValueReducers.RemoveDuplicates(base: $0, isDuplicate: { $0 == $1 }) }
    }
}

extension ValueReducers {
    /// A ``ValueReducer`` that skips the values of its base reducer that are
    /// duplicates of the last notified one.
    ///
    /// See ``ValueObservation/removeDuplicates()``.
    public struct RemoveDuplicates<Base: _ValueReducer>: ValueReducer {
        var base: Base
        let isDuplicate: (Base.Value, Base.Value) -> Bool
        var lastValue: Base.Value?

        init(base: Base, isDuplicate: @escaping (Base.Value, Base.Value) -> Bool) {
            self.base = base
            self.isDuplicate = isDuplicate
        }

        /// Returns the fetcher of the base reducer.
        public func _makeFetcher() -> Base.Fetcher {
            base._makeFetcher()
        }

        /// Reduces `fetched` with the base reducer, and returns nil when the
        /// result duplicates the last notified value.
        ///
        /// - throws: The error of the base reducer.
        public mutating func _value(_ fetched: Base.Fetcher.Value) throws -> Base.Value? {
            guard let value = try base._value(fetched) else { return nil }
            if let lastValue, isDuplicate(lastValue, value) { return nil }
            lastValue = value
            return value
        }
    }
}
