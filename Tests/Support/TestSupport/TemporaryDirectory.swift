import Foundation

/// A fresh directory under the system's temporary directory,
/// `sandbox-<label>-<UUID>`, removed when the last reference to it goes away.
public final class TemporaryDirectory: Sendable {
    /// The directory.
    public let url: URL

    /// Creates the directory; `label` goes into its name.
    public init(_ label: String = "test") throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("sandbox-\(label)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// `relative` inside the directory.
    public func file(_ relative: String) -> URL { url.appendingPathComponent(relative) }

    /// The path of `relative` inside the directory.
    public func path(_ relative: String) -> String { file(relative).path }

    /// Writes `data` to `name` inside the directory and returns its URL.
    @discardableResult
    public func write(_ data: Data, to name: String) throws -> URL {
        let file = file(name)
        try data.write(to: file)
        return file
    }

    /// The bytes of `name` inside the directory.
    public func read(_ name: String) throws -> Data {
        try Data(contentsOf: file(name))
    }

    /// Whether `name` exists inside the directory.
    public func contains(_ name: String) -> Bool {
        FileManager.default.fileExists(atPath: file(name).path)
    }
}
