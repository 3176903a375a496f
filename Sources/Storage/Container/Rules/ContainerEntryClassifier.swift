import FileSystem
import SystemPackage

/// One item of a container, met by a top-down walk, with the rules row
/// that governs it and what a backup does with it.
public struct ContainerEntry: Sendable {
    /// The item as the walk saw it (path relative to the container root).
    public var entry: TreeEntry
    /// The standard directory whose row governs it.
    public var directory: ContainerDirectory
    /// That row.
    public var rules: DirectoryRules
    /// Whether it is that standard directory itself (`Library/Caches`, not
    /// a file in it): a purge empties such a directory and keeps it.
    public var isStandardDirectory: Bool
    /// What a backup does with it.
    public var backup: ContainerBackupVerdict

    /// Whether a backup takes it.
    public var isBackedUp: Bool { backup.isIncluded }

    /// Whether it is one of this library's own files at the container's top
    /// (the do-not-back-up record and its lock), which listings hide.
    public var isLibraryBookkeeping: Bool { entry.depth == 0 && ExclusionRecord.isBookkeeping(entry.name) }
}

/// What a backup of a container does with one item.
public enum ContainerBackupVerdict: Sendable {
    /// The backup takes it.
    case included
    /// The backup leaves it out, for the reason given.
    case excluded(ContainerBackupExclusion)
    /// Its do-not-back-up flag could not be read: the backup cannot know
    /// whether to take it, so it leaves it out and says so (never in
    /// silence).
    case unreadable(ContainerError)

    /// Whether the backup takes the item.
    public var isIncluded: Bool {
        if case .included = self { return true }
        return false
    }

    /// Why the backup leaves the item out, when it does so by rule.
    public var exclusion: ContainerBackupExclusion? {
        if case .excluded(let reason) = self { return reason }
        return nil
    }
}

/// Why a backup leaves an item out.
public enum ContainerBackupExclusion: String, Sendable, Hashable {
    /// Its directory's row is not backed up (Caches, tmp, the bundle).
    case notBackedUpByRule
    /// It carries the do-not-back-up flag.
    case flagged
    /// A directory above it is left out, so it is never asked about.
    case insideExcludedDirectory
    /// The container's own bookkeeping: the container manager's files at the
    /// top (`.com.apple.*`), or a temporary file an interrupted atomic write
    /// left behind.
    case bookkeeping
    /// Its name, or a directory's above it, is not valid UTF-8 (a backup's
    /// paths are text).
    case nameNotUTF8
    /// Its path is longer than a container path may be (4,095 bytes).
    case pathTooLong
}

/// Gives each entry of a walk of a container the rules that govern it and
/// the backup's verdict, reading each item's do-not-back-up flag once, by
/// name from the directory the walk holds (`getxattrat`).
///
/// The one place these answers are made: the storage audit, backups of apps
/// and of app groups (through MobileBackup's entry filter) and
/// ``AppContainer/walk(_:)`` all classify through it, so what the audit
/// says a backup takes is what the backup takes.
///
/// Feed it the entries of one top-down walk (FileSystem's `walkTree`), in
/// the walk's order; it keeps one small record per open directory.
public struct ContainerEntryClassifier {
    /// What a directory's entries inherit.
    private struct Frame {
        var directory: ContainerDirectory
        var rules: DirectoryRules
        var pathLength: Int
        /// It or a directory above it is left out of backups.
        var excluded: Bool
    }

    /// The layout whose rows apply.
    public let layout: ContainerLayout
    private let exclusionStorage: ExclusionStorage
    private let loadRecord: (() throws(ContainerError) -> ExclusionRecord)?
    /// The record of flags, read once, when the first item needs it.
    private var record: Result<ExclusionRecord, ContainerError>?
    private var frames: [Frame]

