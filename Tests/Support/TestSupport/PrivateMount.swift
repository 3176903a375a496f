import Foundation

/// Runs a command in a mount namespace of its own with a small tmpfs
/// mounted, so a test can fill a disk without touching the machine's. Needs
/// `unshare` and the right to mount (root, as CI is); where either is
/// missing, ``isAvailable`` is false and the tests that need it are skipped,
/// except under CI (``shouldRun``), where they run and fail.
///
/// A test process has threads, and a multithreaded process cannot enter a
/// new mount namespace (`unshare(CLONE_NEWNS)`): so the command (this
/// build's helper, or `sandbox`) runs in the namespace, not the test.
public enum PrivateMount {
    static let unshare: String? = ["/usr/bin/unshare", "/bin/unshare"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// Whether a private tmpfs can be mounted here.
    public static let isAvailable: Bool = {
        guard let probe = try? TemporaryDirectory("mount-probe") else { return false }
        return (try? run(mountPoint: probe.url, size: "64k", command: ["/bin/true"]))?.status == 0
    }()

    /// Whether the tests that need a private tmpfs should run: it can be
    /// mounted, or this is CI (which runs as root), where its absence must
    /// fail them rather than skip them.
    public static var shouldRun: Bool { isAvailable || SystemTool.isCI }

    /// Mounts a tmpfs of `size` (and of `inodes` files and directories at
    /// most, when given) at `mountPoint` in a new mount namespace and runs
    /// `command` there, with `environment` added to the test's own; returns
    /// what it did (status 127 and nothing when there is no `unshare`).
    public static func run(mountPoint: URL, size: String, inodes: Int? = nil, command: [String],
                           environment: [String: String]? = nil) throws -> ChildProcess.Result {
        let options = "size=\(size)" + (inodes.map { ",nr_inodes=\($0)" } ?? "")
        guard let unshare else { return ChildProcess.Result(status: 127, standardOutput: Data(), standardError: "") }
        // `unshare -m` makes mounts private to the new namespace: the tmpfs
        // vanishes with the process and is never seen outside it.
        return try ChildProcess.run(URL(fileURLWithPath: unshare), [
            "-m", "/bin/sh", "-c", "mount -t tmpfs -o \(options) tmpfs \"$1\" && shift && exec \"$@\"",
            "sh", mountPoint.path,
        ] + command, environment: environment)
    }
}
