import Foundation
import SystemPackage

/// `NSHomeDirectory`, `NSTemporaryDirectory` and
/// `NSSearchPathForDirectoriesInDomains` as an iOS app sees them: the user
/// domain resolves into the app's container, the local, network and system
/// domains into the device's read-only system root, so
/// `.applicationDirectory` in the system domain is `<systemRoot>/Applications`.
///
/// Foundation on Linux answers with XDG directories (`~/.cache`,
/// `~/Documents`) and nothing at all for `.libraryDirectory`; this type never
/// consults the host's home.
public struct SearchPaths: Sendable {
    /// The app's container (the user domain).
    public let container: AppContainer
    /// The device's read-only system directory (the other domains).
    public let systemRoot: URL

    /// Creates search paths for an app on a device.
    public init(container: AppContainer, systemRoot: URL) {
        self.container = container
        self.systemRoot = systemRoot
    }

    /// `NSHomeDirectory()`: the container root, without a trailing slash.
    public func homeDirectory() -> String {
        Self.trimmed(container.root.path)
    }

    /// `NSTemporaryDirectory()`: the container's `tmp`, ending with "/".
    public func temporaryDirectory() -> String {
        homeDirectory() + "/tmp/"
    }

    /// `NSSearchPathForDirectoriesInDomains(directory, mask, expandTilde)`:
    /// the directory in each requested domain, user domain first, then
    /// local, network, system. Without `expandTilde`, user-domain paths start
    /// with `~`. A path is listed once even when two domains share it (on iOS
    /// the local and system domains both keep applications in
    /// `/Applications`); Foundation on Linux repeats such paths.
    public func directories(_ directory: SearchPathDirectory, _ mask: SearchPathDomainMask, expandTilde: Bool) -> [String] {
        var result: [String] = []
        for domain in Domain.allCases where mask.contains(domain.mask) {
            for relative in Self.relativePaths(directory, in: domain) {
                let path = domain == .user
                    ? (expandTilde ? homeDirectory() : "~") + "/" + relative
                    : Self.trimmed(systemRoot.path) + "/" + relative
                if !result.contains(path) { result.append(path) }
            }
        }
        return result
    }

    /// `FileManager.urls(for:in:)`: the directories as file URLs.
    public func urls(for directory: SearchPathDirectory, in mask: SearchPathDomainMask) -> [URL] {
        directories(directory, mask, expandTilde: true).map { URL(fileURLWithPath: $0, isDirectory: true) }
    }

    /// The first URL of a directory in a domain (`FileManager.url(for:in:…)`
    /// without creation), or nil when the domain has none.
    public func url(for directory: SearchPathDirectory, in mask: SearchPathDomainMask = .userDomainMask) -> URL? {
        urls(for: directory, in: mask).first
    }

    /// The container-relative path of a user-domain directory, for the
    /// confined ``AppContainer`` operations (`"Library/Caches"`), or nil.
    public func relativePath(for directory: SearchPathDirectory) -> String? {
        Self.relativePaths(directory, in: .user).first
    }

    /// Whether an app may write at an absolute path: only inside the
    /// container's writable directories, never in the system domains.
    public func isWritable(_ path: String) -> Bool {
        (try? checkWritable(path)) != nil
    }

    /// Throws ``ContainerErrorCode/readOnly`` for a path in the system root
    /// (or anywhere outside the container), and the container's own refusal
    /// for its root and bundle.
    public func checkWritable(_ path: String) throws {
        let standardized = URL(fileURLWithPath: path).standardizedFileURL.path
        let home = Self.trimmed(container.root.standardizedFileURL.path)
        guard standardized.hasPrefix(home + "/") else {
            throw ContainerError(.readOnly, path: path, "cannot write outside the app's container")
        }
        let relative = try ContainerPath(String(standardized.dropFirst(home.count + 1)))
        try container.checkWritable(relative, action: "write")
    }

    private static func trimmed(_ path: String) -> String {
        path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    }
}

/// The search paths as `FilePath`s (swift-system), for code that works with
/// file descriptors and paths rather than URLs.
extension SearchPaths {
    /// `FileManager.urls(for:in:)` as `FilePath`s, tildes expanded.
    public func filePaths(for directory: SearchPathDirectory, in mask: SearchPathDomainMask) -> [FilePath] {
        directories(directory, mask, expandTilde: true).map { FilePath($0) }
    }

