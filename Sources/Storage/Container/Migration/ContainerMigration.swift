import FileSystem
import Foundation
import SystemPackage

/// Moves everything in an app's `Documents` to `Library/Caches`, or to
/// `Library/Application Support` with the do-not-back-up flag, as the iOS 5
/// storage rules ask of data that is not the user's. Meant to run in the
/// background (``start(progress:)``), never on the launch path: a large
/// `Documents` takes longer than the launch watchdog allows.
///
/// ```swift
/// let migration = ContainerMigration(container: container, to: .applicationSupport)
/// let task = migration.start { progress in print(progress.completedItems, "of", progress.totalItems) }
/// let report = try task.wait()
/// ```
///
/// The job survives being killed at any moment (SIGKILL, a power loss)
/// and never loses or duplicates a file:
///
/// 1. It plans first: every item under `Documents` (links as links, never
///    followed), written to a journal (``Durability/full``) before anything
///    moves.
/// 2. Each item is then renamed into place within the container's file
///    system: one atomic `rename` with no replace, so at every moment the
///    item has exactly one name, its old or its new one. Directories are
///    created at the destination and the emptied source ones removed last.
///    With the flag, it is set on the item before the rename, so the item
///    arrives flagged.
/// 3. Every ``batchSize`` items the changed directories are flushed and the
///    journal records how many are done.
/// 4. Run again after an interruption, the job reconciles the items after
///    that count with the disk: at the source and not the destination →
///    moved; at the destination only → already done; at both (only after an
///    outside copy) → the source is removed if it is the same, else a
///    ``MigrationErrorCode/conflict``; at neither → gone meanwhile.
///
/// Every directory is opened from the container's held root one component
/// at a time without following links, so nothing the app (or another
/// process) puts in the tree can lead the job outside the container. One
/// job runs per container at a time (a lock in the journal's directory).
public struct ContainerMigration: Sendable {
    /// The container-relative directory whose contents move.
    public static let source = ContainerDirectory.documents.relativePath

    /// The app's container.
    public let container: AppContainer
    /// Where the items go.
    public let destination: MigrationDestination
    /// Items moved between journal updates (and directory flushes).
    public var batchSize: Int = 256
    /// What the journal and the directory flushes promise: ``Durability/full``
    /// survives a power loss; ``Durability/none`` only the death of the process.
    public var durability: WriteDurability = .full

    /// A job for `container`'s `Documents`.
    public init(container: AppContainer, to destination: MigrationDestination) {
        self.container = container
        self.destination = destination
    }

    /// Where an interrupted job stands, or nil when none is pending.
    /// Changes nothing in the container.
    public func pendingProgress() throws(MigrationError) -> MigrationProgress? {
        let directory: FileDescriptor
        do throws(FileSystemError) {
            guard let opened = try DirectoryCursor.open(MigrationJournal.directoryPath, in: container.directory.root.descriptor,
                                                        creating: false, flushing: false) else { return nil }
            directory = opened
        } catch {
            throw MigrationError(ContainerError(error, path: MigrationJournal.directoryPath, "open the migration journal"))
        }
        defer { directory.closeQuietly() }
        guard let (plan, state) = try MigrationJournal(directory: directory, durability: durability).load() else { return nil }
        return progress(plan, completed: state.completed, lastPath: "")
    }

