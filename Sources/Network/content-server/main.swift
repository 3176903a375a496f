import ArgumentParser
import ContentServer
import FileSystem
import LaunchCore
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
              content-server --root /tmp/files --port 0 --port-file /tmp/port --exit-with-parent
            """)

    @Option(help: "The directory to serve.") var root: String
    @Option(help: "The address to listen on.") var host = "127.0.0.1"
    @Option(help: "The port (0 for any free one).") var port = 0
    @Option(help: "A file to write the chosen port to.") var portFile: String?
    @Flag(help: "Exit when the process that started the server ends (a test or a benchmark), so none is left behind.")
    var exitWithParent = false

    func run() async throws {
        let server = try await ContentServer.start(serving: root, host: host, port: port)
        FileHandle.standardOutput.write(Data("listening on \(server.baseURL.absoluteString)\n".utf8))
        if let portFile {
            try FileSystemPaths.writeAtomically(Data(String(server.port).utf8), toPath: portFile)
        }
        // Runs until a signal ends the process, or (with --exit-with-parent)
        // until the process that started it ends: the parent id changes the
        // moment it exits, even while it is a zombie its own parent has not
        // reaped (which may be waiting for this server's output to end).
        let parent = ProcessControl.parentProcessID
        while true {
            try await Task.sleep(for: .milliseconds(200))
            if exitWithParent, ProcessControl.parentProcessID != parent { throw ExitCode.success }
        }
    }
}
