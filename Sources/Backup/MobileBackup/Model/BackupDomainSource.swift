import FileSystem
import Foundation
import SystemPackage

/// One domain of a backup and where its files come from: a directory tree
/// on disk (filtered by ``shouldInclude``) and files held in memory (such as
/// the keychain export that `KeychainDomain` carries).
///
/// ```swift
/// let app = BackupDomainSource(domain: "AppDomain-com.example.notes", root: containerURL) { path, _ in
///     !(path == "tmp" || path.hasPrefix("tmp/") || path == "Library/Caches" || path.hasPrefix("Library/Caches/"))
/// }
/// ```
public struct BackupDomainSource: Sendable {
    /// The domain name: `AppDomain-<bundle id>`, `AppDomainGroup-<group id>`,
    /// `HomeDomain`, `KeychainDomain` …
    public var domain: String
    /// The directory whose contents make up the domain, by path, or nil for
    /// a domain made only of ``extraFiles`` or given as ``directory``. It is
    /// opened once, when the backup starts; everything beneath it is reached
    /// from that held directory.
    public var root: URL?
    /// The directory whose contents make up the domain, already held open
    /// (a container's root): the walk and every payload read stay beneath
    /// it, never through a link. Takes precedence over ``root``.
    public var directory: DirectoryHandle?
    /// Makes the filter of one scan of the tree: it gets each item the walk
    /// meets, in the walk's order (top down, names in bytewise order), with
    /// the open directory that holds it, and says whether the item goes into
    /// the backup. An excluded directory is not descended into. A filter
    /// made per scan may keep what it learnt of the directories above (a
    /// container's rules do).
    public var makeFilter: @Sendable () -> BackupEntryFilter
    /// The Data Protection class recorded for a regular file.
    public var protectionClass: @Sendable (_ relativePath: String) -> BackupProtectionClass
    /// Files that exist only in memory, added after the tree's files.
    public var extraFiles: [BackupExtraFile]

    /// Creates a source. By default everything under `root` is included and
    /// files get class C (`completeUntilFirstUserAuthentication`), iOS's
    /// default for app data.
    /// (`shouldInclude` comes first so a trailing closure is the filter.)
    public init(domain: String, root: URL?, extraFiles: [BackupExtraFile] = [],
                shouldInclude: @escaping @Sendable (String, Bool) -> Bool = { _, _ in true },
                protectionClass: @escaping @Sendable (String) -> BackupProtectionClass = { _ in .completeUntilFirstUserAuthentication }) {
        self.init(domain: domain, root: root, extraFiles: extraFiles, filter: Self.pathFilter(shouldInclude),
                  protectionClass: protectionClass)
    }

    /// Creates a source whose filter sees each entry of the walk (see
    /// ``makeFilter``).
    public init(domain: String, root: URL?, extraFiles: [BackupExtraFile] = [],
                filter: @escaping @Sendable () -> BackupEntryFilter,
                protectionClass: @escaping @Sendable (String) -> BackupProtectionClass = { _ in .completeUntilFirstUserAuthentication }) {
        self.domain = domain
        self.root = root
        self.extraFiles = extraFiles
        self.protectionClass = protectionClass
        self.makeFilter = filter
    }

    /// Creates a source over a directory already held open (see ``directory``).
    public init(domain: String, directory: DirectoryHandle, extraFiles: [BackupExtraFile] = [],
                shouldInclude: @escaping @Sendable (String, Bool) -> Bool = { _, _ in true },
                protectionClass: @escaping @Sendable (String) -> BackupProtectionClass = { _ in .completeUntilFirstUserAuthentication }) {
        self.init(domain: domain, directory: directory, extraFiles: extraFiles, filter: Self.pathFilter(shouldInclude),
                  protectionClass: protectionClass)
    }

    /// Creates a source over a directory already held open, whose filter
    /// sees each entry of the walk (see ``makeFilter``).
    public init(domain: String, directory: DirectoryHandle, extraFiles: [BackupExtraFile] = [],
                filter: @escaping @Sendable () -> BackupEntryFilter,
                protectionClass: @escaping @Sendable (String) -> BackupProtectionClass = { _ in .completeUntilFirstUserAuthentication }) {
        self.init(domain: domain, root: nil, extraFiles: extraFiles, filter: filter, protectionClass: protectionClass)
        self.directory = directory
    }

    /// A filter that asks `shouldInclude` by path and kind.
    private static func pathFilter(_ shouldInclude: @escaping @Sendable (String, Bool) -> Bool) -> @Sendable () -> BackupEntryFilter {
        { { entry, _ in shouldInclude(entry.path, entry.status.isDirectory) ? .include : .exclude } }
    }
}

/// A domain's answer for one item of its tree: the item as the walk saw it,
/// and the open directory that holds it (to read its attributes by name).
public typealias BackupEntryFilter = (_ entry: TreeEntry, _ parent: FileDescriptor) -> BackupEntryDecision

/// What a domain's filter says of one item.
public enum BackupEntryDecision: Sendable, Hashable {
    /// The item goes into the backup (a directory is entered).
    case include
    /// The item is left out by rule, with all it holds.
    case exclude
    /// The item is left out because it could not be judged, with all it
    /// holds, and listed in ``BackupSummary/skippedFiles`` with why.
    case skip(BackupSkippedFile.Reason, message: String)
}

/// A file of a backup domain whose bytes are in memory rather than on disk.
public struct BackupExtraFile: Sendable, Hashable {
    /// The path inside the domain, `/`-separated, without a leading `/`.
    public var relativePath: String
    /// The file's contents.
    public var contents: Data
    /// The Data Protection class recorded for it.
    public var protectionClass: BackupProtectionClass
    /// The permission bits recorded for it.
    public var permissions: UInt32
    /// The modification time recorded for it.
    public var modificationDate: Date

    /// Creates an in-memory file.
    public init(relativePath: String, contents: Data, protectionClass: BackupProtectionClass = .completeUntilFirstUserAuthentication,
                permissions: UInt32 = 0o644, modificationDate: Date = Date()) {
        self.relativePath = relativePath
        self.contents = contents
        self.protectionClass = protectionClass
        self.permissions = permissions
        self.modificationDate = modificationDate
    }
}

/// A Data Protection class number as backups record it (`ProtectionClass`
/// in MBFile, `CLAS` in the keybag).
public struct BackupProtectionClass: RawRepresentable, Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The class number.
    public var rawValue: Int
    /// Creates a class from its number.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// No class: directories and symbolic links.
    public static let unspecified = BackupProtectionClass(rawValue: 0)
    /// Class A, `NSFileProtectionComplete`.
    public static let complete = BackupProtectionClass(rawValue: 1)
    /// Class B, `NSFileProtectionCompleteUnlessOpen`.
    public static let completeUnlessOpen = BackupProtectionClass(rawValue: 2)
    /// Class C, `NSFileProtectionCompleteUntilFirstUserAuthentication`, the default.
    public static let completeUntilFirstUserAuthentication = BackupProtectionClass(rawValue: 3)
    /// Class D, `NSFileProtectionNone`.
    public static let none = BackupProtectionClass(rawValue: 4)

    /// Orders classes by number.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    /// The class number.
    public var description: String { String(rawValue) }
}
