import Container
import FileSystem
import Foundation

/// What an update carries from the old data container to the new one.
///
/// iOS guarantees that Documents and Library survive an update ("Files in
/// the following directories are guaranteed to be preserved during the
/// update process"), and since iOS 8 keeps the data container itself. The
/// decision is read from `StorageRules` (`keptAcrossUpdate`), the one table
/// of per-directory rules:
///
/// - **moved**: `Documents/`, every entry of `Library/` (Caches included),
///   and any other entry at the container's root (such as the
///   do-not-back-up record), each with one `rename`, so the cost does not
///   depend on the number of files;
/// - **not moved**: `tmp/` (not kept by the table) and the container
///   metadata, which belongs to the old container; they go with it.
public enum UpdatePolicy {
    /// Whether the entry at container-relative `path` moves to the new container.
    public static func moves(_ path: String) -> Bool {
        path != ContainerMetadata.fileName && StorageRules.rules(forRelativePath: path).keptAcrossUpdate
    }
}

extension Device {
    /// Moves the user's data between data containers by ``UpdatePolicy``.
    /// Idempotent: what has moved is no longer in `old`, so a second run
    /// moves the rest.
    func moveData(from old: URL, to new: URL, bundleID: String) throws {
        for name in try names(in: old, bundleID: bundleID) where UpdatePolicy.moves(name) {
            let source = old.appendingPathComponent(name)
            // Library's entries are moved one by one: some of its rows
            // (Caches) may differ from Library's own.
            if name == ContainerDirectory.library.relativePath && FileSystemPaths.isDirectory(atPath: source.path) {
                try makeDirectories(new.appendingPathComponent(name).path, bundleID: bundleID)
                for entry in try names(in: source, bundleID: bundleID)
                where UpdatePolicy.moves(name + "/" + entry) {
                    try move(source.appendingPathComponent(entry), to: new.appendingPathComponent(name).appendingPathComponent(entry),
                             bundleID: bundleID)
                }
            } else {
                try move(source, to: new.appendingPathComponent(name), bundleID: bundleID)
            }
        }
    }

    private func names(in directory: URL, bundleID: String) throws -> [String] {
        do { return try FileSystemPaths.entries(atPath: directory.path) } catch {
            throw DeviceError(error, bundleID: bundleID, path: directory.path, "list \(directory.lastPathComponent)")
        }
    }

    /// Renames `source` over `destination`. The new container's empty
    /// layout directories are replaced by `rename` itself; anything else in
    /// the way (never there in a fresh container) is removed first.
    private func move(_ source: URL, to destination: URL, bundleID: String) throws {
        do { try FileSystemPaths.rename(atPath: source.path, to: destination.path) } catch {
            guard FileSystemPaths.exists(atPath: destination.path) else {
                throw DeviceError(error, bundleID: bundleID, path: source.path, "move \(source.lastPathComponent)")
            }
            try remove(destination, bundleID: bundleID)
            do { try FileSystemPaths.rename(atPath: source.path, to: destination.path) } catch {
                throw DeviceError(error, bundleID: bundleID, path: source.path, "move \(source.lastPathComponent)")
            }
        }
    }
}

extension Device {
    /// Creates `path` and its missing parents, as a ``DeviceError``.
    func makeDirectories(_ path: String, bundleID: String?) throws {
        do { try FileSystemPaths.makeDirectories(atPath: path) } catch {
            throw DeviceError(error, bundleID: bundleID, path: path, "create \((path as NSString).lastPathComponent)")
        }
    }
}
