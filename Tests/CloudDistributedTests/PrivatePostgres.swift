import CloudService
import Foundation
import PostgresNIO
import TestSupport

/// A PostgreSQL 15 server of these tests' own: `initdb` into a temporary
/// directory, `postgres` started on a free loopback port with its socket in
/// that directory, stopped by its PID when the last test using it ends.
///
/// Stand-in until `scripts/distributed-stack` and its shared
/// `DistributedStack` test helper land: then ``withPrivatePostgres(_:)``
/// becomes a call into that stack, and the tests stay as they are.
///
/// PostgreSQL refuses to run as root, so under root the server runs as
/// ``serviceUser``, created with `useradd` the first time.
final class PrivatePostgres: Sendable {
    static let binaries = URL(fileURLWithPath: "/usr/lib/postgresql/15/bin")
    /// The normal user the server runs as when the tests run as root.
    static let serviceUser = "sandbox-services"
    /// The superuser `initdb` creates, with a password (scram-sha-256 on
    /// every connection, so a wrong password is refused).
    static let user = "ledger"

    let directory: TemporaryDirectory
    let port: Int
    let password: String
    /// The postmaster's process id, read from `postmaster.pid`.
    let pid: Int32

    private var dataDirectory: String { directory.path("data") }

    /// Initializes and starts a server; throws with its log when it does
    /// not come up.
    static func start() throws -> PrivatePostgres {
        let directory = try TemporaryDirectory("postgres")
        let password = UUID().uuidString
        let runAs = try isRoot() ? serviceUser : nil
        if let runAs { try ensureUser(runAs) }
        try directory.write(Data(password.utf8), to: "password")
        if let runAs { try run("/usr/bin/chown", ["-R", "\(runAs):", directory.url.path]) }

        try run(binaries.appendingPathComponent("initdb").path,
                ["-D", directory.path("data"), "-U", user, "--pwfile", directory.path("password"),
                 "--auth", "scram-sha-256", "--encoding", "UTF8", "--locale", "C", "--no-sync", "--no-instructions"],
                as: runAs)
        var lastError: (any Error)?
        // A free port can be taken between finding and binding it: try a few.
        for _ in 0..<5 {
            let port = try freePort()
            do {
                let server = try launch(directory: directory, port: port, as: runAs)
                return PrivatePostgres(directory: directory, port: port, password: password, pid: server)
            } catch {
                lastError = error
            }
        }
        let log = (try? directory.read("server.log")).map { String(decoding: $0, as: UTF8.self) } ?? ""
        throw PrivatePostgresError("PostgreSQL did not start: \(lastError.map { "\($0)" } ?? "")\n\(log)")
    }

    /// Starts `postgres` itself as a child and waits until
    /// `postmaster.pid` says it is ready; its PID.
    ///
    /// Not `pg_ctl start`: Foundation's `Process` learns that a child ended
    /// when a descriptor the child inherited closes, and the server pg_ctl
    /// leaves behind inherits it too, so waiting for pg_ctl never ends.
    private static func launch(directory: TemporaryDirectory, port: Int, as user: String?) throws -> Int32 {
        let server = binaries.appendingPathComponent("postgres").path
        let arguments = ["-D", directory.path("data"), "-p", String(port), "-k", directory.url.path,
                         "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "synchronous_commit=off",
                         "-c", "full_page_writes=off", "-c", "max_connections=200"]
        let process = Process()
        process.executableURL = URL(fileURLWithPath: user == nil ? server : "/usr/sbin/runuser")
        process.arguments = user.map { ["-u", $0, "--", server] + arguments } ?? arguments
        process.currentDirectoryURL = URL(fileURLWithPath: "/")
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: try directory.write(Data(), to: "server.log"))
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            // Line 8 of postmaster.pid is the server's status.
            if let text = try? directory.read("data/postmaster.pid"),
               case let lines = String(decoding: text, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false),
               lines.count >= 8, lines[7].trimmingCharacters(in: .whitespaces) == "ready",
               let pid = Int32(lines[0]) {
                return pid
            }
            guard process.isRunning else {
                throw PrivatePostgresError("postgres exited with status \(process.terminationStatus)")
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        process.terminate()
        throw PrivatePostgresError("postgres was not ready within 60 s")
    }

    private init(directory: TemporaryDirectory, port: Int, password: String, pid: Int32) {
        self.directory = directory
        self.port = port
        self.password = password
        self.pid = pid
    }

