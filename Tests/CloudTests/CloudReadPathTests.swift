import CloudProtocol
import CloudService
import CloudTestSupport
import Foundation
import Testing
import TestSupport

/// One account's long requests (8 asking about 100,000 chunk ids each) do
/// not hold another account's token check and `GET /v1/account`: reads
/// run on the ledger's read path, beside the writer.
@Suite struct CloudReadPathTests {
    /// One `GET /v1/account` on a connection of its own, timed on a thread
    /// of its own: the shared client's eight connections per host are all
    /// taken by the long requests, and a client on the test runner's
    /// cooperative pool or NIO's shared loops timed its own wait for a
    /// thread under a full parallel run.
    static func latency(_ port: Int, _ token: String) async throws -> Double {
        let request = "GET /v1/account HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\nConnection: close\r\n\r\n"
        let answer = try await RawConnection.exchange(port: port, request: request, limit: 60)
        guard RawConnection.status(answer.bytes) == 200 else {
            throw RawCloudFailure("GET /v1/account answered \(RawConnection.status(answer.bytes))")
        }
        return answer.seconds
    }

    static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

    @Test func longRequestsOfOneAccountDoNotHoldAnotherAccountsStatus() async throws {
        // The service as its own process, so its threads are not the test runner's.
        let directory = try TemporaryDirectory("cloud-read-path")
        let cloud = try ServiceProcess(directory: directory.path("service"))
        defer { cloud.stop() }
        let client = RawCloudClient(baseURL: cloud.url)
        let hog = try await RawCloudDevice.create(client, account: "hog", udid: "hog-1")
        let other = try await RawCloudDevice.create(client, account: "other", udid: "other-1")
        var baseline: [Double] = []
        for _ in 0..<20 { baseline.append(try await Self.latency(cloud.port, other.token)) }

        let session = try await hog.openSession(client)
        let bodies = try (0..<8).map { request in
            try JSONEncoder().encode(KnownChunksRequest(chunks: (0..<100_000).map { index in
                ChunkID(digest: (0..<32).map { byte in UInt8(truncatingIfNeeded: (index &* 31 &+ request &* 7 &+ byte) &* (byte | 1)) })
            }))
        }
        let done = Finished()
        let started = Date()
        let hogs = Task {
            try await withThrowingTaskGroup(of: Int.self) { group in
                for body in bodies {
                    group.addTask {
                        try await client.send("POST", "/v1/sessions/\(session)/known", authorization: "Bearer \(hog.token)",
                                              body: Array(body)).status
                    }
                }
                var statuses: [Int] = []
                for try await status in group { statuses.append(status) }
                await done.set()
                return statuses
            }
        }
        var loaded: [Double] = []
        // Poll while the 8 requests run (at least 10 looks).
        try await Task.sleep(nanoseconds: 100_000_000)
        while true {
            let over = await done.value
            if loaded.count >= 10 && over { break }
            loaded.append(try await Self.latency(cloud.port, other.token))
            if Date().timeIntervalSince(started) > 120 { break }
        }
        let statuses = try await hogs.value
        let hogSeconds = Date().timeIntervalSince(started)
        #expect(statuses.allSatisfy { $0 == 200 })
        print(String(format: "read path: GET /v1/account baseline median %.1f ms; during 8 x 100,000-id requests (%.1f s): "
                     + "median %.1f ms, max %.1f ms over %d requests",
                     Self.median(baseline) * 1000, hogSeconds, Self.median(loaded) * 1000, (loaded.max() ?? 0) * 1000, loaded.count))
        // Before the large bodies were decoded and encoded off the
        // cooperative pool, the worst look waited 2.7 s on a quiet machine
        // (baseline median 1.5 ms; 9 s loaded); after, 42-88 ms quiet. The
        // bounds are relative to the baseline taken in the same run: beside
        // a full parallel test run (CI) the baseline median itself was
        // 593 ms and the worst look 2.24 s. They still fail at the old
        // behaviour on a quiet machine.
        let quiet = Self.median(baseline)
        #expect(Self.median(loaded) < 0.5 + 3 * quiet,
                "GET /v1/account waited \(Self.median(loaded)) s (median) behind another account's requests (baseline \(quiet) s)")
        #expect((loaded.max() ?? 0) < 2 + 4 * quiet,
                "GET /v1/account waited \(loaded.max() ?? 0) s (worst) behind another account's requests (baseline \(quiet) s)")
    }

    /// Whether the long requests are over.
    actor Finished {
        var value = false
        func set() { value = true }
    }
}
