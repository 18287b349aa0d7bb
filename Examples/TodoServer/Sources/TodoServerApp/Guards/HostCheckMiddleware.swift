import Hummingbird

/// Serves only the requests whose `Host` header names this server (see
/// ``AllowedHosts``): 400 without `Host`, which HTTP/1.1 requires, 421
/// (Misdirected Request) for another name.
struct HostCheckMiddleware<Context: RequestContext>: RouterMiddleware {
    let allowedHosts: AllowedHosts

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let authority = request.head.authority, !authority.isEmpty else {
            throw HTTPError(.badRequest, message: "a Host header is required")
        }
        guard allowedHosts.allows(authority: authority) else {
            context.logger.notice("refused a request for another host", metadata: ["host": "\(authority.prefix(100))"])
            throw HTTPError(.misdirectedRequest, message: "this server does not serve that host name")
        }
        return try await next(request, context)
    }
}
