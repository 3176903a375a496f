import CloudTestSupport
import CloudProtocol
import Foundation
import Testing
import TestSupport

/// The checked-in OpenAPI document against the real server: schemathesis
/// (Tests/Oracles/requirements.txt) generates valid and invalid requests for
/// every operation, runs every check it has (no 5xx, every status, header
/// and body conforms to the document, invalid input refused, valid input
/// accepted, 405 for undeclared methods, authentication not ignored) and
/// follows the document's links through sessions and commits.
@Suite(.serialized)
struct OpenAPIFuzzTests {
    /// Fixed so a failure reproduces with the command the output prints.
    static let seed = 20_261_125
    /// Examples per operation: about 2,000 requests, half a minute to a
    /// minute and a half here (2 cores shared with the other suites).
    static let examplesPerOperation = 80

    static let document = BuiltExecutable.packageRoot.appendingPathComponent("Sources/Cloud/CloudService/openapi.yaml")

    @Test func theDocumentIsValidOpenAPI303() throws {
        let result = try ChildProcess.python(["-m", "openapi_spec_validator", "--schema", "3.0", "--validation-errors", "all", Self.document.path])
        #expect(result.status == 0, "\(result.output)\(result.standardError)")
    }

    @Test(.timeLimit(.minutes(10)))
    func schemathesisFindsNoServerErrorAndNoResponseOutsideTheDocument() async throws {
        let directory = try TemporaryDirectory("cloud-fuzz")
        let server = try ServiceProcess(directory: directory.path("service"))
        defer { server.stop() }
        let client = RawCloudClient(baseURL: server.url)

        let served = try await client.send("GET", "/openapi.yaml", token: nil)
        let checkedIn = try Data(contentsOf: Self.document)
        #expect(served.status == 200)
        #expect(served.body == Array(checkedIn), "the server serves the checked-in openapi.yaml")

        // Real data, so listings and the account carry snapshots, toggles and usage.
        let device = try await RawCloudDevice.create(client, account: "fuzz", udid: "fuzz-device")
        let session = try await device.openSession(client)
        let manifest = try await device.putChunk(client, session: session, bytes: Array(repeating: 7, count: 64))
        _ = try await device.commit(client, session: session, manifest: manifest, bytes: 64)
        _ = try await client.send("PUT", "/v1/devices/\(device.deviceID)/apps/com.example.off", token: device.token,
                                  json: AppToggle(enabled: false))
        _ = try await device.openSession(client)

        let work = try TemporaryDirectory("schemathesis")
        let configuration = try work.write(Data("""
            [generation]
            database = "none"

            [auth.openapi.deviceToken]
            bearer = "\(device.token)"

            [auth.openapi.operatorToken]
            bearer = "\(CloudFixture.adminToken)"
            """.utf8), to: "schemathesis.toml")
        let arguments = ["-m", "schemathesis.cli", "--no-color", "--config-file", configuration.path,
                         "run", server.url + "openapi.yaml", "--checks", "all",
                         "--max-examples", String(Self.examplesPerOperation), "--seed", String(Self.seed),
                         "--workers", "1", "--request-timeout", "30"]
        let result = try await offThePool {
            try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3"] + arguments, in: work.url)
        }
        #expect(result.status == 0, """
            schemathesis found failures (or is not installed: pip install -r Tests/Oracles/requirements.txt):
            \(result.output.suffix(12_000))
            \(result.standardError.suffix(2_000))
            """)
        #expect(server.process.isRunning, "the server survived the fuzzing")
    }
}