    /// Runs the job to its end on this thread, resuming an interrupted one
    /// (whatever its destination, which the journal decides), and returns
    /// what it did. `progress` is called on this thread with each item done
    /// (and once first, with what earlier runs finished); if it throws, or
    /// the current task is cancelled, the job records where it stands and
    /// stops with ``MigrationErrorCode/stopped``.
    public func run(progress: (MigrationProgress) throws -> Void = { _ in }) throws(MigrationError) -> MigrationReport {
        let started = Date()
        let bases = try openBases()
        defer { bases.close() }
        let lock: LockFile
        do { lock = try LockFile.acquire(for: MigrationJournal.lockSubject, in: bases.journal.directory, permissions: 0o600) } catch {
            throw MigrationError(ContainerError(error, path: MigrationJournal.path(LockFile.lockName(for: MigrationJournal.lockSubject)),
                                                "lock the migration"))
        }
        defer { lock.release() }

        var resumed = true
        let plan: MigrationPlan
        var completed: Int
        if let (pending, state) = try bases.journal.load(discardingUncommitted: true) {
            plan = pending
            completed = state.completed
        } else {
            resumed = false
            plan = try MigrationPlan.make(source: bases.source, sourcePath: Self.source, destination: bases.destination,
                                          destinationPath: destination.directory.relativePath, kind: destination)
            try bases.journal.begin(plan)
            completed = 0
        }
        // An interrupted job finishes where it was going.
        var job = self
        if plan.destinationKind != destination {
            job = ContainerMigration(container: container, to: plan.destinationKind)
            job.batchSize = batchSize
            job.durability = durability
            bases.replaceDestination(try job.openDestination(bases.root))
        }
        var report = MigrationReport(destination: plan.destinationKind, totalItems: plan.entries.count,
                                     totalBytes: plan.totalBytes, moved: 0, alreadyMoved: 0, duplicatesRemoved: 0,
                                     vanished: 0, directoriesRemoved: 0, resumed: resumed, duration: 0)
        try job.work(plan, from: &completed, bases: bases, report: &report, progress: progress)
        report.duration = Date().timeIntervalSince(started)
        return report
    }

    /// The items from `completed` on, then the emptied source directories,
    /// then the end of the journal.
    private func work(_ plan: MigrationPlan, from completed: inout Int, bases: MigrationBases, report: inout MigrationReport,
                      progress: (MigrationProgress) throws -> Void) throws(MigrationError) {
        let sources = DirectoryCursor(base: bases.source, durability: durability)
        let destinations = DirectoryCursor(base: bases.destination, durability: durability)
        var done = self.progress(plan, completed: completed, lastPath: "")
        var sinceCheckpoint = 0
        func checkpoint() throws(MigrationError) {
            do {
                try sources.flush()
                try destinations.flush()
            } catch {
                throw MigrationError(ContainerError(error, path: Self.source, "flush the moved items"))
            }
            try bases.journal.record(MigrationJournal.State(plan: plan.identifier, completed: completed))
            sinceCheckpoint = 0
        }
        func announce(_ current: MigrationProgress) throws(MigrationError) {
            do {
                try progress(current)
                if Task.isCancelled { throw CancellationError() }
            } catch {
                try checkpoint()
                throw MigrationError(.stopped, path: Self.source + "/" + current.lastPath,
                                     "the migration stopped after \(current.completedItems) of \(current.totalItems) items "
                                     + "(run it again to resume)").caused(by: error)
            }
        }
        try announce(done)
        while completed < plan.entries.count {
            let entry = plan.entries[completed]
            switch try step(entry, sources: sources, destinations: destinations) {
            case .moved: report.moved += 1
            case .alreadyMoved: report.alreadyMoved += 1
            case .duplicateRemoved: report.duplicatesRemoved += 1
            case .vanished: report.vanished += 1
            case .conflict: break  // thrown by `step`, never returned
            }
            completed += 1
            sinceCheckpoint += 1
            if sinceCheckpoint >= max(1, batchSize) { try checkpoint() }
            done.completedItems = completed
            done.completedBytes += entry.size
            done.lastPath = entry.path
            try announce(done)
        }
        try checkpoint()
        report.directoriesRemoved = try removeEmptiedDirectories(plan, sources: sources)
        do {
            try sources.leave()
            try destinations.leave()
        } catch {
            throw MigrationError(ContainerError(error, path: Self.source, "flush the moved items"))
        }
        try bases.journal.finish()
    }

    private func progress(_ plan: MigrationPlan, completed: Int, lastPath: String) -> MigrationProgress {
        MigrationProgress(completedItems: completed, totalItems: plan.entries.count,
                          completedBytes: plan.entries[..<completed].reduce(0) { $0 + $1.size },
                          totalBytes: plan.totalBytes, lastPath: lastPath)
    }
}

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
