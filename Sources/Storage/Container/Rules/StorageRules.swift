/// The single table of iOS's per-directory storage rules. Every behaviour of
/// the module (write refusal, backup, update, purge, restore) reads it;
/// `docs/STORAGE-RULES.md` quotes the documentation behind each row.
///
/// Two layouts have rows: an app's data container (``table``) and an app
/// group's shared container (``groupTable``).
public enum StorageRules {
    /// The table of an app's data container, one row per directory.
    public static let table: [ContainerDirectory: DirectoryRules] = [
        //                         backedUp kept   purge  restore writable boot
        .home: rules(true, true, false, false, false, false),
        .documents: rules(true, true, false, false, true, false),
        .library: rules(true, true, false, false, true, false),
        .preferences: rules(true, true, false, false, true, false),
        .applicationSupport: rules(true, true, false, false, true, false),
        .caches: rules(false, true, true, true, true, false),
        .tmp: rules(false, false, true, true, true, true),
        .bundle: rules(false, false, false, false, false, false),
    ]

    /// The table of an app group's container (`containerURL(forSecurityApplicationGroupIdentifier:)`).
    /// iOS makes `Library`, `Library/Caches` and `Library/Preferences`
    /// there; everything else the apps put at its top is theirs (writable
    /// and backed up), a `tmp` folder included only in name: iOS backs up
    /// neither Caches nor tmp of a group, and the cleaner purges both.
    /// No row for Documents, Application Support or a bundle: a group has
    /// none, and a folder of those names is the apps' own.
    public static let groupTable: [ContainerDirectory: DirectoryRules] = [
        //                         backedUp kept   purge  restore writable boot
        .home: rules(true, true, false, false, true, false),
        .library: rules(true, true, false, false, true, false),
        .preferences: rules(true, true, false, false, true, false),
        .caches: rules(false, true, true, true, true, false),
        .tmp: rules(false, true, true, true, true, false),
    ]

    /// The table of `layout`.
    public static func table(of layout: ContainerLayout) -> [ContainerDirectory: DirectoryRules] {
        switch layout {
        case .app: table
        case .group: groupTable
        }
    }

    /// The rules of one directory of `layout`.
    public static func rules(for directory: ContainerDirectory, in layout: ContainerLayout) -> DirectoryRules {
        // A directory without a row (a group has no bundle) gets the most
        // restrictive rules.
        table(of: layout)[directory] ?? rules(false, false, false, false, false, false)
    }

    /// The directory of `layout` whose rules govern a container-relative
    /// path (see ``directory(forRelativePath:)``; a group has no bundle,
    /// Documents or Application Support, so those names fall to the row
    /// above them).
    public static func directory(forRelativePath path: String, in layout: ContainerLayout) -> ContainerDirectory {
        let directory = directory(forRelativePath: path)
        guard layout == .group else { return directory }
        switch directory {
        case .bundle, .documents: return .home
        case .applicationSupport: return .library
        case .home, .library, .preferences, .caches, .tmp: return directory
        }
    }

    /// The directories of `layout` whose rule `rule` holds, in the order of
    /// ``ContainerDirectory/allCases``.
    public static func directories(where rule: KeyPath<DirectoryRules, Bool>, in layout: ContainerLayout) -> [ContainerDirectory] {
        ContainerDirectory.allCases.filter { table(of: layout)[$0]?[keyPath: rule] == true }
    }

    // MARK: A full restore

    /// Whether a full restore brings back the backup's item at `path` in a
    /// container of `layout`: the root, and what lies in a writable row
    /// that a full restore does not empty (so not Caches, tmp, the bundle,
    /// an app's top, nor the container manager's files at a group's top).
    public static func restoreBringsBack(_ path: String, in layout: ContainerLayout) -> Bool {
        if path.isEmpty { return true }
        if !path.contains("/") && path.hasPrefix(".com.apple.") { return false }
        let rules = rules(for: directory(forRelativePath: path, in: layout), in: layout)
        return rules.writable && !rules.emptiedByFullRestore
    }

    /// Whether a full restore replaces the container's top-level entry
    /// `name` with the backup's (removing it when the backup has none):
    /// an entry in a writable row, but not the container manager's files.
    /// An app's Documents, Library and tmp are; its bundle and other names
    /// at its top are not. Everything at a group's top is.
    public static func restoreReplaces(topLevel name: String, in layout: ContainerLayout) -> Bool {
        !name.hasPrefix(".com.apple.") && rules(for: directory(forRelativePath: name, in: layout), in: layout).writable
    }

    /// The top-level directory of `layout` a restore may stage its files in:
    /// one it empties anyway (an app's `tmp`), or nil when there is none.
    public static func restoreStagingDirectory(in layout: ContainerLayout) -> ContainerDirectory? {
        ContainerDirectory.layout(of: layout).first { directory in
            !directory.relativePath.contains("/") && rules(for: directory, in: layout).emptiedByFullRestore
        }
    }

    private static func rules(_ backedUp: Bool, _ kept: Bool, _ purgeable: Bool, _ emptied: Bool, _ writable: Bool,
                              _ boot: Bool) -> DirectoryRules {
        DirectoryRules(backedUp: backedUp, keptAcrossUpdate: kept, purgeableWhenDiskLow: purgeable,
                       emptiedByFullRestore: emptied, writable: writable, emptiedAtBoot: boot)
    }

    /// The directories whose rule `rule` holds, in the order of
    /// ``ContainerDirectory/allCases`` (so `Library/Caches` before `tmp`).
    /// Purge empties those ``DirectoryRules/purgeableWhenDiskLow`` names,
    /// boot those ``DirectoryRules/emptiedAtBoot`` names: the table, not
    /// the caller, says which they are.
    public static func directories(where rule: KeyPath<DirectoryRules, Bool>) -> [ContainerDirectory] {
        directories(where: rule, in: .app)
    }

    /// The rules of one directory.
    public static func rules(for directory: ContainerDirectory) -> DirectoryRules {
        rules(for: directory, in: .app)
    }

    /// The directory whose rules govern a container-relative path: the
    /// longest standard directory that contains it. A first component ending
    /// in `.app` is the bundle; anything else at the root is ``ContainerDirectory/home``.
    public static func directory(forRelativePath path: String) -> ContainerDirectory {
        let components = path.split(separator: "/", omittingEmptySubsequences: true)
        guard let first = components.first else { return .home }
        if first.hasSuffix(".app") { return .bundle }
        switch first {
        case "Documents": return .documents
        case "tmp": return .tmp
        case "Library":
            guard components.count > 1 else { return .library }
            switch components[1] {
            case "Preferences": return .preferences
            case "Caches": return .caches
            case "Application Support": return .applicationSupport
            default: return .library
            }
        default: return .home
        }
    }

    /// Rules governing a relative path (longest matching directory prefix;
    /// the root and the bundle are handled).
    public static func rules(forRelativePath path: String) -> DirectoryRules {
        rules(for: directory(forRelativePath: path))
    }
}
