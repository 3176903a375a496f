import ArgumentParser
import ContentServer
import FileSystem
import Foundation

/// The content server as its own process, for tests and benchmarks that
/// start a real server and stop it by its PID.
@main
struct ContentServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "content-server",
        abstract: "Serve a directory on loopback with ETag, Range and injectable faults.",
        discussion: """
            Prints `listening on http://HOST:PORT/` once ready, and writes the port to \
            --port-file if given. Stop it with SIGTERM or SIGINT.

            Examples:
              content-server --root /tmp/files
              content-server --root /tmp/files --port 0 --port-file /tmp/port
            """)

    @Option(help: "The directory to serve.") var root: String
    @Option(help: "The address to listen on.") var host = "127.0.0.1"
    @Option(help: "The port (0 for any free one).") var port = 0
    @Option(help: "A file to write the chosen port to.") var portFile: String?

    func run() async throws {
        let server = try await ContentServer.start(serving: root, host: host, port: port)
        FileHandle.standardOutput.write(Data("listening on \(server.baseURL.absoluteString)\n".utf8))
        if let portFile {
            try FileSystemPaths.writeAtomically(Data(String(server.port).utf8), toPath: portFile)
        }
        // Runs until a signal ends the process.
        while true { try await Task.sleep(for: .seconds(3600)) }
    }
}
