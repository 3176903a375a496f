/// The name of a chunk: 64 lowercase hex digits, the HMAC-SHA256 of its
/// plaintext under the account's identity key.
///
/// The device derives the key from the account password, so two devices of
/// one account name identical content alike (and the service stores it
/// once), while the service, which never sees the key, learns nothing about
/// the content from the name, and two accounts never share a name.
public struct ChunkID: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    /// The 64 hex digits.
    public let hex: String

    /// A chunk id from its hex spelling; nil unless it is 64 lowercase hex digits.
    public init?(_ hex: String) {
        guard hex.utf8.count == 64, hex.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else {
            return nil
        }
        self.hex = hex
    }

    /// A chunk id from the 32 bytes of a digest.
    public init(digest: some Sequence<UInt8>) {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in digest {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        hex = String(decoding: text, as: UTF8.self)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let id = ChunkID(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a chunk id (64 lowercase hex digits): \(text.prefix(80))")
        }
        self = id
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(hex)
    }

    public static func < (lhs: ChunkID, rhs: ChunkID) -> Bool { lhs.hex < rhs.hex }
    public var description: String { hex }
}
