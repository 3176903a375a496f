import CloudTestSupport
import CloudProtocol
import Foundation
import Testing
import TestSupport

/// No device reads, lists, changes or deletes another account's data, on
/// any route: two accounts A and B, each with a device and real data, and
/// every route of the OpenAPI document tried without a token, with tokens
/// that are not one, with B's token on A's resources, and (operator
/// routes) with a device's token.
@Suite
struct AuthorizationTests {
    /// One route of the API, as the test drives it.
    struct Route: CustomStringConvertible {
        /// The method and the path template, as in `openapi.yaml`.
        var method: String
        var template: String
        /// The path naming A's resource.
        var path: String
        var body: [UInt8]? = nil
        var contentType = "application/json"
        var kind: Kind

        enum Kind { case open, device, `operator` }
        var description: String { "\(method) \(path)" }
    }

    /// A's and B's data, made through the API.
    struct World {
        var client: RawCloudClient
        var adminToken: String
        var a: RawCloudDevice
        var b: RawCloudDevice
        /// A's committed snapshot, its chunk, and an open session holding another chunk.
        var snapshot: SnapshotSummary
        var chunk: ChunkID
        var chunkBytes: [UInt8]
        var openSession: Int64
        var pendingChunk: ChunkID
        /// Another open session of A's, for the DELETE (the commit closes the first).
        var spareSession: Int64
    }

    static func json(_ value: some Encodable) -> [UInt8] { Array((try? JSONEncoder().encode(value)) ?? Data()) }

    /// Every route the server has, naming A's resources.
    static func routes(_ w: World) -> [Route] {
        let fresh = ChunkID(digest: (0..<32).map { _ in UInt8.random(in: 0...255) })
        return [
            Route(method: "GET", template: "/v1/health", path: "/v1/health", kind: .open),
            Route(method: "GET", template: "/openapi.yaml", path: "/openapi.yaml", kind: .open),
            Route(method: "POST", template: "/v1/accounts", path: "/v1/accounts",
                  body: json(CreateAccountRequest(account: "other-\(UUID().uuidString)", authKey: w.b.authKey)), kind: .open),
            Route(method: "POST", template: "/v1/devices", path: "/v1/devices",
                  body: json(SignInRequest(account: w.a.account, authKey: w.a.authKey, deviceName: "again", udid: "a-second")), kind: .open),
            Route(method: "GET", template: "/v1/account", path: "/v1/account", kind: .device),
            Route(method: "GET", template: "/v1/devices/{device}/apps", path: "/v1/devices/\(w.a.deviceID)/apps", kind: .device),
            Route(method: "PUT", template: "/v1/devices/{device}/apps/{bundleID}", path: "/v1/devices/\(w.a.deviceID)/apps/com.example.b",
                  body: json(AppToggle(enabled: false)), kind: .device),
            Route(method: "POST", template: "/v1/sessions", path: "/v1/sessions", kind: .device),
            Route(method: "POST", template: "/v1/sessions/{session}/known", path: "/v1/sessions/\(w.openSession)/known",
                  body: json(KnownChunksRequest(chunks: [w.chunk, fresh])), kind: .device),
            Route(method: "PUT", template: "/v1/sessions/{session}/chunks/{chunk}", path: "/v1/sessions/\(w.openSession)/chunks/\(fresh.hex)",
                  body: Array(repeating: 9, count: 40), contentType: "application/octet-stream", kind: .device),
            Route(method: "GET", template: "/v1/snapshots", path: "/v1/snapshots?device=\(w.a.deviceID)", kind: .device),
            Route(method: "GET", template: "/v1/snapshots/{snapshot}", path: "/v1/snapshots/\(w.snapshot.snapshotID)", kind: .device),
            Route(method: "GET", template: "/v1/chunks/{chunk}", path: "/v1/chunks/\(w.chunk.hex)", kind: .device),
            // Last, so the owner's run reads the snapshot before its commit retires it.
            Route(method: "POST", template: "/v1/sessions/{session}/commit", path: "/v1/sessions/\(w.openSession)/commit",
                  body: json(CommitRequest(manifest: w.pendingChunk, chunks: [w.pendingChunk], files: 1, bytes: 1)), kind: .device),
            Route(method: "DELETE", template: "/v1/sessions/{session}", path: "/v1/sessions/\(w.spareSession)", kind: .device),
            Route(method: "PUT", template: "/v1/admin/accounts/{account}/quota", path: "/v1/admin/accounts/\(w.a.account)/quota",
                  body: json(QuotaUpdate(quotaBytes: 1 << 30)), kind: .operator),
            Route(method: "POST", template: "/v1/admin/gc", path: "/v1/admin/gc", kind: .operator),
            Route(method: "GET", template: "/metrics", path: "/metrics", kind: .operator),
        ]
    }

