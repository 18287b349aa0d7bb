extension Database {
    /// Tells the observation that records the region of the current fetch
    /// (``ValueObservation/tracking(_:)``, ``ValueObservation/trackingConstantRegion(_:)``)
    /// that the fetch depends on `region`, even if it does not read it:
    ///
    /// ```swift
    /// let observation = ValueObservation.tracking { db in
    ///     // Changes to the 'team' table trigger the observation too.
    ///     try db.registerAccess(to: Team.all())
    ///     return try Player.fetchAll(db)
    /// }
    /// ```
    ///
    /// It does nothing outside of such a fetch, and for observations made
    /// with ``ValueObservation/tracking(regions:fetch:)``, whose region is
    /// given.
    ///
    /// - throws: A ``DatabaseError`` if the region cannot be computed (an
    ///   unknown table).
    public func registerAccess(to region: @autoclosure () -> some DatabaseRegionConvertible) throws {
        guard selectedRegionRecording != nil else { return }
        let accessed = try region().databaseRegion(self)
        selectedRegionRecording!.formUnion(accessed)
    }
}
