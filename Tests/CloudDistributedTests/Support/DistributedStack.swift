import CloudService
import Foundation
import TestSupport

/// The distributed stack (`scripts/distributed-stack`: memcached, a
/// three-node Swift ring with three replicas, PostgreSQL 15) that the tests
/// of this target share.
///
/// It is started once per test process, into a temporary directory, and
/// stopped when the process exits. When `SANDBOX_STACK_DIR` names a
/// directory with a running stack (`. DIR/stack.env` after
/// `scripts/distributed-stack start --dir DIR`), that one is used and left
/// running. Tests that kill a process call ``revive()`` afterwards, so the
/// next test finds all three nodes and the proxy again.
enum DistributedStack {
    /// `stack.json`, as far as the tests read it.
    struct Configuration: Decodable, Sendable {
        /// PostgreSQL's TCP address and login.
        struct Postgres: Decodable, Sendable {
            var host: String, port: Int, user: String, password: String, database: String
        }
        /// The PIDs of one storage node's servers.
        struct Node: Decodable, Sendable {
            var node: Int, objectPID: Int32, containerPID: Int32, accountPID: Int32
        }
        struct PIDs: Decodable, Sendable {
            var memcached: Int32, proxy: Int32, postgres: Int32, nodes: [Node]
        }
        struct Memcached: Decodable, Sendable {
            var host: String, port: Int
        }
        var dir: String
        var swift: SwiftStoreConfiguration
        var postgres: Postgres
        var memcached: Memcached
        var pids: PIDs
    }

    /// Why the stack is not there.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static let script = BuiltExecutable.packageRoot.appendingPathComponent("scripts/distributed-stack")

    /// The running stack's configuration, starting the stack on first use.
    static func configuration() throws -> Configuration {
        try shared.get()
    }

    /// A Swift store on the stack's container, with short timeouts so a
    /// failure is reported in seconds, never a hang.
    static func store(_ adjust: (inout SwiftStoreConfiguration) -> Void = { _ in }) throws -> SwiftObjectStore {
        var swift = try configuration().swift
        swift.requestTimeout = 10
        swift.maxAttempts = 4
        swift.maxDelay = 0.5
        adjust(&swift)
        return SwiftObjectStore(configuration: swift)
    }

    /// Runs `scripts/distributed-stack <arguments> --dir <the stack's dir>`.
    @discardableResult
    static func run(_ arguments: [String]) throws -> String {
        let dir = try configuration().dir
        return try runScript(arguments + ["--dir", dir])
    }

    /// Restarts every Swift server a test killed and re-reads the PIDs.
    static func revive() throws {
        try run(["revive"])
        let dir = try configuration().dir
        shared = Result { try read(dir) }
    }

    /// Runs `body` (which kills stack processes), then ``revive()``s the
    /// stack whether `body` threw or not.
    static func reviving(_ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch {
            try? revive()
            throw error
        }
        try revive()
    }

    // MARK: - Start and stop

    private static let lock = NSLock()
    nonisolated(unsafe) private static var cached: Result<Configuration, any Error>?
    /// The directory of a stack this process started (stopped at exit).
    nonisolated(unsafe) private static var startedDirectory: String?

    private static var shared: Result<Configuration, any Error> {
        get {
            lock.lock()
            defer { lock.unlock() }
            if let cached { return cached }
            let result = Result { try startOrAttach() }
            cached = result
            return result
        }
        set {
            lock.lock()
            cached = newValue
            lock.unlock()
        }
    }

    private static func startOrAttach() throws -> Configuration {
        if let dir = ProcessInfo.processInfo.environment["SANDBOX_STACK_DIR"], !dir.isEmpty,
           (try? runScript(["status", "--dir", dir])) != nil {
            return try read(dir)
        }
        let dir = FileManager.default.temporaryDirectory
            .appendingPathComponent("sandbox-stack-\(UUID().uuidString.prefix(8))").path
        startedDirectory = dir
        atexit { DistributedStack.stopStarted() }
        try runScript(["start", "--dir", dir])
        return try read(dir)
    }

    private static func read(_ dir: String) throws -> Configuration {
        let data = try Data(contentsOf: URL(fileURLWithPath: dir).appendingPathComponent("stack.json"))
        return try JSONDecoder().decode(Configuration.self, from: data)
    }

    /// Runs the script to its end, its output and errors into a file.
    ///
    /// Not through `Process`: its `waitUntilExit` waits for SIGCHLD, and
    /// under Swift Testing (whose main thread has exited into
    /// `dispatchMain`) the signal of a script that leaves daemons behind
    /// was seen to get lost, hanging the test for good. `waitpid` needs no
    /// signal.
    @discardableResult
    private static func runScript(_ arguments: [String]) throws -> String {
        let scratch = try TemporaryDirectory("stack-script")
        let outputPath = scratch.path("output")
        let argv = ["/bin/sh", "-c", "exec \"$0\" \"$@\" > \"$STACK_SCRIPT_OUTPUT\" 2>&1 < /dev/null", script.path] + arguments
        let environment = ProcessInfo.processInfo.environment.merging(["STACK_SCRIPT_OUTPUT": outputPath]) { $1 }
            .map { "\($0.key)=\($0.value)" }
        var cArguments = argv.map { strdup($0) } + [nil]
        var cEnvironment = environment.map { strdup($0) } + [nil]
        defer {
            cArguments.forEach { free($0) }
            cEnvironment.forEach { free($0) }
        }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, "/bin/sh", nil, nil, &cArguments, &cEnvironment)
        guard spawned == 0 else { throw Failure(description: "posix_spawn /bin/sh failed: \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else { throw Failure(description: "waitpid \(pid) failed: \(errno)") }
        }
        let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        // Exited normally (no signal in the low 7 bits) with status 0.
        guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
            throw Failure(description: "scripts/distributed-stack \(arguments.joined(separator: " ")) failed (wait status \(status)): \(output)")
        }
        return output
    }

    private static func stopStarted() {
        guard let dir = startedDirectory else { return }
        _ = try? runScript(["stop", "--dir", dir, "--purge"])
    }
}
