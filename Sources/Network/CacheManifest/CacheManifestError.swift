import CodedErrors

/// A manifest operation failed: a ``CacheManifestErrorCode``, the file or
/// database concerned, and what went wrong in words (described
/// `<path>: <message>`).
public typealias CacheManifestError = CodedError<CacheManifestErrorCode>

/// The kinds of failure of a ``CacheManifestError``.
public enum CacheManifestErrorCode: String, ErrorCode, Codable {
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
