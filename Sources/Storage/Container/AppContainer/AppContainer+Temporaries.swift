import FileSystem
import Foundation
import SystemPackage

/// Leftovers of interrupted atomic writes.
extension AppContainer {
    /// Removes from the directory at `path` the temporary files
    /// (`.sb-<random>.tmp`) that atomic writes killed midway left behind,
    /// if they are older than `age` seconds (by default 60 s,
    /// `FileDescriptor.staleTemporaryAge`): a younger one may belong to a
    /// writer still at work. Returns the names removed.
    @discardableResult
    public func removeStaleTemporaries(in path: String, olderThan age: TimeInterval = FileDescriptor.staleTemporaryAge) throws -> [String] {
        let path = try ContainerPath(path)
        // Removing an entry is a write to it: the rules of its place apply.
        try checkWritable(path.appending(".sb-sweep.tmp"), action: "remove temporary files")
        let fd = try directory.open(path, .readOnly, options: .directory, action: "remove temporary files")
        defer { fd.closeQuietly() }
        do { return try fd.removeStaleTemporaries(olderThan: age) }
        catch { throw ContainerError(error, path: path.text, "remove temporary files") }
    }
}
