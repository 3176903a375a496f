import Foundation
import SystemPackage

/// What an atomic replace promises about power loss. All three are atomic
/// for readers and for a crash of the process: a reader sees the whole old
/// file or the whole new one.
public enum Durability: Sendable, Hashable {
    /// No flush: the replace survives a crash of the process, not
    /// necessarily a power loss (after which the old or, on some file
    /// systems, an empty file may be found). Where the new file replaces an
    /// old one, the names are swapped (`RENAME_EXCHANGE`) and the old file
    /// removed, which skips the writeback ext4 starts on a replacing rename.
    case none
    /// The file is flushed before the rename, as Foundation's
    /// `Data.write(options: .atomic)` does; the rename itself is not flushed,
    /// so after a power loss the old file may be found, but never a torn one.
    case fileOnly
    /// The file is flushed, renamed, and the directory flushed: after the
    /// call returns, the new file survives a power loss.
    case full
}

/// How ``FileDescriptor/replaceAtomically(_:options:_:)`` writes.
public struct AtomicWriteOptions: Sendable, Hashable {
    /// What the replace promises about power loss.
    public var durability: Durability
    /// The new file's permission bits; nil keeps those of the file it
    /// replaces, or `0o644` for a new file.
    public var permissions: UInt32?
    /// Whether the replaced file's `user.` extended attributes (the
    /// do-not-back-up flag among them) carry over to the new one.
    public var keepsExtendedAttributes: Bool
    /// Whether an existing file is replaced; false makes an existing name
    /// an `EEXIST` error (a copy that must not overwrite).
    public var replacesExisting: Bool

    public init(durability: Durability = .full, permissions: UInt32? = nil,
                keepsExtendedAttributes: Bool = false, replacesExisting: Bool = true) {
        self.durability = durability
        self.permissions = permissions
        self.keepsExtendedAttributes = keepsExtendedAttributes
        self.replacesExisting = replacesExisting
    }
}

extension FileDescriptor {
    /// The prefix of the temporary files an atomic replace makes, so a sweep
    /// can tell a dead writer's leftovers: `.sb-<random>.tmp`.
    public static let temporaryPrefix = ".sb-"
    /// The suffix of those temporary files.
    public static let temporarySuffix = ".tmp"

