// The module's only libc calls and platform `#if`s, behind one import ladder.
//
// This module is what the `sandbox-confine` trampoline runs, so it imports
// no Foundation: loading Foundation costs a process about 13 ms, which every
// launch would pay once more before the app's own start.
//
// Landlock has no libc wrappers, so its three calls go through `syscall(2)`
// with their generic numbers (the same on every Linux architecture).
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

#if os(Linux)
// Not imported from Glibc: variadic `syscall` and `prctl`, and `O_PATH`
// (behind _GNU_SOURCE). Every argument is an integer, which the SysV x86-64
// and AAPCS64 ABIs pass the same way to fixed and variadic functions.
@_silgen_name("syscall")
private func c_syscall(_ number: Int, _ a: Int, _ b: Int, _ c: Int, _ d: Int) -> Int
@_silgen_name("prctl")
func c_prctl(_ option: Int32, _ a: UInt, _ b: UInt, _ c: UInt, _ d: UInt) -> Int32
#endif

enum Platform {
    typealias Descriptor = Int32

    static func describe(_ e: Int32) -> String { String(cString: strerror(e)) }
    static let noSuchFile = ENOENT
    static let notSupported = ENOSYS
    static let accessDenied = EACCES

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

    // MARK: Seccomp

    private static let setSeccomp: Int32 = 22
    private static let seccompModeFilter: UInt = 2
    static let operationNotSupported = EOPNOTSUPP
    static let invalidArgument = EINVAL

    /// Sets no-new-privileges, then installs the classic BPF `program` as
    /// this thread's seccomp filter (kept over `execve`).
    static func installSeccompFilter(_ program: [MetadataProbeFilter.Instruction]) throws {
        #if os(Linux)
        guard c_prctl(setNoNewPrivileges, 1, 0, 0, 0) == 0 else { throw SystemFailure(errno: errno) }
        // struct sock_filter: u16 code, u8 jt, u8 jf, u32 k (8 bytes, native order).
        var filters = [UInt8]()
        filters.reserveCapacity(program.count * 8)
        for instruction in program {
            withUnsafeBytes(of: instruction.code) { filters.append(contentsOf: $0) }
            filters.append(instruction.jumpIfTrue)
            filters.append(instruction.jumpIfFalse)
            withUnsafeBytes(of: instruction.operand) { filters.append(contentsOf: $0) }
        }
        let result: Int32 = filters.withUnsafeBytes { raw in
            // struct sock_fprog: u16 len, padding, then the pointer (16 bytes on 64-bit).
            var header = [UInt8](repeating: 0, count: 16)
            withUnsafeBytes(of: UInt16(program.count)) { header.replaceSubrange(0..<2, with: $0) }
            withUnsafeBytes(of: UInt(bitPattern: raw.baseAddress)) { header.replaceSubrange(8..<16, with: $0) }
            return header.withUnsafeBytes { fprog in
                c_prctl(setSeccomp, seccompModeFilter, UInt(bitPattern: fprog.baseAddress), 0, 0)
            }
        }
        guard result == 0 else { throw SystemFailure(errno: errno) }
        #else
        throw SystemFailure(errno: ENOSYS)
        #endif
    }

    // MARK: Descriptors

    /// Opens `path` as a location only (`O_PATH`), following links, and
    /// says whether it is a directory.
    static func openLocation(_ path: String) throws -> (fd: Descriptor, isDirectory: Bool) {
        #if os(Linux)
        let fd = open(path, openPathOnly | O_CLOEXEC)
        #else
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        #endif
        guard fd >= 0 else { throw SystemFailure(errno: errno) }
        return try described(fd)
    }

    #if os(Linux)
    private static let openPathOnly: Int32 = 0o10000000  // O_PATH, the same on every Linux architecture
    private static let openat2Call = 437
    // RESOLVE_NO_MAGICLINKS | RESOLVE_NO_SYMLINKS | RESOLVE_BENEATH
    private static let resolveBeneathNoLinks: UInt64 = 0x02 | 0x04 | 0x08
    #endif

    /// Opens `relative` beneath the directory `anchor` as a location only,
    /// following no symbolic link in any component (the last included) and
    /// never leaving `anchor` (`..` that would is refused): `ELOOP` for a
    /// link, `EXDEV` for an escape. `openat2` where the kernel has it (every
    /// kernel with Landlock does), else a component walk with `O_NOFOLLOW`.
    static func openLocation(_ relative: String, beneath anchor: Descriptor) throws -> (fd: Descriptor, isDirectory: Bool) {
        #if os(Linux)
        var how: (UInt64, UInt64, UInt64) = (UInt64(openPathOnly | O_CLOEXEC), 0, resolveBeneathNoLinks)
        let fd = relative.withCString { name in
            withUnsafePointer(to: &how) { pointer in
                c_syscall(openat2Call, Int(anchor), Int(bitPattern: name), Int(bitPattern: pointer), 24)
            }
        }
        if fd >= 0 { return try described(Descriptor(fd)) }
        guard errno == ENOSYS || errno == EPERM else { throw SystemFailure(errno: errno) }
        // No openat2 (or a filter refused it): one component at a time.
        var current = Descriptor(dup(anchor))
        guard current >= 0 else { throw SystemFailure(errno: errno) }
        for component in relative.split(separator: "/") where component != "." {
            let parent = current
            defer { close(parent) }
            guard component != ".." else { throw SystemFailure(errno: EXDEV) }
            let next = openat(current, String(component), openPathOnly | O_NOFOLLOW | O_CLOEXEC)
            guard next >= 0 else { throw SystemFailure(errno: errno) }
            var info = stat()
            guard fstat(next, &info) == 0, info.st_mode & S_IFMT != S_IFLNK else {
                close(next)
                throw SystemFailure(errno: ELOOP)
            }
            current = next
        }
        return try described(current)
        #else
        throw SystemFailure(errno: ENOSYS)
        #endif
    }

    /// The descriptor and whether it is a directory; closes it on failure.
    private static func described(_ fd: Descriptor) throws -> (fd: Descriptor, isDirectory: Bool) {
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let failure = SystemFailure(errno: errno)
            close(fd)
            throw failure
        }
        return (fd, info.st_mode & S_IFMT == S_IFDIR)
    }

    static let linkLoop = ELOOP
    static let crossDevice = EXDEV

    static func closeDescriptor(_ fd: Descriptor) { _ = close(fd) }

    /// Writes all of `bytes` to `fd`, ignoring failures (the reader may be gone).
    static func writeAll(_ bytes: [UInt8], to fd: Descriptor) {
        bytes.withUnsafeBytes { raw in
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
        // Kernels before 5.11: every descriptor below the limit.
        let limit = max(Int32(sysconf(Int32(_SC_OPEN_MAX))), 1024)
        for fd in lowest..<limit { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    }

    static func changeDirectory(_ path: String) throws {
        guard chdir(path) == 0 else { throw SystemFailure(errno: errno) }
    }

    // MARK: Processes

    /// Replaces this process with `executable`, keeping this process's
    /// environment; returns only on failure.
    static func execute(_ executable: String, arguments: [String]) -> SystemFailure {
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        _ = execve(executable, argv, environ)
        return SystemFailure(errno: errno)
    }

    /// Leaves the process at once, without running exit handlers.
    static func exitImmediately(_ status: Int32) -> Never { _exit(status) }
}
