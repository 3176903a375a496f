import FileSystem
import SystemPackage

/// The directories a migration works from, opened once from the
/// container's held root without following links: the source, the
/// destination and the journal's directory.
final class MigrationBases {
    let root: FileDescriptor
    let source: FileDescriptor
    private(set) var destination: FileDescriptor
    let journal: MigrationJournal

    init(root: FileDescriptor, source: FileDescriptor, destination: FileDescriptor, journal: MigrationJournal) {
        self.root = root
        self.source = source
        self.destination = destination
        self.journal = journal
    }

    /// Swaps the destination (a resumed job finishes where it was going).
    func replaceDestination(_ fd: FileDescriptor) {
        destination.closeQuietly()
        destination = fd
    }

    func close() {
        for fd in [source, destination, journal.directory] { fd.closeQuietly() }
    }
}

extension ContainerMigration {
    /// Opens the source, the destination and the journal's directory (made
    /// if missing, and flagged do-not-back-up: a journal is no use in a backup).
    func openBases() throws(MigrationError) -> MigrationBases {
        let root = container.directory.root.descriptor
        let journalPath = MigrationJournal.directoryPath
        let source = try open(Self.source, in: root, creating: false, "open the migration's source")
        let destination: FileDescriptor
        let journalDirectory: FileDescriptor
        do throws(MigrationError) {
            destination = try openDestination(root)
            do throws(MigrationError) { journalDirectory = try open(journalPath, in: root, creating: true, "open the migration journal") } catch {
                destination.closeQuietly()
                throw error
            }
        } catch {
            source.closeQuietly()
            throw error
        }
        if let path = try? ContainerPath(journalPath) {
            try? container.setExclusionFlag(journalDirectory, path: path, true)
        }
        return MigrationBases(root: root, source: source, destination: destination,
                              journal: MigrationJournal(directory: journalDirectory, durability: durability))
    }

    /// Opens (making it if missing) the destination directory.
    func openDestination(_ root: FileDescriptor) throws(MigrationError) -> FileDescriptor {
        try open(destination.directory.relativePath, in: root, creating: true, "open the migration's destination")
    }

    private func open(_ path: String, in root: FileDescriptor, creating: Bool, _ action: String) throws(MigrationError) -> FileDescriptor {
        do throws(FileSystemError) {
            guard let opened = try DirectoryCursor.open(path, in: root, creating: creating, flushing: durability == .full) else {
                throw FileSystemError(.noSuchFileOrDirectory, "open", path: path)
            }
            return opened
        } catch {
            throw MigrationError(ContainerError(error, path: path, action))
        }
    }
}
