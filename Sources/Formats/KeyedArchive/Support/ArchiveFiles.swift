import FileSystem
import Foundation

/// Reading and writing archive files, through the package's one file-system
/// module.
enum ArchiveFiles {
    /// Replaces the file at `path` with `data` so that a reader sees either
    /// the old file or the whole new one, even after a power cut (the file,
    /// then its directory, are flushed). Archives are ordinary user files:
    /// mode 0644.
    static func writeAtomically(_ data: Data, to path: String) throws(KeyedArchiveError) {
        do throws(FileSystemError) {
            try FileSystemPaths.writeAtomically(data, toPath: path,
                                                options: AtomicWriteOptions(durability: .full, permissions: 0o644))
        } catch {
            throw KeyedArchiveError(.fileIO, path: path, "cannot write the archive", underlying: error)
        }
    }

    /// The bytes of the file at `path` (links followed).
    static func read(_ path: String) throws(KeyedArchiveError) -> Data {
        do throws(FileSystemError) {
            guard let data = try FileSystemPaths.readFile(atPath: path) else {
                throw FileSystemError(.noSuchFileOrDirectory, "read", path: path)
            }
            return data
        } catch {
            throw KeyedArchiveError(.fileIO, path: path, "cannot read the archive", underlying: error)
        }
    }
}
