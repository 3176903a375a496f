import Foundation
import TestSupport

/// `sandbox cloud serve` as a real child process, stopped by its PID.
public final class ServiceProcess: @unchecked Sendable {
    public let process: Process
    public let port: Int
    public var url: String { "http://127.0.0.1:\(port)/" }
    public var pid: Int32 { process.processIdentifier }
    /// The server's debug log, when it was started with one.
    public let logPath: String?

    struct Started: Decodable {
        var url: String
        var port: Int
    }

    /// Starts a server on `directory` (the embedded default), or on the
    /// distributed stack `stack` (a stack.json) when given, on `port` (0:
    /// any). With `logPath`, the server logs at debug level into that file
    /// (see ``log``); otherwise it logs only what is critical.
    public init(directory: String? = nil, stack: String? = nil, port: Int = 0, quota: Int64? = nil, sessionLifetime: Int64? = nil,
                logPath: String? = nil, extra: [String] = []) throws {
        guard let sandbox = BuiltExecutable.locate("sandbox") else { throw ServiceProcessError(message: "the sandbox executable is not built") }
        var arguments = ["cloud", "serve", "--port", "\(port)", "--json", "--admin-token", CloudFixture.adminToken,
                         "--gc-interval", "0", "--log-level", logPath == nil ? "critical" : "debug", "--accounts-per-minute", "10000"]
        if let directory { arguments += ["--directory", directory] }
        if let stack { arguments += ["--stack", stack] }
        if let quota { arguments += ["--default-quota", "\(quota)"] }
        if let sessionLifetime { arguments += ["--session-lifetime", "\(sessionLifetime)"] }
        let pipe = Pipe()
        self.logPath = logPath
        var log: FileHandle?
        if let logPath {
            guard FileManager.default.createFile(atPath: logPath, contents: nil), let handle = FileHandle(forWritingAtPath: logPath) else {
                throw ServiceProcessError(message: "cannot create the server's log \(logPath)")
            }
            log = handle
        }
        defer { try? log?.close() }
        process = try ChildProcess.start(sandbox, arguments + extra, output: pipe, errorOutput: log)
        // The first line is the JSON object `serve --json` prints once it listens.
        var buffer = Data()
        let deadline = Date().addingTimeInterval(60)
        while !buffer.contains(UInt8(ascii: "}")) {
            let chunk = pipe.fileHandleForReading.availableData
            if chunk.isEmpty {
                guard process.isRunning, Date() < deadline else {
                    throw ServiceProcessError(message: "the server did not start: \(String(decoding: buffer, as: UTF8.self))")
                }
                continue
            }
            buffer.append(chunk)
        }
        guard let end = buffer.firstIndex(of: UInt8(ascii: "}")),
              let started = try? JSONDecoder().decode(Started.self, from: buffer[...end]) else {
            throw ServiceProcessError(message: "unexpected first line: \(String(decoding: buffer, as: UTF8.self))")
        }
        self.port = started.port
    }

    /// The last `lines` lines of the server's debug log ("" without one).
    public func log(lastLines lines: Int = 80) -> String {
        guard let logPath, let text = try? String(contentsOfFile: logPath, encoding: .utf8) else { return "" }
        return text.split(separator: "\n", omittingEmptySubsequences: false).suffix(lines).joined(separator: "\n")
    }

    /// Kills the server at once (a crash) and waits for it.
    public func kill() {
        guard process.isRunning else { return }
        Foundation.kill(pid, SIGKILL)
        process.waitForExit()
    }

    /// Stops the server (SIGTERM) and waits for it.
    public func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitForExit()
    }

    deinit { kill() }
}

public struct ServiceProcessError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
