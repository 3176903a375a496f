import FileSystem
import Foundation

/// Finds the `sandbox-confine` program: `$SANDBOX_CONFINE`, else beside the
/// running program (where SwiftPM builds and installs put it, next to
/// `sandbox`), else one directory up (test bundles), else on `$PATH`.
public enum TrampolineLocator {
    /// The trampoline's file name.
    public static let name = "sandbox-confine"

    /// The trampoline to use.
    /// - Throws: ``LaunchError`` ``LaunchErrorCode/trampolineNotFound``.
    public static func locate() throws -> URL {
        let environment = ProcessInfo.processInfo.environment
        var candidates: [URL] = []
        if let explicit = environment["SANDBOX_CONFINE"], !explicit.isEmpty {
            candidates.append(URL(fileURLWithPath: explicit))
        }
        if let program = runningProgram() {
            let directory = program.deletingLastPathComponent()
            candidates.append(directory.appendingPathComponent(name))
            candidates.append(directory.deletingLastPathComponent().appendingPathComponent(name))
        }
        for directory in (environment["PATH"] ?? "").split(separator: ":") {
            candidates.append(URL(fileURLWithPath: String(directory)).appendingPathComponent(name))
        }
        guard let found = candidates.first(where: { FileSystemPaths.isExecutable(atPath: $0.path) }) else {
            throw LaunchError(.trampolineNotFound, path: name,
                              "cannot find the confinement trampoline (build it, or set SANDBOX_CONFINE)")
        }
        return found
    }

    /// The running program with every link resolved: `/proc/self/exe` names
    /// it so on Linux (a `swift run` or an installed link leads to the
    /// build directory, where the trampoline sits beside it).
    private static func runningProgram() -> URL? {
        #if os(Linux)
        if let path = try? FileSystemPaths.readLink(atPath: "/proc/self/exe") { return URL(fileURLWithPath: path) }
        #endif
        return Bundle.main.executableURL
    }
}
