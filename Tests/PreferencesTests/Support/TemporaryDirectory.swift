import Foundation

/// A fresh directory under the system's temporary directory, removed when
/// the last copy goes away.
final class TemporaryDirectory: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("PreferencesTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// `name` inside the directory.
    func file(_ name: String) -> URL { url.appendingPathComponent(name) }
}