    /// Replaces `name` in this directory with a file that `fill` writes, so
    /// that readers, and the disk after a crash, see either the whole old
    /// file or the whole new one (``Durability`` says after what kind of
    /// crash). The bytes go to a temporary file beside `name`, which is
    /// renamed over it; the temporary file never survives a failure. `fill`
    /// gets the new file open for writing and must not close it.
    ///
    /// This is the package's one atomic write: every module's file
    /// replacement goes through it.
    public func replaceAtomically(_ name: String, options: AtomicWriteOptions = AtomicWriteOptions(),
                                  _ fill: (FileDescriptor) throws(FileSystemError) -> Void) throws(FileSystemError) {
        var mode = options.permissions ?? 0o644
        // The file being replaced, held open (path only, never through a
        // link) until the new one has taken its name. Freeing its blocks is
        // then not part of the rename: on a file system mounted with
        // `discard` that is a synchronous discard of every block, as costly
        // as one of the flushes. The hold is released off the caller's
        // thread (``ReplacedFiles``) once the name is the new file's, so the
        // caller still finds nothing of the old file in the directory.
        let replaced = options.replacesExisting
            ? try? open(name, .readOnly, options: [.pathOnly, .noFollow, .nonBlocking]) : nil
        var previous: FileDescriptor?
        var renamed = false
        defer {
            for hold in [replaced, previous] {
                guard let hold else { continue }
                if renamed { ReplacedFiles.release(hold) } else { hold.closeQuietly() }
            }
        }
        // The held file's own status saves a lookup by name. It is read
        // whatever the options: a device, a FIFO or a socket is never
        // renamed over (see ``FileStatus/isSpecialFile``).
        // Without a hold (nothing there, on Linux) a lookup is made only
        // when the options need the old file's status.
        let existing: FileStatus? = if let replaced { try replaced.status() }
            else if options.permissions == nil || options.keepsExtendedAttributes { try statusIfPresent(of: name) }
            else { nil }
        if let existing {
            if existing.isDirectory { throw FileSystemError(.isDirectory, "replace", path: name) }
            if existing.isSpecialFile {
                throw FileSystemError(.fileExists, "replace (it is \(existing.kindDescription); only a regular file is replaced)",
                                      path: name)
            }
            if existing.isRegularFile {
                if options.permissions == nil { mode = existing.permissions }
                if options.keepsExtendedAttributes {
                    previous = try? open(name, .readOnly, options: [.noFollow, .nonBlocking])
                }
            }
        }
        // A named temporary file, not an unnamed one (`O_TMPFILE`) linked
        // after its flush: on ext4 without a journal the link count of an
        // unnamed file reaches the disk only by writeback, and a power loss
        // before it leaves `name` on an inode with no links (neither file).
        // Flushing it again after the link costs a third flush (see
        // docs/PERFORMANCE.md and Benchmarks/Scripts/atomic_sequences.c).
        var temporary = ""
        var file: FileDescriptor?
        for _ in 0..<8 {
            // Short fixed-length names: the target's own may already be at
            // the 255-byte limit.
            temporary = Self.temporaryPrefix + String(UInt64.random(in: 0...UInt64.max), radix: 36) + Self.temporarySuffix
            do {
                file = try open(temporary, .writeOnly, options: [.create, .exclusiveCreate], permissions: 0o600)
                break
            } catch {
                if !error.isExists { throw error.with(path: name) }
            }
        }
        guard let output = file else { throw FileSystemError(.fileExists, "create a temporary file for", path: name) }
        var outputOpen = true
        defer {
            if outputOpen { output.closeQuietly() }
            if !renamed { try? remove(temporary) }
        }
        do throws(FileSystemError) {
            try output.setPermissions(mode)
            try fill(output)
            if let previous { try output.copyExtendedAttributes(from: previous) }
            // The portable order: the file (data and inode) is on the disk
            // before its name can change, and the rename after it. Flushing
            // later, or only the data, is cheaper on a journaled file system
            // but not on one without a journal, where the directory block
            // may reach the disk before the new inode does.
            if options.durability != .none { try output.sync() }
            output.closeQuietly()
            outputOpen = false
            var exchanged = false
            if options.durability == .none, options.replacesExisting {
                // ENOENT: no file to swap with yet (a new name); the rename below makes it.
                do { exchanged = try exchange(temporary, name) } catch { if !error.isNotFound { throw error } }
            }
            if exchanged {
                // Swapping the names, then removing the old file under the
                // temporary name, is as atomic for readers as a rename over
                // it, and skips the writeback ext4 starts (auto_da_alloc)
                // when a rename replaces a file, which is most of a rename's
                // cost; that writeback only matters for a power loss, which
                // this level does not promise to survive.
                renamed = true
                try? remove(temporary)
            } else {
                try rename(temporary, to: self, name, replace: options.replacesExisting)
                renamed = true
            }
            if options.durability == .full { try sync() }
        } catch {
            throw error.with(path: name)
        }
    }

    /// Replaces `name` in this directory with `bytes` (see
    /// ``replaceAtomically(_:options:_:)``).
    @inlinable
    public func writeAtomically<Bytes: DataProtocol>(_ bytes: Bytes, to name: String,
                                                     options: AtomicWriteOptions = AtomicWriteOptions()) throws(FileSystemError) {
        try replaceAtomically(name, options: options) { file throws(FileSystemError) in try file.writeFully(bytes) }
    }

    /// Whether `name` looks like an atomic replace's temporary file.
    public static func isTemporaryName(_ name: String) -> Bool {
        name.hasPrefix(temporaryPrefix) && name.hasSuffix(temporarySuffix)
    }
}
