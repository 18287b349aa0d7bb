import Foundation
import GRDBCipher
import Hummingbird

/// `GET /health`: a cheap read, fit for a load balancer.
/// `GET /health?integrity=true` also reports the encrypted file's page
/// check; it needs the admin token, since each check reads the whole file,
/// and its verdict is kept for a while (see ``IntegrityChecker``).
struct HealthController: Sendable {
    let database: DatabasePool
    let checker: IntegrityChecker
    /// Nil when no admin token is configured: no integrity check then.
    let adminToken: AdminToken?

    /// The JSON answer.
    struct Health: ResponseEncodable {
        var status: String
        /// "intact", "damaged", "not encrypted", "unknown"; absent unless asked for.
        var integrity: String?
        /// The pages that failed authentication, when damaged.
        var failedPages: [Int]?
        /// When the check that gave the verdict ended (ISO 8601, UTC).
        var checkedAt: String?
    }

    func addRoutes(to router: Router<BasicRequestContext>) {
        router.get("health", use: health)
    }

    @Sendable func health(_ request: Request, context: BasicRequestContext) async throws -> EditedResponse<Health> {
        let wantsIntegrity: Bool
        switch request.uri.queryParameters.get("integrity") {
        case nil, "false": wantsIntegrity = false
        case "true": wantsIntegrity = true
        default: throw HTTPError(.badRequest, message: "integrity must be true or false")
        }
        if wantsIntegrity {
            guard let adminToken else {
                throw HTTPError(.forbidden, message: "the integrity check needs TODOSERVER_ADMIN_TOKEN")
            }
            try adminToken.authorize(request)
        }
        do {
            _ = try await database.read { db in try Int.fetchOne(db, sql: "SELECT 1") }
        } catch {
            context.logger.error("health: the database does not answer: \(error)")
            return EditedResponse(status: .serviceUnavailable, response: Health(status: "unavailable"))
        }
        guard wantsIntegrity else {
            return EditedResponse(status: .ok, response: Health(status: "ok"))
        }
        do {
            let verdict = try await checker.check()
            let checkedAt = ISO8601DateFormatter().string(from: verdict.date)
            switch verdict.outcome {
            case .intact:
                return EditedResponse(status: .ok, response: Health(status: "ok", integrity: "intact", checkedAt: checkedAt))
            case .notEncrypted:
                return EditedResponse(status: .ok, response: Health(status: "ok", integrity: "not encrypted", checkedAt: checkedAt))
            case .damaged(let failures):
                context.logger.error("health: \(failures.count) pages failed authentication")
                return EditedResponse(
                    status: .serviceUnavailable,
                    response: Health(
                        status: "damaged", integrity: "damaged", failedPages: failures.compactMap(\.pageNumber), checkedAt: checkedAt))
            }
        } catch {
            context.logger.warning("health: the integrity check did not complete: \(error)")
            return EditedResponse(status: .serviceUnavailable, response: Health(status: "ok", integrity: "unknown"))
        }
    }
}
