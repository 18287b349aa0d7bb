// The joining methods: `including(required:)`, `including(optional:)`,
// `joining(required:)`, `joining(optional:)`, on requests, record types,
// tables, and associations (which chain associations).
//
// `including` selects the columns of the associated table and decodes them
// from a scope named by the association key; `joining` only joins.
// `required` is an inner `JOIN`, `optional` a `LEFT JOIN`.

extension QueryInterfaceRequest {
    /// The request, with the association joined, keeping the rows it
    /// finds: `LEFT JOIN`, the associated columns are selected.
    ///
    /// ```swift
    /// // SELECT "player".*, "team".* FROM "player"
    /// // LEFT JOIN "team" ON "team"."id" = "player"."teamId"
    /// let request = Player.all().including(optional: Player.team)
    /// ```
    public func including<A: Association>(optional association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        joining(association._sqlAssociation, kind: .optional, isIncluded: true)
    }

    /// The request, with the association joined, keeping only the rows
    /// that have an associated row: `JOIN`, the associated columns are
    /// selected.
    ///
    /// ```swift
    /// // SELECT "player".*, "team".* FROM "player"
    /// // JOIN "team" ON "team"."id" = "player"."teamId"
    /// let request = Player.all().including(required: Player.team)
    /// ```
    public func including<A: Association>(required association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        joining(association._sqlAssociation, kind: .required, isIncluded: true)
    }

    /// The request, with the association joined with `LEFT JOIN`, its
    /// columns not selected.
    public func joining<A: Association>(optional association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        joining(association._sqlAssociation, kind: .optional, isIncluded: false)
    }

    /// The request, with the association joined with `JOIN`, its columns
    /// not selected: only the rows that have an associated row are fetched.
    ///
    /// ```swift
    /// // SELECT "player".* FROM "player"
    /// // JOIN "team" ON ("team"."id" = "player"."teamId") AND ("team"."name" = ?)
    /// let request = Player.all().joining(required: Player.team.filter(Column("name") == "Reds"))
    /// ```
    public func joining<A: Association>(required association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        joining(association._sqlAssociation, kind: .required, isIncluded: false)
    }

    func joining(_ association: _SQLAssociation, kind: SQLJoin.Kind, isIncluded: Bool) -> Self {
        var request = self
        request.relation = relation.appending(association.join(kind: kind, isIncluded: isIncluded))
        return request
    }
}

extension Association {
    /// The association, with another association of its destination
    /// joined with `LEFT JOIN`, its columns selected.
    ///
    /// ```swift
    /// // SELECT "book".*, "person".*, "country".* FROM "book"
    /// // JOIN "person" ON "person"."id" = "book"."authorId"
    /// // LEFT JOIN "country" ON "country"."code" = "person"."countryCode"
    /// Book.including(required: Book.author.including(optional: Person.country))
    /// ```
    public func including<A: Association>(optional association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        chaining(association._sqlAssociation, kind: .optional, isIncluded: true)
    }

    /// The association, with another association of its destination
    /// joined with `JOIN`, its columns selected.
    public func including<A: Association>(required association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        chaining(association._sqlAssociation, kind: .required, isIncluded: true)
    }

    /// The association, with another association of its destination
    /// joined with `LEFT JOIN`, its columns not selected.
    public func joining<A: Association>(optional association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        chaining(association._sqlAssociation, kind: .optional, isIncluded: false)
    }

    /// The association, with another association of its destination
    /// joined with `JOIN`, its columns not selected.
    public func joining<A: Association>(required association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        chaining(association._sqlAssociation, kind: .required, isIncluded: false)
    }

    private func chaining(_ association: _SQLAssociation, kind: SQLJoin.Kind, isIncluded: Bool) -> Self {
        let join = association.join(kind: kind, isIncluded: isIncluded)
        return mapDestination { $0 = $0.appending(join) }
    }
}

extension TableRecord {
    /// A request of the table with the association joined with `LEFT
    /// JOIN`, its columns selected (see ``QueryInterfaceRequest/including(optional:)``).
    public static func including<A: Association>(optional association: A) -> QueryInterfaceRequest<Self>
    where A.OriginRowDecoder == Self
    {
        all().including(optional: association)
    }

    /// A request of the table with the association joined with `JOIN`,
    /// its columns selected (see ``QueryInterfaceRequest/including(required:)``).
    public static func including<A: Association>(required association: A) -> QueryInterfaceRequest<Self>
    where A.OriginRowDecoder == Self
    {
        all().including(required: association)
    }

    /// A request of the table with the association joined with `LEFT
    /// JOIN`, its columns not selected.
    public static func joining<A: Association>(optional association: A) -> QueryInterfaceRequest<Self>
    where A.OriginRowDecoder == Self
    {
        all().joining(optional: association)
    }

    /// A request of the table with the association joined with `JOIN`,
    /// its columns not selected.
    public static func joining<A: Association>(required association: A) -> QueryInterfaceRequest<Self>
    where A.OriginRowDecoder == Self
    {
        all().joining(required: association)
    }
}

extension Table {
    /// A request of the table with the association joined with `LEFT
    /// JOIN`, its columns selected.
    public func including<A: Association>(optional association: A) -> QueryInterfaceRequest<RowDecoder>
    where A.OriginRowDecoder == RowDecoder
    {
        all().including(optional: association)
    }

    /// A request of the table with the association joined with `JOIN`,
    /// its columns selected.
    public func including<A: Association>(required association: A) -> QueryInterfaceRequest<RowDecoder>
    where A.OriginRowDecoder == RowDecoder
    {
        all().including(required: association)
    }

    /// A request of the table with the association joined with `LEFT
    /// JOIN`, its columns not selected.
    public func joining<A: Association>(optional association: A) -> QueryInterfaceRequest<RowDecoder>
    where A.OriginRowDecoder == RowDecoder
    {
        all().joining(optional: association)
    }

    /// A request of the table with the association joined with `JOIN`,
    /// its columns not selected.
    public func joining<A: Association>(required association: A) -> QueryInterfaceRequest<RowDecoder>
    where A.OriginRowDecoder == RowDecoder
    {
        all().joining(required: association)
    }
}
