/// The single table of iOS's per-directory storage rules. Every behaviour of
/// the module (write refusal, backup, update, purge, restore) reads it;
/// `docs/STORAGE-RULES.md` quotes the documentation behind each row.
public enum StorageRules {
    /// The table, one row per directory.
    public static let table: [ContainerDirectory: DirectoryRules] = [
        //                         backedUp kept   purge  restore writable
        .home: rules(true, true, false, false, false),
        .documents: rules(true, true, false, false, true),
        .library: rules(true, true, false, false, true),
        .preferences: rules(true, true, false, false, true),
        .applicationSupport: rules(true, true, false, false, true),
        .caches: rules(false, true, true, true, true),
        .tmp: rules(false, false, true, true, true),
        .bundle: rules(false, false, false, false, false),
    ]

    private static func rules(_ backedUp: Bool, _ kept: Bool, _ purgeable: Bool, _ emptied: Bool, _ writable: Bool) -> DirectoryRules {
        DirectoryRules(backedUp: backedUp, keptAcrossUpdate: kept, purgeableWhenDiskLow: purgeable,
                       emptiedByFullRestore: emptied, writable: writable)
    }

    /// The rules of one directory.
    public static func rules(for directory: ContainerDirectory) -> DirectoryRules {
        // Every case has a row; the fallback is the most restrictive one.
        table[directory] ?? rules(false, false, false, false, false)
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
