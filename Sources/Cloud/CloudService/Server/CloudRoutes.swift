import CloudProtocol
import Foundation
import Hummingbird
import NIOCore

/// The API's routes (documented in `openapi.yaml`, served at `/openapi.yaml`).
enum CloudRoutes {
    static func add(to router: Router<CloudRequestContext>, service: CloudService) {
        router.get("/v1/health") { _, _ in HealthResponse(status: "ok") }
        router.get("/openapi.yaml") { _, _ -> Response in
            Response(status: .ok, headers: [.contentType: "application/yaml"],
                     body: ResponseBody(byteBuffer: ByteBuffer(string: OpenAPIDocument.text)))
        }
        addAccountRoutes(to: router, service: service)
        addUploadRoutes(to: router, service: service)
        addSnapshotRoutes(to: router, service: service)
        addAdminRoutes(to: router, service: service)
        MethodNotAllowed.add(to: router)
    }

    static func addAccountRoutes(to router: Router<CloudRequestContext>, service: CloudService) {
        router.post("/v1/accounts") { request, context -> EditedResponse<AccountStatus> in
            let body = try await request.decode(as: CreateAccountRequest.self, context: context)
            return EditedResponse(status: .created, response: try await service.createAccount(body, operatorToken: bearer(request),
                                                                                              client: context.clientAddress))
        }
        router.post("/v1/devices") { request, context -> EditedResponse<SignInResponse> in
            let body = try await request.decode(as: SignInRequest.self, context: context)
            return EditedResponse(status: .created, response: try await service.signIn(body))
        }
        router.get("/v1/account") { request, _ -> AccountStatus in
            try await service.ledger.status(of: try await caller(request, service))
        }
        router.get("/v1/devices/:device/apps") { request, context -> AppToggles in
            let device = try await caller(request, service)
            return AppToggles(appsOff: try await service.ledger.appsOff(deviceID: try id(context, "device"), caller: device))
        }
        router.put("/v1/devices/:device/apps/:bundle") { request, context -> AppToggles in
            let device = try await caller(request, service)
            let toggle = try await request.decode(as: AppToggle.self, context: context)
            let deviceID = try id(context, "device")
            // Path parameters arrive percent-encoded, as the client sent them.
            guard let bundle = context.parameters.get("bundle")?.removingPercentEncoding, !bundle.isEmpty, bundle.count <= 255,
                  bundle.unicodeScalars.allSatisfy({ $0.isASCII && $0.properties.generalCategory != .control }) else {
                throw CloudServiceError(.badRequest, "the bundle id must be 1 to 255 printable ASCII characters")
            }
            try await service.ledger.setApp(bundle, enabled: toggle.enabled, deviceID: deviceID, caller: device)
            return AppToggles(appsOff: try await service.ledger.appsOff(deviceID: deviceID, caller: device))
        }
    }

    static func addUploadRoutes(to router: Router<CloudRequestContext>, service: CloudService) {
        router.post("/v1/sessions") { request, _ -> EditedResponse<SessionOpened> in
            let device = try await caller(request, service)
            let session = try await service.ledger.openSession(device)
            return EditedResponse(status: .created, response: SessionOpened(sessionID: session, expiresInSeconds: service.ledger.sessionLifetime))
        }
        router.post("/v1/sessions/:session/known") { request, context -> LargeJSONResponse<KnownChunksResponse> in
            let device = try await caller(request, service)
            let body = try await request.decode(as: KnownChunksRequest.self, context: context)
            guard body.chunks.count <= CloudLimits.maximumChunksPerRequest else {
                throw CloudServiceError(.tooLarge, "ask about at most \(CloudLimits.maximumChunksPerRequest) chunks at once")
            }
            let missing = try await service.ledger.known(body.chunks, session: try id(context, "session"), caller: device)
            return try await LargeJSONResponse(KnownChunksResponse(missing: missing))
        }
        router.put("/v1/sessions/:session/chunks/:chunk") { request, context -> EditedResponse<ChunkStored> in
            let device = try await caller(request, service)
            let session = try id(context, "session")
            let chunk = try chunkID(context)
            let body = request.body
            let buffer: ByteBuffer
            do { buffer = try await body.collect(upTo: CloudLimits.maximumChunkBytes) } catch {
                throw CloudServiceError(.tooLarge, "a chunk is at most \(CloudLimits.maximumChunkBytes) bytes")
            }
            // AES-GCM's nonce and tag alone are 28 bytes: anything shorter
            // cannot be an encrypted chunk.
            guard buffer.readableBytes >= 28 else { throw CloudServiceError(.badRequest, "an encrypted chunk is at least 28 bytes") }
            let stored = try await service.store(chunk, bytes: Array(buffer.readableBytesView), session: session, caller: device)
            return EditedResponse(status: stored.deduplicated ? .ok : .created, response: stored)
        }
        router.post("/v1/sessions/:session/commit") { request, context -> EditedResponse<SnapshotSummary> in
            let device = try await caller(request, service)
            let body = try await request.decode(as: CommitRequest.self, context: context)
            return EditedResponse(status: .created, response: try await service.commit(body, session: try id(context, "session"), caller: device))
        }
        router.delete("/v1/sessions/:session") { request, context -> HTTPResponse.Status in
            let device = try await caller(request, service)
            try await service.ledger.abandon(session: try id(context, "session"), caller: device)
            return .noContent
        }
    }