    /// The first path of a directory in a domain, or nil when the domain has none.
    public func filePath(for directory: SearchPathDirectory, in mask: SearchPathDomainMask = .userDomainMask) -> FilePath? {
        filePaths(for: directory, in: mask).first
    }

    /// `NSHomeDirectory()` as a `FilePath`.
    public func homeFilePath() -> FilePath { FilePath(homeDirectory()) }

    /// `NSTemporaryDirectory()` as a `FilePath`.
    public func temporaryFilePath() -> FilePath { FilePath(temporaryDirectory()) }
}

extension AppContainer {
    /// The `FilePath` of a standard directory (see ``url(for:)``).
    public func filePath(for directory: ContainerDirectory) -> FilePath {
        FilePath(url(for: directory).path)
    }
}

/// Which directory lives where in each domain. Paths are relative to the
/// domain's base: the container for the user domain, the device's system
/// root for the others. Built after Apple's `sysdir(3)` table; on iOS the
/// system's own applications are in `/Applications`.
extension SearchPaths {
    enum Domain: CaseIterable {
        case user, local, network, system

        var mask: SearchPathDomainMask {
            switch self {
            case .user: .userDomainMask
            case .local: .localDomainMask
            case .network: .networkDomainMask
            case .system: .systemDomainMask
            }
        }

        /// The domain's library directory, relative to its base.
        var library: String {
            switch self {
            case .user, .local: "Library"
            case .network: "Network/Library"
            case .system: "System/Library"
            }
        }

        /// The domain's applications directory, relative to its base.
        var applications: String {
            switch self {
            case .user, .local, .system: "Applications"
            case .network: "Network/Applications"
            }
        }

        var developer: String {
            switch self {
            case .user, .local, .system: "Developer"
            case .network: "Network/Developer"
            }
        }
    }

    /// The relative paths of `directory` in `domain` (most have one or none).
    static func relativePaths(_ directory: SearchPathDirectory, in domain: Domain) -> [String] {
        let library = domain.library
        let everywhere = { (suffix: String) in ["\(library)/\(suffix)"] }
        switch directory {
        case .applicationDirectory: return [domain.applications]
        case .demoApplicationDirectory: return [domain.applications + "/Demos"]
        case .developerApplicationDirectory: return [domain.developer + "/Applications"]
        case .adminApplicationDirectory: return [domain.applications + "/Utilities"]
        case .libraryDirectory: return [library]
        case .developerDirectory: return [domain.developer]
        case .userDirectory:
            switch domain {
            case .local: return ["Users"]
            case .network: return ["Network/Users"]
            case .user, .system: return []
            }
        case .documentationDirectory: return everywhere("Documentation")
        case .coreServiceDirectory: return domain == .system ? ["System/Library/CoreServices"] : []
        case .cachesDirectory: return domain == .network ? [] : everywhere("Caches")
        case .applicationSupportDirectory: return domain == .system ? [] : everywhere("Application Support")
        case .inputMethodsDirectory: return everywhere("Input Methods")
        case .printerDescriptionDirectory: return domain == .user ? [] : everywhere("Printers/PPDs")
        case .preferencePanesDirectory: return everywhere("PreferencePanes")
        case .documentDirectory: return domain == .user ? ["Documents"] : []
        case .autosavedInformationDirectory: return domain == .user ? ["Library/Autosave Information"] : []
        case .desktopDirectory: return domain == .user ? ["Desktop"] : []
        case .downloadsDirectory: return domain == .user ? ["Downloads"] : []
        case .moviesDirectory: return domain == .user ? ["Movies"] : []
        case .musicDirectory: return domain == .user ? ["Music"] : []
        case .picturesDirectory: return domain == .user ? ["Pictures"] : []
        case .sharedPublicDirectory: return domain == .user ? ["Public"] : []
        case .applicationScriptsDirectory: return domain == .user ? ["Library/Application Scripts"] : []
        case .trashDirectory: return domain == .user ? [".Trash"] : []
        case .itemReplacementDirectory: return []
        case .allApplicationsDirectory:
            return [.applicationDirectory, .adminApplicationDirectory, .developerApplicationDirectory, .demoApplicationDirectory]
                .flatMap { relativePaths($0, in: domain) }
        case .allLibrariesDirectory:
            return [.libraryDirectory, .developerDirectory].flatMap { relativePaths($0, in: domain) }
        }
    }
}
