import FileSystem
import SystemPackage
import Foundation

/// One item of the plan, reconciled with the disk (a first run and a
/// resumed one take the same path: the disk, not the journal, says what is
/// left to do).
extension ContainerMigration {
    enum StepOutcome {
        case moved, alreadyMoved, duplicateRemoved, vanished
        /// A different item of the same name at both places.
        case conflict
    }

    func step(_ entry: MigrationPlan.Entry, sources: DirectoryCursor,
              destinations: DirectoryCursor) throws(MigrationError) -> StepOutcome {
        let (parent, name) = DirectoryHandle.split(entry.path)
        let sourcePath = Self.source + "/" + entry.path
        let destinationPath = destination.directory.relativePath + "/" + entry.path
        let outcome: StepOutcome
        do {
            outcome = try reconcile(entry, parent, name, sources: sources, destinations: destinations,
                                    destinationPath: destinationPath)
        } catch {
            throw MigrationError(ContainerError(error, path: sourcePath, "migrate"))
        }
        if outcome == .conflict {
            throw MigrationError(.conflict, path: destinationPath,
                                 "cannot migrate \(sourcePath): a different item of that name is at the destination")
        }
        return outcome
    }

    private func reconcile(_ entry: MigrationPlan.Entry, _ parent: String, _ name: String, sources: DirectoryCursor,
                           destinations: DirectoryCursor, destinationPath: String) throws(FileSystemError) -> StepOutcome {
        guard let target = try destinations.directory(parent, creating: true) else {
            throw FileSystemError(.noSuchFileOrDirectory, "open", path: parent)
        }
        if entry.kind == .directory {
            return try makeDirectory(entry, name, in: target, destinationPath: destinationPath, cursor: destinations)
        }
        let origin = try sources.directory(parent, creating: false)
        let atSource = try origin?.statusIfPresent(of: name)
        let atDestination = try target.statusIfPresent(of: name)
        switch (atSource, atDestination) {
        case (nil, nil):
            return .vanished
        case (nil, .some(let moved)):
            // A killed run renamed it after its last checkpoint; the flag
            // was set before the rename, setting it again is harmless.
            if moved.isRegularFile { try flag(target, name, destinationPath) }
            return .alreadyMoved
        case (.some(let item), nil):
            guard let origin else { return .vanished }
            if item.isRegularFile { try flag(origin, name, destinationPath) }
            do { try origin.rename(name, to: target, name, replace: false) } catch {
                // Something appeared at the destination since the lookup.
                guard error.isExists else { throw error }
                return try removeDuplicate(origin, target, name, sources: sources)
            }
            sources.noteChange()
            destinations.noteChange()
            return .moved
        case (.some, .some):
            guard let origin else { return .alreadyMoved }
            return try removeDuplicate(origin, target, name, sources: sources)
        }
    }

    /// A directory of the plan: made at the destination (with the source's
    /// permissions, and the flag) unless it is there.
    private func makeDirectory(_ entry: MigrationPlan.Entry, _ name: String, in target: FileDescriptor, destinationPath: String,
                               cursor: DirectoryCursor) throws(FileSystemError) -> StepOutcome {
        var outcome = StepOutcome.alreadyMoved
        if let existing = try target.statusIfPresent(of: name) {
            guard existing.isDirectory else { throw FileSystemError(.fileExists, "create the directory", path: name) }
        } else {
            try target.makeDirectory(name, permissions: entry.permissions | 0o700)
            cursor.noteChange()
            outcome = .moved
        }
        try flag(target, name, destinationPath)
        return outcome
    }

    /// Sets the do-not-back-up flag on `name` (a file or directory, never
    /// a link) when the destination asks for it.
    private func flag(_ directory: FileDescriptor, _ name: String, _ destinationPath: String) throws(FileSystemError) {
        guard destination.excludesFromBackup, let path = try? ContainerPath(destinationPath) else { return }
        let fd = try directory.open(name, .readOnly, options: [.noFollow, .nonBlocking])
        defer { fd.closeQuietly() }
        try container.setExclusionFlag(fd, path: path, true)
    }

    /// The item is at both places: only an outside copy does that. The same
    /// file (or link) twice loses nothing when the source goes; two
    /// different ones are a conflict the app must settle.
    private func removeDuplicate(_ origin: FileDescriptor, _ target: FileDescriptor, _ name: String,
                                 sources: DirectoryCursor) throws(FileSystemError) -> StepOutcome {
        guard try Self.sameItem(origin, target, name) else { return .conflict }
        try origin.remove(name)
        sources.noteChange()
        return .duplicateRemoved
    }

    /// Whether `name` is the same regular file (byte for byte) or the same
    /// link (same text) in both directories.
    static func sameItem(_ first: FileDescriptor, _ second: FileDescriptor, _ name: String) throws(FileSystemError) -> Bool {
        let one = try first.status(of: name)
        let other = try second.status(of: name)
        if one.isSymbolicLink && other.isSymbolicLink { return try first.readLink(name) == second.readLink(name) }
        guard one.isRegularFile, other.isRegularFile, one.size == other.size else { return false }
        let a = try first.open(name, .readOnly, options: [.noFollow, .nonBlocking])
        defer { a.closeQuietly() }
        let b = try second.open(name, .readOnly, options: [.noFollow, .nonBlocking])
        defer { b.closeQuietly() }
        return try a.readAll() == b.readAll()
    }

    /// Removes the plan's source directories, deepest first, where they are
    /// empty (something the app wrote meanwhile keeps its directory).
    func removeEmptiedDirectories(_ plan: MigrationPlan, sources: DirectoryCursor) throws(MigrationError) -> Int {
        var removed = 0
        for entry in plan.entries.reversed() where entry.kind == .directory {
            let (parent, name) = DirectoryHandle.split(entry.path)
            do {
                guard let directory = try sources.directory(parent, creating: false) else { continue }
                try directory.remove(name, directory: true)
                sources.noteChange()
                removed += 1
            } catch {
                if error.isNotFound || error.isNotEmpty || error.isExists || error.isNotDirectory { continue }
                throw MigrationError(ContainerError(error, path: Self.source + "/" + entry.path, "remove the emptied directory"))
            }
        }
        return removed
    }
}