    /// Stops the server by its PID (SIGINT: PostgreSQL's fast shutdown)
    /// and waits until it has removed `postmaster.pid`; SIGKILL after 20 s.
    func stop() throws {
        _ = try ChildProcess.run(URL(fileURLWithPath: "/bin/kill"), ["-INT", String(pid)])
        let deadline = Date().addingTimeInterval(20)
        while directory.contains("data/postmaster.pid") {
            if Date() > deadline {
                _ = try ChildProcess.run(URL(fileURLWithPath: "/bin/kill"), ["-KILL", String(pid)])
                throw PrivatePostgresError("PostgreSQL (pid \(pid)) did not stop within 20 s; killed")
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    /// The ledger configuration of a new, empty database on this server.
    func makeDatabase(_ label: String = "test") async throws -> PostgresLedgerConfiguration {
        let name = "\(label)_\(UUID().uuidString.prefix(8).lowercased())"
        let configuration = PostgresConnection.Configuration(
            host: "127.0.0.1", port: port, username: Self.user, password: password, database: "postgres", tls: .disable)
        let logger = Logger(label: "private-postgres")
        let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
        do {
            // CREATE DATABASE cannot run in a transaction, so not through the ledger.
            try await connection.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \"\(name)\""), logger: logger)
            try await connection.close()
        } catch {
            try? await connection.close()
            throw error
        }
        return self.configuration(database: name)
    }

    /// A ledger configuration for `database` on this server.
    func configuration(database: String, password: String? = nil) -> PostgresLedgerConfiguration {
        PostgresLedgerConfiguration(host: "127.0.0.1", port: port, user: Self.user, password: password ?? self.password,
                                    database: database)
    }

    private static func isRoot() throws -> Bool {
        try run("/usr/bin/id", ["-u"]).output.trimmingCharacters(in: .whitespacesAndNewlines) == "0"
    }

    private static func ensureUser(_ name: String) throws {
        if try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/id"), ["-u", name]).status == 0 { return }
        let result = try ChildProcess.run(URL(fileURLWithPath: "/usr/sbin/useradd"),
                                          ["--system", "--user-group", "--no-create-home", "--home-dir", "/nonexistent",
                                           "--shell", "/usr/sbin/nologin", name])
        // 9: created meanwhile by someone else (another test process).
        guard result.status == 0 || result.status == 9 else {
            throw PrivatePostgresError("useradd \(name) failed (\(result.status)): \(result.standardError)")
        }
    }

    /// Runs a program to its end (as `user` through runuser when given)
    /// and throws with its standard error when it fails.
    @discardableResult
    private static func run(_ path: String, _ arguments: [String], as user: String? = nil) throws -> ChildProcess.Result {
        let (executable, fullArguments) = user.map { ("/usr/sbin/runuser", ["-u", $0, "--", path] + arguments) }
            ?? (path, arguments)
        let result = try ChildProcess.run(URL(fileURLWithPath: executable), fullArguments, in: URL(fileURLWithPath: "/"))
        guard result.status == 0 else {
            throw PrivatePostgresError("\(path) \(arguments.joined(separator: " ")) failed (\(result.status)): "
                + "\(result.standardError)\(result.output)")
        }
        return result
    }

    /// A loopback TCP port nothing listens on right now (bound to port 0,
    /// read, closed). Also what tests use for "a closed port".
    static func freePort() throws -> Int {
        let channel = try ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(host: "127.0.0.1", port: 0).wait()
        let port = channel.localAddress?.port
        try channel.close().wait()
        guard let port else { throw PrivatePostgresError("no port from a socket bound to port 0") }
        return port
    }
}

/// Runs blocking `work` (child processes waited for, polling sleeps) on a
/// thread of its own, so it never holds one of the few threads Swift
/// concurrency has on this 2-core machine: starved, they delayed other
/// tests' timers by over a minute in a full `swift test` run.
private func offCooperativePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
    }
}

struct PrivatePostgresError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Runs `body` with the shared private server, starting it for the first
/// test that needs it and stopping it (by PID) when the last one running
/// returns; a later test starts a new one.
func withPrivatePostgres<T>(_ body: (PrivatePostgres) async throws -> T) async throws -> T {
    let server = try await SharedPrivatePostgres.shared.acquire()
    do {
        let value = try await body(server)
        try await SharedPrivatePostgres.shared.release()
        return value
    } catch {
        try? await SharedPrivatePostgres.shared.release()
        throw error
    }
}

private actor SharedPrivatePostgres {
    static let shared = SharedPrivatePostgres()
    private var starting: Task<PrivatePostgres, any Error>?
    private var users = 0

    func acquire() async throws -> PrivatePostgres {
        users += 1
        let task = starting ?? Task { try await offCooperativePool { try PrivatePostgres.start() } }
        starting = task
        do {
            return try await task.value
        } catch {
            users -= 1
            if users == 0 { starting = nil }
            throw error
        }
    }

    func release() async throws {
        users -= 1
        guard users == 0, let task = starting else { return }
        starting = nil
        let server = try await task.value
        try await offCooperativePool { try server.stop() }
    }
}
