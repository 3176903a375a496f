import SystemPackage

/// A file or directory that a tree copy has just made, handed to
/// ``TreeCopyOptions/eachCopied`` with both ends open.
public struct CopiedItem {
    /// The path relative to the copy's root, components joined by "/"
    /// (`""` for the root itself).
    public var path: String
    /// The source's status, as the copy saw it (links not followed).
    public var status: FileStatus
    /// The source: the file open for reading, or the directory.
    public var source: FileDescriptor
    /// The copy: the file open for writing (before it takes its name), or
    /// the new directory (before its entries are copied).
    public var copy: FileDescriptor
}

/// How ``FileDescriptor/copyTree(_:to:_:options:)`` copies.
public struct TreeCopyOptions {
    /// What each file's write promises about power loss: every file is
    /// written by ``FileDescriptor/replaceAtomically(_:options:_:)``, and
    /// ``Durability/full`` also flushes each directory once it is filled.
    public var durability: Durability
    /// Called for every regular file and directory copied, to carry over
    /// what the copy itself does not (an extended attribute, an entry in a
    /// record). For a file it runs before the file takes its name, so a
    /// failure leaves no copy of it behind.
    public var eachCopied: ((CopiedItem) throws(FileSystemError) -> Void)?

    public init(durability: Durability = .none, eachCopied: ((CopiedItem) throws(FileSystemError) -> Void)? = nil) {
        self.durability = durability
        self.eachCopied = eachCopied
    }
}

extension FileDescriptor {
    /// Copies the entry `name` of this directory (a file, a symbolic link
    /// or a whole directory tree) to `destinationName` in `destination`,
    /// which must not exist. Returns the bytes of file content copied.
    ///
    /// No link is ever followed out of the source: each directory is
    /// opened from its parent with `O_NOFOLLOW` and must still be the one
    /// its `lstat` saw, each file is opened by ``openSeen(_:as:)``, and a
    /// link is recreated as a link to the same target. File contents go by
    /// ``copyContents(to:)`` (`copy_file_range`). Permission bits are kept
    /// exactly (a read-only directory gets its bits after it is filled);
    /// owners and times are not. An entry removed while the copy runs is
    /// left out, and so are sockets, pipes and devices below the root
    /// (a root that is one is `ENOTSUP`). A changed entry is `ESTALE`.
    ///
    /// - Throws: the first failure, whose path is relative to this
    ///   directory (`name/…`); what was copied before it stays.
    @discardableResult
    public func copyTree(_ name: String, to destination: FileDescriptor, _ destinationName: String,
                         options: TreeCopyOptions = TreeCopyOptions()) throws(FileSystemError) -> UInt64 {
        let info = try status(of: name)
        var copier = TreeCopier(options: options)
        try copier.copy(name, info, in: self, to: destination, destinationName, path: "", shownAs: name)
        return copier.copied
    }

    /// Copies this directory, with all it holds, to the new directory
    /// `destinationName` in `destination`, as
    /// ``copyTree(_:to:_:options:)`` does. For a directory reached by a
    /// path whose last component may be a link (a bundle named by a link).
    @discardableResult
    public func copyTree(to destination: FileDescriptor, _ destinationName: String,
                         options: TreeCopyOptions = TreeCopyOptions()) throws(FileSystemError) -> UInt64 {
        let info = try status()
        var copier = TreeCopier(options: options)
        try copier.copyDirectory(self, info, to: destination, destinationName, path: "", shownAs: "")
        return copier.copied
    }
}

/// One tree copy's walk and its running total.
private struct TreeCopier {
    let options: TreeCopyOptions
    var copied: UInt64 = 0

    init(options: TreeCopyOptions) { self.options = options }

    /// Copies `name` of `parent`, which `lstat` saw as `info`. `path` is
    /// its place below the copy's root, `shownAs` its place in errors.
    mutating func copy(_ name: String, _ info: FileStatus, in parent: FileDescriptor, to destination: FileDescriptor,
                       _ destinationName: String, path: String, shownAs shown: String) throws(FileSystemError) {
        if info.isDirectory {
            let directory: FileDescriptor
            do {
                directory = try parent.openDirectory(name)
            } catch {
                throw error.with(path: shown)
            }
            defer { directory.closeQuietly() }
            guard try directory.status().isSameFile(as: info) else {
                throw FileSystemError(.staleNFSFileHandle, "copy (it changed while it was copied)", path: shown)
            }
            try copyDirectory(directory, info, to: destination, destinationName, path: path, shownAs: shown)
            return
        }
        do throws(FileSystemError) {
            if info.isSymbolicLink {
                try destination.makeSymbolicLink(destinationName, target: try parent.readLink(name))
            } else if info.isRegularFile {
                try copyFile(name, info, in: parent, to: destination, destinationName, path: path)
            } else if path.isEmpty {
                throw FileSystemError(.notSupported, "copy (not a file, link or directory)", path: name)
            }
            // Below the root, sockets, pipes and devices are left out.
        } catch {
            throw error.with(path: shown)
        }
    }

    private mutating func copyFile(_ name: String, _ info: FileStatus, in parent: FileDescriptor,
                                   to destination: FileDescriptor, _ destinationName: String, path: String) throws(FileSystemError) {
        let input = try parent.openSeen(name, as: info)
        defer { input.closeQuietly() }
        let write = AtomicWriteOptions(durability: options.durability, permissions: info.permissions, replacesExisting: false)
        try destination.replaceAtomically(destinationName, options: write) { output throws(FileSystemError) in
            copied += try input.copyContents(to: output)
            try options.eachCopied?(CopiedItem(path: path, status: info, source: input, copy: output))
        }
    }

    /// Makes `destinationName` and copies into it what `directory` holds.
    mutating func copyDirectory(_ directory: FileDescriptor, _ info: FileStatus, to destination: FileDescriptor,
                                _ destinationName: String, path: String, shownAs shown: String) throws(FileSystemError) {
        let target: FileDescriptor
        do {
            try destination.makeDirectory(destinationName, permissions: 0o700)
            target = try destination.openDirectory(destinationName)
        } catch {
            throw error.with(path: shown)
        }
        defer { target.closeQuietly() }
        var names: [String] = []
        do {
            try options.eachCopied?(CopiedItem(path: path, status: info, source: directory, copy: target))
            names = try directory.sortedEntries()
        } catch {
            throw error.with(path: shown)
        }
        for name in names {
            let childPath = path.isEmpty ? name : path + "/" + name
            let childShown = shown.isEmpty ? name : shown + "/" + name
            let child: FileStatus?
            do { child = try directory.statusIfPresent(of: name) } catch { throw error.with(path: childShown) }
            guard let child else { continue }  // removed meanwhile
            try copy(name, child, in: directory, to: target, name, path: childPath, shownAs: childShown)
        }
        do {
            // Last, so that a read-only directory is still filled first.
            try target.setPermissions(info.permissions)
            if options.durability == .full { try target.sync() }
        } catch {
            throw error.with(path: shown)
        }
    }
}
