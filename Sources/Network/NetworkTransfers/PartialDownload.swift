import CacheManifest
import Container
import Crypto
import FileSystem
import Foundation

/// The unfinished file of a download and what is known of its source, kept
/// in `Library/Caches/.partial/` under a name derived from the destination,
/// so a download killed at any moment resumes where it stopped at the next
/// attempt or the next launch. Its source (``PartSource``) is an extended
/// attribute of the part itself: one file created per download, not two,
/// and the part and what it came from can never disagree. Where the file
/// system keeps no extended attributes a part cannot be resumed and is
/// started again.
///
/// The part is never under the final name: it moves there, in one
/// `rename`, only when complete and verified.
struct PartialDownload {
    static let directory = ContainerDirectory.caches.relativePath + "/.partial"

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
    func resumable() -> (handle: ContainerFileHandle, bytes: Int64, source: PartSource)? {
        guard let handle = try? container.openFileIfPresent(partPath, mode: .readWrite) else { return nil }
        guard let record = try? handle.extendedAttribute(PartSource.attribute),
              let source = PartSource(decoding: record), source.isFrom(url.absoluteString),
              let size = try? handle.size(), size > 0 else {
            handle.close()
            return nil
        }
        return (handle, Int64(size), source)
    }

    /// Starts the part again from byte 0 for the response's `source` (nil:
    /// it gave no validator, and the part cannot be resumed).
    func restart(with source: PartSource?) throws -> ContainerFileHandle {
        // Emptied by the open, not by a later truncation: a new part is not
        // truncated at all. (ext4 writes back at `close` any file cut to zero
        // bytes, `auto_da_alloc`; the part's writeback is started on purpose
        // instead, when it is complete: see `complete(into:handle:durability:)`.)
        let handle: ContainerFileHandle
        do { handle = try container.openFile(partPath, mode: .readWriteEmptied) } catch {
            try container.createDirectory(Self.directory)
            handle = try container.openFile(partPath, mode: .readWriteEmptied)
        }
        // Without extended attributes the part still completes; it just
        // cannot be resumed.
        if let source {
            try? handle.setExtendedAttribute(PartSource.attribute, source.encoded)
        } else {
            // An emptied part may still carry its last version's record.
            try? handle.removeExtendedAttribute(PartSource.attribute)
        }
        return handle
    }

    /// Forgets the part.
    func discard() {
        try? container.removeItem(partPath)
    }

    /// Flushes the part, moves it under its final name, and forgets its
    /// source.
    func complete(into destination: String, handle: ContainerFileHandle, durability: Durability) throws {
        try? handle.removeExtendedAttribute(PartSource.attribute)
        if durability != .none {
            try handle.synchronize()
        } else {
            // The batch is flushed once, after its last file. Starting each
            // file's writeback as it completes lets the disk write while the
            // others arrive, so that flush has little left to wait for
            // (docs/PERFORMANCE.md, issue 15).
            handle.startWriteback()
        }
        handle.close()
        let parent = destination.split(separator: "/").dropLast().joined(separator: "/")
        if !parent.isEmpty, !container.fileExists(parent) { try container.createDirectory(parent) }
        try container.replaceItem(at: destination, withItemAt: partPath, durability: durability)
    }
}
