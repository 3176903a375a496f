import Container
import Crypto
import FileSystem
import Foundation
import SystemPackage

/// SHA-256 of files in a container, read in chunks (a 100 MB download is
/// never held in memory).
public enum ContentDigest {
    /// The chunk size for reading.
    static let chunk = 1 << 20

    /// The lowercase hex SHA-256 of the regular file at `path`, for a name
    /// the manifest recorded (which whoever writes the container controls):
    /// the name is opened without following a link and without blocking,
    /// so a link is not followed and a FIFO or device never holds the
    /// caller, and anything but a regular file is refused by name.
    public static func sha256(ofRegularFileAt path: String, in container: AppContainer) throws(CacheManifestError) -> String {
        let slash = path.lastIndex(of: "/")
        let parent = slash.map { String(path[..<$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        do {
            return try container.withDirectory(parent) { held in
                guard let held else { throw CacheManifestError(.file, path: path, "its directory \(parent) is missing") }
                let fd = try held.open(name, .readOnly, options: [.noFollow, .nonBlocking])
                defer { fd.closeQuietly() }
                guard try fd.status().isRegularFile else {
                    throw CacheManifestError(.file, path: path, "not a regular file; not read")
                }
                var hasher = SHA256()
                var offset: UInt64 = 0
                while true {
                    let data = try fd.read(count: chunk, at: offset)
                    if data.isEmpty { break }
                    hasher.update(data: data)
                    offset += UInt64(data.count)
                }
                return hex(hasher.finalize())
            }
        } catch let error as CacheManifestError {
            throw error
        } catch {
            throw CacheManifestError(.file, path: path, "cannot read").caused(by: error)
        }
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
