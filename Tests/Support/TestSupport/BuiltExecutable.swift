import Foundation

/// Finds an executable of this build (the `sandbox` tool, or a helper such as
/// `container-crash-writer`) for tests that start it as another process.
///
/// SwiftPM puts products beside the test bundle; where the bundle layout
/// differs (an `.xctest` directory, or tests run from another tool), the
/// package's own `.build/debug` is the last place to look.
public enum BuiltExecutable {
    /// The package root: four levels above this file
    /// (`Tests/Support/TestSupport/BuiltExecutable.swift`).
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The executable product `name`, or nil if it was not built.
    public static func locate(_ name: String) -> URL? {
        [
            Bundle.main.bundleURL.appendingPathComponent(name),
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent(name),
            Bundle.main.executableURL?.deletingLastPathComponent().appendingPathComponent(name),
            packageRoot.appendingPathComponent(".build/debug/\(name)"),
        ].compactMap { $0 }.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }
}
