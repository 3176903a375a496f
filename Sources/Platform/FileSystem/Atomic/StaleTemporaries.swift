import Foundation
import SystemPackage

extension FileDescriptor {
    /// How old an atomic replace's temporary file must be before a sweep
    /// takes it for a dead writer's: 60 seconds. A live replace touches its
    /// temporary file for as long as it writes and renames it within
    /// milliseconds of the last byte, so only a writer killed (or stopped
    /// for longer than this) leaves one this old.
    public static let staleTemporaryAge: Double = 60

    /// Removes this directory's temporary files of atomic replaces
    /// (``isTemporaryName(_:)``) that were last modified more than `age`
    /// seconds before `now`: the leftovers of writers killed between
    /// creating the file and renaming it. Younger ones may belong to a
    /// writer still at work and are kept. Only regular files are removed;
    /// links are never followed. Returns the names removed, sorted.
    @discardableResult
    public func removeStaleTemporaries(olderThan age: Double = staleTemporaryAge,
                                       now: Date = Date()) throws(FileSystemError) -> [String] {
        let cutoff = Int64((now.timeIntervalSince1970 - age) * 1_000_000_000)
        var removed: [String] = []
        for name in try sortedEntries() where Self.isTemporaryName(name) {
            guard let info = try statusIfPresent(of: name), info.isRegularFile,
                  info.modificationNanoseconds < cutoff else { continue }
            try removeIfPresent(name)
            removed.append(name)
        }
        return removed
    }
}
