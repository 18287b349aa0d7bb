import GRDBCipher
import Hummingbird

/// `GET /health`: a cheap read by default; `GET /health?integrity=true`
/// also runs the encrypted file's page check (on demand only).
struct HealthController: Sendable {
    let database: DatabasePool
    let checker: IntegrityChecker

    /// The JSON answer.
    struct Health: ResponseEncodable {
        var status: String
        /// "intact", "damaged", "not encrypted"; absent unless asked for.
        var integrity: String?
        /// The pages that failed authentication, when damaged.
        var failedPages: [Int]?
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
            switch try await checker.check() {
            case .intact:
                return EditedResponse(status: .ok, response: Health(status: "ok", integrity: "intact"))
            case .notEncrypted:
                return EditedResponse(status: .ok, response: Health(status: "ok", integrity: "not encrypted"))
            case .damaged(let failures):
                context.logger.error("health: \(failures.count) pages failed authentication")
                return EditedResponse(
                    status: .serviceUnavailable,
                    response: Health(status: "damaged", integrity: "damaged", failedPages: failures.compactMap(\.pageNumber)))
            }
        } catch {
            context.logger.warning("health: the integrity check did not complete: \(error)")
            return EditedResponse(status: .serviceUnavailable, response: Health(status: "ok", integrity: "unknown"))
        }
    }
}
