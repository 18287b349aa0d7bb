extension Table where RowDecoder: TableRecord {
    /// The database components of the record type: its columns, available
    /// to the closures of the requests of the table.
    ///
    /// ```swift
    /// let table = Table<Player>("player")
    /// let columns: Table<Player>.DatabaseComponents = Player.databaseComponents
    /// ```
    public typealias DatabaseComponents = RowDecoder.DatabaseComponents
}