    static func addSnapshotRoutes(to router: Router<CloudRequestContext>, service: CloudService) {
        router.get("/v1/snapshots") { request, _ -> SnapshotList in
            let device = try await caller(request, service)
            var deviceID: Int64?
            if let text = request.uri.queryParameters.get("device") {
                guard let value = Int64(text), value > 0 else { throw CloudServiceError(.badRequest, "device must be a positive integer") }
                deviceID = value
            }
            return SnapshotList(snapshots: try await service.ledger.snapshots(deviceID: deviceID, caller: device))
        }
        router.get("/v1/snapshots/:snapshot") { request, context -> SnapshotDetail in
            let device = try await caller(request, service)
            return try await service.ledger.snapshot(try id(context, "snapshot"), caller: device)
        }
        router.get("/v1/chunks/:chunk") { request, context -> Response in
            let device = try await caller(request, service)
            let bytes = try await service.read(try chunkID(context), caller: device)
            return Response(status: .ok, headers: [.contentType: "application/octet-stream"],
                            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
        }
    }

    static func addAdminRoutes(to router: Router<CloudRequestContext>, service: CloudService) {
        router.put("/v1/admin/accounts/:account/quota") { request, context -> HTTPResponse.Status in
            try admin(request, service)
            let body = try await request.decode(as: QuotaUpdate.self, context: context)
            guard let encoded = context.parameters.get("account")?.removingPercentEncoding else {
                throw CloudServiceError(.badRequest, "the account name is not valid percent-encoded UTF-8")
            }
            let account = try CloudNames.normalized(encoded, .account)
            try await service.ledger.setQuota(account: account, bytes: body.quotaBytes)
            return .noContent
        }
        router.post("/v1/admin/gc") { request, _ -> GarbageCollectionReport in
            try admin(request, service)
            return try await service.collectGarbage()
        }
        router.get("/metrics") { request, _ -> Response in
            try admin(request, service)
            return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4"],
                            body: ResponseBody(byteBuffer: ByteBuffer(string: try await service.metricsText())))
        }
    }

    /// The device the request's bearer token names.
    static func caller(_ request: Request, _ service: CloudService) async throws(CloudServiceError) -> AuthenticatedDevice {
        guard let token = bearer(request) else { throw CloudServiceError(.unauthorized, "send the device token as Authorization: Bearer …") }
        return try await service.authenticate(token: token)
    }

    static func admin(_ request: Request, _ service: CloudService) throws(CloudServiceError) {
        guard let token = bearer(request), service.isAdmin(token: token) else {
            throw CloudServiceError(.unauthorized, "this route takes the operator's token")
        }
    }

    /// The token of an `Authorization: Bearer …` header; the scheme's
    /// name is case-insensitive (RFC 9110 §11.1).
    static func bearer(_ request: Request) -> String? {
        guard let header = request.headers[.authorization] else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        return token.isEmpty || token.count > 256 ? nil : token
    }

    static func id(_ context: CloudRequestContext, _ name: String) throws(CloudServiceError) -> Int64 {
        guard let text = context.parameters.get(name), let value = Int64(text), value > 0 else {
            throw CloudServiceError(.badRequest, "\(name) must be a positive integer")
        }
        return value
    }

    static func chunkID(_ context: CloudRequestContext) throws(CloudServiceError) -> ChunkID {
        guard let text = context.parameters.get("chunk"), let chunk = ChunkID(text) else {
            throw CloudServiceError(.badRequest, "a chunk id is 64 lowercase hex digits")
        }
        return chunk
    }
}

/// `GET /v1/health`.
struct HealthResponse: ResponseEncodable {
    var status: String
}

extension AccountStatus: ResponseEncodable {}
extension SignInResponse: ResponseEncodable {}
extension AppToggles: ResponseEncodable {}
extension SessionOpened: ResponseEncodable {}
extension KnownChunksResponse: ResponseEncodable {}
extension ChunkStored: ResponseEncodable {}
extension SnapshotSummary: ResponseEncodable {}
extension SnapshotList: ResponseEncodable {}
extension SnapshotDetail: ResponseEncodable {}
extension GarbageCollectionReport: ResponseEncodable {}
