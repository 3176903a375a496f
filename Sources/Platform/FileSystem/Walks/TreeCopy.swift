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

    /// Makes `destinationName` and copies into it what `directory` holds,
    /// through the one walk (``TreeWalker``), the copies' directories as its
    /// companions. A name that is not UTF-8 is left out.
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
        do {
            try options.eachCopied?(CopiedItem(path: path, status: info, source: directory, copy: target))
        } catch {
            throw error.with(path: shown)
        }
        let walker = TreeWalker(repairedNames: .visit, swapped: .fail(operation: "copy (it changed while it was copied)"))
        do throws(FileSystemError) {
            try walker.run(directory, companion: target, visit: { step throws(FileSystemError) in
                try copyItem(step)
            }, enter: { step, opened throws(FileSystemError) in
                try makeDirectory(step, opened)
            }, leave: { step, copy throws(FileSystemError) in
                guard let copy else { return }
                // Last, so that a read-only directory is still filled first.
                do throws(FileSystemError) {
                    try copy.setPermissions(step.entry.status.permissions)
                    if options.durability == .full { try copy.sync() }
                } catch {
                    throw error.with(path: step.entry.path)
                }
            })
            try target.setPermissions(info.permissions)
            if options.durability == .full { try target.sync() }
        } catch {
            throw error.with(path: error.path.isEmpty ? shown : shown.isEmpty ? error.path : shown + "/" + error.path)
        }
    }

    /// Copies a file or link the walk met below the root (sockets, pipes and
    /// devices are left out); a directory is entered.
    private mutating func copyItem(_ step: TreeWalker.Step) throws(FileSystemError) -> TreeWalkDecision {
        let entry = step.entry
        if entry.hasRepairedName { return .skip }  // no name of ours reaches it
        if entry.status.isDirectory { return .descend }
        guard let destination = step.parentCompanion else { return .skip }
        do throws(FileSystemError) {
            if entry.status.isSymbolicLink {
                try destination.makeSymbolicLink(entry.name, target: try step.parent.readLink(entry.name))
            } else if entry.status.isRegularFile {
                try copyFile(entry.name, entry.status, in: step.parent, to: destination, entry.name, path: entry.path)
            }
        } catch {
            throw error.with(path: entry.path)
        }
        return .skip
    }

    /// Makes the copy of a directory the walk entered, to be its companion.
    private func makeDirectory(_ step: TreeWalker.Step, _ opened: FileDescriptor) throws(FileSystemError) -> FileDescriptor? {
        guard let destination = step.parentCompanion else { return nil }
        try destination.makeDirectory(step.entry.name, permissions: 0o700)
        let copy = try destination.openDirectory(step.entry.name)
        do {
            try options.eachCopied?(CopiedItem(path: step.entry.path, status: step.entry.status, source: opened, copy: copy))
        } catch {
            copy.closeQuietly()
            throw error
        }
        return copy
    }
}
