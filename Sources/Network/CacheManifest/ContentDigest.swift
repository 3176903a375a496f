import Container
import Crypto
import Foundation

/// SHA-256 of files in a container, read in chunks (a 100 MB download is
/// never held in memory).
public enum ContentDigest {
    /// The chunk size for reading.
    static let chunk = 1 << 20

    /// The lowercase hex SHA-256 of the file at `path`.
    public static func sha256(ofFileAt path: String, in container: AppContainer) throws -> String {
        let handle = try container.openFile(path)
        defer { handle.close() }
        var hasher = SHA256()
        var offset: UInt64 = 0
        while true {
            let data = try handle.read(at: offset, count: chunk)
            if data.isEmpty { break }
            hasher.update(data: data)
            offset += UInt64(data.count)
        }
        return hex(hasher.finalize())
    }

    /// The lowercase hex form of a digest.
    public static func hex(_ digest: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for byte in digest {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 15)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
