/// What the decoding of records keeps from one row to the next, on a
/// statement, an adapted row layout, or a cursor row: Core gives each of
/// them one slot of this type, and never looks inside.
///
/// The records layer owns the slots: it
/// keeps there the column tables of `Decodable` records and their reused
/// keyed containers. A slot is used by one thread at a time, like the
/// statement or cursor it belongs to.
protocol RowDecodingCache: AnyObject {}
