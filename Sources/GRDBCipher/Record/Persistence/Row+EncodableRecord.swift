extension Row {
    /// A row of the columns and values that `record` encodes, in order.
    ///
    /// - throws: The error of ``EncodableRecord/encode(to:)``.
    convenience init(_ record: some EncodableRecord) throws {
        self.init(try PersistenceContainer(record))
    }

    /// A row of the columns and values of a container, in order.
    convenience init(_ container: PersistenceContainer) {
        self.init(container.map { ($0.0, $0.1 as (any DatabaseValueConvertible)?) })
    }
}
