import ArgumentParser
import CloudProtocol
import CloudService
import Device
import Foundation
import Logging

/// `sandbox cloud serve`: the iCloud backup service on HTTP.
struct CloudServeCommand: AsyncParsableCommand, JSONOrTextOutput {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the iCloud backup service.",
        discussion: """
            With no options it serves on 127.0.0.1:8417 from $SANDBOX_HOME/cloud-service (chunks in a \
            directory, the ledger in SQLite). Any number of processes started on the same storage \
            serve as one service: the quota and deduplication are decided in the ledger's transactions.

            The first line printed is the service's URL (with --json, a JSON object); the operator \
            token for /metrics, quotas and garbage collection comes from --admin-token or \
            $SANDBOX_CLOUD_ADMIN_TOKEN.

            Examples:
              sandbox cloud serve
              sandbox cloud serve --port 0 --json
              sandbox cloud serve --stack /tmp/stack/stack.json --port 8418
            """)

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port (0 for any free one).")
    var port = 8417

    @Option(help: "The embedded default's directory (default: $SANDBOX_HOME/cloud-service).")
    var directory: String?

    @Option(help: "A stack.json from scripts/distributed-stack: OpenStack Swift and PostgreSQL.")
    var stack: String?

    @Option(help: "The quota of a new account, in bytes.")
    var defaultQuota: Int64 = CloudLimits.defaultQuotaBytes

    @Option(help: "Seconds between garbage collections (0: only on request).")
    var gcInterval: Double = 300

    @Option(help: "Seconds an idle upload session lives.")
    var sessionLifetime: Int64 = 3600

    @Option(help: "The operator's token (default: $SANDBOX_CLOUD_ADMIN_TOKEN; none turns the operator routes off).")
    var adminToken: String?

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel: String = "notice"

    @Flag(help: "Print the URL and storage as JSON.")
    var json = false

    func run() async throws {
        try await CommandRunner.run {
            let storage = try storageConfiguration()
            var logger = Logger(label: "sandbox-cloud")
            guard let level = Logger.Level(rawValue: logLevel) else { throw ValidationError("unknown log level \(logLevel)") }
            logger.logLevel = level
            let token = adminToken ?? ProcessInfo.processInfo.environment["SANDBOX_CLOUD_ADMIN_TOKEN"]
            let service = try await CloudService.open(storage, defaultQuota: defaultQuota, sessionLifetime: sessionLifetime,
                                                      adminToken: token, logger: logger)
            let server = try await CloudServer.start(service, host: host, port: port, gcInterval: gcInterval > 0 ? gcInterval : nil)
            let started = ServeJSON(url: server.baseURL, port: server.port, storage: storage.summary, pid: ProcessInfo.processInfo.processIdentifier)
            try output(json: started, text: "\(server.baseURL)\nstorage: \(storage.summary)\n")
            try await server.wait()
        }
    }

    func storageConfiguration() throws -> CloudStorageConfiguration {
        if let stack { return try CloudStorageConfiguration.distributed(contentsOf: stack) }
        let path = directory ?? SandboxHome().root.appendingPathComponent("cloud-service").path
        return .embedded(directory: path)
    }
}

/// What `serve --json` prints once it listens.
struct ServeJSON: Encodable {
    var url: String
    var port: Int
    var storage: String
    var pid: Int32
}