    /// Starts a service in this process with A's and B's data and runs `body`.
    static func withWorld(_ body: (World) async throws -> Void) async throws {
        let fixture = try await CloudFixture("cloud-authorization")
        do {
            let client = RawCloudClient(baseURL: fixture.url)
            let a = try await RawCloudDevice.create(client, account: "alice", udid: "alice-iphone")
            let b = try await RawCloudDevice.create(client, account: "bob", udid: "bob-iphone")
            let committed = try await a.openSession(client)
            let chunkBytes = (0..<100).map { _ in UInt8.random(in: 0...255) }
            let chunk = try await a.putChunk(client, session: committed, bytes: chunkBytes)
            let snapshot = try await a.commit(client, session: committed, manifest: chunk, bytes: 100)
            _ = try client.expect(200, AppToggles.self, try await client.send(
                "PUT", "/v1/devices/\(a.deviceID)/apps/com.example.a", token: a.token, json: AppToggle(enabled: false)))
            let open = try await a.openSession(client)
            let pending = try await a.putChunk(client, session: open, bytes: Array(repeating: 3, count: 50))
            let spare = try await a.openSession(client)
            try await body(World(client: client, adminToken: CloudFixture.adminToken, a: a, b: b, snapshot: snapshot, chunk: chunk, chunkBytes: chunkBytes,
                                 openSession: open, pendingChunk: pending, spareSession: spare))
        } catch {
            await fixture.stop()
            throw error
        }
        await fixture.stop()
    }

