// Process creation uses `posix_spawn`, which glibc implements with a
// vfork-style clone: nothing runs in the child between fork and exec except
// the file actions, so no Swift code ever runs in a half-copied process.
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
// Not imported from Glibc either (behind __USE_MISC); glibc 2.34 and later.
@_silgen_name("posix_spawn_file_actions_addclosefrom_np")
private func c_addclosefrom(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ from: Int32) -> Int32
#endif

extension ProcessControl {
    /// Starts `executable` with `arguments` (argv[0] included) and
    /// `environment` (`NAME=value` strings); `descriptors` maps a descriptor
    /// number in the child to a descriptor of this process, applied in
    /// order. The program starts with every signal at its default action and
    /// none blocked, and with no descriptor of this process but the ones
    /// `descriptors` names: a test runner or a device keeps hundreds open
    /// without close-on-exec, and a child limited to 256 descriptors (or an
    /// app that must not see its launcher's files) would start with them.
    /// Returns the child's pid.
    public static func spawn(_ executable: String, arguments: [String], environment: [String],
                             descriptors: [(child: Int32, parent: Int32)]) throws(SystemFailure) -> Int32 {
        var actions = posix_spawn_file_actions_t()
        guard posix_spawn_file_actions_init(&actions) == 0 else { throw SystemFailure(errno: ENOMEM) }
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (child, parent) in descriptors {
            // Applied in order, so callers list the standard streams before
            // any higher number a later source might occupy.
            let status = posix_spawn_file_actions_adddup2(&actions, parent, child)
            guard status == 0 else { throw SystemFailure(errno: status) }
        }
        #if os(Linux)
        let firstUnnamed = max(2, descriptors.map(\.child).max() ?? 2) + 1
        let closing = c_addclosefrom(&actions, firstUnnamed)
        guard closing == 0 else { throw SystemFailure(errno: closing) }
        #endif
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        // The launcher's own dispositions (a test runner or shell may ignore
        // or block SIGTERM) must not decide whether terminate works.
        var attributes = posix_spawnattr_t()
        guard posix_spawnattr_init(&attributes) == 0 else { throw SystemFailure(errno: ENOMEM) }
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        #if canImport(Darwin)
        // Darwin's form of the closefrom action above: only the dup2'd
        // descriptors survive exec.
        let flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_CLOEXEC_DEFAULT
        #else
        let flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        #endif
        posix_spawnattr_setflags(&attributes, Int16(flags))
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard status == 0 else { throw SystemFailure(errno: status) }
        return pid
    }

    /// Waits for the child `pid`; with `block` false returns nil while it
    /// still runs. The result is the raw wait status (see ``decodeWaitStatus(_:)``).
    public static func wait(_ pid: Int32, block: Bool) throws(SystemFailure) -> Int32? {
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, block ? 0 : WNOHANG)
            if result == pid { return status }
            if result == 0 { return nil }
            if errno == EINTR { continue }
            throw SystemFailure.current
        }
    }

    /// Decodes a raw wait status: the exit code, or the signal that ended it.
    public static func decodeWaitStatus(_ status: Int32) -> (exitCode: Int32?, signal: Int32?) {
        let low = status & 0x7f
        return low == 0 ? ((status >> 8) & 0xff, nil) : (nil, low)
    }

    /// A pipe whose two ends close on exec.
    public static func makePipe() throws(SystemFailure) -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        #if os(Linux)
        guard c_pipe2(&fds, O_CLOEXEC) == 0 else { throw SystemFailure.current }
        #else
        guard pipe(&fds) == 0 else { throw SystemFailure.current }
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        #endif
        return (fds[0], fds[1])
    }

    /// Reads a pipe (or a procfs file) to its end; what was read before a
    /// failure.
    public static func readToEnd(_ descriptor: Int32) -> [UInt8] {
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 { result.append(contentsOf: buffer[0..<count]); continue }
            if count < 0 && errno == EINTR { continue }
            return result
        }
    }

    /// Closes a descriptor this layer handed out (a pipe end).
    public static func closeDescriptor(_ descriptor: Int32) { _ = close(descriptor) }
}
