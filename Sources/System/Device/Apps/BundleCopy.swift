import FileSystem
import SystemPackage

/// Copies a bundle's directory tree into its new bundle container, with
/// FileSystem's descriptor calls: every directory is opened from its
/// parent, links are copied as links (never followed), and each file is
/// opened only if it is still the one the listing saw, so a bundle changed
/// while it is copied cannot slip in something from outside it.
enum BundleCopy {
    /// Copies the directory at `source` (a link there is followed: it names
    /// the bundle) to the new directory `destination`, whose parent exists.
    /// Permission bits are kept; owners and times are not.
    static func copy(from source: String, to destination: String) throws(FileSystemError) {
        let from = try FileDescriptor.openDirectory(atPath: source)
        defer { from.closeQuietly() }
        let permissions = try from.status().permissions
        try FileSystemPaths.withParent(of: destination) { parent, name throws(FileSystemError) in
            try parent.makeDirectory(name, permissions: 0o700)
            let to = try parent.openDirectory(name)
            defer { to.closeQuietly() }
            try copyEntries(of: from, into: to)
            try to.setPermissions(permissions)
        }
    }

    private static func copyEntries(of from: FileDescriptor, into to: FileDescriptor) throws(FileSystemError) {
        for name in try from.sortedEntries() {
            guard let info = try from.statusIfPresent(of: name) else { continue }  // removed meanwhile
            if info.isDirectory {
                try to.makeDirectory(name, permissions: 0o700)
                let child = try from.openDirectory(name)
                defer { child.closeQuietly() }
                guard try child.status().isSameFile(as: info) else {
                    throw FileSystemError(.staleNFSFileHandle, "copy (it changed while it was copied)", path: name)
                }
                let target = try to.openDirectory(name)
                defer { target.closeQuietly() }
                try copyEntries(of: child, into: target)
                // Last, so a read-only directory is still filled first.
                try target.setPermissions(info.permissions)
            } else if info.isSymbolicLink {
                try to.makeSymbolicLink(name, target: try from.readLink(name))
            } else if info.isRegularFile {
                let input = try from.openSeen(name, as: info)
                defer { input.closeQuietly() }
                let output = try to.open(name, .writeOnly, options: [.create, .exclusiveCreate, .noFollow], permissions: 0o600)
                defer { output.closeQuietly() }
                try input.copyContents(to: output)
                try output.setPermissions(info.permissions)
            }
            // Sockets, pipes and devices have no place in a bundle: left out.
        }
    }
}
