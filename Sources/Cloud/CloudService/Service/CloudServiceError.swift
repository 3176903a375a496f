import CloudProtocol
import CodedErrors

/// A request the service refuses or cannot serve: a stable code (which
/// fixes the HTTP status), a sentence, and the figures a device needs; a
/// storage failure behind it is kept as its cause (never sent to a client).
public struct CloudServiceError: Error, Sendable, Hashable, CustomStringConvertible, CausedError, ClassifiedError {
    public enum Code: String, Sendable, Hashable {
        case badRequest, unauthorized, notFound, methodNotAllowed, conflict, quotaExceeded, tooLarge, missingChunks, tooManyRequests, unavailable
        case `internal`

        /// The HTTP status the code is answered with.
        public var status: Int {
            switch self {
            case .badRequest: 400
            case .unauthorized: 401
            case .notFound: 404
            case .methodNotAllowed: 405
            case .conflict, .missingChunks: 409
            case .tooLarge: 413
            case .tooManyRequests: 429
            case .quotaExceeded: 507
            case .unavailable: 503
            case .internal: 500
            }
        }
    }

    public var code: Code
    public var message: String
    public var usedBytes: Int64?
    public var quotaBytes: Int64?
    public var neededBytes: Int64?
    public var missing: [ChunkID]?
    /// For `tooManyRequests`: seconds before a retry can succeed (the `Retry-After` header).
    public var retryAfter: Int?
    /// The storage failure behind the refusal, if any: kept, not compared.
    @UncomparedCause public var underlying: (any Error)? = nil

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The refusal of an upload that would pass the quota.
    public static func quotaExceeded(used: Int64, quota: Int64, needed: Int64) -> CloudServiceError {
        var error = CloudServiceError(.quotaExceeded, "iCloud storage is full: \(used) of \(quota) bytes used, "
                                      + "and this upload needs \(needed) more; the last snapshot is kept")
        error.usedBytes = used
        error.quotaBytes = quota
        error.neededBytes = needed
        return error
    }

    /// A storage failure, as the device should see it: the engine is
    /// unavailable (retry later) or something is wrong on the server. The
    /// storage error is kept as the cause, so the server can still tell a
    /// full disk (`isDiskFull`) from an engine that is down.
    public init(_ error: CloudStorageError) {
        switch error.code {
        // The message goes to the client: it says what failed, never the
        // engine's words, paths or keys (those stay in the cause, for the log).
        case .unavailable, .full: self.init(.unavailable, "storage is unavailable; try again later")
        case .notFound: self.init(.notFound, "not found in storage")
        default: self.init(.internal, "storage failed")
        }
        underlying = error
    }

    /// The JSON body the service answers with.
    public var body: ServiceErrorBody {
        ServiceErrorBody(code: code.rawValue, message: message, usedBytes: usedBytes, quotaBytes: quotaBytes,
                         neededBytes: neededBytes, missing: missing)
    }

    /// The code and message, then the storage failure behind them (for
    /// the server's log; a client gets ``body``).
    public var description: String { "\(code.rawValue): \(message)" + (underlying.map { " (\($0))" } ?? "") }

    /// ``Code/quotaExceeded`` is an exhausted quota.
    public var failureKind: FailureKind? { code == .quotaExceeded ? .overQuota : nil }
}
