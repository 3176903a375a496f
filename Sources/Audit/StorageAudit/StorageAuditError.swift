/// An audit could not read what it measures: what, and where.
public struct StorageAuditError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kinds of failure.
    public enum Code: String, Sendable, Equatable, Codable {
        /// A container, bundle or file could not be opened or walked.
        case unreadable
        /// The app asked for is not installed on the device.
        case appNotInstalled
    }

    public var code: Code
    /// The path concerned (a container, a bundle, a file).
    public var path: String
    /// What went wrong, in words.
    public var message: String

    public init(_ code: Code, path: String, _ message: String) {
        self.code = code
        self.path = path
        self.message = message
    }

    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}
