import FileSystem
import SystemPackage

/// Copies a bundle's directory tree into its new bundle container with
/// FileSystem's tree copy (``FileDescriptor/copyTree(to:_:options:)``):
/// every directory is opened from its parent, links are copied as links
/// (never followed), and each file is opened only if it is still the one
/// the listing saw, so a bundle changed while it is copied cannot slip in
/// something from outside it.
enum BundleCopy {
    /// Copies the directory at `source` (a link there is followed: it names
    /// the bundle) to the new directory `destination`, whose parent exists.
    /// Permission bits are kept; owners and times are not. Sockets, pipes
    /// and devices have no place in a bundle and are left out.
    static func copy(from source: String, to destination: String) throws(FileSystemError) {
        let from = try FileDescriptor.openDirectory(atPath: source)
        defer { from.closeQuietly() }
        try FileSystemPaths.withParent(of: destination) { parent, name throws(FileSystemError) -> Void in
            try from.copyTree(to: parent, name)
        }
    }
}
