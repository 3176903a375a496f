/// The system locations every confined program needs to start: what the
/// dynamic loader, libc, the Swift runtime and Foundation read while a
/// program starts up, and nothing more.
///
/// All are read-only. `/etc` is reduced to the files libc and Foundation
/// actually open (loader cache, time zone, name service, TLS roots), so a
/// confined process cannot read `/etc/shadow` or other configuration even
/// when it runs as root.
public enum SystemPaths {
    /// Programs and libraries: read and execute.
    static let programs = ["/usr", "/lib", "/lib32", "/lib64", "/libx32", "/bin", "/sbin"]

    /// Configuration files read at startup or by name lookup and TLS.
    static let configuration = [
        "/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/ld.so.preload",
        "/etc/localtime", "/etc/timezone", "/etc/nsswitch.conf", "/etc/passwd", "/etc/group",
        "/etc/hosts", "/etc/host.conf", "/etc/resolv.conf", "/etc/gai.conf",
        "/etc/ssl", "/etc/ca-certificates", "/etc/pki", "/etc/mime.types", "/etc/os-release",
    ]

    /// Kernel information: the process's own `/proc` entry (opened by the
    /// trampoline, which the program replaces in place with the same pid),
    /// CPU and memory facts Foundation and Dispatch ask for.
    static let kernelInformation = ["/proc/self", "/proc/cpuinfo", "/proc/meminfo", "/sys/devices/system/cpu"]

    /// Device files: the bit bucket (read and write) and random sources.
    static let readableDevices = ["/dev/zero", "/dev/urandom", "/dev/random"]

    /// The rules for all of the above.
    public static var rules: [PathRule] {
        var rules = programs.map { PathRule($0, .readExecute, optional: true) }
        rules += (configuration + kernelInformation + readableDevices).map { PathRule($0, .read, optional: true) }
        rules.append(PathRule("/dev/null", .device, optional: true))
        return rules
    }

    /// Read-and-execute rules for the directories `executable` loads its
    /// code from (``LibrarySearch``: its interpreter, needed libraries and
    /// run paths, resolved as the loader resolves them), beyond
    /// ``programs``: where a toolchain keeps the Swift runtime
    /// (`/opt/swift/...`, a `$ORIGIN`-relative folder). Derived from the
    /// program itself, not from what the launcher happens to have loaded.
    /// Nothing beneath `excluded` is allowed this way (see
    /// ``LibrarySearch/directories(for:libraryPath:excluding:)``).
    public static func libraryRules(for executable: String, libraryPath: String? = nil,
                                    excluding excluded: [String] = []) -> [PathRule] {
        LibrarySearch.directories(for: executable, libraryPath: libraryPath, excluding: excluded)
            .filter { directory in !programs.contains { directory == $0 || directory.hasPrefix($0 + "/") } }
            .map { PathRule($0, .readExecute, optional: true) }
    }
}
