extension ValueReducers {
    /// A ``ValueReducer`` that reports the fetches and the values of its base
    /// reducer.
    ///
    /// See ``ValueObservation/handleEvents(willStart:willFetch:willTrackRegion:databaseDidChange:didReceiveValue:didFail:didCancel:)``
    /// and ``ValueObservation/print(_:to:)``.
    public struct Trace<Base: ValueReducer>: ValueReducer {
        /// Reports a fetch, then runs the base fetcher.
        public struct _Fetcher: _ValueReducerFetcher {
            let base: Base.Fetcher
            let willFetch: @Sendable () -> Void

            /// Calls `willFetch`, then fetches with the base fetcher.
            ///
            /// - throws: The error of the base fetcher.
            public func fetch(_ db: Database) throws -> Base.Fetcher.Value {
                willFetch()
                return try base.fetch(db)
            }
        }

        var base: Base
        let willFetch: @Sendable () -> Void
        let didReceiveValue: @Sendable (Base.Value) -> Void

        /// Returns a fetcher that reports each fetch.
        public func _makeFetcher() -> _Fetcher {
            _Fetcher(base: base._makeFetcher(), willFetch: willFetch)
        }

        /// Reduces `fetched` with the base reducer, and reports the value to
        /// notify, if any.
        ///
        /// - throws: The error of the base reducer.
        public mutating func _value(_ fetched: Base.Fetcher.Value) throws -> Base.Value? {
            guard let value = try base._value(fetched) else { return nil }
            didReceiveValue(value)
            return value
        }
    }
}
