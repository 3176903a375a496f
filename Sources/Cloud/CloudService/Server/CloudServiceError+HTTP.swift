import CloudProtocol
import Foundation
import Hummingbird
import NIOCore

extension CloudServiceError: HTTPResponseError {
    public var status: HTTPResponse.Status { HTTPResponse.Status(code: code.status) }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers: HTTPFields = [.contentType: "application/json"]
        if code == .unauthorized { headers[.wwwAuthenticate] = "Bearer realm=\"sandbox-cloud\"" }
        if let retryAfter { headers[.retryAfter] = "\(retryAfter)" }
        let data = (try? JSONEncoder().encode(body)) ?? Data("{\"code\":\"internal\",\"message\":\"\"}".utf8)
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}

/// Answers every error in the API's one shape (``ServiceErrorBody``): a
/// route's ``CloudServiceError`` as it is, Hummingbird's own (an unknown
/// route, a body too large, a body that is not the JSON expected) with the
/// matching code, and anything else as `internal`, logged, without its
/// details.
struct ErrorBodyMiddleware: RouterMiddleware {
    typealias Context = CloudRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as CloudServiceError {
            throw error
        } catch let error as any HTTPResponseError {
            let code: CloudServiceError.Code = switch error.status.code {
            case 401: .unauthorized
            case 404, 405: .notFound
            case 409: .conflict
            case 413: .tooLarge
            case 429: .tooManyRequests
            case 400..<500: .badRequest
            case 503: .unavailable
            default: .internal
            }
            let detail = (error as? HTTPError)?.body.map { ": \($0)" } ?? ""
            let message = error.status.code == 405 ? "no such route for \(request.method)" : error.status.reasonPhrase + detail
            throw CloudServiceError(code, code == .notFound && error.status.code == 404 ? "no such route: \(request.uri.path)" : message)
        } catch is DecodingError {
            throw CloudServiceError(.badRequest, "the body is not the JSON this route takes")
        } catch {
            context.logger.error("request failed", metadata: ["error": "\(error)", "path": "\(request.uri.path)"])
            throw CloudServiceError(.internal, "the server failed; see its log")
        }
    }
}
