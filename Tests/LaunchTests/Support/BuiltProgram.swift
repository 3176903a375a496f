import Foundation

/// Executables of this build that the tests launch.
enum BuiltProgram {
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The built program `name`, or nil if it was not built.
    static func url(_ name: String) -> URL? {
        [
            Bundle.main.bundleURL.appendingPathComponent(name),
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent(name),
            Bundle.main.executableURL?.deletingLastPathComponent().appendingPathComponent(name),
            packageRoot.appendingPathComponent(".build/debug/\(name)"),
        ].compactMap { $0 }.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    static var trampoline: URL? { url("sandbox-confine") }
    static var escapeProbe: URL? { url("escape-probe") }
}
