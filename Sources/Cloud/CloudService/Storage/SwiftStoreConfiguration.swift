/// Where and how ``SwiftObjectStore`` reaches an OpenStack Swift cluster.
///
/// The four connection fields are those of the `"swift"` object in the
/// distributed stack's `stack.json` (`scripts/distributed-stack`), so that
/// object decodes into this type; the tuning fields take their defaults
/// when absent.
///
/// ```swift
/// let configuration = SwiftStoreConfiguration(
///     authURL: "http://127.0.0.1:8080/auth/v1.0", user: "sandbox:cloud", key: "secret", container: "chunks")
/// ```
public struct SwiftStoreConfiguration: Sendable, Hashable, Codable {
    /// Tempauth's (or any v1 auth's) URL, `http://host:port/auth/v1.0`.
    public var authURL: String
    /// `account:user`, sent as `X-Auth-User`.
    public var user: String
    /// The user's key, sent as `X-Auth-Key`.
    public var key: String
    /// The container that holds the chunks; created on first use.
    public var container: String
    /// The longest one HTTP exchange may take, in seconds (a 4 MiB object
    /// through three replicas on a loaded machine takes well under one).
    public var requestTimeout: Double
    /// Attempts in all for one operation, the first included: connection
    /// failures and 5xx answers (a storage node killed mid-backup, a proxy
    /// restarting) are tried again.
    public var maxAttempts: Int
    /// The back-off before the second attempt, in seconds; it doubles after
    /// each failure, up to ``maxDelay``, with full jitter.
    public var baseDelay: Double
    /// The largest pause between two attempts, in seconds.
    public var maxDelay: Double
    /// The largest object ``SwiftObjectStore/get(_:)`` reads, in bytes.
    public var maxObjectBytes: Int
    /// Names asked for per listing page (Swift's own limit is 10,000).
    public var listingPageSize: Int

    public init(authURL: String, user: String, key: String, container: String,
                requestTimeout: Double = 30, maxAttempts: Int = 6, baseDelay: Double = 0.1, maxDelay: Double = 2,
                maxObjectBytes: Int = 64 << 20, listingPageSize: Int = 10_000) {
        self.authURL = authURL
        self.user = user
        self.key = key
        self.container = container
        self.requestTimeout = requestTimeout
        self.maxAttempts = maxAttempts
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.maxObjectBytes = maxObjectBytes
        self.listingPageSize = listingPageSize
    }

    private enum CodingKeys: String, CodingKey {
        case authURL, user, key, container, requestTimeout, maxAttempts, baseDelay, maxDelay, maxObjectBytes, listingPageSize
    }

    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = SwiftStoreConfiguration(authURL: "", user: "", key: "", container: "")
        self.init(
            authURL: try values.decode(String.self, forKey: .authURL),
            user: try values.decode(String.self, forKey: .user),
            key: try values.decode(String.self, forKey: .key),
            container: try values.decode(String.self, forKey: .container),
            requestTimeout: try values.decodeIfPresent(Double.self, forKey: .requestTimeout) ?? defaults.requestTimeout,
            maxAttempts: try values.decodeIfPresent(Int.self, forKey: .maxAttempts) ?? defaults.maxAttempts,
            baseDelay: try values.decodeIfPresent(Double.self, forKey: .baseDelay) ?? defaults.baseDelay,
            maxDelay: try values.decodeIfPresent(Double.self, forKey: .maxDelay) ?? defaults.maxDelay,
            maxObjectBytes: try values.decodeIfPresent(Int.self, forKey: .maxObjectBytes) ?? defaults.maxObjectBytes,
            listingPageSize: try values.decodeIfPresent(Int.self, forKey: .listingPageSize) ?? defaults.listingPageSize)
    }

    /// The pause before attempt `attempt + 1`: a random value up to the
    /// exponential back-off, so servers that failed together do not retry
    /// together.
    func backoff(afterAttempt attempt: Int) -> Double {
        let ceiling = min(maxDelay, baseDelay * Double(1 << min(max(attempt - 1, 0), 20)))
        return Double.random(in: 0...max(ceiling, 0))
    }
}
