// The schema's records: Core decodes them from rows, and the records layer
// makes them `FetchableRecord`s, as in GRDB.
extension ColumnInfo: FetchableRecord {}

extension ForeignKeyViolation: FetchableRecord {}
