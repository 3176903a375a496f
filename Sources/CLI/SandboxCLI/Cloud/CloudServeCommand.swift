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

            Accounts: with --account-creation open (the default) anyone may create one, at most \
            --accounts-per-minute from one client address (and eight times that in all), answered \
            429 with Retry-After beyond; a taken name is a 409, so open creation tells whether a name \
            exists, at that rate. With --account-creation operator only the operator's token creates \
            accounts (POST /v1/accounts with Authorization: Bearer TOKEN). Names are stored in NFC; \
            control and bidirectional characters, "/" and ".." are refused.

            Connections: at most --max-connections at once (more are closed at once), and a \
            connection that sends nothing for --idle-timeout seconds (a request's head or body \
            left half-sent, or no request) is closed. A body larger than the route takes is refused \
            with 413 and the connection closed: from its Content-Length before it is read (more than \
            4 MiB over), after a smaller overrun is read and dropped, or as soon as a chunked body \
            passes the limit.

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

    @Option(help: "Who creates accounts: open (rate-limited) or operator (only with the operator's token).")
    var accountCreation: AccountCreationMode = .open

    @Option(help: "With --account-creation open: accounts a minute from one client address.")
    var accountsPerMinute = 5

    @Option(help: "Connections served at once; more are closed as they arrive.")
    var maxConnections = 512

    @Option(help: "Seconds a connection may send nothing (mid-request or between requests) before it is closed.")
    var idleTimeout: Double = 30

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
                                                      adminToken: token, accountCreation: accountCreationPolicy, logger: logger)
            guard maxConnections > 0, idleTimeout > 0 else { throw ValidationError("--max-connections and --idle-timeout are positive") }
            let limits = ConnectionLimits(maximumConnections: maxConnections, idleTimeout: .milliseconds(Int64(idleTimeout * 1000)))
            let server = try await CloudServer.start(service, host: host, port: port, gcInterval: gcInterval > 0 ? gcInterval : nil,
                                                     limits: limits)
            let started = ServeJSON(url: server.baseURL, port: server.port, storage: storage.summary, pid: ProcessInfo.processInfo.processIdentifier)
            try output(json: started, text: "\(server.baseURL)\nstorage: \(storage.summary)\n")
            try await server.wait()
        }
    }

    var accountCreationPolicy: AccountCreationPolicy {
        switch accountCreation {
        case .open: .open(perMinute: accountsPerMinute)
        case .operator: .operatorOnly
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

/// `--account-creation`.
enum AccountCreationMode: String, ExpressibleByArgument, CaseIterable {
    case open
    case `operator`
}
