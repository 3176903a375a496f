import CacheManifest
import NetworkConditions

/// What a re-fetch of missing cached files did.
public struct RefetchReport: Sendable, Equatable {
    /// A file that could not be fetched, and why.
    public struct Failure: Sendable, Equatable {
        public var path: String
        public var url: String
        public var error: NetworkError
    }

    /// Files fetched again, by path.
    public var fetched: [String] = []
    /// Changed files whose content still matched (kept, not fetched).
    public var confirmed: [String] = []
    /// Files still missing, with the reason.
    public var failures: [Failure] = []
    /// Bytes received.
    public var bytes: Int64 = 0
    /// When the device had no network: why. Nothing was attempted.
    public var unavailable: NetworkUnavailable.Reason?

    public init() {}

    /// Whether every file is back.
    public var isComplete: Bool { failures.isEmpty && unavailable == nil }
}

/// Where a re-fetch is.
public struct RefetchProgress: Sendable, Equatable {
    /// Files done (fetched, confirmed or failed) and in all.
    public var done: Int
    public var total: Int
    public var bytes: Int64
}
