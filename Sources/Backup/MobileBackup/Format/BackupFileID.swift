import Crypto
import Foundation

/// The name iOS gives every backed-up path: the lower-case hex SHA-1 of
/// `domain + "-" + relativePath` (UTF-8), used as the Files row key and as
/// the payload's file name under a directory named by its first two digits.
public enum BackupFileID {
    /// The fileID of `relativePath` in `domain`.
    public static func make(domain: String, relativePath: String) -> String {
        var hasher = Insecure.SHA1()
        hasher.update(data: Data(domain.utf8))
        hasher.update(data: Data("-".utf8))
        hasher.update(data: Data(relativePath.utf8))
        return hex(hasher.finalize())
    }

    /// The payload's path inside the backup directory: `xx/<fileID>`.
    public static func payloadPath(_ fileID: String) -> String {
        "\(fileID.prefix(2))/\(fileID)"
    }

    /// Whether `name` has the shape of a fileID (40 lower-case hex digits).
    static func isFileID(_ name: String) -> Bool {
        name.utf8.count == 40 && name.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    static func hex<D: Sequence>(_ bytes: D) -> String where D.Element == UInt8 {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(40)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
