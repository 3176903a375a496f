import CodedErrors

/// A failure of the service's storage: the chunk store or the ledger, with
/// the engine's own error as its cause when there was one.
public struct CloudStorageError: Error, Sendable, Hashable, CustomStringConvertible, CausedError, ClassifiedError {
    public enum Code: String, Sendable, Hashable {
        /// No object under the key, or no row where one was required.
        case notFound
        /// The engine could not be reached, or dropped the connection.
        case unavailable
        /// The engine refused the request (authentication, permissions).
        case refused
        /// The engine answered something this code does not understand.
        case protocolError
        /// A local file-system call failed.
        case io
        /// The disk or the engine is full.
        case full
        /// A constraint the ledger relies on was violated.
        case constraint
    }

    public var code: Code
    /// What was being done: "put 12/ab/abcd….3", "BEGIN".
    public var operation: String
    /// The engine's own words.
    public var detail: String
    /// The engine's or the file system's error, when there was one: kept,
    /// not compared.
    @UncomparedCause public var underlying: (any Error)? = nil

    public init(_ code: Code, _ operation: String, _ detail: String, underlying: (any Error)? = nil) {
        self.code = code
        self.operation = operation
        self.detail = detail
        self.underlying = underlying
    }

    public var description: String { "\(operation): \(detail) (\(code.rawValue))" }

    /// ``Code/full`` is a full disk or engine.
    public var failureKind: FailureKind? { code == .full ? .noSpace : nil }
}
