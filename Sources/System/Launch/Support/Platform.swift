// The module's only libc calls and platform `#if`s, behind one import ladder
// (the confinement itself is LaunchCore's, which the trampoline runs). Process
// creation uses `posix_spawn`, which glibc implements with a vfork-style
// clone: nothing runs in the child between fork and exec except the file
// actions, so no Swift code ever runs in a half-copied process.
import Foundation
import LaunchCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

#if os(Linux)
// Not imported from Glibc: `pipe2` (behind _GNU_SOURCE).
@_silgen_name("pipe2")
private func c_pipe2(_ fds: UnsafeMutablePointer<Int32>, _ flags: Int32) -> Int32
#endif

enum Platform {
    typealias Descriptor = Int32

    // MARK: Errors and signals

    static let noSuchProcess = ESRCH
    static let textFileBusy = ETXTBSY
    static let signalTerminate = SIGTERM
    static let signalKill = SIGKILL
    static let signalInterrupt = SIGINT
    static let signalHangup = SIGHUP

    // MARK: Descriptors

    static func closeDescriptor(_ fd: Descriptor) { _ = close(fd) }

    /// A pipe whose two ends close on exec.
    static func makePipe() throws -> (read: Descriptor, write: Descriptor) {
        var fds: [Int32] = [-1, -1]
        #if os(Linux)
        guard c_pipe2(&fds, O_CLOEXEC) == 0 else { throw SystemFailure(errno: errno) }
        #else
        guard pipe(&fds) == 0 else { throw SystemFailure(errno: errno) }
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        #endif
        return (fds[0], fds[1])
    }

    /// Reads `fd` to its end.
    static func readAll(_ fd: Descriptor) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count > 0 { data.append(contentsOf: buffer[0..<count]); continue }
            if count < 0 && errno == EINTR { continue }
            return data
        }
    }

    // MARK: Processes

    /// Starts `executable` with `arguments` (argv[0] included) and
    /// `environment`; `descriptors` maps a target descriptor number in the
    /// child to a descriptor of this process.
    static func spawn(_ executable: String, arguments: [String], environment: [String],
                      descriptors: [(child: Descriptor, parent: Descriptor)]) throws -> Int32 {
        var actions = posix_spawn_file_actions_t()
        guard posix_spawn_file_actions_init(&actions) == 0 else { throw SystemFailure(errno: ENOMEM) }
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (child, parent) in descriptors {
            // Applied in order, so callers list the standard streams before
            // any higher number a later source might occupy.
            let status = posix_spawn_file_actions_adddup2(&actions, parent, child)
            guard status == 0 else { throw SystemFailure(errno: status) }
        }
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        // The program starts with every signal at its default action and none
        // blocked: the launcher's own dispositions (a test runner or shell may
        // ignore or block SIGTERM) must not decide whether terminate works.
        var attributes = posix_spawnattr_t()
        guard posix_spawnattr_init(&attributes) == 0 else { throw SystemFailure(errno: ENOMEM) }
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard status == 0 else { throw SystemFailure(errno: status) }
        return pid
    }

    /// Waits for `pid`; `block: false` returns nil while it still runs.
    /// The result is the raw wait status.
    static func wait(_ pid: Int32, block: Bool) throws -> Int32? {
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, block ? 0 : WNOHANG)
            if result == pid { return status }
            if result == 0 { return nil }
            if errno == EINTR { continue }
            throw SystemFailure(errno: errno)
        }
    }

    /// Decodes a wait status: the exit code, or the signal that ended it.
    static func decodeWaitStatus(_ status: Int32) -> (exitCode: Int32?, signal: Int32?) {
        let low = status & 0x7f
        return low == 0 ? ((status >> 8) & 0xff, nil) : (nil, low)
    }

    static func sendSignal(_ signal: Int32, to pid: Int32) throws {
        guard kill(pid, signal) == 0 else { throw SystemFailure(errno: errno) }
    }

    /// Whether a process with this id exists (a zombie counts).
    static func processExists(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }

    /// The process's state letter and start time in clock ticks since boot
    /// (fields 3 and 22 of `/proc/<pid>/stat`); the start time tells a
    /// process from a later one that reused its id. Nil where there is no
    /// procfs entry.
    static func processStat(_ pid: Int32) -> (state: Character, startTime: UInt64)? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        // Fields after the command name, which may itself hold spaces and
        // parentheses: the state is the first of them, the start time the 20th.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 19, let state = fields[0].first, let start = UInt64(fields[19]) else { return nil }
        return (state, start)
    }

    /// The directories of the shared libraries mapped into this process:
    /// where this toolchain's Swift runtime and libc live.
    static func mappedLibraryDirectories() -> [String] {
        guard let maps = try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8) else { return [] }
        var directories: [String] = []
        for line in maps.split(separator: "\n") {
            guard let slash = line.firstIndex(of: "/") else { continue }
            let path = String(line[slash...])
            guard path.contains(".so") else { continue }
            let directory = (path as NSString).deletingLastPathComponent
            if !directories.contains(directory) { directories.append(directory) }
        }
        return directories
    }

    static var currentProcessID: Int32 { getpid() }
}
