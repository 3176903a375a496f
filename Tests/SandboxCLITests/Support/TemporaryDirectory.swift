import Foundation

/// A fresh directory under the system's temporary directory, removed when
/// the last copy of this value goes away.
final class TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("SandboxCLITests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// Writes `data` to `name` inside the directory and returns its URL.
    @discardableResult
    func write(_ data: Data, to name: String) throws -> URL {
        let file = url.appendingPathComponent(name)
        try data.write(to: file)
        return file
    }

    /// The bytes of `name` inside the directory.
    func read(_ name: String) throws -> Data {
        try Data(contentsOf: url.appendingPathComponent(name))
    }

    /// Whether `name` exists inside the directory.
    func contains(_ name: String) -> Bool {
        FileManager.default.fileExists(atPath: url.appendingPathComponent(name).path)
    }
}
