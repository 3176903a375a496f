/// Every error the service answers: a stable code, a sentence, and for a
/// quota refusal the figures.
public struct ServiceErrorBody: Codable, Sendable, Hashable {
    /// A stable code: `badRequest`, `unauthorized`, `notFound`,
    /// `methodNotAllowed`, `conflict`,
    /// `quotaExceeded`, `tooLarge`, `missingChunks`, `tooManyRequests`,
    /// `unavailable`, `internal`.
    public var code: String
    public var message: String
    /// For `quotaExceeded`: the account's usage and quota, and the bytes
    /// the refused upload needed.
    public var usedBytes: Int64?
    public var quotaBytes: Int64?
    public var neededBytes: Int64?
    /// For `missingChunks`: what the commit named that is not stored.
    public var missing: [ChunkID]?

    public init(code: String, message: String, usedBytes: Int64? = nil, quotaBytes: Int64? = nil, neededBytes: Int64? = nil,
                missing: [ChunkID]? = nil) {
        self.code = code
        self.message = message
        self.usedBytes = usedBytes
        self.quotaBytes = quotaBytes
        self.neededBytes = neededBytes
        self.missing = missing
    }
}

/// Limits both sides agree on.
public enum CloudLimits {
    /// The largest chunk the service accepts (a 1 MiB plaintext chunk plus
    /// AES-GCM's nonce and tag fits with room).
    public static let maximumChunkBytes = 4 * 1024 * 1024
    /// The plaintext size the device cuts files into.
    public static let chunkBytes = 1024 * 1024
    /// The most chunk ids one `known` or `commit` request may name.
    public static let maximumChunksPerRequest = 100_000
    /// The default quota: iCloud's free 5 GB.
    public static let defaultQuotaBytes: Int64 = 5_000_000_000
}
