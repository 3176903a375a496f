import CodedErrors

/// An audit could not read what it measures: a ``StorageAuditErrorCode``,
/// the path concerned (a container, a bundle, a file), and what went wrong
/// in words (described `<path>: <message>`).
public typealias StorageAuditError = CodedError<StorageAuditErrorCode>

/// The kinds of failure of a ``StorageAuditError``.
public enum StorageAuditErrorCode: String, ErrorCode, Codable {
    /// A container, bundle or file could not be opened or walked.
    case unreadable
    /// The app asked for is not installed on the device.
    case appNotInstalled
}
