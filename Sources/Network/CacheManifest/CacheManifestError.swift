/// A manifest operation failed: what, and where.
public struct CacheManifestError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kinds of failure.
    public enum Code: String, Sendable, Equatable, Codable {
        /// The database could not be opened, read or written.
        case database
        /// A file of the cache could not be read, moved or flagged.
        case file
        /// The manifest has no entry for the path or URL.
        case notRecorded
        /// A recorded path is not one the manifest may own (outside Caches
        /// and Application Support, or malformed).
        case invalidPath
    }

    public var code: Code
    /// The file or database concerned.
    public var path: String
    /// What went wrong, in words.
    public var message: String

    public init(_ code: Code, path: String, _ message: String) {
        self.code = code
        self.path = path
        self.message = message
    }

    public var description: String { "\(path): \(message)" }
}
