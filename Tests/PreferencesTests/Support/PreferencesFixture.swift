import Container
import Foundation
import Preferences
import PropertyList
import TestSupport

/// An app's preferences directory in a temporary directory, and stores on it.
struct PreferencesFixture {
    static let bundleIdentifier = "com.example.app"

    let directory: TemporaryDirectory
    /// The app's container, rooted at `directory`.
    let container: AppContainer

    init() throws {
        directory = try TemporaryDirectory()
        container = try AppContainer.create(at: directory.url)
    }

    /// The `prefs-stress-writer` options naming the app domain in the container.
    var writerDomainArguments: [String] {
        ["--container", directory.url.path, "--domain", Self.bundleIdentifier]
    }

    /// `Library/Preferences` of the app.
    var preferencesDirectory: URL { directory.url.appendingPathComponent("Library/Preferences", isDirectory: true) }
    /// The app domain's file.
    var domainFile: URL { preferencesDirectory.appendingPathComponent("\(Self.bundleIdentifier).plist") }
    /// The global domain's file.
    var globalFile: URL { preferencesDirectory.appendingPathComponent(Preferences.globalDomainFileName) }

    /// A store on the app domain, opened the way an app opens it: through
    /// its container. Unless `shared`, it has a domain of its own, as a
    /// store in another process would.
    func open(arguments: [String] = [], coalescingDelay: TimeInterval? = nil, shared: Bool = false,
              observationInterval: TimeInterval = 0.02) throws -> Preferences {
        try Preferences(container: container, bundleIdentifier: Self.bundleIdentifier, globalDomainFile: globalFile,
                        configuration: .init(arguments: arguments, coalescingDelay: coalescingDelay,
                                             observationInterval: observationInterval, sharesDomainsInProcess: shared))
    }

    /// The app domain's file decoded, or `nil` if there is none.
    func fileContents(_ url: URL? = nil) throws -> PropertyListValue? {
        guard let bytes = FileManager.default.contents(atPath: (url ?? domainFile).path) else { return nil }
        return try PropertyListValue(data: bytes)
    }

    /// Writes `value` to `url` in `format`, as another tool would.
    func writeFile(_ value: PropertyListValue, to url: URL, format: PropertyListFormat = .binary) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try value.encoded(as: format).write(to: url)
    }
}
