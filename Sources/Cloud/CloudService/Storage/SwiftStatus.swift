/// What an HTTP status from Swift's proxy means for the chunk store.
enum SwiftStatus {
    /// The error for `status`: 404 notFound, 401/403 refused (a wrong key,
    /// or a token the proxy no longer knows), 413/507 full (an account
    /// quota, a full disk), 5xx unavailable (too few nodes answered), other
    /// answers protocolError.
    static func error(_ status: Int, _ operation: String, _ detail: String) -> CloudStorageError {
        let code: CloudStorageError.Code = switch status {
        case 404: .notFound
        case 401, 403: .refused
        case 413, 507: .full
        case 408, 429, 499, 500...: .unavailable
        default: .protocolError
        }
        return CloudStorageError(code, operation, detail)
    }

    /// Whether the same request may succeed when sent again: a timeout, a
    /// rate limit, a 5xx (a node killed, the proxy's quorum not reached),
    /// or 422 (the body arrived damaged: its MD5 did not match the ETag).
    static func isTransient(_ status: Int) -> Bool {
        switch status {
        case 408, 422, 429, 499: true
        case 507: false
        case 500...: true
        default: false
        }
    }
}
