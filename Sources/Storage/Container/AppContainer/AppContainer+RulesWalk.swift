import FileSystem
import SystemPackage

/// The container's one rules-driven walk, and the backup's answer for a
/// single path, both through ``ContainerEntryClassifier``.
extension AppContainer {
    /// A classifier for a walk of this container from its root: an app
    /// layout, with this container's flag storage.
    public func entryClassifier() -> ContainerEntryClassifier {
        ContainerEntryClassifier(layout: .app, exclusionStorage: options.exclusionStorage,
                                 loadRecord: { () throws(ContainerError) in try self.exclusionRecord() })
    }

    /// Walks the whole container from its held root, depth first, names in
    /// bytewise order, links never followed, with a bounded number of open
    /// descriptors at any depth. `visit` gets each item classified (its
    /// rules row and the backup's verdict, the flag read once) and the open
    /// directory that holds it; its answer for a directory decides whether
    /// the walk enters it. A name that is not UTF-8 is visited, marked
    /// (``ContainerBackupExclusion/nameNotUTF8``).
    public func walk(_ visit: (ContainerEntry, FileDescriptor) throws -> TreeWalkDecision) throws {
        var classifier = entryClassifier()
        var failure: Error?
        do {
            try directory.root.descriptor.walkTree(repairedNames: .visit) { entry, parent throws(FileSystemError) in
                do {
                    return try visit(classifier.classify(entry, in: parent), parent)
                } catch {
                    // Carried out of FileSystem's typed walk as it is.
                    failure = error
                    throw FileSystemError(.canceled, "walk", path: entry.path)
                }
            }
        } catch {
            if let failure { throw failure }
            throw ContainerError(error, path: error.path, "walk the container")
        }
    }

    /// What a backup does with the item at `path`: the walk's verdict, met
    /// by classifying each directory on the way down as a walk would.
    ///
    /// - Throws: ``ContainerError`` `notFound` when nothing is at `path`.
    public func backupVerdict(of path: String) throws -> ContainerBackupVerdict {
        let path = try ContainerPath(path)
        if path.isRoot { return .included }
        var classifier = entryClassifier()
        let components = path.normalized.split(separator: "/").map(String.init)
        var parent = directory.root.descriptor
        var opened: FileDescriptor?
        defer { opened?.closeQuietly() }
        var directoryPath = ""
        for (depth, name) in components.enumerated() {
            let status: FileStatus
            do { status = try parent.status(of: name) } catch {
                throw ContainerError(error, path: path.text, "read the do-not-back-up flag")
            }
            let entry = classifier.classify(TreeEntry(directoryPath: directoryPath, name: name, status: status, depth: depth),
                                            in: parent)
            if depth == components.count - 1 { return entry.backup }
            guard status.isDirectory else {
                throw ContainerError(FileSystemError(.notDirectory, "read the do-not-back-up flag", path: name),
                                     path: path.text, "read the do-not-back-up flag")
            }
            let next: FileDescriptor
            do { next = try parent.openDirectory(name) } catch {
                throw ContainerError(error, path: path.text, "read the do-not-back-up flag")
            }
            opened?.closeQuietly()
            opened = next
            parent = next
            directoryPath = directoryPath.isEmpty ? name : directoryPath + "/" + name
        }
        return .included
    }
}
