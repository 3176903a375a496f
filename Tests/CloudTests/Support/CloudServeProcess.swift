import Foundation
import TestSupport

/// `sandbox cloud serve` started as a real process on a free loopback port,
/// on the embedded default in a temporary directory, and stopped by its PID.
final class CloudServeProcess: @unchecked Sendable {
    let directory: TemporaryDirectory
    let process: Process
    /// `http://127.0.0.1:PORT/`.
    let baseURL: String
    let adminToken: String

    /// What `serve --json` prints once it listens.
    private struct Started: Decodable {
        var url: String
        var port: Int
        var pid: Int32
    }

    /// Starts the server and returns once it listens.
    init(adminToken: String = "operator-\(UUID().uuidString)") throws {
        guard let sandbox = BuiltExecutable.locate("sandbox") else { throw RawCloudFailure("the sandbox executable was not built") }
        directory = try TemporaryDirectory("cloud-serve")
        self.adminToken = adminToken
        // Standard output goes to a file: the server prints one JSON object
        // (over several lines) and nothing after, so a file never fills
        // and is read without a thread of its own.
        let outputURL = try directory.write(Data(), to: "serve.json")
        let process = Process()
        process.executableURL = sandbox
        process.arguments = ["cloud", "serve", "--port", "0", "--json", "--directory", directory.path("service"),
                             "--admin-token", adminToken, "--gc-interval", "0", "--log-level", "warning"]
        process.standardOutput = try FileHandle(forWritingTo: outputURL)
        try process.run()
        self.process = process
        let deadline = Date().addingTimeInterval(60)
        var started: Started?
        while Date() < deadline, process.isRunning {
            if let data = try? Data(contentsOf: outputURL), let value = try? JSONDecoder().decode(Started.self, from: data) {
                started = value
                break
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        guard let started else {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            throw RawCloudFailure("sandbox cloud serve did not start (status \(process.isRunning ? "running" : "\(process.terminationStatus)"))")
        }
        baseURL = started.url
    }

    /// Stops the server by its PID (SIGTERM, then SIGKILL after 5 s) and waits for it.
    func stop() {
        guard process.isRunning else { return }
        let pid = process.processIdentifier
        kill(pid, SIGTERM)
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning { kill(pid, SIGKILL) }
        process.waitUntilExit()
    }

    deinit { stop() }
}
