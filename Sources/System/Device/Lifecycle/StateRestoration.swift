import Container
import Foundation
import KeyedArchive
import PropertyList

/// The state-preservation helper: an app saves a little state when it goes
/// to the background or terminates, and gets it back at its next launch
/// (as ``LaunchOptions/restoredState``), so a relaunch after the system
/// killed the suspended app looks like a resume.
///
/// The state is one property list in the app's container, at
/// `Library/Saved Application State/<bundle id>.savedState/restorationState.plist`
/// (the directory UIKit uses), written atomically through the container:
/// it is backed up and survives updates like the rest of Library.
public struct StateRestoration: Sendable {
    /// The folder, relative to the container, that holds saved states.
    public static let directory = ContainerDirectory.library.relativePath + "/Saved Application State"

    /// The app's container.
    public let container: AppContainer
    /// The app.
    public let bundleID: String

    /// Creates the helper for an app's container.
    public init(container: AppContainer, bundleID: String) {
        self.container = container
        self.bundleID = bundleID
    }

    /// The container-relative path of the saved state.
    public var relativePath: String { "\(Self.directory)/\(bundleID).savedState/restorationState.plist" }

    /// Saves a property-list value as the state, replacing any earlier one.
    public func save(_ value: PropertyListValue) throws {
        try write(try value.encoded(as: .binary))
    }

    /// Saves an object graph as a keyed archive (`NSKeyedArchiver`), as
    /// UIKit's restoration coder does.
    public func save<T: KeyedArchiveRepresentable>(archiving root: T) throws {
        try write(try KeyedArchiver.archivedData(withRootObject: root))
    }

    /// The saved state as a property list (a keyed archive reads as its
    /// `$objects` dictionary), or nil when none was saved.
    public func restoredState() throws -> PropertyListValue? {
        guard let data = try savedData() else { return nil }
        return try PropertyListValue(data: data)
    }

    /// The saved keyed archive's root object, or nil when none was saved.
    public func restoredObject<T: KeyedArchiveRepresentable>(_ type: T.Type) throws -> T? {
        guard let data = try savedData() else { return nil }
        return try KeyedUnarchiver.unarchive(type, from: data)
    }

    /// Forgets the saved state (as iOS does when the user quits the app).
    public func discard() throws {
        guard container.fileExists(relativePath) else { return }
        try container.removeItem(relativePath)
    }

    private func savedData() throws -> Data? {
        guard container.fileExists(relativePath) else { return nil }
        return try container.read(relativePath)
    }

    private func write(_ data: Data) throws {
        let folder = (relativePath as NSString).deletingLastPathComponent
        if !container.fileExists(folder) { try container.createDirectory(folder) }
        try container.writeAtomically(data, to: relativePath)
    }
}
