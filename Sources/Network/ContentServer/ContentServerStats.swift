/// What the content server has answered since it started (or since the
/// last reset): tests read it to prove, say, that a POST was sent once.
public struct ContentServerStats: Codable, Sendable, Equatable {
    /// Requests by `"METHOD /path"`.
    public var requests: [String: Int] = [:]
    /// Requests that carried a `Range` header.
    public var rangeRequests: Int = 0
    /// Faults injected, by kind.
    public var faultsInjected: [String: Int] = [:]
    /// Body bytes sent.
    public var bodyBytes: Int = 0

    public init() {}

    /// The number of requests with `method` for `path`.
    public func count(_ method: String, _ path: String) -> Int { requests["\(method) \(path)"] ?? 0 }
}
