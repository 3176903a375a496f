import Foundation

/// Finds the `sandbox-confine` program: `$SANDBOX_CONFINE`, else beside the
/// running program (where SwiftPM builds and installs put it, next to
/// `sandbox`), else one directory up (test bundles), else on `$PATH`.
public enum TrampolineLocator {
    /// The trampoline's file name.
    public static let name = "sandbox-confine"

    /// The trampoline to use.
    /// - Throws: ``LaunchError`` ``LaunchError/Code-swift.enum/trampolineNotFound``.
    public static func locate() throws -> URL {
        let environment = ProcessInfo.processInfo.environment
        var candidates: [URL] = []
        if let explicit = environment["SANDBOX_CONFINE"], !explicit.isEmpty {
            candidates.append(URL(fileURLWithPath: explicit))
        }
        if let program = Bundle.main.executableURL?.resolvingSymlinksInPath() {
            let directory = program.deletingLastPathComponent()
            candidates.append(directory.appendingPathComponent(name))
            candidates.append(directory.deletingLastPathComponent().appendingPathComponent(name))
        }
        for directory in (environment["PATH"] ?? "").split(separator: ":") {
            candidates.append(URL(fileURLWithPath: String(directory)).appendingPathComponent(name))
        }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw LaunchError(.trampolineNotFound, path: name,
                              "cannot find the confinement trampoline (build it, or set SANDBOX_CONFINE)")
        }
        return found
    }
}
