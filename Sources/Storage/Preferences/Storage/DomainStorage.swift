import Foundation

/// How hard a flush works to keep a preferences file across failures.
public enum PreferencesDurability: Sendable, Hashable {
    /// The file is replaced atomically, without a flush (the file-system
    /// module's `Durability.none`: a name swap where the kernel can, else a
    /// rename):
    /// a process that crashes or is killed at any point leaves the old file
    /// or the new one, never a torn one. Nothing is forced to disk, so a
    /// power loss soon after may lose the latest flushes or leave an empty
    /// file (read as an empty domain and reported in `lastProblem`). This is
    /// what `synchronize()` and coalesced writes use, as cfprefsd does.
    case atomic
    /// As ``atomic``, and the file and its directory are flushed to disk
    /// before the call returns. Used when the app goes to the background
    /// or terminates.
    case durable
}

/// Where one domain's file lives, and how it is read, replaced and locked.
///
/// The seam between the domain logic and the file system: a container
/// domain goes through the container's confined file API, a domain named
/// by a plain path through ``FileDomainStorage``, and tests may count or
/// break writes.
protocol DomainStorage: Sendable {
    /// The file, for messages and for sharing one domain per process.
    var path: String { get }
    /// The file's bytes, or `nil` if it does not exist.
    func read() throws -> Data?
    /// Replaces the file with `data` atomically.
    func write(_ data: Data, durability: PreferencesDurability) throws
    /// Runs `body` holding the domain's exclusive inter-process lock.
    func withExclusiveLock<T>(_ body: () throws -> T) throws -> T
    /// Removes the temporary files that writers killed midway left beside
    /// the file: only those older than `FileDescriptor.staleTemporaryAge`
    /// (60 s), since a younger one may be a live writer's.
    func removeStaleTemporaries() throws
}
