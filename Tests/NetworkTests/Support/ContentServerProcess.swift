import AsyncHTTPClient
import ContentServer
import Foundation
import Synchronization
import NIOCore
import TestSupport

/// Every server started, kept until the test process ends: a server must
/// not be stopped because the test's last use of its value has passed
/// while a download still talks to it. Each server exits by itself when
/// the test process ends (`--exit-with-parent`).
private let runningServers = Mutex<[ContentServerProcess]>([])

/// The `content-server` executable, started as a real process on loopback
/// for a test and stopped by its PID.
final class ContentServerProcess: @unchecked Sendable {
    let root: TemporaryDirectory
    let process: Process
    let port: Int
    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)/")! }

    /// Starts a server for `root` on `port` (0: any free port).
    init(root: TemporaryDirectory, port: Int = 0) throws {
        self.root = root
        guard let executable = BuiltExecutable.locate("content-server") else {
            throw TestFailure("content-server was not built")
        }
        let portFile = root.url.deletingLastPathComponent().appendingPathComponent("port-\(UUID().uuidString)")
        process = try ChildProcess.start(executable, ["--root", root.url.path, "--port", String(port), "--port-file", portFile.path,
                                                      "--exit-with-parent"])
        let deadline = Date().addingTimeInterval(20)
        var found: Int?
        while Date() < deadline {
            if let text = try? String(contentsOf: portFile, encoding: .utf8), let value = Int(text) { found = value; break }
            guard process.isRunning else { break }
            Thread.sleep(forTimeInterval: 0.02)
        }
        try? FileManager.default.removeItem(at: portFile)
        guard let found else {
            process.terminate()
            throw TestFailure("content-server did not start")
        }
        self.port = found
        runningServers.withLock { $0.append(self) }
    }

    func url(_ path: String) -> URL { baseURL.appendingPathComponent(path) }

    /// Stops the process (SIGTERM, then SIGKILL) and waits for it.
    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitForExit()
    }

    /// Adds faults for the next requests.
    func inject(_ faults: [ContentFault]) async throws {
        _ = try await control("POST", "_control/faults", body: try JSONEncoder().encode(faults))
    }

    /// What the server answered so far.
    func stats() async throws -> ContentServerStats {
        try JSONDecoder().decode(ContentServerStats.self, from: try await control("GET", "_control/stats"))
    }

    private func control(_ method: String, _ path: String, body: Data = Data()) async throws -> Data {
        var request = HTTPClientRequest(url: url(path).absoluteString)
        request.method = .RAW(value: method)
        if !body.isEmpty { request.body = .bytes(ByteBuffer(bytes: body)) }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
        return Data(try await response.body.collect(upTo: 1 << 20).readableBytesView)
    }
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