    /// A classifier for a walk of a container of `layout` from its root.
    /// `exclusionStorage` and `loadRecord` say where flags are kept
    /// (``AppContainer`` passes its own; a group container has no record, so
    /// a file system without extended attributes flags nothing there).
    init(layout: ContainerLayout, exclusionStorage: ExclusionStorage,
         loadRecord: (() throws(ContainerError) -> ExclusionRecord)?) {
        self.layout = layout
        self.exclusionStorage = exclusionStorage
        self.loadRecord = loadRecord
        let root = StorageRules.rules(for: .home, in: layout)
        frames = [Frame(directory: .home, rules: root, pathLength: 0, excluded: !root.backedUp)]
    }

    /// A classifier for a walk of an app group's container from its root.
    public static func group() -> ContainerEntryClassifier {
        ContainerEntryClassifier(layout: .group, exclusionStorage: .automatic, loadRecord: nil)
    }

    /// Classifies `entry`, which the walk met in `parent`. Call it for every
    /// entry of the walk, in order, whether or not the caller descends.
    public mutating func classify(_ entry: TreeEntry, in parent: FileDescriptor) -> ContainerEntry {
        while frames.count > entry.depth + 1 { frames.removeLast() }
        let above = frames[frames.count - 1]
        // The row changes only in the first two levels (`Library/Caches`).
        var directory = above.directory
        var isStandardDirectory = false
        if entry.depth <= 1 {
            directory = StorageRules.directory(forRelativePath: entry.path, in: layout)
            isStandardDirectory = entry.path == directory.relativePath
        }
        let rules = entry.depth <= 1 ? StorageRules.rules(for: directory, in: layout) : above.rules
        let pathLength = above.pathLength + (entry.depth == 0 ? 0 : 1) + entry.name.utf8.count
        let backup = verdict(entry, in: parent, rules: rules, above: above, pathLength: pathLength)
        if entry.status.isDirectory {
            frames.append(Frame(directory: directory, rules: rules, pathLength: pathLength,
                                excluded: !backup.isIncluded))
        }
        return ContainerEntry(entry: entry, directory: directory, rules: rules, isStandardDirectory: isStandardDirectory,
                              backup: backup)
    }

    private mutating func verdict(_ entry: TreeEntry, in parent: FileDescriptor, rules: DirectoryRules, above: Frame,
                                  pathLength: Int) -> ContainerBackupVerdict {
        guard rules.backedUp else { return .excluded(.notBackedUpByRule) }
        if above.excluded { return .excluded(.insideExcludedDirectory) }
        if entry.hasRepairedName { return .excluded(.nameNotUTF8) }
        if pathLength > ContainerPath.maximumLength { return .excluded(.pathTooLong) }
        let name = entry.name
        if entry.depth == 0 && name.hasPrefix(".com.apple.") { return .excluded(.bookkeeping) }
        if FileDescriptor.isTemporaryName(name) { return .excluded(.bookkeeping) }
        // A link carries no flag of its own (the flag is on what it names).
        if entry.status.isSymbolicLink { return .included }
        do throws(ContainerError) {
            return try isFlagged(entry, in: parent) ? .excluded(.flagged) : .included
        } catch {
            return .unreadable(error)
        }
    }

    /// The item's own do-not-back-up flag.
    private mutating func isFlagged(_ entry: TreeEntry, in parent: FileDescriptor) throws(ContainerError) -> Bool {
        if exclusionStorage == .record { return try flagRecord().contains(entry.path) }
        do {
            guard let value = try parent.extendedAttribute(AppContainer.exclusionAttributeName, ofEntry: entry.name) else {
                return false
            }
            return value.first.map { $0 != 0 } ?? false
        } catch {
            guard error.isUnsupported else {
                throw ContainerError(error, path: entry.path, "read the do-not-back-up flag")
            }
            guard loadRecord != nil else { return false }
            return try flagRecord().contains(entry.path)
        }
    }

    private mutating func flagRecord() throws(ContainerError) -> ExclusionRecord {
        if let record { return try record.get() }
        guard let loadRecord else { return ExclusionRecord(paths: []) }
        let loaded: Result<ExclusionRecord, ContainerError>
        do throws(ContainerError) { loaded = .success(try loadRecord()) } catch { loaded = .failure(error) }
        record = loaded
        return try loaded.get()
    }
}
