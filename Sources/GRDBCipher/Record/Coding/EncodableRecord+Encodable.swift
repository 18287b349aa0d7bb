extension EncodableRecord where Self: Encodable {
    /// Stores the record's values with its `Encodable` implementation.
    ///
    /// Each coding key names a column (see ``databaseColumnEncodingStrategy``).
    /// Values that SQLite stores themselves (numbers, strings, `Date`,
    /// `Data`, `UUID`, `URL`, `Decimal`, enums with such raw values...) are
    /// stored as they are, through the record's strategies for `Data`,
    /// `Date` and `UUID`; arrays, dictionaries and other nested values are
    /// stored as JSON text. A nil optional stores NULL.
    ///
    /// - throws: An `EncodingError` if a value cannot be encoded.
    // Inlinable: specialized for the record type in the client module, the
    // encoder's type is known there, instead of looked up in the runtime's
    // metadata cache for each record (callgrind).
    @inlinable
    public func encode(to container: inout PersistenceContainer) throws {
        let encoder = Self.recordEncoder(for: container)
        encoder.isInUse = true
        defer { encoder.isInUse = false }
        // The encoder takes the container's storage and gives it back, so
        // that appending never copies it.
        swap(&container, &encoder.container)
        defer { swap(&container, &encoder.container) }
        if encoder.container.capacity == 0 {
            // Most records have a handful of columns: one allocation
            // instead of one per doubling.
            encoder.container.reserveCapacity(16)
        }
        try encode(to: encoder)
    }

    /// The encoder of a record: the one of the container's layout when it
    /// is free, so that the records written with a cached plan reuse it.
    @inlinable
    static func recordEncoder(for container: PersistenceContainer) -> RecordEncoder<Self> {
        guard let layout = container.layout else { return RecordEncoder<Self>() }
        if let cached = layout.recordEncoder {
            if cached.recordType == ObjectIdentifier(Self.self) && !cached.isInUse {
                // Invariant: a RecordEncoder's recordType is the identifier
                // of its generic argument, just compared with Self's
                // (checked in debug builds by unsafeDowncast).
                return unsafeDowncast(cached, to: RecordEncoder<Self>.self)
            }
            return RecordEncoder<Self>()
        }
        let encoder = RecordEncoder<Self>(keepsContainers: true)
        layout.recordEncoder = encoder
        return encoder
    }
}
