import Foundation

/// A fresh directory under the system's temporary directory, removed when
/// the value is released.
final class TemporaryDirectory {
    let url: URL

    init(_ label: String = "device") {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("sandbox-\(label)-\(UUID().uuidString)", isDirectory: true)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func path(_ relative: String) -> String { url.appendingPathComponent(relative).path }
}
