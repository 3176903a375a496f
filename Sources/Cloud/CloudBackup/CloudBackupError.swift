import CloudProtocol
import CodedErrors

/// A device-side iCloud backup failure: a code (``CloudBackupErrorCode``),
/// what went wrong and where, and for the service's refusals its answer.
public typealias CloudBackupError = CodedError<CloudBackupErrorCode>

/// The kinds of failure of a ``CloudBackupError``.
public enum CloudBackupErrorCode: String, ErrorCode {
    public typealias Context = CloudBackupErrorContext

    /// A bad argument: an empty password, a malformed key or URL.
    case badInput
    /// The device is not signed in to iCloud backup.
    case notSignedIn
    /// iOS backs up only when the device is locked, on power and on Wi-Fi.
    case conditionsNotMet
    /// The service could not be reached, or the connection dropped.
    case network
    /// The account or token was refused.
    case unauthorized
    /// The upload would pass the account's quota; the last snapshot is kept.
    case quotaExceeded
    /// The service refused or failed the request otherwise.
    case service
    /// No snapshot to restore.
    case noSnapshot
    /// A chunk or manifest does not decrypt or does not match its name.
    case damagedChunk
    /// A local file could not be read or written.
    case io

    /// The message alone.
    public static func describe(_ error: CloudBackupError) -> String { error.message }

    /// ``quotaExceeded`` is ``CodedErrors/FailureKind/overQuota``.
    public var failureKind: FailureKind? { self == .quotaExceeded ? .overQuota : nil }
}

/// The service's answer behind a ``CloudBackupError``, when it answered.
public struct CloudBackupErrorContext: Hashable, Sendable {
    /// The service's error body, when it answered one.
    public var serviceError: ServiceErrorBody?
    /// The HTTP status, when the service answered.
    public var status: Int?
}

extension CloudBackupError {
    /// Creates an error.
    public init(_ code: Code, _ message: String, serviceError: ServiceErrorBody? = nil, status: Int? = nil) {
        self.init(code, message, context: CloudBackupErrorContext(serviceError: serviceError, status: status))
    }
}
