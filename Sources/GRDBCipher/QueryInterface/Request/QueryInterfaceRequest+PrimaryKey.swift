// Ordering and selecting by primary key. The key is read from the schema
// when the SQL is generated, so building the request needs no database.

extension QueryInterfaceRequest {
    /// The request, ordered by the primary key of its table instead of its
    /// current order.
    ///
    /// ```swift
    /// Player.all().orderByPrimaryKey()        // SELECT * FROM "player" ORDER BY "id"
    /// Citizenship.all().orderByPrimaryKey()   // ... ORDER BY "citizenId", "countryCode"
    /// Item.all().orderByPrimaryKey()          // no explicit key: ... ORDER BY "rowid"
    /// ```
    ///
    /// Fetching throws a ``DatabaseError`` when the table has no primary
    /// key (a view).
    public func orderByPrimaryKey() -> Self {
        let tableName = relation.tableName
        return order([SQLOrdering(.deferred { db in
            try db.primaryKey(tableName).columns.map { Column($0).sqlOrdering }
        })])
    }

    /// The request, with its primary key appended to its order, so that the
    /// fetched rows come in a deterministic order even when several rows
    /// have the same values for the current order.
    ///
    /// ```swift
    /// // SELECT * FROM "player" ORDER BY "score" DESC, "id"
    /// let request = Player.order(Column("score").desc).withStableOrder()
    /// ```
    ///
    /// A table without an explicit primary key is ordered by its rowid. A
    /// view, which has no primary key, is ordered by all of its selected
    /// columns (`ORDER BY 1, 2, 3`). A request reversed before or after is
    /// reversed on the key as well (but not on the columns of a view:
    /// fetching such a request throws, where GRDB traps). The joined and
    /// prefetched associations get a stable order too:
    ///
    /// ```swift
    /// // SELECT "book".*, "author".* FROM "book" JOIN "author" ON ...
    /// // ORDER BY "book"."id", "author"."id"
    /// let request = Book.including(required: Book.author).withStableOrder()
    /// ```
    public func withStableOrder() -> Self {
        var request = self
        request.relation = relation.withStableOrder()
        return request
    }

    /// The request, selecting the primary key of its table instead of its
    /// current selection, decoded as `type`.
    ///
    /// ```swift
    /// let ids = try Player.filter(Column("score") > 100).selectPrimaryKey(as: Int64.self).fetchAll(db)
    /// // SELECT "id" FROM "player" WHERE "score" > ?
    /// let keys = try Citizenship.all().selectPrimaryKey(as: Row.self).fetchAll(db)
    /// // SELECT "citizenId", "countryCode" FROM "citizenship"
    /// ```
    ///
    /// Fetching throws a ``DatabaseError`` when the table has no primary
    /// key (a view).
    public func selectPrimaryKey<PrimaryKey>(as type: PrimaryKey.Type = PrimaryKey.self) -> QueryInterfaceRequest<PrimaryKey> {
        let tableName = relation.tableName
        let keyColumns = SQL(element: .deferred { db in
            try db.primaryKey(tableName).columns.map { SQL(Column($0)) }.joined(separator: ", ")
        })
        return select([SQLSelection(literal: keyColumns)], as: type)
    }
}

extension QueryInterfaceRequest where RowDecoder: Identifiable {
    /// The request, selecting the primary key of its table as the record's
    /// `ID` type.
    ///
    /// ```swift
    /// // SELECT "id" FROM "player" WHERE "score" > ?
    /// let ids = try Player.filter(Column("score") > 100).selectID().fetchAll(db)
    /// ```
    ///
    /// When `ID` is optional (`Int64?`), prefer ``selectPrimaryKey(as:)``
    /// with the wrapped type, as GRDB recommends.
    ///
    /// Fetching throws a ``DatabaseError`` when the table has no
    /// single-column primary key (GRDB traps).
    public func selectID() -> QueryInterfaceRequest<RowDecoder.ID> {
        let tableName = relation.tableName
        let keyColumn = SQL(element: .deferred { db in SQL(Column(try db.singlePrimaryKeyColumn(tableName))) })
        return select([SQLSelection(literal: keyColumn)], as: RowDecoder.ID.self)
    }
}

extension TableRecord {
    /// A request of the table ordered by its primary key:
    /// `SELECT * FROM "player" ORDER BY "id"`.
    public static func orderByPrimaryKey() -> QueryInterfaceRequest<Self> {
        all().orderByPrimaryKey()
    }

    /// A request of the primary key of the table, decoded as `type`:
    /// `SELECT "id" FROM "player"`.
    ///
    /// ```swift
    /// let ids = try Player.selectPrimaryKey(as: Int64.self).fetchSet(db)
    /// ```
    public static func selectPrimaryKey<PrimaryKey>(as type: PrimaryKey.Type = PrimaryKey.self)
    -> QueryInterfaceRequest<PrimaryKey>
    {
        all().selectPrimaryKey(as: type)
    }
}

extension TableRecord where Self: Identifiable {
    /// A request of the primary key of the table, decoded as the record's
    /// `ID` type: `SELECT "id" FROM "player"`.
    public static func selectID() -> QueryInterfaceRequest<ID> {
        all().selectID()
    }
}

extension SQLRelation {
    /// The relation, with its primary key appended to its order, and so
    /// are the relations of its joined and prefetched associations, at any
    /// depth (see ``QueryInterfaceRequest/withStableOrder()``), as in GRDB:
    /// joined tables order the rows after the tables they are joined to.
    func withStableOrder() -> SQLRelation {
        let unstable = self
        var relation = self
        relation.orderings.append(SQLOrdering(.deferred { db in
            do {
                return try db.primaryKey(unstable.tableName).columns.map { Column($0).sqlOrdering }
            } catch {
                // No primary key (a view, a common table expression): order by
                // every selected column, by position (a literal ordering,
                // which cannot be reversed, as in GRDB).
                let (sql, _) = try unstable.selectSQL(db)
                let columnCount = try db.cachedStatement(sql: sql).columnCount
                return (1...max(columnCount, 1)).map { position in
                    SQLOrdering(literal: SQL(sql: String(position)))
                }
            }
        }))
        relation.joins = joins.map { join in
            var join = join
            join.relation = join.relation.withStableOrder()
            return join
        }
        relation.prefetches = prefetches.map { prefetch in
            var prefetch = prefetch
            for index in prefetch.association.steps.indices {
                prefetch.association.steps[index].relation = prefetch.association.steps[index].relation.withStableOrder()
            }
            return prefetch
        }
        return relation
    }
}
