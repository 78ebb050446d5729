import Foundation
import HTTPTypes
import Hummingbird
import LarderCloudKit
import LarderCore
import Logging

/// Turns every failure into a CloudKit error body and logs every request (but the dashboard's GETs).
///
/// Unknown paths answer `NOT_FOUND` (404), a wrong method `BAD_REQUEST`, an unexpected error
/// `INTERNAL_ERROR` (500) with the cause logged; nothing escapes as a crash or a bare status.
struct EmulatorMiddleware: RouterMiddleware {
    typealias Context = EmulatorRequestContext
    let requestLog: RequestLog
    let clock: LarderClock

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let start = ContinuousClock.now
        let capture = RequestCapture()
        let response: Response
        do {
            response = try await RequestCapture.$current.withValue(capture) { try await next(request, context) }
        } catch let error as CloudKitServerError {
            capture.record(answer: (try? WireEncoder.encode(error.body)) ?? [])
            response = try error.response(from: request, context: context)
        } catch let error as HTTPError {
            let mapped: CloudKitServerError
            switch error.status {
            case .notFound:
                mapped = CloudKitServerError(.notFound, "no CloudKit endpoint at \(request.method) \(request.uri.path)")
            case .contentTooLarge:
                mapped = CloudKitServerError(.badRequest, "request body is too large")
            case .methodNotAllowed:
                mapped = CloudKitServerError(.badRequest, "\(request.method) is not allowed on \(request.uri.path)")
            default:
                mapped = CloudKitServerError(
                    error.status.code >= 500 ? .internalError : .badRequest, error.body ?? error.status.reasonPhrase)
            }
            capture.record(answer: (try? WireEncoder.encode(mapped.body)) ?? [])
            response = try mapped.response(from: request, context: context)
        } catch {
            context.logger.error("request failed", metadata: ["error": "\(error)"])
            response = try CloudKitServerError(.internalError, "internal error: \(error)").response(
                from: request, context: context)
        }
        let elapsed = ContinuousClock.now - start
        let path = request.uri.path
        let parts = path.split(separator: "/")
        let isDatabase = (parts.first == "database" || parts.first == "device") && parts.count >= 6
        // `tokens/…` has no database segment: /database/1/{container}/{environment}/tokens/create.
        let hasScope = isDatabase && parts[4] != "tokens"
        let code = response.status.code >= 400 ? response.headers[.larderErrorCode] : nil
        // The dashboard's page views and its polling of the log would push real requests out of it, and
        // so would CloudKit JS's notification long poll, asked again each time it is answered.
        let isDashboardRead =
            request.method == .get
            && (path == "/_emulator/requests" || path.hasPrefix(DashboardPage.root)
                || path.hasPrefix("/_emulator/webcourier/"))
        guard !isDashboardRead else { return response }
        requestLog.append { id in
            RequestLogEntry(
                id: id, timestamp: clock.milliseconds, method: request.method.rawValue,
                path: path,
                operation: isDatabase ? parts[(hasScope ? 5 : 4)...].joined(separator: "/") : nil,
                database: hasScope ? String(parts[4]) : nil,
                user: response.headers[.larderUser], auth: response.headers[.larderAuth],
                status: response.status.code,
                serverErrorCode: code, requestBytes: request.headers[.contentLength].flatMap { Int($0) } ?? 0,
                durationMs: Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000,
                faultRule: response.headers[.larderFault], requestBody: capture.request, answerBody: capture.answer)
        }
        return response
    }
}