    /// The routes (method and path template) `openapi.yaml` declares.
    static func documentedRoutes() throws -> Set<String> {
        let text = try String(contentsOf: BuiltExecutable.packageRoot.appendingPathComponent("Sources/Cloud/CloudService/openapi.yaml"),
                              encoding: .utf8)
        var routes: Set<String> = []
        var path: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("components:") { break }
            if line.hasPrefix("  /"), line.hasSuffix(":") { path = String(line.dropFirst(2).dropLast()) }
            let method = line.trimmingCharacters(in: .whitespaces).dropLast()
            if let path, line.hasPrefix("    "), !line.hasPrefix("     "), line.hasSuffix(":"),
               ["get", "put", "post", "delete", "patch"].contains(String(method)) {
                routes.insert("\(method.uppercased()) \(path)")
            }
        }
        return routes
    }

    @Test func theTestCoversEveryRouteOfTheDocument() async throws {
        try await Self.withWorld { w in
            let covered = Set(Self.routes(w).map { "\($0.method) \($0.template)" })
            let documented = try Self.documentedRoutes()
            #expect(documented.count >= 18)
            #expect(covered == documented, "routes missing from this test: \(documented.subtracting(covered).sorted()); not documented: \(covered.subtracting(documented).sorted())")
        }
    }

    @Test func everyDeviceAndOperatorRouteRefusesAMissingOrForgedToken() async throws {
        try await Self.withWorld { w in
            let forged = [
                nil,
                "Bearer",
                "Bearer ",
                "Bearer garbage",
                "Bearer " + String(w.a.token.reversed()),
                "Bearer " + String(repeating: "A", count: 43),
                "Bearer " + String(repeating: "x", count: 300),
                "Basic \(Data("alice:\(w.a.authKey)".utf8).base64EncodedString())",
                "Bearer \(w.a.authKey)",
            ]
            for route in Self.routes(w) where route.kind != .open {
                for authorization in forged {
                    let answer = try await w.client.send(route.method, route.path, authorization: authorization, body: route.body,
                                                         contentType: route.contentType)
                    #expect(answer.status == 401, "\(route) with \(authorization ?? "no Authorization") answered \(answer.status): \(answer.text.prefix(200))")
                    #expect((try? answer.decode(ServiceErrorBody.self))?.code == "unauthorized")
                    #expect(answer.headers.first(name: "WWW-Authenticate")?.hasPrefix("Bearer") == true)
                    #expect(!answer.text.contains(w.a.account), "\(route) showed A's name")
                }
            }
        }
    }

    @Test func anotherAccountsDeviceSeesNothingOfA() async throws {
        try await Self.withWorld { w in
            for route in Self.routes(w) where route.kind == .device {
                let answer = try await w.client.send(route.method, route.path, authorization: "Bearer \(w.b.token)", body: route.body,
                                                     contentType: route.contentType)
                switch route.template {
                case "/v1/account":
                    // B's own account: nothing of A in it.
                    let status = try w.client.expect(200, AccountStatus.self, answer)
                    #expect(status.account == w.b.account)
                    #expect(status.devices.map(\.deviceID) == [w.b.deviceID])
                    #expect(status.usedBytes == 0 && status.chunkCount == 0)
                case "/v1/sessions":
                    // B's own new session, which is not A's.
                    let opened = try w.client.expect(201, SessionOpened.self, answer)
                    #expect(opened.sessionID != w.openSession)
                default:
                    #expect(answer.status == 404, "\(route) with B's token answered \(answer.status): \(answer.text.prefix(200))")
                    #expect((try? answer.decode(ServiceErrorBody.self))?.code == "notFound")
                }
                // Nothing of A's that B did not send itself (a 404 may repeat the id asked about).
                let asked = route.path + String(decoding: route.body ?? [], as: UTF8.self)
                for secret in [w.a.account, "alice-iphone", w.chunk.hex, w.pendingChunk.hex] where !asked.contains(secret) {
                    #expect(!answer.text.contains(secret), "\(route) showed B \(secret)")
                }
                #expect(answer.body != w.chunkBytes, "\(route) gave B A's chunk")
            }

            // B's listing has none of A's snapshots.
            let list = try w.client.expect(200, SnapshotList.self, try await w.client.send("GET", "/v1/snapshots", token: w.b.token))
            #expect(list.snapshots.isEmpty)

            // Chunk ids are per account: A's chunk id in B's own session is
            // neither "known" nor deduplicated against A's bytes, and B
            // cannot commit a snapshot naming it without sending it.
            let session = try await w.b.openSession(w.client)
            let known = try w.client.expect(200, KnownChunksResponse.self, try await w.client.send(
                "POST", "/v1/sessions/\(session)/known", token: w.b.token, json: KnownChunksRequest(chunks: [w.chunk])))
            #expect(known.missing == [w.chunk])
            let commit = try await w.client.send("POST", "/v1/sessions/\(session)/commit", token: w.b.token,
                                                 json: CommitRequest(manifest: w.chunk, chunks: [w.chunk], files: 1, bytes: 1))
            #expect(commit.status == 409)
            #expect(try commit.decode(ServiceErrorBody.self).missing == [w.chunk])
            let stored = try w.client.expect(201, ChunkStored.self, try await w.client.send(
                "PUT", "/v1/sessions/\(session)/chunks/\(w.chunk.hex)", authorization: "Bearer \(w.b.token)",
                body: Array(repeating: 1, count: 30), contentType: "application/octet-stream"))
            #expect(!stored.deduplicated)
            #expect(stored.usedBytes == 30)

            // A's data is untouched by everything B tried.
            let detail = try w.client.expect(200, SnapshotDetail.self, try await w.client.send(
                "GET", "/v1/snapshots/\(w.snapshot.snapshotID)", token: w.a.token))
            #expect(detail.snapshot == w.snapshot)
            let bytes = try await w.client.send("GET", "/v1/chunks/\(w.chunk.hex)", token: w.a.token)
            #expect(bytes.status == 200 && bytes.body == w.chunkBytes)
            let apps = try w.client.expect(200, AppToggles.self, try await w.client.send("GET", "/v1/devices/\(w.a.deviceID)/apps", token: w.a.token))
            #expect(apps.appsOff == ["com.example.a"])
            for session in [w.openSession, w.spareSession] {
                let resumed = try w.client.expect(200, KnownChunksResponse.self, try await w.client.send(
                    "POST", "/v1/sessions/\(session)/known", token: w.a.token, json: KnownChunksRequest(chunks: [w.pendingChunk])))
                #expect(resumed.missing.isEmpty, "A's open sessions survived B's commit and DELETE")
            }
            // B's chunk of the same name is B's, not A's.
            let own = try await w.client.send("GET", "/v1/chunks/\(w.chunk.hex)", token: w.b.token)
            #expect(own.status == 200 && own.body == Array(repeating: 1, count: 30))
        }
    }

    @Test func theOwnerReachesEveryDeviceRoute() async throws {
        try await Self.withWorld { w in
            // The 404s above come from ownership, not from missing data: A's
            // own token is answered on every route (the DELETE last).
            for route in Self.routes(w) where route.kind == .device {
                let answer = try await w.client.send(route.method, route.path, authorization: "Bearer \(w.a.token)", body: route.body,
                                                     contentType: route.contentType)
                #expect((200..<300).contains(answer.status), "\(route) with A's token answered \(answer.status): \(answer.text.prefix(200))")
            }
        }
    }

    @Test func operatorRoutesTakeOnlyTheOperatorsToken() async throws {
        try await Self.withWorld { w in
            for route in Self.routes(w) where route.kind == .operator {
                for token in [w.a.token, w.b.token] {
                    let answer = try await w.client.send(route.method, route.path, authorization: "Bearer \(token)", body: route.body,
                                                         contentType: route.contentType)
                    #expect(answer.status == 401, "\(route) with a device's token answered \(answer.status)")
                }
                let answer = try await w.client.send(route.method, route.path, authorization: "Bearer \(w.adminToken)", body: route.body,
                                                     contentType: route.contentType)
                #expect((200..<300).contains(answer.status), "\(route) with the operator's token answered \(answer.status): \(answer.text.prefix(200))")
            }
            // The operator's token is no device's.
            for route in Self.routes(w) where route.kind == .device {
                let answer = try await w.client.send(route.method, route.path, authorization: "Bearer \(w.adminToken)", body: route.body,
                                                     contentType: route.contentType)
                #expect(answer.status == 401, "\(route) with the operator's token answered \(answer.status)")
            }
            let status = try w.client.expect(200, AccountStatus.self, try await w.client.send("GET", "/v1/account", token: w.a.token))
            #expect(status.quotaBytes == 1 << 30, "the operator's quota change took")
        }
    }

    @Test func signingInToAnotherAccountTakesItsKey() async throws {
        try await Self.withWorld { w in
            let answer = try await w.client.send("POST", "/v1/devices", token: nil, json: SignInRequest(
                account: w.a.account, authKey: w.b.authKey, deviceName: "intruder", udid: "bob-iphone"))
            #expect(answer.status == 401)
            #expect(!answer.text.contains("token\""))
            let unknown = try await w.client.send("POST", "/v1/devices", token: nil, json: SignInRequest(
                account: "nobody", authKey: w.b.authKey, deviceName: "intruder", udid: "x"))
            #expect(unknown.status == 401)
            #expect(try unknown.decode(ServiceErrorBody.self).message == (try answer.decode(ServiceErrorBody.self)).message,
                    "a wrong key and an unknown account are the same refusal")
            // An account name cannot be taken over.
            let taken = try await w.client.send("POST", "/v1/accounts", token: nil, json: CreateAccountRequest(account: w.a.account, authKey: w.b.authKey))
            #expect(taken.status == 409)
            let status = try w.client.expect(200, AccountStatus.self, try await w.client.send("GET", "/v1/account", token: w.a.token))
            #expect(status.devices.map(\.deviceID) == [w.a.deviceID])
        }
    }
}
