import Device
import Foundation
import TerminalText

/// What `install`, `update` and `listapps` print about an app.
struct AppSummary: Encodable {
    var bundleID: String
    var version: String
    var shortVersion: String?
    var name: String?
    var bundlePath: String
    var dataContainer: String
    var groupContainers: [String: String]
    var installed: Date

    init(_ app: InstalledApp) {
        bundleID = app.bundleID
        version = app.version
        shortVersion = app.shortVersion
        name = app.bundle.info.displayName
        bundlePath = app.bundleContainer.path
        dataContainer = app.dataContainerURL.path
        groupContainers = app.groupContainers.mapValues(\.path)
        installed = app.installed
    }

    /// `com.example.notes  1.0 (1)  Notes`: the bundle's strings escaped
    /// (``TerminalText``), so a display name never acts on the terminal.
    var line: String {
        let shown = shortVersion.map { "\($0) (\(version))" } ?? version
        return [bundleID, shown, name ?? ""].filter { !$0.isEmpty }.map(TerminalText.escape).joined(separator: "  ")
    }
}
