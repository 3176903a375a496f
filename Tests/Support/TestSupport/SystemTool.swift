import Foundation

/// A program from the system's packages that some tests need (`xmllint`,
/// `chromium`), and whether its absence may skip them.
///
/// On a developer's machine a missing tool skips its tests, with the
/// reason in the test's trait; under CI (`CI` set, as `.ci/run` and CI
/// runners set it) the tests run anyway and fail, so CI never passes by
/// skipping.
public enum SystemTool {
    /// The executable `name` on `PATH`, or nil.
    public static func locate(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").lazy
            .map { URL(fileURLWithPath: String($0)).appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Whether the tests needing `name` should run: the tool is installed,
    /// or this is CI, where its absence must fail them.
    public static func shouldRun(needing name: String) -> Bool {
        locate(name) != nil || isCI
    }

    /// Whether the environment variable `CI` is set (to anything but empty).
    public static var isCI: Bool { !(ProcessInfo.processInfo.environment["CI"] ?? "").isEmpty }

    /// Whether the Python module `module` imports (Pillow's is `PIL`).
    public static func pythonHasModule(_ module: String) -> Bool {
        (try? ChildProcess.python(["-c", "import \(module)"]).status) == 0
    }
}
