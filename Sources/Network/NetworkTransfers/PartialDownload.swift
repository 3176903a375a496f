import CacheManifest
import Container
import Crypto
import FileSystem
import Foundation

/// The unfinished file of a download and what is known of its source, kept
/// in `Library/Caches/.partial/` under a name derived from the destination,
/// so a download killed at any moment resumes where it stopped at the next
/// attempt or the next launch. The source (URL, validator, size) is an
/// extended attribute of the part itself: one file created per download,
/// not two, and the part and what it came from can never disagree. Where
/// the file system keeps no extended attributes a part cannot be resumed
/// and is started again.
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

    /// The extended attribute that holds the part's ``Source`` (JSON).
    static let sourceAttribute = "user.com.sandbox.download-source"

    let container: AppContainer
    let url: URL
    let partPath: String

    init(container: AppContainer, url: URL, destination: String) {
        self.container = container
        self.url = url
        let key = ContentDigest.hex(SHA256.hash(data: Data(destination.utf8))).prefix(32)
        partPath = Self.directory + "/\(key).part"
    }

    /// The part, open for writing, with the bytes already there and their
    /// source; nil when there is nothing to resume (no part, another URL,
    /// no validator).
    func resumable() -> (handle: ContainerFileHandle, bytes: Int64, source: Source)? {
        guard let handle = try? container.openFileIfPresent(partPath, mode: .readWrite) else { return nil }
        guard let bytes = try? handle.extendedAttribute(Self.sourceAttribute),
              let source = try? JSONDecoder().decode(Source.self, from: Data(bytes)),
              source.url == url.absoluteString, source.validator != nil,
              let size = try? handle.size(), size > 0 else {
            handle.close()
            return nil
        }
        return (handle, Int64(size), source)
    }

    /// Starts the part again from byte 0 for `source`.
    func restart(with source: Source) throws -> ContainerFileHandle {
        let handle: ContainerFileHandle
        do { handle = try container.openFile(partPath, mode: .readWriteCreate) } catch {
            try container.createDirectory(Self.directory)
            handle = try container.openFile(partPath, mode: .readWriteCreate)
        }
        try handle.truncate(to: 0)
        // Without extended attributes the part still completes; it just
        // cannot be resumed.
        try? handle.setExtendedAttribute(Self.sourceAttribute, Array(try JSONEncoder().encode(source)))
        return handle
    }

    /// Forgets the part.
    func discard() {
        try? container.removeItem(partPath)
    }

    /// Flushes the part, moves it under its final name, and forgets its
    /// source.
    func complete(into destination: String, handle: ContainerFileHandle, durability: Durability) throws {
        try? handle.removeExtendedAttribute(Self.sourceAttribute)
        if durability != .none { try handle.synchronize() }
        handle.close()
        let parent = destination.split(separator: "/").dropLast().joined(separator: "/")
        if !parent.isEmpty, !container.fileExists(parent) { try container.createDirectory(parent) }
        try container.replaceItem(at: destination, withItemAt: partPath, durability: durability)
    }
}
