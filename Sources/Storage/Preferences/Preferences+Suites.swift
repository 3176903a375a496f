import Container
import Foundation

extension Preferences {
    /// The preferences of an app group (`UserDefaults(suiteName:)`): the
    /// domain `suiteName` in the shared group container at `groupContainer`,
    /// stored at `Library/Preferences/<suiteName>.plist` there, so the app
    /// and its extensions read and write one domain.
    ///
    /// The search list is the argument domain, the suite, the global domain
    /// (from `globalDomainFile`, if given), then the registration domain.
    ///
    /// - Throws: ``PreferencesError`` `.invalidDomainName` for an empty name,
    ///   one with `/`, `NSGlobalDomain`, or `applicationIdentifier` (the
    ///   app's own domain, which Foundation also refuses as a suite).
    public convenience init(suiteName: String, groupContainer: URL, applicationIdentifier: String? = nil,
                            globalDomainFile: URL? = nil, configuration: Configuration = .init()) throws {
        try Self.checkSuiteName(suiteName, applicationIdentifier: applicationIdentifier)
        let file = groupContainer.appendingPathComponent(ContainerDirectory.preferences.relativePath, isDirectory: true)
            .appendingPathComponent(suiteName + ".plist")
        try self.init(domainFile: file, globalDomainFile: globalDomainFile, homeDirectory: groupContainer,
                      configuration: configuration)
    }

    /// Refuses names that cannot be a suite: empty, a path, the global
    /// domain, or the app's own domain (Foundation refuses that one too).
    static func checkSuiteName(_ suiteName: String, applicationIdentifier: String?) throws {
        guard !suiteName.isEmpty, !suiteName.contains("/"), !suiteName.hasPrefix("."),
              suiteName != globalDomainName, suiteName != applicationIdentifier else {
            throw PreferencesError(.invalidDomainName, path: suiteName,
                                   "'\(suiteName)' cannot name a suite (empty, a path, the global domain or the app's own domain)")
        }
    }
}
