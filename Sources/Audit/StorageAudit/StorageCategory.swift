import Container

/// The parts of an app's storage the audit reports, as Settings › iPhone
/// Storage splits an app: its bundle, and its data by standard directory.
public enum StorageCategory: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    /// The `.app` directory (app size).
    case bundle
    /// `Documents`.
    case documents
    /// `Library`, without `Application Support` and `Caches` (so with `Preferences`).
    case library
    /// `Library/Application Support`.
    case applicationSupport
    /// `Library/Caches`.
    case caches
    /// `tmp`.
    case tmp
    /// The container root itself and anything else directly in it (the
    /// container manager's metadata).
    case home

    /// The category of a container-relative path, from the storage rules
    /// table (`StorageRules.directory(forRelativePath:)`), so the audit and
    /// the rules never disagree about where a directory ends.
    public init(relativePath: String) {
        switch StorageRules.directory(forRelativePath: relativePath) {
        case .bundle: self = .bundle
        case .documents: self = .documents
        case .library, .preferences: self = .library
        case .applicationSupport: self = .applicationSupport
        case .caches: self = .caches
        case .tmp: self = .tmp
        case .home: self = .home
        }
    }

    /// The standard directory the category is named for.
    var containerDirectory: ContainerDirectory {
        switch self {
        case .bundle: .bundle
        case .documents: .documents
        case .library: .library
        case .applicationSupport: .applicationSupport
        case .caches: .caches
        case .tmp: .tmp
        case .home: .home
        }
    }

    /// The place in ``allCases`` (an index for per-category totals).
    var ordinal: Int {
        switch self {
        case .bundle: 0
        case .documents: 1
        case .library: 2
        case .applicationSupport: 3
        case .caches: 4
        case .tmp: 5
        case .home: 6
        }
    }

    /// The rules row that governs the category.
    var rules: DirectoryRules { StorageRules.rules(for: containerDirectory) }

    /// In declaration order: the order of the stacked bar and the JSON.
    public static func < (lhs: StorageCategory, rhs: StorageCategory) -> Bool {
        allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
    }
}
