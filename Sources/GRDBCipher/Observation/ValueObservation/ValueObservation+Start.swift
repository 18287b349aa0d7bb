extension ValueObservation {
    /// Starts observing the database: `onChange` receives the initial value,
    /// then a fresh value after the transactions that modify the tracked
    /// region, until the returned cancellable is cancelled or deallocated, or
    /// an error happens.
    ///
    /// ```swift
    /// let cancellable = ValueObservation
    ///     .tracking { db in try Player.fetchAll(db) }
    ///     .start(
    ///         in: dbPool,
    ///         scheduling: .async(onQueue: myQueue),
    ///         onError: { error in print("observation failed: \(error)") },
    ///         onChange: { players in print("fresh players: \(players)") })
    /// ```
    ///
    /// The observation retains the database until it ends. A snapshot, or a
    /// read-only database, notifies one value: it cannot change. An error
    /// (the fetch throws, the database is closed, its key is wrong) ends the
    /// observation and goes to `onError`.
    ///
    /// - parameter reader: The database to observe.
    /// - parameter scheduler: Where and when values and errors are notified.
    /// - parameter onError: Receives the error that ends the observation.
    /// - parameter onChange: Receives each value.
    /// - returns: A cancellable that stops the observation.
    @preconcurrency public func start(
        in reader: any DatabaseReader,
        scheduling scheduler: some ValueObservationScheduler,
        onError: @escaping @Sendable (any Error) -> Void,
        onChange: @escaping @Sendable (Reducer.Value) -> Void
    ) -> AnyDatabaseCancellable {
        var observation = self
        observation.events.didFail = chained(observation.events.didFail, onError)
        observation.events.willStart?()
        return observation.startObserving(in: reader, scheduler: scheduler, onChange: onChange)
    }

    /// Starts observing the database, and notifies values and errors on the
    /// main actor (asynchronously, unless `scheduler` is ``ValueObservationMainActorScheduler/immediate``).
    ///
    /// ```swift
    /// let cancellable = observation.start(in: dbQueue) { error in
    ///     // on the main actor
    /// } onChange: { players in
    ///     // on the main actor
    /// }
    /// ```
    ///
    /// - parameter reader: The database to observe.
    /// - parameter scheduler: A main-actor scheduler; asynchronous by default.
    /// - parameter onError: Receives the error that ends the observation.
    /// - parameter onChange: Receives each value.
    /// - returns: A cancellable that stops the observation.
    @preconcurrency @MainActor public func start(
        in reader: any DatabaseReader,
        scheduling scheduler: some ValueObservationMainActorScheduler = .mainActor,
        onError: @escaping @MainActor (any Error) -> Void,
        onChange: @escaping @MainActor (Reducer.Value) -> Void
    ) -> AnyDatabaseCancellable {
        let anyScheduler: some ValueObservationScheduler = scheduler
        return start(
            in: reader,
            scheduling: anyScheduler,
            onError: { error in MainActor.assumeIsolated { onError(error) } },
            onChange: { value in MainActor.assumeIsolated { onChange(value) } })
    }

    /// Returns an asynchronous sequence of the observed values. It ends with
    /// the observation's error, and stops observing when the task that
    /// iterates it is cancelled.
    ///
    /// ```swift
    /// for try await players in observation.values(in: dbPool) {
    ///     print("Fresh players: \(players)")
    /// }
    /// ```
    ///
    /// - parameter reader: The database to observe.
    /// - parameter scheduler: Where values are produced; a task of the
    ///   cooperative thread pool by default.
    /// - parameter bufferingPolicy: How many values wait for the consumer
    ///   (see `AsyncThrowingStream`); all of them by default.
    public func values(
        in reader: any DatabaseReader,
        scheduling scheduler: some ValueObservationScheduler = .task,
        bufferingPolicy: AsyncValueObservation<Reducer.Value>.BufferingPolicy = .unbounded
    ) -> AsyncValueObservation<Reducer.Value> {
        AsyncValueObservation(bufferingPolicy: bufferingPolicy) { onError, onChange in
            self.start(in: reader, scheduling: scheduler, onError: onError, onChange: onChange)
        }
    }

    /// Starts the observation that suits the database.
    func startObserving(
        in reader: any DatabaseReader,
        scheduler: some ValueObservationScheduler,
        onChange: @escaping @Sendable (Reducer.Value) -> Void
    ) -> AnyDatabaseCancellable {
        if let reader = reader as? AnyDatabaseReader {
            return startObserving(in: reader.base, scheduler: scheduler, onChange: onChange)
        }
        if let writer = reader as? AnyDatabaseWriter {
            return startObserving(in: writer.base, scheduler: scheduler, onChange: onChange)
        }
        guard let writer = reader as? any DatabaseWriter, !writer.configuration.readonly else {
            return startOnce(in: reader, scheduler: scheduler, onChange: onChange)
        }
        let observer = ValueObserver(
            observation: self,
            writer: writer,
            scheduler: scheduler,
            onChange: onChange)
        return observer.start()
    }

    /// Notifies one value from a database that cannot change.
    private func startOnce(
        in reader: any DatabaseReader,
        scheduler: some ValueObservationScheduler,
        onChange: @escaping @Sendable (Reducer.Value) -> Void
    ) -> AnyDatabaseCancellable {
        let observer = ValueObserverOfConstantDatabase(
            observation: self, reader: reader, scheduler: scheduler, onChange: onChange)
        return observer.start()
    }
}
