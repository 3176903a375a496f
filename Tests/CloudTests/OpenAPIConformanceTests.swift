import CloudTestSupport
import CloudProtocol
import Foundation
import Testing
import TestSupport

/// The answers schemathesis cannot reach with random input (a refusal over
/// quota, a commit missing chunks, an account with snapshots and toggles,
/// a closed session, an undeclared method), made on purpose and checked
/// against `openapi.yaml` by `Tests/Oracles/openapi_oracle.py`
/// (openapi-schema-validator): documented status, body of the documented
/// schema, nothing more.
@Suite
struct OpenAPIConformanceTests {
    /// One answer, as the oracle reads it.
    struct Answer: Encodable {
        var method: String
        var path: String
        var status: Int
        var body: JSONValue?
        /// For a method the document does not declare: the component schema of the body.
        var schema: String?
    }

    /// Any JSON, to hand the decoded body to the oracle as it came.
    enum JSONValue: Codable {
        case null, bool(Bool), number(Double), string(String), array([JSONValue]), object([String: JSONValue])

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() { self = .null }
            else if let value = try? container.decode(Bool.self) { self = .bool(value) }
            else if let value = try? container.decode(Double.self) { self = .number(value) }
            else if let value = try? container.decode(String.self) { self = .string(value) }
            else if let value = try? container.decode([JSONValue].self) { self = .array(value) }
            else { self = .object(try container.decode([String: JSONValue].self)) }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .null: try container.encodeNil()
            case .bool(let value): try container.encode(value)
            case .number(let value): try container.encode(value)
            case .string(let value): try container.encode(value)
            case .array(let value): try container.encode(value)
            case .object(let value): try container.encode(value)
            }
        }
    }

    @Test func answersBeyondTheFuzzersReachMatchTheDocument() async throws {
        let fixture = try await CloudFixture("cloud-conformance")
        do {
            try await Self.exercise(RawCloudClient(baseURL: fixture.url), adminToken: CloudFixture.adminToken)
        } catch {
            await fixture.stop()
            throw error
        }
        await fixture.stop()
    }

    static func exercise(_ client: RawCloudClient, adminToken: String) async throws {
        var answers: [Answer] = []
        func record(_ method: String, _ template: String, _ response: RawCloudResponse, schema: String? = nil) {
            let body = response.body.isEmpty ? nil : try? JSONDecoder().decode(JSONValue.self, from: Data(response.body))
            answers.append(Answer(method: method, path: template, status: response.status, body: body, schema: schema))
        }
        let device = try await RawCloudDevice.create(client, account: "Ada Lovelace", udid: "ada-iphone")
        let session = try await device.openSession(client)
        let manifest = try await device.putChunk(client, session: session, bytes: Array(repeating: 5, count: 100))

        // A commit naming a chunk that is not stored: 409 missingChunks with the list.
        let absent = ChunkID(digest: [UInt8](repeating: 0xab, count: 32))
        let missing = try await client.send("POST", "/v1/sessions/\(session)/commit", token: device.token,
                                            json: CommitRequest(manifest: manifest, chunks: [manifest, absent], files: 2, bytes: 10))
        #expect(missing.status == 409)
        #expect((try? missing.decode(ServiceErrorBody.self))?.missing == [absent])
        record("POST", "/v1/sessions/{session}/commit", missing)

        // The same chunk again: 200, deduplicated.
        let again = try await client.send("PUT", "/v1/sessions/\(session)/chunks/\(manifest.hex)", authorization: "Bearer \(device.token)",
                                          body: Array(repeating: 5, count: 100), contentType: "application/octet-stream")
        #expect(again.status == 200)
        record("PUT", "/v1/sessions/{session}/chunks/{chunk}", again)

        let committed = try await client.send("POST", "/v1/sessions/\(session)/commit", token: device.token,
                                              json: CommitRequest(manifest: manifest, chunks: [manifest], files: 1, bytes: 10))
        #expect(committed.status == 201)
        record("POST", "/v1/sessions/{session}/commit", committed)
        let snapshot = try committed.decode(SnapshotSummary.self)

        // The committed session is closed: 409 on every session route.
        for (method, template, suffix) in [("DELETE", "/v1/sessions/{session}", ""), ("POST", "/v1/sessions/{session}/known", "/known")] {
            let closed = try await client.send(method, "/v1/sessions/\(session)\(suffix)", token: device.token, json: KnownChunksRequest(chunks: [manifest]))
            #expect(closed.status == 409, "\(method) \(template) on a committed session")
            record(method, template, closed)
        }

        _ = try await client.send("PUT", "/v1/devices/\(device.deviceID)/apps/com.example.off", token: device.token, json: AppToggle(enabled: false))
        let account = try await client.send("GET", "/v1/account", token: device.token)
        #expect((try? account.decode(AccountStatus.self))?.devices.first?.lastSnapshot == snapshot)
        record("GET", "/v1/account", account)
        record("GET", "/v1/snapshots", try await client.send("GET", "/v1/snapshots?device=\(device.deviceID)", token: device.token))
        record("GET", "/v1/snapshots/{snapshot}", try await client.send("GET", "/v1/snapshots/\(snapshot.snapshotID)", token: device.token))

        // Over quota: 507 with the figures, and the snapshot stays.
        let name = "Ada%20Lovelace"
        let quota = try await client.send("PUT", "/v1/admin/accounts/\(name)/quota", token: adminToken, json: QuotaUpdate(quotaBytes: 150))
        #expect(quota.status == 204, "an account name with a space, percent-encoded in the path")
        record("PUT", "/v1/admin/accounts/{account}/quota", quota)
        let next = try await device.openSession(client)
        let over = try await client.send("PUT", "/v1/sessions/\(next)/chunks/\(absent.hex)", authorization: "Bearer \(device.token)",
                                         body: Array(repeating: 6, count: 51), contentType: "application/octet-stream")
        #expect(over.status == 507)
        let refusal = try? over.decode(ServiceErrorBody.self)
        #expect(refusal?.code == "quotaExceeded" && refusal?.usedBytes == 100 && refusal?.quotaBytes == 150 && refusal?.neededBytes == 51)
        record("PUT", "/v1/sessions/{session}/chunks/{chunk}", over)
        let fits = try await client.send("PUT", "/v1/sessions/\(next)/chunks/\(absent.hex)", authorization: "Bearer \(device.token)",
                                         body: Array(repeating: 6, count: 50), contentType: "application/octet-stream")
        #expect(fits.status == 201, "exactly up to the quota")
        record("PUT", "/v1/sessions/{session}/chunks/{chunk}", fits)

        // Too large, and an undeclared method.
        let huge = try await client.send("PUT", "/v1/sessions/\(next)/chunks/\(manifest.hex)", authorization: "Bearer \(device.token)",
                                         body: Array(repeating: 0, count: CloudLimits.maximumChunkBytes + 1), contentType: "application/octet-stream")
        #expect(huge.status == 413)
        record("PUT", "/v1/sessions/{session}/chunks/{chunk}", huge)
        let patch = try await client.send("PATCH", "/v1/account", token: device.token)
        #expect(patch.status == 405)
        #expect(patch.headers.first(name: "Allow") == "GET")
        #expect((try? patch.decode(ServiceErrorBody.self))?.code == "methodNotAllowed")
        record("PATCH", "/v1/account", patch, schema: "ServiceErrorBody")

        record("POST", "/v1/admin/gc", try await client.send("POST", "/v1/admin/gc", token: adminToken))

        let input = try JSONEncoder().encode(answers)
        let oracle = BuiltExecutable.packageRoot.appendingPathComponent("Tests/Oracles/openapi_oracle.py")
        let document = BuiltExecutable.packageRoot.appendingPathComponent("Sources/Cloud/CloudService/openapi.yaml")
        let result = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", oracle.path, document.path], input: input)
        #expect(result.status == 0, "\(result.output)\(result.standardError)")
        #expect(result.output.hasPrefix("ok \(answers.count)"))
    }
}
