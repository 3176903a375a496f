import Crypto

/// What a part's bytes came from, kept as the part's extended attribute:
/// the `If-Range` validator to ask for the rest with, and digests of the
/// URL and of the version, to tell from the response's head whether the
/// rest belongs to the same resource and version. A part is continued only
/// then; otherwise it starts again from byte 0, so two versions are never
/// spliced.
///
/// Why digests and not the URL and the headers themselves: ext4 keeps an
/// extended attribute inside the inode only while it fits the inode's
/// spare bytes (60 bytes for this name with 256-byte inodes). A larger one
/// (the URL, ETag and date as JSON were about 150 bytes) takes a 4 KiB
/// block of its own, allocated when each download starts and freed when it
/// completes: a cost of every download, for the few that are interrupted
/// (docs/PERFORMANCE.md, issue 15). The record is 17 bytes and the
/// validator: 46 bytes with an HTTP date.
struct PartSource: Equatable {
    /// The extended attribute of the part that holds the record.
    static let attribute = "user.sandbox.part"
    /// The record's first byte; a record of another layout is not read
    /// (the part then starts again).
    private static let layout: UInt8 = 1
    private static let digestLength = 8

    /// The `If-Range` value: a strong ETag, else the date.
    let validator: String
    /// The first bytes of the SHA-256 of the URL.
    let urlDigest: [UInt8]
    /// The first bytes of the SHA-256 of the version: the ETag, or the
    /// date when there is no ETag.
    let versionDigest: [UInt8]

    /// The source of a response; nil when it gives no validator (a weak
    /// ETag and no date): such a part cannot be resumed.
    init?(url: String, etag: String?, lastModified: String?) {
        guard let validator = Self.validator(etag: etag, lastModified: lastModified) else { return nil }
        self.validator = validator
        urlDigest = Self.digest(url)
        versionDigest = Self.versionDigest(etag: etag, lastModified: lastModified)
    }

    /// Reads a record written by ``encoded``; nil for anything else.
    init?(decoding bytes: [UInt8]) {
        let header = 1 + 2 * Self.digestLength
        guard bytes.count > header, bytes[0] == Self.layout,
              let validator = String(validating: bytes[header...], as: UTF8.self) else { return nil }
        self.validator = validator
        urlDigest = Array(bytes[1...Self.digestLength])
        versionDigest = Array(bytes[(1 + Self.digestLength)..<header])
    }

    /// The record: the layout byte, the two digests, the validator's bytes.
    var encoded: [UInt8] { [Self.layout] + urlDigest + versionDigest + Array(validator.utf8) }

    /// Whether the part came from `url`.
    func isFrom(_ url: String) -> Bool { urlDigest == Self.digest(url) }

    /// Whether a response with these validators is the part's version.
    func isSameVersion(etag: String?, lastModified: String?) -> Bool {
        versionDigest == Self.versionDigest(etag: etag, lastModified: lastModified)
    }

    /// A strong ETag, else the date: a weak ETag is not allowed in `If-Range`.
    private static func validator(etag: String?, lastModified: String?) -> String? {
        if let etag, !etag.hasPrefix("W/") { return etag }
        return lastModified
    }

    private static func versionDigest(etag: String?, lastModified: String?) -> [UInt8] {
        // The prefix keeps an ETag and a date of the same spelling apart.
        if let etag { return digest("E" + etag) }
        return digest("L" + (lastModified ?? ""))
    }

    private static func digest(_ text: String) -> [UInt8] {
        Array(SHA256.hash(data: Array(text.utf8)).prefix(digestLength))
    }
}
