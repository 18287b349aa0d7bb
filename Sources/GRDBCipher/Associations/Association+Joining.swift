// The joining methods: `including(required:)`, `including(optional:)`,
// `joining(required:)`, `joining(optional:)`, on requests, record types,
// tables, and associations (which chain associations).
//
// `including` selects the columns of the associated table and decodes them
// from a scope named by the association key; `joining` only joins.
// `required` is an inner `JOIN`, `optional` a `LEFT JOIN`.

extension QueryInterfaceRequest {
    func joining(_ association: _SQLAssociation, kind: SQLJoin.Kind, isIncluded: Bool) -> Self {
        var request = self
        request.relation = relation.appending(association.join(kind: kind, isIncluded: isIncluded))
        return request
    }
}

extension TableRecord {
    /// A request of the table with the association joined with `LEFT
    /// JOIN`, its columns selected (see ``JoinableRequest/including(optional:)``).
    public static func including<A: Association>(optional association: A) -> QueryInterfaceRequest<Self>
    where A.OriginRowDecoder == Self
    {
        all().including(optional: association)
    }

    /// A request of the table with the association joined with `JOIN`,
    /// its columns selected (see ``JoinableRequest/including(required:)``).
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
