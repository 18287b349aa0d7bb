// The relation behind a request of the request protocols, for the methods
// that both requests and associations get from a protocol extension
// (`annotated(withRequired:)`, `annotated(with:)` an association aggregate,
// `having(_:)` an association aggregate...) and that need more than the
// protocol requirements: the relation of a query interface request, the
// destination of an association.
//
//     // The same method, on a request and on an association:
//     Team.all().annotated(with: Team.players.count)
//     Team.players.annotated(with: Player.awards.count)

extension JoinableRequest {
    /// The request, its relation updated: the relation of a
    /// ``QueryInterfaceRequest``, the destination of an ``Association``.
    ///
    /// Only query interface requests and associations adopt the request
    /// protocols (their requirements are underscored): any other adopter
    /// is a programmer error.
    func mapRelation(_ update: (inout SQLRelation) -> Void) -> Self {
        if var request = self as? QueryInterfaceRequest<RowDecoder> {
            update(&request.relation)
            return request as! Self
        }
        if let association = self as? any Association {
            return association.mapDestination(update) as! Self
        }
        preconditionFailure("\(Self.self) is neither a QueryInterfaceRequest nor an Association")
    }
}
