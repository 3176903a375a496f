import CloudProtocol

/// A device-side iCloud backup failure: a code, what went wrong and where,
/// and for the service's refusals its answer.
public struct CloudBackupError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Code: String, Sendable, Hashable {
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
    }

    public var code: Code
    public var message: String
    /// The service's error body, when it answered one.
    public var serviceError: ServiceErrorBody?
    /// The HTTP status, when the service answered.
    public var status: Int?

    public init(_ code: Code, _ message: String, serviceError: ServiceErrorBody? = nil, status: Int? = nil) {
        self.code = code
        self.message = message
        self.serviceError = serviceError
        self.status = status
    }

    public var description: String { message }
}
