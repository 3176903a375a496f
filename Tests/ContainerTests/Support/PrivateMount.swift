import Foundation
import TestSupport

/// Runs a command in a mount namespace of its own with a small tmpfs
/// mounted, so a test can fill a disk without touching the machine's. Needs
/// `unshare` and the right to mount (root, as CI is); where either is
/// missing, ``isAvailable`` is false and the tests that need it are skipped.
enum PrivateMount {
    static let unshare: String? = ["/usr/bin/unshare", "/bin/unshare"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// Whether a private tmpfs can be mounted here.
    static let isAvailable: Bool = {
        guard let probe = try? TemporaryDirectory("mount-probe") else { return false }
        return (try? run(mountPoint: probe.url, size: "64k", command: ["/bin/true"]))?.status == 0
    }()

    /// Mounts a tmpfs of `size` at `mountPoint` in a new mount namespace and
    /// runs `command` there; returns its exit status and standard output.
    static func run(mountPoint: URL, size: String, command: [String]) throws -> (status: Int32, output: String) {
        guard let unshare else { return (127, "") }
        // `unshare -m` makes mounts private to the new namespace: the tmpfs
        // vanishes with the process and is never seen outside it.
        let result = try ChildProcess.run(URL(fileURLWithPath: unshare), [
            "-m", "/bin/sh", "-c", "mount -t tmpfs -o size=\(size) tmpfs \"$1\" && shift && exec \"$@\"",
            "sh", mountPoint.path,
        ] + command)
        return (result.status, result.output.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
