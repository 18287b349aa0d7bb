// The request of the records associated to one record: `book.request(for:
// Book.author)`. The foreign key values come from the encoded record; a
// `through` association joins its intermediate tables back to the record.

extension TableRecord where Self: EncodableRecord {
    /// The request of the records associated to this record.
    ///
    /// ```swift
    /// extension Book {
    ///     var author: QueryInterfaceRequest<Author> { request(for: Book.author) }
    /// }
    /// // SELECT * FROM "author" WHERE "id" = ?
    /// let author = try book.author.fetchOne(db)
    /// ```
    ///
    /// A foreign key with a NULL value matches no record. Fetching throws
    /// the error of ``EncodableRecord/encode(to:)``, or a ``DatabaseError``
    /// if the foreign key cannot be found, or if the association has no
    /// foreign key next to this record (GRDB traps).
    public func request<A: Association>(for association: A) -> QueryInterfaceRequest<A.RowDecoder>
    where A.OriginRowDecoder == Self
    {
        let values = Result { try databaseDictionary }.map { dictionary in
            Dictionary(dictionary.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        }
        let steps = association._sqlAssociation.steps
        let originTable = Self.databaseTableName
        let pivot = steps[0]
        let condition = pivot.condition
        let recordFilter: SQLRelation.Filter = { db in
            guard case .foreignKey = condition,
                  let mapping = try condition.joinMapping(db, leftTable: originTable, rightTable: pivot.relation.tableName)
            else {
                throw DatabaseError(
                    resultCode: .SQLITE_MISUSE,
                    message: "Not implemented: request association without any foreign key")
            }
            let values = try values.get()
            var conditions: [SQLExpression] = []
            for (left, right) in mapping {
                let value = values[left.lowercased()] ?? .null
                if value.isNull { return false.sqlExpression }
                conditions.append(Column(right) == value)
            }
            return conditions.joined(operator: .and)
        }

        // The table next to the record gets the record's condition; the
        // following tables are joined back to it, each to the previous one.
        var relation = pivot.relation
        relation.filters.append(recordFilter)
        for index in steps.indices.dropFirst() {
            let step = steps[index]
            let previous = steps[index - 1]
            var next = step.relation
            next = next.appending(SQLJoin(
                key: previous.reversedJoinKey, kind: .required, isIncluded: false,
                condition: step.condition.reversed, relation: relation))
            relation = next
        }
        return QueryInterfaceRequest(relation: relation)
    }
}

extension SQLJoinCondition {
    /// The same condition, seen from the other table.
    var reversed: SQLJoinCondition {
        switch self {
        case .foreignKey(let foreignKey, let originIsLeft):
            return .foreignKey(foreignKey, originIsLeft: !originIsLeft)
        case .expression(let condition):
            return .expression { left, right in condition(right, left) }
        case .none:
            return .none
        }
    }
}
