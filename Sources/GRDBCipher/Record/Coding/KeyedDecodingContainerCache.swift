/// The keyed decoding containers that decoded the records of one cursor
/// row, kept for the next records of the cursor.
///
/// Making a container per record costs more than decoding its columns:
/// the generic container types look their metadata up, and two objects
/// are allocated (callgrind, `Decodable` fetches). A cursor's records all
/// decode from the same row object, so the container of the first record
/// serves the next ones; its column table is reset for each record.
final class KeyedDecodingContainerCache: RowDecodingCache {
    struct Entry {
        let recordType: ObjectIdentifier
        let keyType: ObjectIdentifier
        let usesRecordStrategy: Bool
        let table: CodingKeyColumnTable
        /// A ``Holder`` of the entry's key type.
        let holder: AnyObject
    }

    /// A few entries: a record type, and the record types it decodes
    /// from the same row.
    // Unchecked: a cache is used by one thread at a time, like its
    // statement, and never accessed reentrantly.
    @exclusivity(unchecked) private(set) var entries: [Entry] = []

    static let maximumCount = 4

    /// The container of a record and key type, reset for a new record,
    /// or nil.
    @inline(__always)
    func container<Key: CodingKey>(
        recordType: ObjectIdentifier, keyType: Key.Type, usesRecordStrategy: Bool) -> KeyedDecodingContainer<Key>?
    {
        let keyType = ObjectIdentifier(Key.self)
        for entry in entries
        where entry.keyType == keyType && entry.recordType == recordType && entry.usesRecordStrategy == usesRecordStrategy
        {
            entry.table.startRow()
            // Invariant: a holder's keyType is the identifier of its generic
            // argument, just compared with Key's: no dynamic cast (a cast to
            // a generic type looks up its metadata, and its optional's;
            // unsafeDowncast checks it in debug builds).
            return unsafeDowncast(entry.holder, to: Holder<Key>.self).container
        }
        return nil
    }

    /// A container, in an object of a known type.
    final class Holder<Key: CodingKey> {
        let container: KeyedDecodingContainer<Key>

        init(_ container: KeyedDecodingContainer<Key>) {
            self.container = container
        }
    }

    /// Keeps a container for the next records, while there is room.
    func store(_ entry: Entry) {
        if entries.count < Self.maximumCount { entries.append(entry) }
    }
}

extension Row {
    /// The keyed containers a record cursor's row reuses, kept in the row's
    /// decoding cache.
    var keyedContainerCache: KeyedDecodingContainerCache? {
        // Invariant: KeyedDecodingContainerCache is the only class that
        // adopts RowDecodingCache, so the slot holds one of it or nothing
        // (checked in debug builds by unsafeDowncast).
        @inline(__always) get { decodingCache.map { unsafeDowncast($0, to: KeyedDecodingContainerCache.self) } }
        set { decodingCache = newValue }
    }
}
