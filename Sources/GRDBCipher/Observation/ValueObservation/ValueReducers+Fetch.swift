extension ValueReducers {
    /// The ``ValueReducer`` of an observation made with
    /// ``ValueObservation/tracking(_:)`` and its siblings: it notifies the
    /// fetched values as they are.
    public struct Fetch<Value: Sendable>: ValueReducer {
        /// Runs the observation's fetch closure.
        public struct _Fetcher: _ValueReducerFetcher {
            let body: @Sendable (Database) throws -> Value

            /// Runs the fetch closure.
            ///
            /// - throws: The error of the closure.
            public func fetch(_ db: Database) throws -> Value {
                try body(db)
            }
        }

        let body: @Sendable (Database) throws -> Value

        /// Returns the fetcher, which runs the observation's closure.
        public func _makeFetcher() -> _Fetcher {
            _Fetcher(body: body)
        }

        /// Returns `fetched`: every fetched value is notified.
        public func _value(_ fetched: Value) -> Value? {
            fetched
        }
    }
}
