import CacheManifest
import Container
import Crypto
import FileSystem
import Foundation

/// The unfinished file of a download and what is known of its source, kept
/// in `Library/Caches/.partial/` under a name derived from the destination,
/// so a download killed at any moment resumes where it stopped at the next
/// attempt or the next launch.
///
/// The part is never under the final name: it moves there, in one
/// `rename`, only when complete and verified.
struct PartialDownload {
    static let directory = ContainerDirectory.caches.relativePath + "/.partial"

    /// What the part's bytes came from: resuming is allowed only from the
    /// same URL and the same version (validator) of the resource.
    struct Source: Codable, Equatable {
        var url: String
        var etag: String?
        var lastModified: String?
        var total: Int64?

        /// The `If-Range` value: a strong ETag, else the date.
        var validator: String? {
            if let etag, !etag.hasPrefix("W/") { return etag }
            return lastModified
        }
    }

    let container: AppContainer
    let url: URL
    let partPath: String
    let sourcePath: String

    init(container: AppContainer, url: URL, destination: String) {
        self.container = container
        self.url = url
        let key = ContentDigest.hex(SHA256.hash(data: Data(destination.utf8))).prefix(32)
        partPath = Self.directory + "/\(key).part"
        sourcePath = Self.directory + "/\(key).source"
    }

    /// The bytes already there and their source, or nil when there is
    /// nothing to resume (no part, another URL, no validator).
    func resumable() -> (bytes: Int64, source: Source)? {
        guard let data = try? container.read(sourcePath),
              let source = try? JSONDecoder().decode(Source.self, from: data),
              source.url == url.absoluteString, source.validator != nil,
              let info = try? container.attributes(partPath), !info.isDirectory, info.size > 0 else { return nil }
        return (Int64(info.size), source)
    }

    /// Starts the part again from byte 0 for `source`.
    func restart(with source: Source) throws -> ContainerFileHandle {
        if !container.fileExists(Self.directory) { try container.createDirectory(Self.directory) }
        try container.writeAtomically(try JSONEncoder().encode(source), to: sourcePath, durability: .none)
        let handle = try container.openFile(partPath, mode: .readWriteCreate)
        try handle.truncate(to: 0)
        return handle
    }

    /// Opens the part to go on writing at its end.
    func reopen() throws -> ContainerFileHandle {
        try container.openFile(partPath, mode: .readWrite)
    }

    /// Forgets the part and its source.
    func discard() {
        try? container.removeItem(partPath)
        try? container.removeItem(sourcePath)
    }

    /// Flushes the part, moves it under its final name, and forgets its
    /// source.
    func complete(into destination: String, handle: ContainerFileHandle, durability: Durability) throws {
        if durability != .none { try handle.synchronize() }
        handle.close()
        let parent = destination.split(separator: "/").dropLast().joined(separator: "/")
        if !parent.isEmpty, !container.fileExists(parent) { try container.createDirectory(parent) }
        try container.replaceItem(at: destination, withItemAt: partPath, durability: durability)
        try? container.removeItem(sourcePath)
    }
}
