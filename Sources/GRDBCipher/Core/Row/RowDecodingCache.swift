/// What the decoding of records keeps on a cursor row from one record to
/// the next: Core gives each row one slot of this type, and never looks
/// inside. The records layer keeps there the reused keyed containers of
/// `Decodable` records (`KeyedDecodingContainerCache`, the one class that
/// adopts this protocol, so that a slot cannot hold anything else). A slot
/// is used by one thread at a time, like the cursor its row belongs to.
protocol RowDecodingCache: AnyObject {}

/// What the decoding of records keeps on a statement, or on the layout of
/// adapted rows over a cursor row: Core gives each one slot of this type,
/// and never looks inside. The records layer keeps there the column tables
/// of `Decodable` records (`CodingKeyColumnTables`, the one class that
/// adopts this protocol). A slot is used by one thread at a time, like the
/// statement or cursor it belongs to.
protocol StatementDecodingCache: AnyObject {}
