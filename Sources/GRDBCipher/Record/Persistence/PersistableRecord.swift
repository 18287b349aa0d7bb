/// A record that can insert, update, save, upsert and delete its row,
/// without mutating itself: the protocol for classes, and for structs whose
/// table has no auto-incremented key.
///
/// ```swift
/// struct Country: Encodable, PersistableRecord {
///     var isoCode: String
///     var name: String
/// }
///
/// let country = Country(isoCode: "FR", name: "France")
/// try country.insert(db)   // INSERT INTO "country" ("isoCode", "name") VALUES (?,?)
/// ```
public protocol PersistableRecord: MutablePersistableRecord {
    /// Runs before the record is inserted (or upserted); an error stops
    /// the insertion. Does nothing by default.
    func willInsert(_ db: Database) throws

    /// Runs after a successful insertion. Does nothing by default.
    func didInsert(_ inserted: InsertionSuccess)
}

extension PersistableRecord {
    /// Does nothing.
    @inlinable
    public func willInsert(_ db: Database) throws { }

    /// Does nothing.
    @inlinable
    public func didInsert(_ inserted: InsertionSuccess) { }
}
