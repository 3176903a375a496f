/// The directories of an app's home, with iOS's rules (see ``StorageRules``).
public enum ContainerDirectory: String, CaseIterable, Sendable {
    /// The container root (`NSHomeDirectory()`); apps may not write here.
    case home
    /// `Documents/`: user data, backed up.
    case documents
    /// `Library/`: app data that is not the user's, backed up.
    case library
    /// `Library/Preferences/`: the defaults system's files.
    case preferences
    /// `Library/Caches/`: re-creatable data, not backed up, purgeable.
    case caches
    /// `Library/Application Support/`: app-created support files, backed up.
    case applicationSupport
    /// `tmp/`: temporary files, not backed up, purgeable.
    case tmp
    /// The signed, read-only app bundle (`<Name>.app`).
    case bundle

    /// The path relative to the container root: `""`, `"Documents"`,
    /// `"Library"`, `"Library/Preferences"`, `"Library/Caches"`,
    /// `"Library/Application Support"`, `"tmp"`.
    ///
    /// The bundle's name depends on the app, so ``bundle`` gives `""` here;
    /// ask ``AppContainer/url(for:)`` or ``AppContainer/bundleURL``.
    public var relativePath: String {
        switch self {
        case .home, .bundle: ""
        case .documents: "Documents"
        case .library: "Library"
        case .preferences: "Library/Preferences"
        case .caches: "Library/Caches"
        case .applicationSupport: "Library/Application Support"
        case .tmp: "tmp"
        }
    }

    /// The directories created in a new app container, parents first.
    static let layout: [ContainerDirectory] = [.documents, .library, .preferences, .caches, .applicationSupport, .tmp]

    /// The directories a container of `layout` has from its creation,
    /// parents first, and gets again after a restore.
    public static func layout(of layout: ContainerLayout) -> [ContainerDirectory] {
        switch layout {
        case .app: Self.layout
        case .group: [.library, .preferences, .caches]
        }
    }
}
