import Container
import Foundation

extension Preferences {
    /// An app's preferences in its container, the normal way to open them:
    /// the domain `Library/Preferences/<bundle id>.plist`, read and replaced
    /// atomically through the container's confined file API (so its writes
    /// count in ``AppContainer/bytesWritten``), locked with the container's
    /// lock file. `~` in stored file URLs stands for the container root.
    ///
    /// - Parameters:
    ///   - container: The app's data container.
    ///   - bundleIdentifier: The domain name; by default the
    ///     `CFBundleIdentifier` of the container's app bundle.
    ///   - globalDomainFile: The device's global domain
    ///     (`.GlobalPreferences.plist`), read-only for the app, if any.
    /// - Throws: ``PreferencesError`` `.invalidDomainName` when no bundle
    ///   identifier is given and the bundle has none to read.
    public convenience init(container: AppContainer, bundleIdentifier: String? = nil, globalDomainFile: URL? = nil,
                            configuration: Configuration = .init()) throws {
        let domain = try bundleIdentifier ?? Self.bundleIdentifier(of: container)
        try Self.checkDomainName(domain)
        self.init(primary: ContainerDomainStorage(container: container, relativePath: Self.domainPath(domain)),
                  global: globalDomainFile.map { FileDomainStorage(path: $0.standardizedFileURL.path) },
                  homeDirectory: container.root.standardizedFileURL.path, configuration: configuration)
    }

    /// The preferences of an app group (`UserDefaults(suiteName:)`) in its
    /// shared group container: `Library/Preferences/<suiteName>.plist`,
    /// written through the container's file API. Names are checked as by
    /// ``init(suiteName:groupContainer:applicationIdentifier:globalDomainFile:configuration:)``.
    public convenience init(suiteName: String, groupContainer: AppContainer, applicationIdentifier: String? = nil,
                            globalDomainFile: URL? = nil, configuration: Configuration = .init()) throws {
        try Self.checkSuiteName(suiteName, applicationIdentifier: applicationIdentifier)
        self.init(primary: ContainerDomainStorage(container: groupContainer, relativePath: Self.domainPath(suiteName)),
                  global: globalDomainFile.map { FileDomainStorage(path: $0.standardizedFileURL.path) },
                  homeDirectory: groupContainer.root.standardizedFileURL.path, configuration: configuration)
    }

    /// `Library/Preferences/<domain>.plist`.
    static func domainPath(_ domain: String) -> String {
        ContainerDirectory.preferences.relativePath + "/" + domain + ".plist"
    }

    private static func bundleIdentifier(of container: AppContainer) throws -> String {
        guard let bundleURL = container.bundleURL else {
            throw PreferencesError(.invalidDomainName, path: container.root.path,
                                   "the container has no app bundle to take the bundle identifier from; pass one")
        }
        do {
            return try AppBundle(at: bundleURL).info.identifier
        } catch {
            throw PreferencesError(.invalidDomainName, path: bundleURL.path, "cannot read the bundle identifier").caused(by: error)
        }
    }

    /// A domain name must be one file name in `Library/Preferences`.
    static func checkDomainName(_ domain: String) throws {
        guard !domain.isEmpty, !domain.contains("/"), !domain.hasPrefix("."), !domain.contains("\0") else {
            throw PreferencesError(.invalidDomainName, path: domain, "'\(domain)' cannot name a preferences domain")
        }
    }
}
