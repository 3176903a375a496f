// The module's only libc calls and platform `#if`s, behind one import ladder.
//
// Landlock has no libc wrappers, so its three calls go through `syscall(2)`
// with their generic numbers (the same on every Linux architecture). Process
// creation uses `posix_spawn`, which glibc implements with a vfork-style
// clone: nothing runs in the child between fork and exec except the file
// actions, so no Swift code ever runs in a half-copied process.
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

#if os(Linux)
// Not imported from Glibc: variadic `syscall` and `prctl`, and `pipe2` and
// `O_PATH` (behind _GNU_SOURCE). Every argument is
// an integer, which the SysV x86-64 and AAPCS64 ABIs pass the same way to
// fixed and variadic functions.
@_silgen_name("syscall")
private func c_syscall(_ number: Int, _ a: Int, _ b: Int, _ c: Int, _ d: Int) -> Int
@_silgen_name("pipe2")
private func c_pipe2(_ fds: UnsafeMutablePointer<Int32>, _ flags: Int32) -> Int32
@_silgen_name("prctl")
private func c_prctl(_ option: Int32, _ a: UInt, _ b: UInt, _ c: UInt, _ d: UInt) -> Int32
#endif

/// A failed system call: the `errno` it left.
struct SystemFailure: Error {
    var errno: Int32
}

enum Platform {
    typealias Descriptor = Int32

    // MARK: Errors and signals

    static func describe(_ e: Int32) -> String { String(cString: strerror(e)) }
    static let noSuchFile = ENOENT
    static let notSupported = ENOSYS
    static let invalidArgument = EINVAL
    static let noSuchProcess = ESRCH
    static let signalTerminate = SIGTERM
    static let signalKill = SIGKILL
    static let signalInterrupt = SIGINT
    static let signalHangup = SIGHUP

    // MARK: Landlock

    private static let landlockCreateRuleset = 444
    private static let landlockAddRule = 445
    private static let landlockRestrictSelf = 446
    private static let landlockCreateRulesetVersion = 1
    private static let ruleTypePathBeneath = 1
    private static let setNoNewPrivileges: Int32 = 38

    /// The Landlock ABI version the kernel implements, or the errno that says
    /// why there is none (`ENOSYS`: not built in; `EOPNOTSUPP`: disabled at boot).
    static func landlockABI() -> Result<Int, SystemFailure> {
        #if os(Linux)
        let version = c_syscall(landlockCreateRuleset, 0, 0, landlockCreateRulesetVersion, 0)
        return version < 0 ? .failure(SystemFailure(errno: errno)) : .success(version)
        #else
        return .failure(SystemFailure(errno: ENOSYS))
        #endif
    }

    /// Creates a ruleset handling `fileSystem` rights and `scoped` IPC
    /// scopes; `attributeSize` is 8, 16 or 24 bytes as the ABI knows the
    /// struct (`handled_access_fs`, `handled_access_net`, `scoped`).
    static func landlockCreateRuleset(fileSystem: UInt64, scoped: UInt64, attributeSize: Int) throws -> Descriptor {
        #if os(Linux)
        var attribute: (UInt64, UInt64, UInt64) = (fileSystem, 0, scoped)
        let fd = withUnsafePointer(to: &attribute) { pointer in
            c_syscall(landlockCreateRuleset, Int(bitPattern: pointer), attributeSize, 0, 0)
        }
        guard fd >= 0 else { throw SystemFailure(errno: errno) }
        return Descriptor(fd)
        #else
        throw SystemFailure(errno: ENOSYS)
        #endif
    }

    /// Adds a path-beneath rule: `access` is allowed on `parent` and
    /// everything under it.
    static func landlockAllow(_ access: UInt64, beneath parent: Descriptor, in ruleset: Descriptor) throws {
        #if os(Linux)
        // struct landlock_path_beneath_attr is packed: u64 then s32, 12 bytes.
        var bytes = [UInt8](repeating: 0, count: 12)
        withUnsafeBytes(of: access.littleEndian) { bytes.replaceSubrange(0..<8, with: $0) }
        withUnsafeBytes(of: parent.littleEndian) { bytes.replaceSubrange(8..<12, with: $0) }
        let result = bytes.withUnsafeBytes { raw in
            c_syscall(landlockAddRule, Int(ruleset), ruleTypePathBeneath, Int(bitPattern: raw.baseAddress), 0)
        }
        guard result == 0 else { throw SystemFailure(errno: errno) }
        #else
        throw SystemFailure(errno: ENOSYS)
        #endif
    }

    /// Sets no-new-privileges (required to restrict an unprivileged process,
    /// and what keeps set-user-id programs from leaving the domain), then
    /// enforces the ruleset on this thread and everything it execs.
    static func landlockRestrictSelf(_ ruleset: Descriptor) throws {
        #if os(Linux)
        guard c_prctl(setNoNewPrivileges, 1, 0, 0, 0) == 0 else { throw SystemFailure(errno: errno) }
        guard c_syscall(landlockRestrictSelf, Int(ruleset), 0, 0, 0) == 0 else { throw SystemFailure(errno: errno) }
        #else
        throw SystemFailure(errno: ENOSYS)
        #endif
    }

    // MARK: Descriptors

    /// Opens `path` as a location only (`O_PATH`), following links, and
    /// says whether it is a directory.
    static func openLocation(_ path: String) throws -> (fd: Descriptor, isDirectory: Bool) {
        #if os(Linux)
        let openPathOnly: Int32 = 0o10000000  // O_PATH, the same on every Linux architecture
        let fd = open(path, openPathOnly | O_CLOEXEC)
        #else
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        #endif
        guard fd >= 0 else { throw SystemFailure(errno: errno) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let failure = SystemFailure(errno: errno)
            close(fd)
            throw failure
        }
        return (fd, info.st_mode & S_IFMT == S_IFDIR)
    }

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

    /// Writes all of `data` to `fd`, ignoring failures (the reader may be gone).
    static func writeAll(_ data: Data, to fd: Descriptor) {
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count, let base = raw.baseAddress {
                let count = write(fd, base + offset, raw.count - offset)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return }
                offset += count
            }
        }
    }

    /// Marks every descriptor from `lowest` up close-on-exec, so nothing the
    /// launcher left open (by accident or not) reaches the confined program:
    /// Landlock checks paths when they are opened, not descriptors already open.
    static func closeOnExec(from lowest: Descriptor) {
        #if os(Linux)
        let closeRange = 436, cloexecFlag = 1 << 2
        if c_syscall(closeRange, Int(lowest), Int(UInt32.max), cloexecFlag, 0) == 0 { return }
        #endif
        let listed = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        let open = listed.isEmpty ? Array(lowest..<1024) : listed.compactMap { Int32($0) }
        for fd in open where fd >= lowest { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    }

    static func changeDirectory(_ path: String) throws {
        guard chdir(path) == 0 else { throw SystemFailure(errno: errno) }
    }

    // MARK: Processes

    /// Replaces this process with `executable`; returns only on failure.
    static func execute(_ executable: String, arguments: [String], environment: [String]) -> SystemFailure {
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        _ = execve(executable, argv, envp)
        return SystemFailure(errno: errno)
    }

    /// Leaves the process at once, without running exit handlers.
    static func exitImmediately(_ status: Int32) -> Never { _exit(status) }

    /// This process's environment as `NAME=value` strings.
    static func currentEnvironment() -> [String] {
        ProcessInfo.processInfo.environment.map { "\($0.key)=\($0.value)" }
    }

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
