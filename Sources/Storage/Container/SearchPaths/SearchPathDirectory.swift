/// The directories `NSSearchPathForDirectoriesInDomains` knows, with
/// Foundation's names and raw values (`FileManager.SearchPathDirectory`).
public enum SearchPathDirectory: UInt, CaseIterable, Sendable {
    /// Supported applications (`Applications`).
    case applicationDirectory = 1
    /// Unsupported applications and demonstration versions (`Applications/Demos`).
    case demoApplicationDirectory = 2
    /// Developer applications (`Developer/Applications`).
    case developerApplicationDirectory = 3
    /// System and network administration applications (`Applications/Utilities`).
    case adminApplicationDirectory = 4
    /// Documentation, support and configuration files (`Library`).
    case libraryDirectory = 5
    /// Developer resources (`Developer`).
    case developerDirectory = 6
    /// User home directories (`Users`).
    case userDirectory = 7
    /// Documentation (`Library/Documentation`).
    case documentationDirectory = 8
    /// Documents (`Documents`).
    case documentDirectory = 9
    /// Core services (`System/Library/CoreServices`).
    case coreServiceDirectory = 10
    /// Autosaved documents (`Library/Autosave Information`).
    case autosavedInformationDirectory = 11
    /// The desktop (`Desktop`).
    case desktopDirectory = 12
    /// Discardable cache files (`Library/Caches`).
    case cachesDirectory = 13
    /// Application support files (`Library/Application Support`).
    case applicationSupportDirectory = 14
    /// Downloads (`Downloads`).
    case downloadsDirectory = 15
    /// Input methods (`Library/Input Methods`).
    case inputMethodsDirectory = 16
    /// Movies (`Movies`).
    case moviesDirectory = 17
    /// Music (`Music`).
    case musicDirectory = 18
    /// Pictures (`Pictures`).
    case picturesDirectory = 19
    /// Printer descriptions (`Library/Printers/PPDs`).
    case printerDescriptionDirectory = 20
    /// The public sharing directory (`Public`).
    case sharedPublicDirectory = 21
    /// Preference panes (`Library/PreferencePanes`).
    case preferencePanesDirectory = 22
    /// User scripts for the app (`Library/Application Scripts/<code-signing-id>`).
    case applicationScriptsDirectory = 23
    /// A temporary directory for replacing an item (needs a volume; empty here).
    case itemReplacementDirectory = 99
    /// Every directory where applications can be.
    case allApplicationsDirectory = 100
    /// Every directory where resources can be.
    case allLibrariesDirectory = 101
    /// The trash (`.Trash`).
    case trashDirectory = 102
}

/// The domains to search, with Foundation's raw values
/// (`FileManager.SearchPathDomainMask`).
public struct SearchPathDomainMask: OptionSet, Sendable, Hashable {
    public let rawValue: UInt
    /// Creates a mask from Foundation's raw value.
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// The user's home: on iOS, the app container.
    public static let userDomainMask = SearchPathDomainMask(rawValue: 1)
    /// Items for all users of the machine (`/Library`, `/Applications`).
    public static let localDomainMask = SearchPathDomainMask(rawValue: 2)
    /// Items on the network (`/Network`).
    public static let networkDomainMask = SearchPathDomainMask(rawValue: 4)
    /// The system's own items (`/System`), read-only.
    public static let systemDomainMask = SearchPathDomainMask(rawValue: 8)
    /// All domains.
    public static let allDomainsMask = SearchPathDomainMask(rawValue: 0x0ffff)
}
