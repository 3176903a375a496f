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
