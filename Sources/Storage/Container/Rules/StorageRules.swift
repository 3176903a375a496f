/// The single table of iOS's per-directory storage rules. Every behaviour of
/// the module (write refusal, backup, update, purge, restore) reads it;
/// `docs/STORAGE-RULES.md` quotes the documentation behind each row.
public enum StorageRules {
    /// The table, one row per directory.
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
        ContainerDirectory.allCases.filter { rules(for: $0)[keyPath: rule] }
    }

    /// The rules of one directory.
    public static func rules(for directory: ContainerDirectory) -> DirectoryRules {
        // Every case has a row; the fallback is the most restrictive one.
        table[directory] ?? rules(false, false, false, false, false, false)
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
