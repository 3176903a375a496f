import CloudProtocol
import CloudService
import CloudTestSupport
import Foundation
import Testing

/// Names are one form (NFC) and never carry what would forge a log or a
/// path; account creation is rate-limited or the operator's; the bearer
/// scheme is case-insensitive; a closed session stays a 409.
@Suite struct CloudAccountNameTests {
    static let key = Data(repeating: 5, count: 32).base64EncodedString()

    static func create(_ client: RawCloudClient, _ name: String, token: String? = nil) async throws -> RawCloudResponse {
        try await client.send("POST", "/v1/accounts", token: token, json: CreateAccountRequest(account: name, authKey: key))
    }

    @Test func namesAreOneNormalFormAndHostileOnesAreRefusedWithWhereAndWhat() async throws {
        let cloud = try await CloudFixture("cloud-names")
        let client = RawCloudClient(baseURL: cloud.url)
        let composed = try await Self.create(client, "caf\u{E9}")
        #expect(composed.status == 201)
        // The decomposed spelling is the same account.
        let decomposed = try await Self.create(client, "cafe\u{301}")
        #expect(decomposed.status == 409)
        let signedIn = try await client.send("POST", "/v1/devices", token: nil,
                                             json: SignInRequest(account: "cafe\u{301}", authKey: Self.key, deviceName: "phone", udid: "u-1"))
        #expect(try client.expect(201, SignInResponse.self, signedIn).account == "caf\u{E9}")

        let hostile: [(String, String)] = [
            ("evil\u{202E}gpj.exe", "U+202E at position 4"), ("a\u{7F}b", "U+007F at position 1"), ("x\u{85}", "U+0085 at position 1"),
            ("esc\u{1B}[2J", "U+001B at position 3"), ("a/b", "path separator at position 1"), ("..", "\"..\""), ("up/../x", "path separator"),
            ("\u{2067}iso", "U+2067 at position 0"),
        ]
        for (name, where_) in hostile {
            let answer = try await Self.create(client, name)
            #expect(answer.status == 400, "\(name.debugDescription) was \(answer.status)")
            let body = try answer.decode(ServiceErrorBody.self)
            #expect(body.code == "badRequest")
            #expect(body.message.contains("account name") && body.message.contains(where_), "\(body.message)")
        }
        // A device name with a bidi override is refused as well.
        let device = try await client.send("POST", "/v1/devices", token: nil,
                                           json: SignInRequest(account: "caf\u{E9}", authKey: Self.key, deviceName: "i\u{202E}Phone", udid: "u-2"))
        #expect(device.status == 400)
        #expect(try device.decode(ServiceErrorBody.self).message.contains("device name has a control character U+202E at position 1"))
        #expect(try await cloud.ledger.totals().accounts.map(\.name) == ["caf\u{E9}"])
        await cloud.stop()
    }

    @Test func theBearerSchemeIsCaseInsensitive() async throws {
        let cloud = try await CloudFixture("cloud-bearer")
        let client = RawCloudClient(baseURL: cloud.url)
        let device = try await RawCloudDevice.create(client, account: "casey", udid: "c-1")
        for scheme in ["bearer", "BEARER", "bEaReR"] {
            #expect(try await client.send("GET", "/v1/account", authorization: "\(scheme) \(device.token)").status == 200)
        }
        #expect(try await client.send("GET", "/v1/account", authorization: "Basic \(device.token)").status == 401)
        #expect(try await client.send("GET", "/v1/account", authorization: "bearer\(device.token)").status == 401)
        await cloud.stop()
    }

    @Test func openCreationIsRateLimitedPerClientAndTheOperatorIsNot() async throws {
        let cloud = try await CloudFixture("cloud-rate", accountCreation: .open(perMinute: 3))
        let client = RawCloudClient(baseURL: cloud.url)
        for index in 0..<3 { #expect(try await Self.create(client, "bulk-\(index)").status == 201) }
        let refused = try await Self.create(client, "bulk-3")
        #expect(refused.status == 429)
        #expect(try refused.decode(ServiceErrorBody.self).code == "tooManyRequests")
        #expect(Int(refused.headers.first(name: "Retry-After") ?? "") ?? 0 >= 1)
        // A refused creation did not create, and did not tell whether the name exists.
        #expect(try await Self.create(client, "bulk-0").status == 429)
        #expect(try await Self.create(client, "bulk-4", token: CloudFixture.adminToken).status == 201)
        #expect(try await cloud.ledger.totals().accounts.count == 4)
        await cloud.stop()
    }

    @Test func operatorOnlyCreationRefusesEveryoneElse() async throws {
        let cloud = try await CloudFixture("cloud-operator-only", accountCreation: .operatorOnly)
        let client = RawCloudClient(baseURL: cloud.url)
        let refused = try await Self.create(client, "walk-in")
        #expect(refused.status == 401)
        #expect(try refused.decode(ServiceErrorBody.self).message.contains("created by the operator"))
        #expect(try await Self.create(client, "walk-in", token: "not-the-operator").status == 401)
        #expect(try await Self.create(client, "walk-in", token: CloudFixture.adminToken).status == 201)
        await cloud.stop()
    }

    @Test func committedAndExpiredSessionsStayConflictsAfterGarbageCollection() async throws {
        let cloud = try await CloudFixture("cloud-closed-sessions", sessionLifetime: 30)
        let client = RawCloudClient(baseURL: cloud.url)
        let device = try await RawCloudDevice.create(client, account: "closer", udid: "cl-1")
        let committed = try await device.openSession(client)
        let manifest = try await device.putChunk(client, session: committed, bytes: [UInt8](repeating: 2, count: 100))
        _ = try await device.commit(client, session: committed, manifest: manifest, bytes: 100)
        let expired = try await device.openSession(client)
        // The lifetime leaves a loaded machine time to commit the first (8 s
        // was not enough in a full parallel run).
        try await Task.sleep(nanoseconds: 31_000_000_000)
        _ = try client.expect(200, GarbageCollectionReport.self, try await client.send("POST", "/v1/admin/gc", token: CloudFixture.adminToken))
        for session in [committed, expired] {
            let known = try await client.send("POST", "/v1/sessions/\(session)/known", token: device.token,
                                              json: KnownChunksRequest(chunks: [manifest]))
            #expect(known.status == 409, "session \(session): \(known.status) \(known.text)")
            #expect(try await client.send("DELETE", "/v1/sessions/\(session)", token: device.token).status == 409)
        }
        // A session that was never this device's is still a 404.
        #expect(try await client.send("DELETE", "/v1/sessions/\(expired + 100)", token: device.token).status == 404)
        await cloud.stop()
    }
}
