/// A value that tells which part of the database it depends on: what
/// ``DatabaseRegionObservation`` and `ValueObservation` track.
///
/// ```swift
/// DatabaseRegionObservation(tracking: .fullDatabase)          // every change
/// DatabaseRegionObservation(tracking: Table("player"))        // the player table
/// DatabaseRegionObservation(tracking: Player.filter(id: 1))   // one row
/// DatabaseRegionObservation(tracking: SQLRequest<Row>(sql: "SELECT score FROM player"))
/// ```
///
/// The region of a request is found by compiling its statement, without
/// running it.
public protocol DatabaseRegionConvertible: Sendable {
    /// The region of the database this value depends on.
    ///
    /// - throws: A ``DatabaseError`` if the region cannot be computed (for a
    ///   request, if its SQL does not compile).
    func databaseRegion(_ db: Database) throws -> DatabaseRegion
}

extension DatabaseRegionConvertible where Self == DatabaseRegion {
    /// The region of the whole database.
    public static var fullDatabase: Self { DatabaseRegion.fullDatabase }
}

extension DatabaseRegion: DatabaseRegionConvertible {
    /// The region itself.
    public func databaseRegion(_ db: Database) throws -> DatabaseRegion { self }
}

/// A type-erased ``DatabaseRegionConvertible``.
public struct AnyDatabaseRegionConvertible: DatabaseRegionConvertible {
    private let region: @Sendable (Database) throws -> DatabaseRegion

    /// A value whose region is computed by the closure.
    public init(_ region: @escaping @Sendable (Database) throws -> DatabaseRegion) {
        self.region = region
    }

    /// A value with the region of `region`.
    public init(_ region: some DatabaseRegionConvertible) {
        self.region = { try region.databaseRegion($0) }
    }

    /// The region, as computed by the wrapped value.
    ///
    /// - throws: What the wrapped value throws.
    public func databaseRegion(_ db: Database) throws -> DatabaseRegion {
        try region(db)
    }
}
